#!/usr/bin/env bash
# A Debian trixie root in the cache, with the tools Debian builds its 7.x kernels with (gcc-14,
# binutils, pahole, rustc 1.85.1 with rust-src, bindgen 0.71.1) and dkms: the module is built
# against a Debian stock kernel in here, so that the regenerated Rust metadata and the module
# come from the same compiler identity as the kernel. Idempotent; prints the root's directory.
#   debian-root.sh             create it if missing (about a minute), print the directory
#   debian-root.sh --run CMD.. run CMD in the root (bind-mounting the repository and the cache
#                              at their own paths, in a private mount namespace)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"

root=$KGAMES_CACHE/debian/trixie-root
# Bump when the package list changes: a root without the current stamp is made again.
STAMP=3
PKGS=gcc-14,gcc,make,bc,bison,flex,libelf-dev,libssl-dev,dwarves,rustc,rust-src,bindgen,libclang-dev,clang,lld,llvm,cpio,kmod,python3,xz-utils,binutils,dkms,patch,dpkg-dev,file,rustfmt,openssl

if [ "$(cat "$root/.kgames-root" 2>/dev/null)" != "$STAMP" ]; then
    command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (run scripts/setup-toolchain.sh)"
    step "creating a Debian trixie root in $root (about a minute)"
    rm -rf "$root.new" && mkdir -p "$(dirname "$root")"
    as_root mmdebstrap --quiet --variant=minbase --aptopt='Apt::Install-Recommends "false"' \
        --include="$PKGS" trixie "$root.new" "deb $(debian_mirror) trixie main" >&2 \
        || { rm -rf "$root.new"; die "mmdebstrap of trixie failed"; }
    echo "$STAMP" > "$root.new/.kgames-root"
    rm -rf "$root" && mv "$root.new" "$root"
fi

if [ "${1:-}" != --run ]; then echo "$root"; exit 0; fi
shift
[ $# -gt 0 ] || die "--run needs a command"
# Root (or sudo) is needed for the mount namespace and the chroot.
# Paths are the same inside and out: the repository (and the directory of the current work, if
# elsewhere) and the cache are bind-mounted at their own paths.
binds=("$repo" "$KGAMES_CACHE" "$(pwd)")
as_root unshare -m --propagation private bash -c '
    root=$1; shift; n=$1; shift
    mount -t tmpfs tmpfs "$root/tmp"
    for ((i = 0; i < n; i++)); do
        d=$1; shift
        [ -d "$root$d" ] && mountpoint -q "$root$d" && continue
        mkdir -p "$root$d" && mount --bind "$d" "$root$d"
    done
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 sh -c "cd \"\$0\" && exec \"\$@\"" "$PWD" "$@"
' bash "$root" "${#binds[@]}" "${binds[@]}" "$@"
exit $?
