#!/usr/bin/env bash
# Stack frames of kgames.ko as Debian's 7.3 kernel build compiles it (rustc 1.85.1 with
# -Zemit-stack-sizes in the trixie root, read with llvm-readobj --stack-sizes), and the worst
# case of each CPU search's call chain: the frames live during a search from the write
# trampoline down to the deepest recursion (docs/architecture.md, "Stacks").
#   stack-sizes.sh [--all]   --all also prints every frame of 512 bytes or more
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
cd "$repo"
release=$("$here/debian-kernel.sh" debian-7.3 --release)
kdir=$("$here/debian-kernel.sh" debian-7.3)
dir=$repo/out/stack-sizes
rm -rf "$dir" && mkdir -p "$dir"
step "building kgames.ko for Linux $release with -Zemit-stack-sizes"
# modpost warns about the .stack_sizes section, so the module itself is refused: only the
# object file is read.
{ module_tree "$dir" && build_module "$kdir" "$dir/tree" KRUSTFLAGS="-Dwarnings -Zemit-stack-sizes"; } >"$dir/build.log" 2>&1 || true
[ -f "$dir/tree/src/kgames_main.o" ] || { cat "$dir/build.log" >&2; die "the build failed"; }
"$LLVM_BIN/llvm-readobj" --stack-sizes "$dir/tree/src/kgames_main.o" 2>/dev/null |
    LLVM_BIN=$LLVM_BIN python3 "$here/stack-sizes.py" "${1:-}"
