#!/bin/bash
# The in-VM test run (started by scripts/vm-run.sh --tests, as root, kgames.ko loaded).
# Prints one kselftest TAP stream on stdout and copies it to $1/tap.txt. Each line of the
# Rust test binary's TAP is renumbered into this stream.
out=$1; shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$repo/target/release/kgames-vmtest
n=0 fails=0
emit() { echo "$*" | tee -a "$out/tap.txt"; }
ok() { n=$((n + 1)); emit "ok $n - $*"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); emit "not ok $n - $*"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }

emit "TAP version 13"
check "module: kgames is loaded" grep -q '^kgames ' /proc/modules

if [ -x "$bin" ]; then
    while IFS= read -r line; do
        case "$line" in
            "ok "*) ok "${line#ok * - }" ;;
            "not ok "*) notok "${line#not ok * - }" ;;
            "#"*) emit "$line" ;;
            *) ;;
        esac
    done < <(timeout 1500 "$bin" "$@" 2>&1)
else
    notok "vmtest: $bin is not built"
fi

# Unload: refused while a file is open, clean after.
exec 3<>/dev/reversi
check "module: rmmod is refused while /dev/reversi is open" bash -c '! rmmod kgames 2>/dev/null'
check "module: still loaded after the refused rmmod" grep -q '^kgames ' /proc/modules
exec 3>&-
check "module: rmmod succeeds once every file is closed" rmmod kgames
check "module: the device nodes are gone after unload" bash -c '! grep -qE " (reversi|chess|kxo)$" /proc/misc'
check "module: loads again" insmod "$repo/kgames.ko"
check "module: unloads again" rmmod kgames

emit "1..$n"
[ $fails = 0 ]
