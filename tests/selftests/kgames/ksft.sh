# SPDX-License-Identifier: GPL-2.0
# Sourced by kgames' kselftest programs: their TAP 13 output (the plan at the end), the KSFT
# exit codes (0 pass, 1 fail, 4 skip), and where they find kgames' test binaries and kgames.ko.
# The same in a checkout and in an installed copy (run_kselftest.sh), which has no checkout.
KSFT_PASS=0 KSFT_FAIL=1 KSFT_SKIP=4
here=$(cd "$(dirname "$0")" && pwd -P)
n=0 fails=0
echo "TAP version 13"
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
# skip NAME REASON
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }
# skip_all REASON: nothing of this program can run here (exit 4, the reason on the plan line).
skip_all() { echo "1..0 # SKIP $*"; exit $KSFT_SKIP; }
finish() { echo "1..$n"; [ $fails = 0 ] && exit $KSFT_PASS; exit $KSFT_FAIL; }
# relay: renumbers the TAP of a test binary on standard input into this program's TAP.
relay() {
    local line
    while IFS= read -r line; do
        case "$line" in
            "ok "*) ok "${line#ok * - }" ;;
            "not ok "*) notok "${line#not ok * - }" ;;
            "#"*) echo "$line" ;;
            *) ;;
        esac
    done
}
# tool NAME: a kgames test binary: next to this program (`make` copies them there), else in
# the checkout's target/release.
tool() { if [ -x "$here/$1" ]; then echo "$here/$1"; else echo "$here/../../../target/release/$1"; fi; }
# The module file the programs that reload kgames load: $KGAMES_KO, else kgames.ko next to this
# program (installed with KGAMES_KO=...), else the one modprobe finds (DKMS), else the checkout's.
ko=${KGAMES_KO:-}
[ -n "$ko" ] || { [ -f "$here/kgames.ko" ] && ko=$here/kgames.ko; }
[ -n "$ko" ] || ko=$(modinfo -n kgames 2>/dev/null) || ko=""
[ -n "$ko" ] || { [ -f "$here/../../../kgames.ko" ] && ko=$(cd "$here/../../.." && pwd)/kgames.ko; }
export KGAMES_KO=$ko
# nodes_ready: the nodes' mode after an insmod comes from the udev rule (scripts/60-kgames.rules,
# which an installation has); without it, and on the debug kernel (KGAMES_DEBUG set: KASAN,
# lockdep, under TCG; udev runs minutes behind there), it is set by hand.
rule=$(ls /run/udev/rules.d/60-kgames.rules /etc/udev/rules.d/60-kgames.rules \
    /usr/lib/udev/rules.d/60-kgames.rules 2>/dev/null | head -n 1)
nodes_ready() {
    if [ -n "${KGAMES_DEBUG:-}" ] || [ -z "$rule" ]; then chmod 0666 /dev/reversi /dev/chess /dev/kxo 2>/dev/null
    else udevadm settle -t 300 2>/dev/null; fi
}
# require_module: skip (4) unless this runs as root with kgames loaded and its three nodes.
require_module() {
    [ "$(id -u)" = 0 ] || skip_all "kgames' selftests run as root"
    grep -qs '^kgames ' /proc/modules || skip_all "kgames.ko is not loaded (insmod kgames.ko first)"
    local d
    for d in reversi chess kxo; do [ -c /dev/$d ] || skip_all "/dev/$d is missing"; done
    [ -n "$rule" ] || echo "# no udev rule 60-kgames.rules: the nodes are made 0666 by hand"
    nodes_ready
}
# The debug kernel runs everything several times slower.
slow=1
[ -n "${KGAMES_DEBUG:-}" ] && slow=3
