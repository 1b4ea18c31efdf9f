#!/usr/bin/env bash
# Coverage-guided fuzzing of the core code with libFuzzer (libfuzzer-sys) on the stable
# toolchain: the sanitizer-coverage passes are stable rustc flags, no nightly needed.
#
#   scripts/fuzz.sh [TARGET...]     every target of tests/fuzz by default
#   FUZZ_SECONDS=180                time per target
#   FUZZ_JOBS=1                     libFuzzer workers per target
#
# Each target runs niced on its corpus tests/fuzz/corpus/<target> (new interesting inputs are
# added there, minimised by libFuzzer); crashes land in out/fuzz/<target>/ and fail the run.
# The last `#N ... cov: E ft: F corp: C` line of each log is printed: N inputs, E edges.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

seconds=${FUZZ_SECONDS:-180}
jobs=${FUZZ_JOBS:-1}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' tests/fuzz/Cargo.toml | grep -v '^kgames-fuzz$')
fi

host=$(rustc -vV | sed -n 's/^host: //p')
# The flags cargo-fuzz passes for `--sanitizer none`; an explicit --target keeps them off the
# build scripts. Debug assertions and overflow checks stay on in the fuzzed code.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks \
--cfg fuzzing"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_PANIC=abort
nice -n 19 cargo build --release -q -p kgames-fuzz --features libfuzzer --bins \
    --target "$host" --target-dir target/fuzz

bin=target/fuzz/$host/release
mkdir -p out/fuzz
status=0
for t in "${targets[@]}"; do
    mkdir -p "out/fuzz/$t" "tests/fuzz/corpus/$t"
    log="out/fuzz/$t.log"
    set +e
    par=()
    [ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")
    nice -n 19 "$bin/$t" "${par[@]}" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="out/fuzz/$t/" \
        "tests/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    set -e
    if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null; rm -f fuzz-*.log; fi
    # Keep the stored corpus small: only the inputs that add coverage.
    rm -rf "out/fuzz/$t.merged" && mkdir -p "out/fuzz/$t.merged"
    if nice -n 19 "$bin/$t" -merge=1 -artifact_prefix="out/fuzz/$t/" "out/fuzz/$t.merged" \
        "tests/fuzz/corpus/$t" >"$log.merge" 2>&1; then
        rm -rf "tests/fuzz/corpus/$t" && mv "out/fuzz/$t.merged" "tests/fuzz/corpus/$t"
    fi
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s+=$1} END {print s+0}')
    printf '%-16s rc=%d runs=%s last: %s\n' "$t" "$rc" "$runs" "$last"
    if [ "$rc" -ne 0 ]; then
        status=1
        grep -E "panicked|ERROR|SUMMARY|Test unit written" -A1 "$log" | head -8 || true
    fi
done
exit $status
