#!/usr/bin/env bash
# A long run of the syscall fuzzer (suite sysfuzz of kgames-vmtest) in one VM boot: for each
# seed the guest reloads the module with one of four parameter sets (chosen by the seed) and
# runs the fuzzer for SECONDS; after the last, rmmod, kmemleak's scan (debug kernel) and the
# kernel-log detector of scripts/vm-run.sh (exit 90 on any report). The guest's hung-task
# timeout is 30 s. Prints each seed's operations and rate, the operations each call reached
# (summed over the seeds), and ends non-zero when a seed failed or the kernel reported.
#   scripts/sysfuzz-campaign.sh [--debug | --kernel NAME] SECONDS SEED...
# --debug: the debug kernel (KASAN, kmemleak, lockdep) and out/debug/kgames.ko, which
# `make check-debug` builds. Logs: out/sysfuzz/ (run.log, console.log, kmemleak.txt).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"

vm=()
while [ $# -gt 0 ]; do
    case "$1" in
        --debug) vm+=(--debug) ;;
        --kernel) vm+=(--kernel "$2"); shift ;;
        -*) die "unknown option $1" ;;
        *) break ;;
    esac
    shift
done
[ $# -ge 2 ] || die "usage: sysfuzz-campaign.sh [--debug | --kernel NAME] SECONDS SEED..."
seconds=$1; shift
# The parameter sets: small tables, idle games evicted after 3 s and the smallest ring (as in
# make check); the defaults; many games, short moves, a fast timer and evictions after 1 s;
# the largest ring, one game and long moves.
params=(
    "max_games=16 max_user_games=2 search_contexts=1 tt_entries=1024 max_move_ms=2000 test_idle_evict_ms=3000 kxo_games=2 kxo_period_ms=20 kxo_ring=64"
    ""
    "max_games=64 max_user_games=8 search_contexts=2 tt_entries=4096 max_move_ms=500 test_idle_evict_ms=1000 kxo_games=8 kxo_period_ms=5 kxo_ring=256 kxo_workers=3"
    "max_games=4 max_user_games=1 search_contexts=4 max_move_ms=4000 kxo_games=1 kxo_ring=65536 kxo_always=1 kxo_n=6"
)
out=$repo/out/sysfuzz
mkdir -p "$out"
cmd='echo 30 > /proc/sys/kernel/hung_task_timeout_secs'
for seed in "$@"; do
    set_=${params[$((seed % ${#params[@]}))]}
    cmd+="
echo '# campaign: seed $seed, parameters: ${set_:-the defaults}'
if rmmod kgames && insmod \"\$KGAMES_KO\" $set_ && nodes_ready; then
    KGAMES_SYSFUZZ_SEED=$seed kgames-vmtest sysfuzz; echo \"# campaign: seed $seed rc=\$?\"
else
    echo '# campaign: seed $seed rc=load'
fi"
done
# Every seed's run with its wind-down, and the boot.
export KGAMES_VM_LIMIT=$(( $# * (seconds + 300) + 1800 ))
t0=$(date +%s)
KGAMES_SYSFUZZ_SECONDS=$seconds bash "$here/vm-run.sh" "${vm[@]}" --root --out "$out" --cmd "$cmd" \
    > "$out/run.log" 2>&1
rc=$?
bad=0
for seed in "$@"; do
    # Each process of a seed prints its total: "# sysfuzz process seed S: N operations, ...".
    ops=$(awk -v s="$seed" '/^# campaign: seed / { cur = $4 + 0 }
        /^# sysfuzz process seed / && cur == s { t += $6 } END { print t + 0 }' FS='[ ,:]+' "$out/run.log")
    line=$(grep "^# campaign: seed $seed rc=" "$out/run.log" || echo "# campaign: seed $seed rc=none")
    echo "seed $seed: $ops operations, $((ops / seconds)) a second; ${line#*seed $seed }"
    [ "$line" = "# campaign: seed $seed rc=0" ] || bad=$((bad + 1))
done
echo "operations by call, all seeds:"
grep '^# sysfuzz process seed' "$out/run.log" | sed 's/^[^;]*; //' | tr ' ' '\n' | grep '=' |
    sed 's/:[^:=]*=/ /' | awk '{s[$1] += $2} END {for (k in s) printf "  %s %d\n", k, s[k]}' | sort
grep -h '^kmemleak:' "$out/run.log" || true
grep -A20 'kernel log problem' "$out/run.log" || true
echo "vm-run.sh: exit $rc after $(( $(date +%s) - t0 )) s; $bad of $# seeds failed"
[ "$rc" = 0 ] && [ "$bad" = 0 ]
