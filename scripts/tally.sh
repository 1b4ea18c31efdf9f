# The pass/fail tally of scripts/check.sh, check-debug.sh and check-features.sh (sourced, not run).
# Before sourcing: `repo` and `log` (the log file) are set; after it, the checks count into
# `passed` and `failed`, and `finish NAME` prints the time and "N passed, M failed".
export PATH=$LLVM_BIN:$HOME/.cargo/bin:$PATH
cd "$repo"
mkdir -p "$(dirname "$log")"; : > "$log"
passed=0 failed=0 t0=$(date +%s)
pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }
# run NAME CMD...: one check; output goes to the log (shown on failure).
run() {
    local name=$1; shift
    step "$name"
    if "$@" >> "$log" 2>&1; then pass "$name"; else fail "$name"; tail -n 30 "$log" | sed 's/^/    | /'; fi
}
finish() { echo "${1:-check} took $(( $(date +%s) - t0 )) s"; echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }
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
}

# vm_suite KERNEL [SUITE..]: the in-VM TAP tests on one kernel (scripts/vm-run.sh --kernel), with
# out/vm-KERNEL as output. The module must be built for that kernel first.
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
