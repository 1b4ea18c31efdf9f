#!/usr/bin/env bash
# `make reversi-weights`: regenerates the reversi pattern weights the way the shipped
# src/reversi/weights.bin was made, and compares the result with it byte for byte.
#
#   lab/scripts/reversi-weights.sh            regenerate into out/reversi-weights/, compare
#   lab/scripts/reversi-weights.sh --install  and copy the result over src/reversi/weights.bin
#
# Each round of ROUNDS, REV:GAMES:NODES:EXACT:SEED:LAMBDA:EPOCHS, starts from the weights
# before it: the first from src/reversi/weights.bin as of the git revision REV, each later one
# from the round before (REV "-"). reversi_datagen plays GAMES games with those weights
# (NODES a move, perfect from EXACT empties, seed SEED; resumable, in
# KGAMES_CACHE/reversi-data), and the trainer continues from them for EPOCHS epochs on that
# data, the target LAMBDA% search score and the rest game result (lab/README.md, "The rule
# for weights"). About 11 minutes of both cores a round.
#
# ROUND0=1 first regenerates the very first set from nothing (two self-play runs of the
# classic engine, 6,500 games, seed 1, and 5,400, seed 2, at 4,000 nodes a move; 120 epochs
# from zero; about 6 minutes of one core) and compares it with the file of the first round's
# REV, which it made: a change to the search since changes those games, so this one may
# differ (docs/engines/reversi.md, "The weights are reproducible").
#
# Everything is integer arithmetic on node budgets, so the bytes depend only on the sources
# (the search's choices included), not on the machine or its load.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
install=0
[ "${1:-}" = --install ] && install=1
ROUNDS=${ROUNDS-"756ec215:16000:8000:16:1001:50:30"}
out=out/reversi-weights
mkdir -p "$out"
cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab \
    --bin reversi_selfplay --bin reversi_train --bin reversi_datagen
bin=${CARGO_TARGET_DIR:-lab/target}/release
if [ "${ROUND0:-0}" = 1 ]; then
    "$bin/reversi_selfplay" 6500 4000 1 "$out/selfplay1.bin" classic
    "$bin/reversi_selfplay" 5400 4000 2 "$out/selfplay2.bin" classic
    cat "$out/selfplay1.bin" "$out/selfplay2.bin" >"$out/selfplay_all.bin"
    "$bin/reversi_train" "$out/selfplay_all.bin" "$out/weights-r0.bin" 120
    first=${ROUNDS%%:*}
    git show "$first:src/reversi/weights.bin" >"$out/weights-$first.bin"
    cmp -s "$out/weights-r0.bin" "$out/weights-$first.bin" &&
        echo "reversi-weights: round 0 is byte for byte the weights of $first" ||
        echo "reversi-weights: round 0 differs from the weights of $first" >&2
fi
prev="" r=0
for round in $ROUNDS; do
    IFS=: read -r rev games nodes exact seed lambda epochs <<<"$round"
    r=$((r + 1))
    if [ "$rev" != - ]; then
        prev=$out/weights-$rev.bin
        git show "$rev:src/reversi/weights.bin" >"$prev"
    fi
    data=$KGAMES_CACHE/reversi-data/r$r-g$games-n$nodes-e$exact-s$seed-$(sha256sum "$prev" | cut -c1-12)
    "$bin/reversi_datagen" --dir "$data" --games "$games" --chunk-games 200 --nodes "$nodes" \
        --exact "$exact" --seed "$seed" --threads 2 --weights "$prev"
    "$bin/reversi_train" "$data" "$out/weights-r$r.bin" "$epochs" "$lambda" "$prev"
    prev=$out/weights-r$r.bin
done
cp "$prev" "$out/weights.bin"
mode=""
[ "$install" = 1 ] && mode=--install
install_or_compare "$mode" "$out/weights.bin" src/reversi/weights.bin "reversi weights"
