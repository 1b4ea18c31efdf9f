#!/usr/bin/env bash
# The build command of dkms.conf: kgames.ko for one installed kernel.
#   dkms-build.sh KERNELRELEASE HEADERS     (DKMS passes ${kernelver} ${kernel_source_dir})
# Run in the module's source folder (DKMS's build copy). A kernel whose headers carry the Rust
# metadata (rust/libkernel.rmeta: Arch's linux-headers, Ubuntu's linux-lib-rust) is built
# against directly, by the rustc and bindgen the kernel's .config names (others are refused);
# otherwise the metadata is regenerated once per kernel from the matching kernel source
# (Debian: the linux-source-X.Y package, /usr/src/linux-source-X.Y.tar.xz) into
# $KGAMES_DKMS_CACHE/RELEASE (default /var/cache/kgames) by scripts/rust-metadata.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# = 2 ] || die "usage: dkms-build.sh KERNELRELEASE HEADERS"
release=$1 headers=$2
[ -f "$headers/.config" ] || die "no headers for Linux $release at $headers (Debian: install linux-headers-$release)"
grep -q '^CONFIG_RUST=y' "$headers/.config" || die "Linux $release is built without CONFIG_RUST: kgames.ko cannot load into it"
llvm=()
grep -q '^CONFIG_CC_IS_CLANG=y' "$headers/.config" && llvm=(LLVM=1)
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$headers/.config")

if [ -f "$headers/rust/libkernel.rmeta" ]; then
    # The headers carry the Rust metadata (Arch's linux-headers, Ubuntu's linux-lib-rust): built
    # against directly, by the kernel's own rustc (the metadata is that compiler's) and, where
    # the kernel records one and this machine has one, its bindgen.
    want=$(sed -n 's/^CONFIG_RUSTC_VERSION_TEXT="\(.*\)"$/\1/p' "$headers/.config")
    have=$(rustc --version 2>/dev/null || echo "no rustc")
    [ -z "$want" ] || [ "$want" = "$have" ] ||
        die "Linux $release was built with '$want'; this machine's rustc is '$have': its Rust metadata cannot be used (install that rustc)"
    want=$(sed -n 's/^CONFIG_BINDGEN_VERSION_TEXT="\(.*\)"$/\1/p' "$headers/.config")
    have=$(bindgen --version 2>/dev/null || true)
    [ -z "$want" ] || [ -z "$have" ] || [ "$want" = "$have" ] ||
        die "Linux $release was built with '$want'; this machine's bindgen is '$have' (install that bindgen)"
    kdir=$headers
else
    series=$(cut -d. -f1,2 <<<"$release")
    cache=${KGAMES_DKMS_CACHE:-/var/cache/kgames}/$release
    tarball=/usr/src/linux-source-$series.tar.xz
    [ -f "$tarball" ] || die "Linux $release's headers lack the Rust metadata and $tarball is missing (Debian: apt install linux-source-$series)"
    if [ ! -e "$cache/src.stamp" ] || [ "$(cat "$cache/src.stamp")" != "$(stat -c %Y "$tarball")" ]; then
        step "unpacking $tarball into $cache (about 15 s)"
        rm -rf "$cache/src" "$cache/src.stamp" && mkdir -p "$cache/src"
        tar -C "$cache/src" -xf "$tarball" --strip-components=1
        stat -c %Y "$tarball" > "$cache/src.stamp"
    fi
    bash "$here/rust-metadata.sh" "$headers" "$cache/src" "$cache/build" "$release"
    kdir=$cache/build
fi
kbuild_ko "$release" "$PWD/kgames.ko" make -C "$kdir" M="$PWD" ${cc:+CC="$cc"} "${llvm[@]}" \
    KERNELRELEASE="$release" modules
