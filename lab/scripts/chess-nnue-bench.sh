#!/usr/bin/env bash
# Part of `make bench`: the chess search's speed with the network against the classic
# evaluation, in one run, built for plain x86-64 the way the kernel builds Rust (no SSE, no
# AVX, soft-float: nothing vectorised; lab/scripts/kernel-like.sh) and, for comparison, the
# host's default build. Each line: the benchmark's total nodes per second (chess_bench's 6
# positions at NODES nodes each, 1,000,000 by default), the network's with its plain loops
# and, where the CPU has AVX2, with its AVX2 `asm!` (as /dev/chess runs it on such a CPU),
# and the ratios to the classic evaluation.
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${NODES:-1000000}
bash lab/scripts/kernel-like.sh chess_bench
cargo build --manifest-path lab/Cargo.toml --release -q -p chess-lab --bin chess_bench
knps() { "$@" | awk '/^total/ {print $(NF-1)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
avx2=$(grep -qw avx2 /proc/cpuinfo && echo yes || echo no)
for build in kernel-like:lab/target/kernel-like/release/chess_bench host:lab/target/release/chess_bench; do
    name=${build%%:*} bin=${build#*:}
    c=$(knps "$bin" "$nodes") n=$(knps "$bin" "$nodes" --nnue)
    line="chess search, $name build: classic $c knps, network $n knps ($(ratio "$n" "$c"))"
    if [ "$avx2" = yes ]; then
        a=$(knps "$bin" "$nodes" --avx2)
        line+=", network in AVX2 $a knps ($(ratio "$a" "$c"))"
    fi
    echo "$line"
done
