#!/usr/bin/env bash
# `make bench` (reversi part): the reversi bench built twice, each in its own target directory
# so neither build invalidates the other: for plain x86-64 (the instruction set of the kernel's
# Rust target, `-Ctarget-cpu=x86-64`: no popcnt, no BMI, no lzcnt) and for x86-64-v3 (popcnt,
# lzcnt, BMI1/2, AVX2). Arguments go to the bench (perft depth, peer cap in seconds).
#
# With ZEBRA=/path/to/scrzebra (Zebra built on this machine; see docs/engines/reversi.md), each
# build also solves FFO #40-#49 beside Zebra, position by position in one run, and prints the
# ratio ours/Zebra per position and in total (`reversi_ffo`).
set -euo pipefail
cd "$(dirname "$0")/../.."
for cpu in ${REVERSI_BENCH_CPUS:-x86-64 x86-64-v3}; do
    flags="-Ctarget-cpu=$cpu"
    CARGO_TARGET_DIR="lab/target/bench-$cpu" RUSTFLAGS="$flags" \
        cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab --bin reversi_bench --bin reversi_ffo
    skip=()
    [ -n "${ZEBRA:-}" ] && skip=(BENCH_SKIP_FFO=1)
    env "${skip[@]}" KGAMES_BENCH_BUILD="RUSTFLAGS=$flags" \
        "lab/target/bench-$cpu/release/reversi_bench" "$@"
    if [ -n "${ZEBRA:-}" ]; then
        echo "FFO #40-#49 beside Zebra (RUSTFLAGS=$flags):"
        "lab/target/bench-$cpu/release/reversi_ffo" 4194304 40 49
    fi
    echo
done
