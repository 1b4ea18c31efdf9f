#!/usr/bin/env bash
# `make check-kernels`: kgames.ko built for every supported kernel and the in-VM suite run on
# each: Debian's stock 7.2.12 and 7.3.4 (trixie-backports) and the test kernel. One VM at a
# time; the last line is "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
log=out/check-kernels.log
. "$here/tally.sh"
unset KGAMES_KERNEL

run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
run "tools: the user tools and the in-VM test binary" make -s tools
for k in debian-7.2 debian-7.3; do
    run "setup: Debian's stock kernel $k, its Rust metadata regenerated" bash scripts/debian-kernel.sh "$k"
    if run "module: kgames.ko for $k (rustc 1.85.1, gcc-14, no warning)" bash scripts/module-build.sh "$k"; then
        vm_suite "$k"
    fi
done
if run "module: kgames.ko for the test kernel" env KRUSTFLAGS=-Dwarnings bash scripts/module-build.sh test; then
    vm_suite test
fi
finish check-kernels
