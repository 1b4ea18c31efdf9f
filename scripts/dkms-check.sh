#!/usr/bin/env bash
# Tests the DKMS installation as far as this machine allows: in the trixie root of
# scripts/debian-root.sh, with Debian's headers and linux-source packages of KERNEL unpacked
# there (as `apt install` would put them), scripts/dkms-install.sh registers and builds
# kgames with Debian's dkms; the .ko that DKMS installed is then loaded into Debian's stock
# kernel in the VM (scripts/vm-run.sh: /dev/reversi answers, the udev rule's mode is in effect),
# and `dkms-install.sh --remove` leaves nothing behind. Prints TAP-like "ok - ..." lines.
#   dkms-check.sh [KERNEL]            default debian-7.3: all of it, with a VM run of its own
#   dkms-check.sh --build [KERNEL]    the install and build only; the module DKMS installed is
#                                     copied to out/dkms/ for a VM run that loads it
#   dkms-check.sh --remove [KERNEL]   the removal only (after --build)
#   --seed (after --build): DKMS finds the kernel's Rust metadata already regenerated in
#   /var/cache/kgames, linked to the one scripts/debian-kernel.sh made with the same script
#   and compilers in the same root (about a minute less; make check-full regenerates it)
# (`make check` runs --build, loads out/dkms/kgames.ko* in the guest of its Debian suite, then
# --remove: one boot fewer.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
part=all seed=""
case "${1:-}" in --build|--remove) part=${1#--}; shift ;; esac
[ "${1:-}" != --seed ] || { seed=1; shift; }
kernel=${1:-debian-7.3}
fails=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }

release=$("$here/debian-kernel.sh" "$kernel" --release) || exit 1
"$here/debian-kernel.sh" "$kernel" >/dev/null || exit 1
root=$("$here/debian-root.sh") || exit 1
series=$(cut -d. -f1,2 <<<"$release")
pkgver=$("$here/debian-kernel.sh" "$kernel" --pkgver)
if [ ! -e "$root/.kgames-dkms-$release" ]; then
    step "unpacking Debian's headers and linux-source-$series into the trixie root"
    for p in "linux-headers-$release" "linux-headers-${release%-amd64}-common" "linux-kbuild-${release%-amd64}" "linux-source-$series"; do
        dpkg-deb -x "$(apt_private_fetch "$p=$pkgver")" "$root" || exit 1
    done
    touch "$root/.kgames-dkms-$release"
fi

# remove: dkms-install.sh --remove must leave nothing behind.
remove() {
    "$here/debian-root.sh" --run bash "$here/dkms-install.sh" --remove >> "$repo/out/dkms.log" 2>&1
    local left
    left=$(ls -d "$root"/usr/src/kgames-* "$root/lib/modules/$release/updates/dkms/"kgames.ko* "$root"/var/lib/dkms/kgames \
           "$root/etc/udev/rules.d/60-kgames.rules" "$root/etc/modules-load.d/kgames.conf" "$root/var/cache/kgames" 2>/dev/null)
    if [ -z "$left" ]; then ok "dkms: dkms-install.sh --remove leaves nothing behind"; else notok "dkms: dkms-install.sh --remove leaves nothing behind: $left"; fi
}
if [ $part = remove ]; then remove; [ $fails = 0 ]; exit $?; fi
mkdir -p "$repo/out"
rm -rf "$repo/out/dkms"
if [ -n "$seed" ]; then
    c=$root/var/cache/kgames/$release
    rm -rf "$c" && mkdir -p "$c"
    ln -s "$KGAMES_CACHE/debian/$release/build" "$c/build"
    ln -s "$("$here/kernel-source.sh" "$series" "$pkgver")" "$c/src"
    stat -c %Y "$root/usr/src/linux-source-$series.tar.xz" > "$c/src.stamp"
fi
if "$here/debian-root.sh" --run bash "$here/dkms-install.sh" > "$repo/out/dkms.log" 2>&1; then
    ok "dkms: scripts/dkms-install.sh registers, builds and installs kgames for $release"
else
    notok "dkms: scripts/dkms-install.sh registers, builds and installs kgames for $release"; tail -n 30 "$repo/out/dkms.log"
fi
if cmp -s "$root/etc/udev/rules.d/60-kgames.rules" "$here/60-kgames.rules" && [ "$(cat "$root/etc/modules-load.d/kgames.conf" 2>/dev/null)" = kgames ]; then
    ok "dkms: the udev rule and the load-at-boot entry are installed"
else
    notok "dkms: the udev rule and the load-at-boot entry are installed"
fi
if grep -q "Signing key: /var/lib/dkms/mok.key" "$repo/out/dkms.log" && [ -f "$root/var/lib/dkms/mok.pub" ]; then
    ok "dkms: DKMS signed the module with its MOK key (/var/lib/dkms/mok.pub, for Secure Boot enrolment)"
else
    notok "dkms: DKMS signed the module with its MOK key"
fi
ko=$(ls "$root/lib/modules/$release/updates/dkms/"kgames.ko* 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
    ok "dkms: the module is installed in /lib/modules/$release/updates/dkms ($(basename "$ko"))"
    mkdir -p "$repo/out/dkms" && cp "$ko" "$repo/out/dkms/" && ko=$repo/out/dkms/$(basename "$ko")
    if [ $part = build ]; then
        :
    elif o=$(bash "$here/vm-run.sh" --kernel "$kernel" --ko "$ko" --out "$repo/out/vm-dkms" \
            --cmd 'uname -r; stat -c "%a %U:%G" /dev/reversi; echo "00 X" > /dev/reversi; cat /dev/reversi' 2>&1) &&
       [ "$(tail -n 3 <<<"$o" | tr '\n' ' ')" = "$release 666 root:root OK " ]; then
        ok "dkms: the DKMS-built module loads into the stock $release kernel; /dev/reversi is 0666 and answers OK"
    else
        notok "dkms: the DKMS-built module loads into the stock $release kernel; /dev/reversi is 0666 and answers OK"; echo "$o" | tail -n 20
    fi
else
    notok "dkms: the module is installed in /lib/modules/$release/updates/dkms"
fi
[ $part = build ] || remove
[ $fails = 0 ]
