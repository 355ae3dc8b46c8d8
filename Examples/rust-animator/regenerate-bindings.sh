#!/bin/sh
# Makes src/bindings.rs again from the public header (commit the result).
# Needs bindgen and libclang: apt-get install bindgen libclang1-14 (or point
# LIBCLANG_PATH at a folder holding libclang.so).
set -eu
cd "$(dirname "$0")"
bindgen wrapper.h --allowlist-type 'segue_.*' --allowlist-var 'SEGUE_.*' --no-doc-comments \
    -o src/bindings.rs -- -I "${SEGUE_INCLUDE:-../../Sources/AnimatorABI/include}"
