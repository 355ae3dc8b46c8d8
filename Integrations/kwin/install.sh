#!/bin/sh
# Builds the Segue effect for KWin 5.27 (Plasma 5) and installs it where KWin
# finds effects, then switches it on in the running KWin.
#
#   Integrations/kwin/install.sh             # for you, under ~/.local: takes effect at your next login
#   Integrations/kwin/install.sh --system    # for everyone, in Qt's own plugin folder (as root)
#   Integrations/kwin/install.sh --uninstall [--system]
#
# Needs libsegue installed (Scripts/install.sh; its pkg-config file is found
# under ~/.local, /usr/local or PKG_CONFIG_PATH) and Debian's kwin-dev,
# extra-cmake-modules, cmake and g++.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
system=no uninstall=no
for argument in "$@"; do
    case $argument in
    --system) system=yes ;;
    --uninstall) uninstall=yes ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option '$argument' (try --help)" >&2; exit 2 ;;
    esac
done

if [ $system = yes ]; then
    prefix=/usr
    qt_paths=ON
else
    prefix=$HOME/.local
    qt_paths=OFF
fi
env_script=${XDG_CONFIG_HOME:-$HOME/.config}/plasma-workspace/env/segue-kwin.sh
build=${TMPDIR:-/tmp}/segue-kwin-build-$(id -u)
# KWin's own animations of the same moments: opening and closing (Scale, Fade,
# Glide) and minimizing (Squash, Magic Lamp). One plays at a time, as System
# Settings keeps it; uninstalling gives KWin back its defaults.
kwin_own="kwin4_effect_scale kwin4_effect_fade glide kwin4_effect_squash magiclamp"

if [ $uninstall = yes ]; then
    kwriteconfig5 --file kwinrc --group Plugins --key segueEnabled false 2>/dev/null || true
    for effect in $kwin_own; do
        kwriteconfig5 --file kwinrc --group Plugins --key "${effect}Enabled" --delete 2>/dev/null || true
    done
    find "$prefix/lib" -path '*/kwin/effects/plugins/segue.so' -delete 2>/dev/null || true
    [ $system = yes ] || rm -f "$env_script"
    dbus-send --session --dest=org.kde.KWin /KWin org.kde.KWin.reconfigure 2>/dev/null || true
    echo "The Segue effect is uninstalled."
    exit 0
fi

export PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig:/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
if ! pkg-config --exists segue; then
    echo "install.sh: libsegue is not installed: run Scripts/install.sh first" >&2
    exit 1
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DKDE_INSTALL_USE_QT_SYS_PATHS=$qt_paths >/dev/null
cmake --build "$build" -j"$(nproc)"
cmake --install "$build" | grep -v '^-- Up-to-date' || true

if [ $system = no ]; then
    # KWin finds effects among Qt's plugin folders; yours joins them at login.
    plugins=$(find "$prefix/lib" -path '*/kwin/effects/plugins/segue.so' | head -n 1 | sed 's|/kwin/effects/plugins/segue.so$||')
    mkdir -p "$(dirname "$env_script")"
    printf 'export QT_PLUGIN_PATH="%s${QT_PLUGIN_PATH:+:$QT_PLUGIN_PATH}"\n' "$plugins" > "$env_script"
fi
kwriteconfig5 --file kwinrc --group Plugins --key segueEnabled true
for effect in $kwin_own; do
    kwriteconfig5 --file kwinrc --group Plugins --key "${effect}Enabled" false
done
dbus-send --session --dest=org.kde.KWin /KWin org.kde.KWin.reconfigure 2>/dev/null || true
echo "The Segue effect is installed and switched on${system:+}; KWin's own open, close and minimize"
echo "animations (Scale, Fade, Glide, Squash, Magic Lamp) are switched off (--uninstall switches them back)."
[ $system = yes ] || echo "Log out and back in once, so that KWin finds it (see $env_script)."
echo "Pick animators by application id in ${XDG_CONFIG_HOME:-$HOME/.config}/segue/segue.json, e.g.:"
echo '  {"rules": [{"disappear": "org.kde.kcalc", "animator": "CurlUp"}, {"appear": "*", "disappear": "*", "animator": "Pop"}]}'
