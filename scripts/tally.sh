# The pass/fail tally of scripts/check.sh (sourced, not run).
# Before sourcing: `repo` and `log` (the log file) are set; after it, the checks count into
# `passed` and `failed`, each check's line ends with its time, `phase NAME` starts a phase,
# and `finish NAME` prints every phase's time, the total and "N passed, M failed".
export PATH=$LLVM_BIN:$HOME/.cargo/bin:$PATH
cd "$repo"
mkdir -p "$(dirname "$log")"; : > "$log"
passed=0 failed=0 t0=$(date +%s) step_t0=$(date +%s)
phase_names=() phase_secs=() phase_name="" phase_t0=$t0
# step NAME: a check begins (its name on standard error; its time counts from here).
step() { step_t0=$(date +%s); printf '==> %s\n' "$*" >&2; }
took() { echo "$(( $(date +%s) - step_t0 )) s"; }
pass() { passed=$((passed + 1)); echo "ok - $* ($(took))"; }
fail() { failed=$((failed + 1)); echo "not ok - $* ($(took))"; }
# phase NAME: the checks that follow belong to NAME (for the table of times at the end).
phase() {
    local now; now=$(date +%s)
    if [ -n "$phase_name" ]; then phase_names+=("$phase_name"); phase_secs+=($((now - phase_t0))); fi
    phase_name=$1 phase_t0=$now
    printf -- '--- %s\n' "$1"
}
# run NAME CMD...: one check; output goes to the log (shown on failure).
run() {
    local name=$1; shift
    step "$name"
    if "$@" >> "$log" 2>&1; then pass "$name"; else fail "$name"; tail -n 30 "$log" | sed 's/^/    | /'; fi
}
finish() {
    local i total=$(( $(date +%s) - t0 ))
    phase ""
    echo "time by phase (s):"
    for i in "${!phase_names[@]}"; do printf '  %5d  %s\n' "${phase_secs[$i]}" "${phase_names[$i]}"; done
    echo "${1:-check} took $total s"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]; exit $?
}
# vm_tally LABEL DIR LOG RC: counts one VM run of the in-VM tests (scripts/vm-run.sh --tests
# --out DIR, its output in LOG, its exit status RC): DIR/tap.txt is the kselftest runner's TAP,
# each program's own TAP nested in it ("# ok 3 - ..."): every test of a program and every
# program count, each failed test shown with the diagnostics it printed (its last 12 "#"
# lines); then two checks of the run itself: a clean kernel log and a finished guest.
vm_tally() {
    local label=$1 dir=$2 vlog=$3 rc=$4 p f
    if [ -f "$dir/tap.txt" ]; then
        p=$(grep -cE '^(# )?ok ' "$dir/tap.txt"); f=$(grep -cE '^(# )?not ok ' "$dir/tap.txt")
        awk '/^(# )?ok /     { n = 0; next }
             /^(# )?not ok /  { for (i = (n > 12 ? n - 12 : 0); i < n; i++) print buf[i % 12]; print; n = 0; next }
             /^#/            { buf[n++ % 12] = $0; next }' \
            "$dir/tap.txt" | sed "s/^/[$label] /" | head -n 120
        passed=$((passed + p)); failed=$((failed + f))
        echo "vm ($label): $p passed, $f failed"
        [ $((p + f)) -gt 0 ] || { fail "vm ($label): the run reported its tests"; tail -n 20 "$dir/tap.txt"; }
    else
        fail "vm ($label): no TAP output"; tail -n 40 "$vlog"
    fi
    case $rc in
        90) fail "vm ($label): the kernel log is clean (a BUG/WARNING/lockdep/lockup/panic/KASAN/kmemleak report)"
            grep -A22 'kernel log problem' "$vlog" ;;
        91) fail "vm ($label): the guest finished (it crashed or hung)" ;;
        *) pass "vm ($label): the kernel log is clean and the guest finished" ;;
    esac
    slowest "$dir"
}
# slowest DIR: the five longest stretches between two TAP lines of a VM run (DIR/tap-times.txt,
# each line after the second it arrived): where the run's time went.
slowest() {
    [ -s "$1/tap-times.txt" ] || return 0
    awk '/^[0-9]+ TAP/ { last = $1; next }
         /^[0-9]+ (# )?(not )?ok / { t = $1; d = t - last; last = t; sub(/^[0-9]+ /, ""); printf "%6d s  %s\n", d, $0 }' \
        "$1/tap-times.txt" |
        sort -rn | head -n 5 | sed 's/^/    slowest: /'
}

# vm_suite KERNEL [VM-RUN ARGS..]: the in-VM TAP tests on one kernel (scripts/vm-run.sh
# --kernel), with out/vm-KERNEL as output; the arguments go to vm-run.sh (suites, --progs,
# --then). The module must be built for that kernel first.
vm_suite() {
    local kernel=$1 o=$repo/out/vm-$1 rc
    shift
    step "vm ($kernel): in-VM tests (TAP; boot takes 20-25 s under TCG)"
    bash scripts/vm-run.sh --kernel "$kernel" --tests --out "$o" "$@" > "$o.log" 2>&1; rc=$?
    cat "$o.log" >> "$log"
    vm_tally "$kernel" "$o" "$o.log" $rc
}

# kunit_tally LABEL DMESG: counts the KTAP of kgames.ko's KUnit suites (src/ktest/kunit.rs) in a
# guest's kernel log: each case a check, and a check that the suites ran at all (a kernel with
# CONFIG_KUNIT=y runs them at the module's first load).
kunit_tally() {
    local label=$1 dmesg=$2 p f suites
    sed 's/^\[[^]]*\] \{0,1\}//' "$dmesg" 2>/dev/null | awk '
        /^ *# Subtest: kgames_/ { suite = $3; inside = 1; print; next }
        inside && /^ +(not )?ok [0-9]+ / { sub(/^ +/, ""); print "    " $0 " (" suite ")"; next }
        /^(not )?ok [0-9]+ kgames_/ { inside = 0 }' > "$dmesg.kunit"
    suites=$(grep -c '# Subtest: kgames_' "$dmesg.kunit")
    p=$(grep -cE '^    ok ' "$dmesg.kunit"); f=$(grep -cE '^    not ok ' "$dmesg.kunit")
    grep -E '^    not ok ' "$dmesg.kunit" | sed "s/^/[$label kunit] /"
    passed=$((passed + p)); failed=$((failed + f))
    echo "kunit ($label): $suites suites, $p cases passed, $f failed"
    if [ "$suites" -ge 4 ]; then pass "kunit ($label): kgames.ko's $suites KUnit suites ran at insmod"
    else fail "kunit ($label): kgames.ko's KUnit suites ran at insmod (found $suites of 4)"; fi
}
