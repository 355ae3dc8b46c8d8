#!/bin/sh
# Makes src/bindings.rs again from the public header (commit the result);
# BINDINGS=FILE writes elsewhere (the tests compare the two).
# Needs bindgen and libclang: apt-get install bindgen libclang1-14 (or point
# LIBCLANG_PATH at a folder holding libclang.so).
set -eu
cd "$(dirname "$0")"
bindgen wrapper.h --allowlist-type 'segue_.*' --allowlist-var 'SEGUE_.*' --no-doc-comments \
    -o "${BINDINGS:-src/bindings.rs}" -- -I "${SEGUE_INCLUDE:-../../Sources/AnimatorABI/include}"
