#!/usr/bin/env bash
# Installs kgames on this machine with DKMS (as root): the source in /usr/src/kgames-VERSION,
# built and installed for every installed kernel (and by DKMS after each kernel upgrade), the
# udev rule (scripts/60-kgames.rules), and loading at boot (/etc/modules-load.d/kgames.conf).
#   dkms-install.sh            install (idempotent: an installed version is rebuilt in place)
#   dkms-install.sh --remove   unload, unregister from DKMS, remove every file it installed
# What the machine needs first (Debian trixie with a backports 7.2 or 7.3 kernel):
#   apt install dkms linux-headers-$(uname -r) linux-source-X.Y rustc rust-src bindgen \
#       libclang-dev gcc-14 dwarves bc bison flex libelf-dev libssl-dev
# See docs/building.md#dkms (and Secure Boot there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
[ "$(id -u)" = 0 ] || die "run as root (DKMS installs into /usr/src and /lib/modules)"
command -v dkms >/dev/null || die "dkms is not installed (Debian: apt install dkms)"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$repo/dkms.conf")
dest=/usr/src/kgames-$ver
rules=/etc/udev/rules.d/60-kgames.rules
load=/etc/modules-load.d/kgames.conf

if [ "${1:-}" = --remove ]; then
    ! grep -q '^kgames ' /proc/modules || modprobe -r kgames || rmmod kgames
    ! dkms status -m kgames -v "$ver" 2>/dev/null | grep -q . || dkms remove -m kgames -v "$ver" --all
    rm -rf "$dest" "$rules" "$load" "${KGAMES_DKMS_CACHE:-/var/cache/kgames}"
    udevadm control --reload-rules 2>/dev/null || true
    note "kgames $ver removed"
    exit 0
fi
[ -z "${1:-}" ] || die "unknown option $1"
! dkms status -m kgames -v "$ver" 2>/dev/null | grep -q . || dkms remove -m kgames -v "$ver" --all
rm -rf "$dest" && mkdir -p "$dest/scripts"
cp -r "$repo/Kbuild" "$repo/dkms.conf" "$repo/src" "$dest/"
cp "$here/dkms-build.sh" "$here/rust-metadata.sh" "$here/lib.sh" "$here/toolchain.env" "$dest/scripts/"
find "$dest/src" \( -name '*.o' -o -name '.*.cmd' -o -name '*.d' -o -name '*.ko' \) -delete
dkms add -m kgames -v "$ver"
failed=()
for k in $(ls /lib/modules); do
    [ -d "/lib/modules/$k/build" ] || continue
    step "building kgames $ver for Linux $k"
    { dkms build -m kgames -v "$ver" -k "$k" && dkms install -m kgames -v "$ver" -k "$k" --force; } || failed+=("$k")
done
install -D -m 0644 "$here/60-kgames.rules" "$rules"
mkdir -p "$(dirname "$load")" && echo kgames > "$load"
udevadm control --reload-rules 2>/dev/null || true
if [ -d "/lib/modules/$(uname -r)/updates/dkms" ] && modprobe kgames; then
    note "kgames loaded: /dev/reversi /dev/chess /dev/kxo"
fi
[ ${#failed[@]} = 0 ] || die "kgames $ver did not build for: ${failed[*]} (the messages above say why)"
