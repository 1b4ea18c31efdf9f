#!/usr/bin/env bash
# Part of `make bench`: the chess search's speed with the network against the classic
# evaluation, in one run, built for plain x86-64 the way the kernel builds Rust (no SSE, no
# AVX, soft-float: nothing vectorised) and, for comparison, the host's default build. Each
# line: the benchmark's total nodes per second (scripts use chess_bench's 6 positions at
# NODES nodes each, 1,000,000 by default) and the ratio network / classic.
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${NODES:-1000000}
kflags="-C target-feature=-sse,-sse2,-sse3,-ssse3,-sse4.1,-sse4.2,-avx,-avx2,+soft-float -C opt-level=2"
RUSTFLAGS="$kflags" CARGO_TARGET_DIR=lab/target/kernel-like \
    cargo build --manifest-path lab/Cargo.toml --release -q -p chess-lab --bin chess_bench 2>/dev/null
cargo build --manifest-path lab/Cargo.toml --release -q -p chess-lab --bin chess_bench
knps() { "$@" | awk '/^total/ {print $(NF-1)}'; }
for build in kernel-like:lab/target/kernel-like/release/chess_bench host:lab/target/release/chess_bench; do
    name=${build%%:*} bin=${build#*:}
    c=$(knps "$bin" "$nodes") n=$(knps "$bin" "$nodes" --nnue)
    echo "chess search, $name build: classic $c knps, network $n knps, ratio $(awk -v a="$n" -v b="$c" 'BEGIN {printf "%.2f", a / b}')"
done
