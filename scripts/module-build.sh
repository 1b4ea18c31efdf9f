#!/usr/bin/env bash
# Builds kgames.ko for one kernel, warnings fatal; prints the module's path.
#   module-build.sh [KERNEL]     KERNEL: debian-7.3 (default), debian-7.2, or test
# test:      the kernel scripts/kernel-build.sh builds (KDIR if set); kgames.ko in the
#            repository (the in-tree build that `make clippy` and `make rustfmt` use).
# debian-*:  a Debian stock kernel (scripts/debian-kernel.sh), built in the trixie root with the
#            kernel's own compiler (rustc 1.85.1, gcc-14) from a copy of Kbuild and src in
#            out/KERNEL/tree; the module is out/KERNEL/kgames.ko. The build stops, naming the
#            symbol, when the module needs one that the kernel's Module.symvers does not export,
#            and when the vermagic does not name the kernel's release. A failed build leaves no
#            kgames.ko behind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
cd "$repo"

kernel=${1:-debian-7.3}
if [ "$kernel" = test ]; then
    kdir=${KDIR:-$("$here/kernel-build.sh")}
    build_module "$kdir" "$repo" || exit 1
    echo "$repo/kgames.ko"; exit 0
fi
kdir=$("$here/debian-kernel.sh" "$kernel")
release=$("$here/debian-kernel.sh" "$kernel" --release)
dir=$repo/out/$kernel
mkdir -p "$dir"
# Up to date: built after every file of Kbuild and src changed, for this kernel's build and
# its export list (Module.symvers).
if [ -f "$dir/kgames.ko" ] && [ "$dir/kgames.ko" -nt "$kdir/.kgames-prepared" ] &&
   [ "$dir/kgames.ko" -nt "$kdir/Module.symvers" ] &&
   [ -z "$(find Kbuild src -newer "$dir/kgames.ko" -print -quit)" ]; then
    echo "$dir/kgames.ko"; exit 0
fi
step "building kgames.ko for Linux $release (rustc 1.85.1 and gcc-14 in the trixie root)"
build_module_copy "$kdir" "$dir" || exit 1
note "kgames.ko for $release: vermagic '$(modinfo -F vermagic "$dir/kgames.ko")'"
echo "$dir/kgames.ko"
