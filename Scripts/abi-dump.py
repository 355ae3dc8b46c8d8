#!/usr/bin/env python3
"""Writes the ABIs Segue promises, as libabigail's abidw sees them, for abidiff.

  Scripts/abi-dump.py OUT_DIR [SEGUE_ROOT]

- OUT_DIR/animator.abi: the animator ABI, as a plugin built against today's
  header sees it: Examples/c-animator/curve_slide.c built with debug
  information; its one export, segue_animator_entry, reaches every type of
  segue_animator.h (the plugin, its animators, parameters, plans, contexts,
  layer states and the host table).
- OUT_DIR/libsegue.abi: libsegue's C API, as segue/embed.h declares it: every
  function the header declares, built as an empty body with debug
  information (libsegue itself is Swift, whose debug information abidw does
  not read), so that each signature and every type it reaches is recorded.
  OUT_DIR/libsegue.symbols lists the functions, for comparing with what the
  built library exports.

The committed baselines (Tests/ABI/) were written by this script; the tests
write today's and compare them with `abidiff`. A change there fails the
tests; when it is compatible growth (a member at the end of a struct that
carries struct_size, a new function), write the baselines again with this
script and say so in the commit.
"""
import os
import re
import subprocess
import sys
import tempfile


def run(*command):
    subprocess.run(command, check=True)


def declared_functions(header, include_dirs):
    """The prototypes header declares itself, from its preprocessed text (comments gone)."""
    flags = [f"-I{d}" for d in include_dirs]
    text = subprocess.run(["cc", "-E", "-std=c99", *flags, header], check=True, capture_output=True, text=True).stdout
    own, current = [], None
    for line in text.splitlines():
        marker = re.match(r'# \d+ "([^"]+)"', line)
        if marker:
            current = os.path.realpath(marker.group(1))
        elif current == os.path.realpath(header):
            own.append(line)
    prototypes = []
    for chunk in " ".join(own).split(";"):
        chunk = " ".join(chunk.split())
        if "{" in chunk or "}" in chunk or chunk.startswith("typedef"):
            continue
        if re.search(r"\bsegue_[a-z0-9_]+\((?!\*)", chunk):
            prototypes.append(chunk)
    return prototypes


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__), ".."))
    animator = os.path.join(root, "Sources/AnimatorABI/include")
    embed = os.path.join(root, "Sources/EmbedABI/include")
    os.makedirs(out, exist_ok=True)
    dump = ["abidw", "--no-corpus-path", "--no-show-locs", "--no-comp-dir-path", "--no-architecture"]
    with tempfile.TemporaryDirectory() as work:
        plugin = os.path.join(work, "libplugin.so")
        run("cc", "-std=c11", "-g", "-O0", "-shared", "-fPIC", f"-I{animator}", "-o", plugin,
            os.path.join(root, "Examples/c-animator/curve_slide.c"), "-lm")
        run(*dump, "--headers-dir", os.path.join(animator, "segue"), "--header-file", os.path.join(animator, "segue_animator.h"),
            "--out-file", os.path.join(out, "animator.abi"), plugin)

        header = os.path.join(embed, "segue/embed.h")
        prototypes = declared_functions(header, [embed, animator])
        stub = os.path.join(work, "embed_stub.c")
        with open(stub, "w") as f:
            f.write('#include "segue/embed.h"\n')
            for p in prototypes:
                f.write(p + (" {}\n" if p.startswith("void ") else " { return 0; }\n"))
        library = os.path.join(work, "libsegue.so")
        run("cc", "-std=c99", "-g", "-O0", "-shared", "-fPIC", "-Wno-unused-parameter", "-fno-eliminate-unused-debug-types",
            f"-I{embed}", f"-I{animator}", "-Wl,-soname=libsegue.so.1", "-o", library, stub)
        run(*dump, "--headers-dir", os.path.join(embed, "segue"), "--headers-dir", os.path.join(animator, "segue"),
            "--out-file", os.path.join(out, "libsegue.abi"), library)
        names = sorted(re.search(r"\b(segue_[a-z0-9_]+)\(", p).group(1) for p in prototypes)
        with open(os.path.join(out, "libsegue.symbols"), "w") as f:
            f.write("\n".join(names) + "\n")


main()
