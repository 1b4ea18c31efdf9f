#!/usr/bin/env bash
# A Debian stock kernel in the cache, ready to build kgames.ko against and to boot:
#   debian-kernel.sh NAME [--dir|--release|--boot]
# NAME is debian-7.3 (Linux 7.3.4+deb13-amd64) or debian-7.2 (7.2.12+deb13-amd64), the
# trixie-backports kernels built with CONFIG_RUST=y. Prints the kernel build directory (KDIR)
# after making sure that it holds:
#  - the kernel's own packages, unpacked (headers, kbuild, image, modules; depmod run) in
#    $KGAMES_CACHE/debian/RELEASE/sys: the headers' .config and Module.symvers, and the vmlinuz
#    and modules that scripts/vm-run.sh boots;
#  - the Rust metadata that the headers package lacks (rust/*.rmeta, libmacros.so, ...),
#    regenerated from the matching linux-source package with the headers' .config (unchanged
#    but for the module-signing lines) and the kernel's release string, inside the trixie root
#    of scripts/debian-root.sh, whose rustc 1.85.1 and gcc-14 are the ones Debian built it with.
# --dir: the build directory without preparing it; --release: the release string; --pkgver:
# the Debian version of its packages;
# --boot: the directory of the unpacked vmlinuz and modules (prepared if missing).
# Idempotent: a prepared kernel is reused; the first preparation takes about 3 minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

name=${1:-}
case "$name" in
    debian-7.3) series=7.3 release=7.3.4+deb13-amd64 pkgver=7.3.4-1~bpo13+1 ;;
    debian-7.2) series=7.2 release=7.2.12+deb13-amd64 pkgver=7.2.12-1~bpo13+1 ;;
    *) die "unknown kernel '$name': debian-7.3 or debian-7.2 (or 'test', the kernel scripts/kernel-build.sh builds)" ;;
esac
base=$KGAMES_CACHE/debian/$release
sys=$base/sys build=$base/build
case "${2:-}" in
    --dir) echo "$build"; exit 0 ;;
    --release) echo "$release"; exit 0 ;;
    --pkgver) echo "$pkgver"; exit 0 ;;
    --boot|"") ;;
    *) die "unknown option $2" ;;
esac

# 1. The kernel's packages, unpacked into one tree.
if [ ! -e "$sys/.kgames-unpacked" ]; then
    abi=${release%-amd64}
    rm -rf "$sys" && mkdir -p "$sys"
    for p in "linux-headers-$release" "linux-headers-$abi-common" "linux-kbuild-$abi" \
             "linux-binary-$release" "linux-modules-$release"; do
        deb=$(apt_private_fetch "$p=$pkgver")
        dpkg-deb -x "$deb" "$sys"
    done
    [ -f "$sys/usr/lib/modules/$release/vmlinuz" ] || die "the Debian packages of $release hold no vmlinuz"
    depmod -b "$sys/usr" "$release" 2>/dev/null
    touch "$sys/.kgames-unpacked"
fi
if [ "${2:-}" = --boot ]; then echo "$sys/usr/lib/modules/$release"; exit 0; fi
headers=$sys/usr/src/linux-headers-$release

# 2. The Rust metadata, regenerated in the trixie root (scripts/rust-metadata.sh).
if [ ! -e "$build/.kgames-prepared" ]; then
    src=$("$here/kernel-source.sh" "$series" "$pkgver")
    "$here/debian-root.sh" >/dev/null
    "$here/debian-root.sh" --run bash "$here/rust-metadata.sh" "$headers" "$src" "$build" "$release" >&2 \
        || die "the Rust metadata of Linux $release could not be regenerated (above)"
fi
# The kernel's own export list, whatever changed it.
cmp -s "$headers/Module.symvers" "$build/Module.symvers" || cp "$headers/Module.symvers" "$build/Module.symvers"
echo "$build"
