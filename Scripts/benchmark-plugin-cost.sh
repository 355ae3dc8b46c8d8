#!/bin/sh
# What a plugin whose first setup starts threads that compute forever (the
# test fixture built with ATTEMPT_SPIN_AFTER) costs the program playing it:
# Benchmarks/plugin-cost/plugin_cost.c times a fixed piece of its own work
# once a frame alone, while the plugin's transition plays (slowed to SECONDS)
# and after it, built against libsegue installed from BUILD_DIR into a
# scratch folder. Speed is measured here, never asserted by a test.
#
#   Scripts/benchmark-plugin-cost.sh [--from BUILD_DIR] [--threads N] [--seconds S] [--sandbox strict|off]
#
# BUILD_DIR defaults to .build/release (swift build -c release first).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/.build/release threads=8 seconds=3 sandbox=strict
while [ $# -gt 0 ]; do
    case $1 in
        --from) build=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --sandbox) sandbox=$2; shift 2 ;;
        *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$root/Scripts/install.sh" --from "$build" --prefix "$scratch/prefix" >/dev/null
mkdir "$scratch/plugins"
cc -std=c11 -shared -fPIC -I "$root/Sources/AnimatorABI/include" -DATTEMPT_SPIN_AFTER -DSPIN_THREADS="$threads" -DSPIN_DELAY_US=0 -DATTEMPT_AT=3 \
    -o "$scratch/plugins/libspin.so" "$root/Tests/Fixtures/fixture_plugin.c" -lm
PKG_CONFIG_PATH=$scratch/prefix/lib/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
cc -std=c99 -O2 -o "$scratch/plugin_cost" "$root/Benchmarks/plugin-cost/plugin_cost.c" $(pkg-config --cflags --libs segue)
echo "plugin: $threads threads computing from its first setup on; sandbox $sandbox; $(nproc) processors; ${seconds} s a phase"
SEGUE_SANDBOX=$sandbox "$scratch/plugin_cost" "$scratch/plugins" TestFade "$seconds"
