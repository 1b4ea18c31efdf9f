#!/usr/bin/env bash
# `make check-debug`: the in-VM suite on the debug kernel (scripts/kernel-debug.config: KASAN,
# kmemleak, UBSAN, debug objects, fault injection, lockdep, Rust debug assertions), plus the
# fault-injection sweeps (`faults`) and the 5-minute 64-process stress (`stress64`), with a
# kmemleak scan after the run; then one VM run per report kind, each of which must fail the
# runner (the detector's self-tests), and one with an injected fault's stack trace, which
# must not. Ends with "N passed, M failed". Not part of `make check` (see docs/testing.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/lib.sh"
log=out/check-debug.log
. "$here/tally.sh"
mkdir -p out/debug

run "setup: toolchain" bash scripts/setup-toolchain.sh --test-kernel
step "setup: debug kernel (cached after the first build)"
tk=$(date +%s)
if dkdir=$(bash scripts/kernel-build.sh --debug 2> >(tee -a "$log" | grep -E '^(==>|    |error)' >&2)); then
    pass "setup: debug kernel ($(( $(date +%s) - tk )) s)"
else
    fail "setup: debug kernel"; finish check-debug
fi
# The module for the debug kernel, built from a copy of the sources: out/debug/kgames.ko.
build_debug_module() { build_module_copy "$dkdir" "$repo/out/debug"; }
run "module: kgames.ko for the debug kernel, no warning" build_debug_module
run "tools: build the in-VM test binary" make -s tools

# 1. The whole suite, the fault-injection sweeps and the stress on the debug kernel.
step "vm (debug): the in-VM suite + faults + stress64 (35 to 60 minutes)"
tv=$(date +%s)
bash scripts/vm-run.sh --debug --tests base reversi chess kxo othello stress fairness faults stress64 \
    --out "$repo/out/vm-debug" > out/vm-debug.log 2>&1; rc=$?
cat out/vm-debug.log >> "$log"
echo "vm (debug): $(( $(date +%s) - tv )) s"
grep -h '^kmemleak:' out/vm-debug.log || true
vm_tally debug "$repo/out/vm-debug" out/vm-debug.log $rc

# 2. The detector on the debug kernel: each report kind, made on purpose, fails the run.
# caught NAME VM-RUN-ARGS...: the run must end with exit 90 and NAME's pattern in its log.
caught() {
    local name=$1 want=$2; shift 2
    step "detector (debug): $name"
    local o="$repo/out/vm-debug-$name"
    bash scripts/vm-run.sh --debug "$@" --out "$o" > "$o.log" 2>&1; local rc=$?
    cat "$o.log" >> "$log"
    if [ $rc = 90 ] && grep -qE "$want" "$o.log"; then
        pass "detector (debug): $name fails the run"
    else
        fail "detector (debug): $name fails the run (runner exit $rc)"; tail -n 20 "$o.log" | sed 's/^/    | /'
    fi
}
caught warning 'WARNING:' --cmd true --insmod-args test_report=1
caught kasan 'BUG: KASAN' --root --cmd 'echo WRITE_AFTER_FREE > /sys/kernel/debug/provoke-crash/DIRECT'
caught ubsan 'UBSAN: array-index-out-of-bounds' --root --cmd 'echo ARRAY_BOUNDS > /sys/kernel/debug/provoke-crash/DIRECT'
caught kmemleak 'unreferenced object' --cmd true --insmod-args test_report=2
caught odebug 'ODEBUG: free active' --cmd true --insmod-args test_report=3
caught rust-debug-assert 'panicked at' --cmd true --insmod-args test_report=4
# 3. An injected fault with its full stack trace is not a report: the `faults_trace` test
# fails one allocation of the module with fault injection's verbose=2 message.
step "detector (debug): an injected fault's stack trace"
o="$repo/out/vm-debug-injected"
bash scripts/vm-run.sh --debug --root --out "$o" --cmd 'target/release/kgames-vmtest faults_trace' > "$o.log" 2>&1; rc=$?
cat "$o.log" >> "$log"
if [ $rc = 0 ] && grep -q 'FAULT_INJECTION: forcing a failure' "$o/console.log" && grep -q 'Call Trace:' "$o/console.log"; then
    pass "detector (debug): an injected fault's stack trace does not fail the run"
else
    fail "detector (debug): an injected fault's stack trace does not fail the run (runner exit $rc)"; tail -n 20 "$o.log" | sed 's/^/    | /'
fi
finish check-debug
