#!/usr/bin/env bash
# Fetches and unpacks Debian's linux-source-<series> into the cache; prints the source directory.
#   kernel-source.sh [SERIES [VERSION]]   default: 7.3, pinned 7.3.4-1~bpo13+1
# Uses a private apt configuration (scripts/lib.sh: the system's apt sources stay untouched)
# that points at the machine's own Debian mirror, suite trixie-backports. Idempotent: an
# unpacked tree is reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

series=${1:-7.3}
case "$series" in
    7.3) PINNED=${2:-${KGAMES_KERNEL_PKG_VERSION:-7.3.4-1~bpo13+1}} ;;
    *) PINNED=${2:-} ;;
esac
pkg=linux-source-$series
mkdir -p "$KGAMES_CACHE/src"

# Reuse an already unpacked tree (of the pinned version if present, else any of the series).
existing=$(ls -d "$KGAMES_CACHE"/src/*/$pkg/.unpacked 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$PINNED" ] && [ -e "$KGAMES_CACHE/src/$PINNED/$pkg/.unpacked" ]; then
    echo "$KGAMES_CACHE/src/$PINNED/$pkg"; exit 0
elif [ -z "$PINNED" ] && [ -n "$existing" ] && [ -z "${KGAMES_REFRESH:-}" ]; then
    echo "$(dirname "$existing")"; exit 0
elif [ -n "$PINNED" ] && [ -n "${2:-}" ]; then
    ver=$PINNED
else
    apt_private_update
    versions=$(apt_private_cache madison "$pkg" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -V)
    [ -n "$versions" ] || die "no $pkg package is available from the mirror (trixie-backports)"
    if [ -n "$PINNED" ] && grep -qxF "$PINNED" <<<"$versions"; then
        ver=$PINNED
    elif [ -n "$existing" ] && [ -z "${KGAMES_REFRESH:-}" ]; then
        echo "$(dirname "$existing")"; exit 0
    else
        ver=$(tail -n 1 <<<"$versions")
        [ -z "$PINNED" ] || printf 'warning: %s %s is gone from the mirror; using the newest, %s\n' "$pkg" "$PINNED" "$ver" >&2
    fi
fi
dest=$KGAMES_CACHE/src/$ver
if [ ! -e "$dest/$pkg/.unpacked" ]; then
    deb=$(apt_private_fetch "$pkg=$ver")
    step "unpacking $(basename "$deb") (about 15 s)"
    rm -rf "$dest" && mkdir -p "$dest/x"
    dpkg-deb -x "$deb" "$dest/x"
    tar -C "$dest" -xf "$dest/x/usr/src/$pkg.tar.xz"
    rm -rf "$dest/x"
    touch "$dest/$pkg/.unpacked"
fi
echo "$dest/$pkg"
