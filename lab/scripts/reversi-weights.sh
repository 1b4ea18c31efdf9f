#!/usr/bin/env bash
# `make reversi-weights`: regenerates the reversi pattern weights from nothing, the way the
# shipped src/reversi/weights.bin was made, and compares the result with it byte for byte.
#
#   lab/scripts/reversi-weights.sh            regenerate into out/reversi-weights/, compare
#   lab/scripts/reversi-weights.sh --install  and copy the result over src/reversi/weights.bin
#
# Two self-play runs of the classic engine (6,500 games, seed 1; 5,400 games, seed 2; 4,000
# nodes a move), then 120 epochs of the integer trainer. Everything is integer arithmetic on
# node budgets, so the bytes depend only on the sources (the search's choices included), not
# on the machine or its load. About 6 minutes of one core. Exits non-zero when the result
# differs from the shipped file (unless installed).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
install=0
[ "${1:-}" = --install ] && install=1
out=out/reversi-weights
mkdir -p "$out"
cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab --bin reversi_selfplay --bin reversi_train
bin=${CARGO_TARGET_DIR:-lab/target}/release
"$bin/reversi_selfplay" 6500 4000 1 "$out/selfplay1.bin" classic
"$bin/reversi_selfplay" 5400 4000 2 "$out/selfplay2.bin" classic
cat "$out/selfplay1.bin" "$out/selfplay2.bin" >"$out/selfplay_all.bin"
"$bin/reversi_train" "$out/selfplay_all.bin" "$out/weights.bin" 120
mode=""
[ "$install" = 1 ] && mode=--install
install_or_compare "$mode" "$out/weights.bin" src/reversi/weights.bin "reversi weights"
