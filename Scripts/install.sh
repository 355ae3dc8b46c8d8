#!/bin/sh
# Installs Segue under a prefix, or uninstalls it.
#
#   Scripts/install.sh                  # under ~/.local (no root needed)
#   Scripts/install.sh --system         # under /usr/local
#   Scripts/install.sh --prefix DIR     # under DIR
#   Scripts/install.sh --uninstall [--prefix DIR | --system]
#   Scripts/install.sh --from BUILD_DIR # install what is already built there
#                                       # (default: a release build, made now)
#
# Installs:
#   bin/segue                          the tool
#   libexec/segue/segue-worker         the process plugin code runs in
#   lib/segue/plugins/lib*.so          the bundled animators (the system plugin folder)
#   include/segue_animator.h, include/segue/*.h, lib/pkgconfig/segue-animator.pc,
#   share/segue/segue-plugin.mk, share/segue/templates/, share/segue/rust/
#                                      the SDK (Scripts/install-sdk.sh)
#   lib/libsegue.so.1, lib/libsegue.so, include/segue/embed.h, include/segue/segue.hpp (its C++ wrapper),
#   lib/pkgconfig/segue.pc
#                                      libsegue, for programs that play animators
#                                      (cc app.c $(pkg-config --cflags --libs segue))
#   lib/segue/runtime/*.so             the Swift runtime libsegue and the worker need
#   lib/segue/python/segue/            the segue Python package over libsegue
#                                      (PYTHONPATH=PREFIX/lib/segue/python; or
#                                      pip install ./Integrations/python)
#   share/man/man1/segue.1             the man page
#   share/bash-completion/completions/segue, share/zsh/site-functions/_segue,
#   share/fish/vendor_completions.d/segue.fish
#                                      completions, from 'segue completions SHELL'
#   share/segue/install-manifest       what was installed, for --uninstall
# The programs use the Swift runtime of the toolchain that built them.
set -eu

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; }

prefix="$HOME/.local"
from=""
action=install
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install: --prefix needs a folder" >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --system) prefix=/usr/local; shift ;;
        --from) [ $# -ge 2 ] || { echo "install: --from needs a build folder" >&2; exit 2; }; from=$2; shift 2 ;;
        --from=*) from=${1#--from=}; shift ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
manifest="$prefix/share/segue/install-manifest"

if [ "$action" = uninstall ]; then
    [ -f "$manifest" ] || { echo "install: nothing to uninstall: $manifest does not exist" >&2; exit 1; }
    while IFS= read -r file; do
        [ -n "$file" ] && rm -f "$prefix/$file"
    done < "$manifest"
    rm -f "$manifest"
    # Folders only Segue uses go if empty; shared ones (bin, share/man...) stay.
    [ -d "$prefix/share/segue/templates" ] && find "$prefix/share/segue/templates" -depth -type d -empty -delete
    for folder in share/segue/rust share/segue lib/segue/plugins lib/segue/runtime lib/segue libexec/segue include/segue; do
        rmdir "$prefix/$folder" 2>/dev/null || true
    done
    echo "uninstalled Segue from $prefix"
    exit 0
fi

root=$(cd "$(dirname "$0")/.." && pwd)
# One list: what is built is what is copied. The bundled animators, then the
# products that are not plugins (the file each product builds: built_file).
plugins="SpringSlide CurlUp ImageZoom Pop"
products="segue segue-worker $plugins SegueEmbedding"
built_file() { case "$1" in segue|segue-worker) echo "$1" ;; *) echo "lib$1.so" ;; esac; }
if [ -z "$from" ]; then
    cd "$root"
    for product in $products; do
        swift build -c release --product "$product"
    done
    from=$(swift build -c release --show-bin-path)
fi
for product in $products; do
    built=$(built_file "$product")
    [ -f "$from/$built" ] || { echo "install: $from/$built is missing: build it first, or leave out --from" >&2; exit 1; }
done

installed=$(mktemp)
trap 'rm -f "$installed"' EXIT
# put SOURCE RELATIVE-DESTINATION MODE: copies beside it, then renames, so a
# running segue never sees a half-written file.
put() {
    mkdir -p "$(dirname "$prefix/$2")"
    cp "$1" "$prefix/$2.installing"
    chmod "$3" "$prefix/$2.installing"
    mv -f "$prefix/$2.installing" "$prefix/$2"
    echo "$2" >> "$installed"
}

put "$from/segue" bin/segue 755
put "$from/segue-worker" libexec/segue/segue-worker 755
for plugin in $plugins; do
    put "$from/lib$plugin.so" "lib/segue/plugins/lib$plugin.so" 755
done
put "$root/docs/segue.1" share/man/man1/segue.1 644

# libsegue, by its SONAME, with the link programs are built against.
put "$from/libSegueEmbedding.so" lib/libsegue.so.1 755
ln -sf libsegue.so.1 "$prefix/lib/libsegue.so"
echo lib/libsegue.so >> "$installed"
# The Swift runtime libsegue and the worker load (their RUNPATH names lib/segue/runtime), so that a
# program linking libsegue needs no Swift toolchain.
ldd "$from/libSegueEmbedding.so" "$from/segue-worker" | awk '$3 ~ /\/lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)[^\/]*\.so/ { print $3 }' | sort -u |
while IFS= read -r library; do
    put "$library" "lib/segue/runtime/$(basename "$library")" 644
done

# The Python package, beside libsegue's runtime: it finds libsegue two folders up. py.typed (PEP 561)
# tells type checkers its annotations are its types.
for module in "$root"/Integrations/python/segue/*.py "$root"/Integrations/python/segue/py.typed; do
    put "$module" "lib/segue/python/segue/$(basename "$module")" 644
done

completions=$(mktemp -d)
trap 'rm -f "$installed"; rm -rf "$completions"' EXIT
"$prefix/bin/segue" completions bash > "$completions/segue"
"$prefix/bin/segue" completions zsh > "$completions/_segue"
"$prefix/bin/segue" completions fish > "$completions/segue.fish"
put "$completions/segue" share/bash-completion/completions/segue 644
put "$completions/_segue" share/zsh/site-functions/_segue 644
put "$completions/segue.fish" share/fish/vendor_completions.d/segue.fish 644

sh "$root/Scripts/install-sdk.sh" "$prefix" > /dev/null
echo include/segue_animator.h >> "$installed"
for header in "$root"/Sources/AnimatorABI/include/segue/*.h; do
    echo "include/segue/$(basename "$header")" >> "$installed"
done
echo include/segue/embed.h >> "$installed"
echo include/segue/segue.hpp >> "$installed"
echo lib/pkgconfig/segue-animator.pc >> "$installed"
echo lib/pkgconfig/segue.pc >> "$installed"
echo share/segue/rust/bindings.rs >> "$installed"
echo share/segue/segue-plugin.mk >> "$installed"
(cd "$root/SDK" && find templates -type f) | sed 's|^|share/segue/|' >> "$installed"

mkdir -p "$(dirname "$manifest")"
sort -u "$installed" > "$manifest"
echo "installed Segue under $prefix:"
echo "  $prefix/bin/segue, with the bundled animators in $prefix/lib/segue/plugins"
echo "  your own plugins go in \${XDG_DATA_HOME:-~/.local/share}/segue/plugins"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "  add $prefix/bin to PATH to run segue by name" ;; esac
echo "  Python: PYTHONPATH=$prefix/lib/segue/python python3 -c 'import segue'"
