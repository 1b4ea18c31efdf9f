#!/usr/bin/env bash
# Fetches and unpacks Debian's linux-source-7.3 into the cache; prints the source directory.
# Uses a private apt configuration (the system's apt sources stay untouched) that points at the
# machine's own Debian mirror, suite trixie-backports. Idempotent: an unpacked tree is reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

PINNED=${KGAMES_KERNEL_PKG_VERSION:-7.3.4-1~bpo13+1}
d=$KGAMES_CACHE/apt
mkdir -p "$d/parts" "$d/lists/partial" "$d/archives/partial" "$KGAMES_CACHE/src"

# Reuse an already unpacked tree (of the pinned version if present, else any 7.3.x).
existing=$(ls -d "$KGAMES_CACHE"/src/*/linux-source-7.3/.unpacked 2>/dev/null | sort -V | tail -n 1 || true)
if [ -e "$KGAMES_CACHE/src/$PINNED/linux-source-7.3/.unpacked" ]; then
    echo "$KGAMES_CACHE/src/$PINNED/linux-source-7.3"; exit 0
elif [ -n "$existing" ] && [ -z "${KGAMES_REFRESH:-}" ]; then
    echo "$(dirname "$existing")"; exit 0
fi

uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$uri" ] || uri=$(awk '$1=="deb" && $0 ~ /debian/ {for(i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || die "cannot read the machine's Debian mirror from /etc/apt"
printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" > "$d/parts/k.sources"
A=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$d/parts" -o "Dir::State::Lists=$d/lists"
   -o "Dir::Cache::Archives=$d/archives" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
step "apt update (private configuration, trixie-backports)"
apt-get "${A[@]}" update -qq >&2
versions=$(apt-cache "${A[@]}" madison linux-source-7.3 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -V)
[ -n "$versions" ] || die "no linux-source-7.3 package is available from the mirror (trixie-backports)"
if grep -qxF "$PINNED" <<<"$versions"; then
    ver=$PINNED
else
    ver=$(tail -n 1 <<<"$versions")
    printf 'warning: linux-source-7.3 %s is gone from the mirror; using the newest, %s\n' "$PINNED" "$ver" >&2
fi
dest=$KGAMES_CACHE/src/$ver
if [ ! -e "$dest/linux-source-7.3/.unpacked" ]; then
    step "downloading linux-source-7.3=$ver"
    (cd "$d/archives" && apt-get "${A[@]}" download "linux-source-7.3=$ver" >&2)
    deb=$(ls "$d"/archives/linux-source-7.3_*.deb | grep -F "$(sed 's/:/%3a/' <<<"$ver")" | head -n 1)
    step "unpacking $(basename "$deb") (about 15 s)"
    rm -rf "$dest" && mkdir -p "$dest/x"
    dpkg-deb -x "$deb" "$dest/x"
    tar -C "$dest" -xf "$dest"/x/usr/src/linux-source-7.3.tar.xz
    rm -rf "$dest/x"
    touch "$dest/linux-source-7.3/.unpacked"
fi
echo "$dest/linux-source-7.3"
