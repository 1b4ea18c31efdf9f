#!/usr/bin/env bash
# Coverage-guided fuzzing of the core code with libFuzzer (libfuzzer-sys) on the stable
# toolchain: the sanitizer-coverage passes are stable rustc flags, no nightly needed.
#
#   scripts/fuzz.sh [TARGET...]     every target of tests/fuzz by default
#   scripts/fuzz.sh --cmin [TARGET...]
#                                   no fuzzing: minimises the stored corpus of each target
#                                   (libFuzzer's -merge=1 into an empty directory: the
#                                   fewest inputs that keep its features) and prints the
#                                   counts before and after
#   FUZZ_SECONDS=180                time per target
#   FUZZ_JOBS=1                     libFuzzer workers per target
#   FUZZ_RUNS=N                     stop each target after N inputs (FUZZ_SECONDS still caps
#                                   the time; a campaign to a given total uses both)
#   FUZZ_MAX_LEN=4096               libFuzzer's -max_len: the longest input it makes (a
#                                   session input of 1,024 bytes is still 4-60 commands; the
#                                   session targets run 3-4x more inputs per second than at
#                                   4,096, where long runs spend most time on the longest)
#   FUZZ_TRACE_CMP=1                0: build without -sanitizer-coverage-trace-compares
#                                   (target/fuzz-nocmp): the session targets and multi run
#                                   1.7-2.5x faster, chess_fen 3x, but libFuzzer no longer
#                                   sees the operands of comparisons (its CMP-guided
#                                   mutations and auto-dictionary); edge coverage is the same
#
#   FUZZ_SAVE=0                     1: merge what the run found into the stored corpus
#                                   tests/fuzz/corpus/<target> (to commit); 0: into
#                                   out/fuzz/<target>.corpus, outside the tree
#
# Each target runs niced on its stored corpus tests/fuzz/corpus/<target> and its working corpus
# out/fuzz/<target>.corpus, where new interesting inputs go; after the run the two are merged
# with libFuzzer's -merge=1 (only inputs that add coverage are kept) into the working corpus,
# or with FUZZ_SAVE=1 into the stored one. Crashes land in out/fuzz/<target>/ and fail the run.
# The last `#N ... cov: E ft: F corp: C` line of each log is printed: N inputs, E edges.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

seconds=${FUZZ_SECONDS:-180}
jobs=${FUZZ_JOBS:-1}
trace_cmp="-Cllvm-args=-sanitizer-coverage-trace-compares "
target_dir=target/fuzz
if [ "${FUZZ_TRACE_CMP:-1}" = 0 ]; then
    trace_cmp=""
    target_dir=target/fuzz-nocmp
fi
cmin=""
if [ "${1:-}" = --cmin ]; then cmin=1; shift; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' tests/fuzz/Cargo.toml | grep -v '^kgames-fuzz$')
fi

host=$(rustc -vV | sed -n 's/^host: //p')
# The flags cargo-fuzz passes for `--sanitizer none`; an explicit --target keeps them off the
# build scripts. Debug assertions and overflow checks stay on in the fuzzed code.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
${trace_cmp}-Cdebug-assertions -Coverflow-checks --cfg fuzzing"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_PANIC=abort
nice -n 19 cargo build --release -q -p kgames-fuzz --features libfuzzer --bins \
    --target "$host" --target-dir "$target_dir"

bin=$target_dir/$host/release
mkdir -p out/fuzz
status=0
if [ -n "$cmin" ]; then
    for t in "${targets[@]}"; do
        stored=tests/fuzz/corpus/$t min=out/fuzz/$t.min
        rm -rf "$min" && mkdir -p "$min" "out/fuzz/$t"
        nice -n 19 "$bin/$t" -merge=1 -timeout=10 -rss_limit_mb=1024 -artifact_prefix="out/fuzz/$t/" \
            "$min" "$stored" >"out/fuzz/$t.cmin.log" 2>&1 || { echo "$t: the merge failed (out/fuzz/$t.cmin.log)"; status=1; continue; }
        before=$(ls "$stored" | wc -l) after=$(ls "$min" | wc -l)
        rm -rf "$stored" && mv "$min" "$stored"
        printf '%-16s %5d inputs -> %5d (%s)\n' "$t" "$before" "$after" "$(du -sh "$stored" | cut -f1)"
    done
    exit $status
fi
for t in "${targets[@]}"; do
    stored=tests/fuzz/corpus/$t work=out/fuzz/$t.corpus
    mkdir -p "out/fuzz/$t" "$stored" "$work"
    log="out/fuzz/$t.log"
    set +e
    par=()
    [ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")
    [ -n "${FUZZ_RUNS:-}" ] && par+=(-runs="$FUZZ_RUNS")
    nice -n 19 "$bin/$t" "${par[@]}" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout=10 \
        -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="out/fuzz/$t/" \
        "$work" "$stored" >"$log" 2>&1
    rc=$?
    set -e
    if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null; rm -f fuzz-*.log; fi
    # Keep the corpus small: only the inputs that add coverage.
    into=$work
    [ "${FUZZ_SAVE:-0}" = 1 ] && into=$stored
    rm -rf "out/fuzz/$t.merged" && mkdir -p "out/fuzz/$t.merged"
    if nice -n 19 "$bin/$t" -merge=1 -artifact_prefix="out/fuzz/$t/" "out/fuzz/$t.merged" \
        "$stored" "$work" >"$log.merge" 2>&1; then
        rm -rf "$into" && mv "out/fuzz/$t.merged" "$into"
        [ "$into" = "$work" ] || rm -rf "$work"
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
