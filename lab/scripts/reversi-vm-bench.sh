#!/usr/bin/env bash
# `make bench-vm`: FFO #40 and #41 solved by /dev/reversi's CPU in the VM (`10` setup, a node
# budget, `03`; `09` gives `score=`, `!` when exact) and by the same session code on the host
# with the same budget and table size; prints both, checks that the moves and scores are the
# same, and prints the VM/host time ratio (TCG, 2 vCPUs, against the host's own CPU). Then the
# same positions at 1 s per move on each side's real clock (what each solves in that time).
#   NODES=200000000   node budget of the CPU move (enough to solve both exactly)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
nodes=${NODES:-200000000}
cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab --bin reversi-ffo-vm
ffo=lab/target/release/reversi-ffo-vm
step "host: the session layer in-process (tt_entries 65536, as the module's default)"
host=$("$ffo" "$nodes" 65536; "$ffo" 1000ms 65536)
echo "$host"
step "VM: /dev/reversi (boot about 20 s)"
vm=$(bash scripts/vm-run.sh --cmd "$ffo --device $nodes; $ffo --device 1000ms" \
    --out "$PWD/out/vm-bench" | grep '^device ffo')
echo "$vm"
status=0
field() { sed "s/.*: \(move .* score=[^ ]*\) in.*/\1/" <<<"$1"; }
ms() { sed 's/.* in \([0-9]*\) ms.*/\1/' <<<"$1"; }
for budget in "N$nodes" 1000; do
    for case in '#40' '#41'; do
        h=$(grep -F " $case ($budget):" <<<"$host"); d=$(grep -F " $case ($budget):" <<<"$vm")
        hm=$(field "$h"); dm=$(field "$d"); ht=$(ms "$h"); dt=$(ms "$d")
        ratio=$(awk -v a="$dt" -v b="$ht" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 1) }')
        if [ "$budget" = 1000 ]; then
            # A time budget: the VM searches fewer nodes in the same time; both are printed.
            printf 'ffo %s at 1 s per move: host %s (%s ms), VM %s (%s ms)\n' "$case" "$hm" "$ht" "$dm" "$dt"
            continue
        fi
        same=yes; [ "$hm" = "$dm" ] || { same=NO; status=1; }
        printf 'ffo %s: host %s (%s ms), VM %s (%s ms): same move and score: %s; VM/host time %s\n' \
            "$case" "$hm" "$ht" "$dm" "$dt" "$same" "$ratio"
    done
done
exit $status
