#!/usr/bin/env bash
# A kernel headers tree laid out as Arch's linux-headers ships it, made from Debian's stock
# kernel (for the test of `make check` that the build uses headers carrying the Rust metadata
# and regenerates nothing): prints the tree's folder, DEST/usr/lib/modules/RELEASE/build.
#   arch-headers.sh KERNEL DEST      KERNEL: debian-7.3 or debian-7.2
# Debian splits a kernel's headers in three packages (linux-headers-RELEASE: .config,
# Module.symvers, generated headers; linux-headers-...-common: the source's Makefiles and
# headers; linux-kbuild: the built host tools), joined by a two-line Makefile and symbolic
# links. Arch ships one folder that is both the source and the build tree, and, when the
# kernel has CONFIG_RUST=y, the Rust metadata in it: rust/*.rmeta, the proc-macro libraries
# rust/*.so, the generated assembly rust/kernel/generated_arch_*.rs and the target file
# scripts/target.json (what an out-of-tree Rust module's build reads). Here the three parts are joined into one
# folder and the metadata comes from scripts/debian-kernel.sh's regeneration for that kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# = 2 ] || die "usage: arch-headers.sh KERNEL DEST"
kernel=$1 dest=$2
release=$("$here/debian-kernel.sh" "$kernel" --release)
meta=$("$here/debian-kernel.sh" "$kernel")
sys=$KGAMES_CACHE/debian/$release/sys
abi=${release%-amd64}
tree=$dest/usr/lib/modules/$release/build
rm -rf "$tree" && mkdir -p "$tree"
# The source part, then the kernel's own files over it (its Makefile is the source's: one
# folder needs no KBUILD_OUTPUT), then the host tools (scripts/, tools/objtool) built for it.
(cd "$sys/usr/src/linux-headers-$abi-common" && tar -c --exclude=./scripts --exclude=./tools .) | tar -x -C "$tree"
(cd "$sys/usr/src/linux-headers-$release" && tar -c --exclude=./Makefile --exclude=./scripts --exclude=./tools .) | tar -x -C "$tree"
cp -a "$sys/usr/lib/linux-kbuild-$abi/scripts" "$sys/usr/lib/linux-kbuild-$abi/tools" "$tree/"
# The Rust metadata, as Arch's headers carry it.
mkdir -p "$tree/rust/kernel"
cp -a "$meta"/rust/*.rmeta "$meta"/rust/*.so "$tree/rust/"
# The assembly that the kernel crate's macros (warn_on!, static branches) include at build time.
cp -a "$meta"/rust/kernel/generated_arch_*.rs "$tree/rust/kernel/"
cp -a "$meta/scripts/target.json" "$tree/scripts/"
echo "$tree"
