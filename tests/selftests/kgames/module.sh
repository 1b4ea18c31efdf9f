#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kgames selftest: what reloads the module. /dev/kxo's parameters, load, rate and unload while
# running; the other parameters' bounds; max_move_ms; chess_eval=0; chess_simd; the search's reschedule
# point; an open racing the load; the syscall fuzzer (20 s, or $KGAMES_SYSFUZZ_SECONDS; 10
# minutes on the debug kernel); unload refused while a file is open. Needs the module file
# (ksft.sh says where it looks); leaves kgames loaded with its defaults.
. "$(dirname "$0")/ksft.sh"
require_module
[ -n "$ko" ] || skip_all "no kgames.ko file to reload (KGAMES_KO=FILE, or install with KGAMES_KO=FILE)"
bin=$(tool kgames-vmtest)

# /dev/kxo machinery: parameters, load, rate, unload while running.
kxocat=$(tool kxo-cat)
measured=$(mktemp); trap 'rm -f "$measured"' EXIT
cpu_busy() { awk '/^cpu / {print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
# measure GAMES PERIOD_MS SECONDS: reload with those parameters, watch with the stream checker.
measure() {
    rmmod kgames && insmod "$ko" kxo_games=$1 kxo_period_ms=$2 || return 1
    read -r b0 t0 < <(cpu_busy)
    local res; res=$(timeout $(($3 + 30)) "$kxocat" --check --timeout "$3") || { echo "# $res"; return 1; }
    echo "$res" > "$measured"
    read -r b1 t1 < <(cpu_busy)
    local recs; recs=$(sed -n 's/.* records=\([0-9]*\).*/\1/p' <<<"$res")
    echo "# kxo games=$1 period=${2}ms: $res rate=$((recs / $3))/s cpu=$(( (b1 - b0) * 100 / (t1 - t0 + 1) ))% (2 vCPUs, TCG)"
    echo "# loads (1/5/15 min, CPUs): $("$kxocat" loads | tr -s ' ' | tr '\n' ';')"
    grep -q ' bad=0 ' <<<"$res"
}
if [ -x "$kxocat" ]; then
    check "kxo: 9 games at 100 ms for 10 s: every record checks, rate and CPU load measured" measure 9 100 10
    # 20 s at 10 ms: about 60,000 records, the fastest timer and every pairing (60 s found
    # nothing more: 190,148 records, 18 lost, 2026-11-29).
    check "kxo: 32 games with the timer at 10 ms for 20 s: stream checks, no kernel warning" measure 32 10 20
    check "kxo: the 20 s run saw all 25 pairings of the five agents" grep -q ' pairings=25 ' "$measured"
    rmmod kgames
    check "kxo: kxo_games=33 fails insmod (EINVAL)" bash -c "! insmod '$ko' kxo_games=33 2>/dev/null"
    check "kxo: kxo_games=0 fails insmod (EINVAL)" bash -c "! insmod '$ko' kxo_games=0 2>/dev/null"
    for p in kxo_mcts_iters=0 kxo_mcts_iters=100001 kxo_td_kb=8 kxo_td_games=10000001 \
        kxo_n=7 kxo_workers=11 kxo_playouts=0 kxo_period_ms=0 max_games=0 tt_entries=1023 \
        search_contexts=65 max_user_games=4097 kxo_always=2 test_fail_init=2; do
        check "kxo: $p fails insmod with EINVAL" bash -c "insmod '$ko' $p 2>&1 | grep -qi 'invalid'"
    done
    for p in kxo_pairings=mcts:chess kxo_pairings=mcts kxo_pairings=mc:mc,,td:td "kxo_games=2 kxo_pairings=mc:mc,td:td,nega:nega"; do
        check "kxo: $p fails insmod with EINVAL" bash -c "insmod '$ko' $p 2>&1 | grep -qi 'invalid'"
    done
    # kxo_pairings deals its pairs round-robin over the slots, from the first round on.
    pairings_param() {
        insmod "$ko" kxo_games=4 kxo_pairings=mcts:negamax,td:random || return 1
        local recs; recs=$(timeout 60 "$kxocat" --count 60); rmmod kgames
        echo "# kxo_pairings=mcts:negamax,td:random: slots 0,2: $(awk '$2 % 2 == 0 {print $6 ":" $7}' <<<"$recs" | sort -u | tr '\n' ' ')slots 1,3: $(awk '$2 % 2 == 1 {print $6 ":" $7}' <<<"$recs" | sort -u | tr '\n' ' ')"
        [ "$(awk '$2 % 2 == 0 {print $6 ":" $7}' <<<"$recs" | sort -u)" = "mcts:negamax" ] &&
            [ "$(awk '$2 % 2 == 1 {print $6}' <<<"$recs" | sort -u)" = "td" ] &&
            [ "$(wc -l <<<"$recs")" -ge 60 ]
    }
    check "kxo: kxo_pairings=mcts:negamax,td:random fixes slots 0,2 and the O side of 1,3" pairings_param
    check "kxo: modinfo lists kxo_pairings" bash -c "modinfo -p '$ko' | grep -q '^kxo_pairings:'"
    # A load that fails after allocating everything frees everything: five such loads leave
    # vmalloc and slab usage where they were (each load allocates over 10 MB).
    kmem() { awk '/^(VmallocUsed|Slab):/ {s += $2} END {print s}' /proc/meminfo; }
    noleak() {
        local a b i
        a=$(kmem)
        for i in 1 2 3 4 5; do
            insmod "$ko" test_fail_init=1 2>/dev/null && { rmmod kgames; return 1; }
        done
        b=$(kmem)
        echo "# five failed loads: vmalloc+slab ${a} kB before, ${b} kB after"
        [ $((b - a)) -lt 4096 ]
    }
    check "kxo: a load failing after every allocation frees them all (vmalloc+slab unchanged)" noleak
    check "kxo: loads with kxo_always=1 and the games run without a watcher" insmod "$ko" kxo_always=1 kxo_period_ms=10
    sleep 2
    check "kxo: unload while the games run is clean" rmmod kgames
    # The Monte Carlo player: the same moves with 1 and with 10 work items (kxo_workers), and
    # the work really split: 09 reports the items of each CPU move and the tiles each scored.
    mcgame() {
        rmmod kgames 2>/dev/null; insmod "$ko" kxo_workers=$1 || return 1
        exec 3<>/dev/kxo
        echo "00 X" >&3; cat <&3
        for _ in 1 2 3 4 5 6 7 8; do
            echo 03 >&3; cat <&3
            echo 09 >&3; sed -n 's/.* \(workers=[0-9]*\).*\( last_items=[0-9]* last_split=[0-9,]*\).*/# \1\2/p' <&3
            echo 07 >&3; first=$(cat <&3 | cut -d, -f1)
            [ -n "$first" ] || break
            echo "02 $first" >&3; cat <&3
        done
        echo 01 >&3; cat <&3
        exec 3>&-
    }
    mc_same() {
        local a b
        a=$(mcgame 1) && b=$(mcgame 10) || return 1
        echo "# P=1: $(grep '^#' <<<"$a" | head -2 | tr '\n' ' ')"
        echo "# P=10: $(grep '^#' <<<"$b" | head -2 | tr '\n' ' ')"
        [ "$(grep -v '^#' <<<"$a")" = "$(grep -v '^#' <<<"$b")" ] && grep -qE 'WIN|LOSE|TIE' <<<"$a" &&
            grep -q '^# workers=1 last_items=1 last_split=16$' <<<"$a" &&
            grep -q '^# workers=10 last_items=10 last_split=2,2,2,2,2,2,1,1,1,1$' <<<"$b"
    }
    check "kxo: the Monte Carlo player plays the same game with 1 and with 10 work items, split 1 and 10 ways" mc_same
    rmmod kgames 2>/dev/null
    check "kxo: loads again with defaults" insmod "$ko"
    # The udev rule gives the new nodes their mode (scripts/60-kgames.rules).
    nodes_ready
else
    notok "kxo: $kxocat is not built"
fi

# max_move_ms caps every CPU move whatever its budget: a 10^12-node move ends after 1 s.
rmmod kgames 2>/dev/null
for p in max_move_ms=99 max_move_ms=600001; do
    check "module: $p fails insmod with EINVAL" bash -c "insmod '$ko' $p 2>&1 | grep -qi 'invalid'"
done
capped() {
    insmod "$ko" max_move_ms=1000 || return 1
    local t0 t1 r
    exec 4<>/dev/reversi
    echo "00 O" >&4; cat <&4 >/dev/null
    echo "05 N1000000000000" >&4; cat <&4 >/dev/null
    t0=$(date +%s%N)
    echo 03 >&4; r=$(cat <&4)
    t1=$(date +%s%N)
    echo 06 >&4; local mv; mv=$(cat <&4)
    exec 4>&-
    rmmod kgames
    echo "# max_move_ms=1000: 03 with budget N10^12 answered $r in $(( (t1 - t0) / 1000000 )) ms, played $mv"
    [ "$r" = OK ] && [ $(( (t1 - t0) / 1000000 )) -lt 3000 ] && [ $(( (t1 - t0) / 1000000 )) -ge 900 ]
}
check "module: max_move_ms=1000 ends a 10^12-node CPU move after about 1 s, the move is played" capped

# chess_eval: 2 is refused; 0 makes /dev/chess search with the classic evaluation (the moves
# of kgames-uci --host --eval classic at equal node budgets, suite chess_classic of the test
# binary); the default, 1, is the built-in network (suite chess).
check "module: chess_eval=2 fails insmod with EINVAL" bash -c "insmod '$ko' chess_eval=2 2>&1 | grep -qi 'invalid'"
t0=$(date +%s%N)
if insmod "$ko" chess_eval=0; then
    echo "# insmod chess_eval=0 took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
    nodes_ready
    relay < <(timeout 300 "$bin" chess_classic 2>&1)
    rmmod kgames
else
    notok "module: loads with chess_eval=0"
fi
# chess_simd: 2 is refused; 0 gives the network its plain loops (the kernel log says so, and
# the device plays kgames-uci --host --simd off's moves: suite chess_plain); the default, 1,
# chooses AVX2 where the guest's CPU has it (/proc/cpuinfo), and the log says which.
check "module: chess_simd=2 fails insmod with EINVAL" bash -c "insmod '$ko' chess_simd=2 2>&1 | grep -qi 'invalid'"
simd_log() { dmesg | grep -o 'kgames: chess network: [A-Za-z0-9]* loops' | tail -n 1; }
simd_is() { [ "$(simd_log)" = "kgames: chess network: $1 loops" ]; }
if insmod "$ko" chess_simd=0; then
    check "module: chess_simd=0 logs the plain loops" simd_is plain
    nodes_ready
    relay < <(timeout 300 "$bin" chess_plain 2>&1)
    rmmod kgames
else
    notok "module: loads with chess_simd=0"
fi
t0=$(date +%s%N)
insmod "$ko"
echo "# insmod (chess_eval=1, the default) took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
nodes_ready
want="plain"; grep -qw avx2 /proc/cpuinfo && want="AVX2"
echo "# the guest's CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); chess network: $(simd_log)"
check "module: by default the chess network's loops follow the CPU ($want)" simd_is "$want"

# The search's reschedule point is reached: __cond_resched, traced with the function tracer
# (which records each call's caller) while /dev/reversi's CPU searches for 500 ms, is called
# by the meter's check, SignalInterrupt::pending. (x86 has no kernel without preemption in
# 7.3 (PREEMPT_NONE needs ARCH_NO_PREEMPT, VOLUNTARY an arch without lazy preemption) where
# a lockup could be shown; where the call matters, this shows it runs.)
# Needs the function tracer already tracing __cond_resched, set at boot with the kernel
# parameters "ftrace=function ftrace_filter=__cond_resched" (scripts/vm-run.sh passes them to
# Debian's kernel; the test kernel has no function tracer): the test only turns the ring
# buffer on and off. It never switches tracers itself: that rewrites live kernel text, which
# under QEMU's TCG oopses the guest now and then.
tr=/sys/kernel/tracing
mountpoint -q $tr || mount -t tracefs nodev $tr 2>/dev/null
if [ "$(cat $tr/current_tracer 2>/dev/null)" = function ] && grep -qx "__cond_resched" $tr/set_ftrace_filter; then
    resched() {
        local calls
        echo 0 > $tr/tracing_on; echo > $tr/trace
        exec 4<>/dev/reversi
        echo "00 O" >&4; cat <&4 >/dev/null; echo "05 500" >&4; cat <&4 >/dev/null
        echo 1 > $tr/tracing_on; echo 03 >&4; cat <&4 >/dev/null; echo 0 > $tr/tracing_on
        exec 4>&-
        calls=$(grep -c '__cond_resched <-.*kgames_main.*SignalInterrupt' $tr/trace)
        echo > $tr/trace
        echo "# a 500 ms CPU move: $calls calls of __cond_resched from the meter's check"
        [ "$calls" -gt 0 ]
    }
    check "module: a CPU move reaches the search's reschedule point (__cond_resched traced, called by the meter's check)" resched
else
    n=$((n + 1)); echo "ok $n - module: a CPU move reaches the search's reschedule point # SKIP $(uname -r) was not booted with ftrace=function ftrace_filter=__cond_resched"
fi

# An open racing the load: /dev/kxo registered 3 s before it gets the module's file operations
# (test_open_delay_ms); every open in between is refused (suite open_race of the test binary).
rmmod kgames
relay < <(timeout 120 "$bin" open_race 2>&1)
nodes_ready

# The caps of the game tables (suite limits): two games a user, idle games evicted after 5 s
# (test_idle_evict_ms) and every new game slowed by 1 s before its allocation
# (test_alloc_delay_ms): an evicted game is gone, and no user waits for another's allocation.
rmmod kgames
if insmod "$ko" max_user_games=2 test_idle_evict_ms=5000 test_alloc_delay_ms=1000; then
    nodes_ready
    relay < <(timeout 200 "$bin" limits 2>&1)
else
    notok "limits: the module loads with test_idle_evict_ms and test_alloc_delay_ms"
fi

# The syscall fuzzer (suite sysfuzz), with small tables, one search context, a short
# max_move_ms, idle games evicted after 3 s, two AI games on a 20 ms timer and the smallest
# ring: 20 s in make check,
# 10 minutes on the debug kernel, or $KGAMES_SYSFUZZ_SECONDS (seed $KGAMES_SYSFUZZ_SEED, 1).
fuzz_s=${KGAMES_SYSFUZZ_SECONDS:-20}
[ -n "${KGAMES_DEBUG:-}" ] && [ -z "${KGAMES_SYSFUZZ_SECONDS:-}" ] && fuzz_s=600
rmmod kgames
if insmod "$ko" max_games=16 max_user_games=2 search_contexts=1 tt_entries=1024 max_move_ms=2000 \
    test_idle_evict_ms=3000 kxo_games=2 kxo_period_ms=20 kxo_ring=64; then
    nodes_ready
    relay < <(KGAMES_SYSFUZZ_SECONDS=$fuzz_s timeout $((fuzz_s + 300)) "$bin" sysfuzz 2>&1)
    # The same load has kxo_ring=64: what a sleeping watcher finds (suite ring_size).
    relay < <(timeout 60 "$bin" ring_size 2>&1)
    rmmod kgames
else
    notok "sysfuzz: the module loads with the fuzzer's parameters"
fi
insmod "$ko"
nodes_ready

# Unload: refused while a file is open, clean after.
exec 3<>/dev/reversi
check "module: rmmod is refused while /dev/reversi is open" bash -c '! rmmod kgames 2>/dev/null'
check "module: still loaded after the refused rmmod" grep -q '^kgames ' /proc/modules
exec 3>&-
check "module: rmmod succeeds once every file is closed" rmmod kgames
check "module: the device nodes are gone after unload" bash -c '! grep -qE " (reversi|chess|kxo)$" /proc/misc'
check "module: loads again" insmod "$ko"
check "module: unloads again" rmmod kgames
# As it was found: loaded, with its defaults.
check "module: loads a third time" insmod "$ko"
nodes_ready
finish
