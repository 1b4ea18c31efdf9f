#!/usr/bin/env bash
# Builds programs the way the kernel builds Rust, into lab/target/kernel-like/release: plain
# x86-64 with no SSE, no AVX and soft-float (the kernel's target: nothing vectorised, no
# vector registers), at the kernel's -O2. `kgames-uci` (the product's UCI engine, whose
# `--host` then plays as /dev/chess computes) and the lab's `chess_bench`. Used by
# `chess-ladder --build kernel-like` (docs/tools/uci.md) and lab/scripts/chess-nnue-bench.sh.
#
#   bash lab/scripts/kernel-like.sh            # both
#   bash lab/scripts/kernel-like.sh kgames-uci # one
#
# The host's rustc compiles it, not the kernel's 1.85.1: the same flags, a newer LLVM.
set -euo pipefail
cd "$(dirname "$0")/../.."
export RUSTFLAGS="-C target-feature=-sse,-sse2,-sse3,-ssse3,-sse4.1,-sse4.2,-avx,-avx2,+soft-float -C opt-level=2"
export CARGO_TARGET_DIR=lab/target/kernel-like
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(kgames-uci chess_bench)
for bin in "${want[@]}"; do
    case $bin in
        # rustc warns that the flags change the float ABI: the engines use no floats.
        kgames-uci) cargo build --release -q -p kgames-uci 2>/dev/null ;;
        chess_bench) cargo build --manifest-path lab/Cargo.toml --release -q -p chess-lab --bin chess_bench 2>/dev/null ;;
        *) echo "kernel-like.sh: unknown program $bin (kgames-uci, chess_bench)" >&2; exit 2 ;;
    esac
done
