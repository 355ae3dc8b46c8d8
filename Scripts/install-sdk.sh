#!/bin/sh
# Installs the Segue animator SDK under a prefix: the C headers
# (PREFIX/include/segue_animator.h and PREFIX/include/segue/*.h, libsegue's
# segue/embed.h among them), its Rust bindings
# (PREFIX/share/segue/rust/bindings.rs), the Makefile fragment plugins build
# and install with (PREFIX/share/segue/segue-plugin.mk), `segue new`'s
# starters (PREFIX/share/segue/templates) and pkg-config files
# (PREFIX/lib/pkgconfig/segue-animator.pc, and segue.pc for programs that link
# libsegue, which Scripts/install.sh installs), so that
#   cc $(pkg-config --cflags segue-animator) -shared -fPIC -o libX.so x.c
# works from any folder, a plugin's Makefile can
#   include $(pkg-config --variable=makefile segue-animator)
# and install itself into
#   $(pkg-config --variable=plugindir segue-animator)   (the installation's folder)
# or the user's ${XDG_DATA_HOME:-$HOME/.local/share}/segue/plugins.
# Scripts/install.sh installs it with everything else.
# Usage: Scripts/install-sdk.sh [PREFIX]  (default /usr/local)
set -eu
prefix=${1:-/usr/local}
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
include="$root/Sources/AnimatorABI/include"
major=$(sed -n 's/^#define SEGUE_ABI_VERSION_MAJOR \([0-9][0-9]*\).*/\1/p' "$include/segue/version.h")
minor=$(sed -n 's/^#define SEGUE_ABI_VERSION_MINOR \([0-9][0-9]*\).*/\1/p' "$include/segue/version.h")
[ -n "$major" ] && [ -n "$minor" ] || { echo "install-sdk: cannot read the ABI version from $include/segue/version.h" >&2; exit 1; }
mkdir -p "$prefix/include/segue" "$prefix/lib/pkgconfig"
cp "$include/segue_animator.h" "$prefix/include/"
cp "$include"/segue/*.h "$prefix/include/segue/"
embed="$root/Sources/EmbedABI/include"
cp "$embed/segue/embed.h" "$embed/segue/segue.hpp" "$prefix/include/segue/"
api_major=$(sed -n 's/^#define SEGUE_API_VERSION_MAJOR \([0-9][0-9]*\).*/\1/p' "$embed/segue/embed.h")
api_minor=$(sed -n 's/^#define SEGUE_API_VERSION_MINOR \([0-9][0-9]*\).*/\1/p' "$embed/segue/embed.h")
[ -n "$api_major" ] && [ -n "$api_minor" ] || { echo "install-sdk: cannot read the API version from $embed/segue/embed.h" >&2; exit 1; }
# The header's Rust bindings (bindgen's, checked current by the tests), for `segue new --lang rust`.
mkdir -p "$prefix/share/segue/rust"
cp "$root/Examples/rust-animator/src/bindings.rs" "$prefix/share/segue/rust/bindings.rs"
# The Makefile fragment (it finds the header in ../../include) and the starters `segue new` copies.
cp "$root/SDK/segue-plugin.mk" "$prefix/share/segue/"
rm -rf "$prefix/share/segue/templates"
cp -R "$root/SDK/templates" "$prefix/share/segue/templates"
cat > "$prefix/lib/pkgconfig/segue-animator.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib
# The installation's plugin folder, searched by every user's segue.
plugindir=\${libdir}/segue/plugins
# The Makefile fragment that builds and installs a plugin: include it.
makefile=\${prefix}/share/segue/segue-plugin.mk

Name: segue-animator
Description: The C ABI of Segue animator plugins (header only; plugins link no Segue library)
Version: $major.$minor
Cflags: -I\${includedir}
# What a plugin links itself: the maths library its animators' sin and exp come from.
Libs: -lm
PC
cat > "$prefix/lib/pkgconfig/segue.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib
# The worker libsegue runs plugin code in, and the installation's plugin folder.
workerdir=\${prefix}/libexec/segue
plugindir=\${libdir}/segue/plugins

Name: segue
Description: libsegue: play Segue view-transition animators on your own views, sandboxed
Version: $api_major.$api_minor
Cflags: -I\${includedir}
# The run path finds libsegue.so.1 under a prefix the loader does not search (~/.local, /opt).
Libs: -L\${libdir} -lsegue -Wl,-rpath,\${libdir}
PC
echo "installed the Segue animator SDK (ABI $major.$minor) under $prefix"
echo "  export PKG_CONFIG_PATH=\"$prefix/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\""
