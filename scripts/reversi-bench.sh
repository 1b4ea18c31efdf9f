#!/usr/bin/env bash
# `make bench` (reversi part): the reversi bench built twice, each in its own target directory
# so neither build invalidates the other: for plain x86-64 (the instruction set of the kernel's
# Rust target, `-Ctarget-cpu=x86-64`: no popcnt, no BMI, no lzcnt) and for x86-64-v3 (popcnt,
# lzcnt, BMI1/2, AVX2). Arguments go to the bench (perft depth, peer cap in seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
for cpu in ${REVERSI_BENCH_CPUS:-x86-64 x86-64-v3}; do
    flags="-Ctarget-cpu=$cpu"
    CARGO_TARGET_DIR="target/bench-$cpu" RUSTFLAGS="$flags" \
        cargo build --release -q -p kgames-reversi --example reversi_bench
    KGAMES_BENCH_BUILD="RUSTFLAGS=$flags" "target/bench-$cpu/release/examples/reversi_bench" "$@"
    echo
done
