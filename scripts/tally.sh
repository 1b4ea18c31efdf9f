# The pass/fail tally of scripts/check.sh, check-debug.sh and check-features.sh (sourced, not run).
# Before sourcing: `repo` and `log` (the log file) are set; after it, the checks count into
# `passed` and `failed`, and `finish NAME` prints the time and "N passed, M failed".
export PATH=/usr/lib/llvm-19/bin:$HOME/.cargo/bin:$PATH
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
