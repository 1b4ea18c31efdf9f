#!/usr/bin/env bash
# `make reversi-weights`: regenerates the reversi pattern weights the way the shipped
# src/reversi/weights.bin was made, and compares the result with it byte for byte.
#
#   lab/scripts/reversi-weights.sh            regenerate into out/reversi-weights/, compare
#   lab/scripts/reversi-weights.sh --install  and copy the result over src/reversi/weights.bin
#
# Each round of ROUNDS, REV:GAMES:NODES:EXACT:SEED:LAMBDA:EPOCHS, starts from a weight set:
# src/reversi/weights.bin as of the git revision REV, or the set of the round before (REV
# "-"). A set of the first layout (magic KGRPAT01) is converted first (reversi_convert, exact:
# it evaluates every position alike, so it plays the same games). reversi_datagen plays
# GAMES games with that set (NODES a move, perfect from EXACT empties, seed SEED; resumable,
# in KGAMES_CACHE/reversi-data, named after the set's file as REV holds it). Then, unless
# EPOCHS is 0, the trainer continues from that set for EPOCHS epochs on the data of this
# round and of every round before it (the data piles up), the target LAMBDA% search score
# and the rest game result (lab/README.md, "The rule for weights"), and its result is the
# next round's "-". A round with EPOCHS 0 only makes data. About 11 minutes of both cores a
# round of 16,000 games.
#
# The first layout's sets (round 0 from the classic engine's self-play, round 1) are remade
# by this script as of 3d2238d3 (ROUND0=1 there); their files are the start of ROUNDS here.
#
# Everything is integer arithmetic on node budgets, so the bytes depend only on the sources
# (the search's choices included), not on the machine or its load.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
install=0
[ "${1:-}" = --install ] && install=1
ROUNDS=${ROUNDS-"756ec215:16000:8000:16:1001:50:0 ae89c77d:32000:8000:16:1002:50:30"}
out=out/reversi-weights
mkdir -p "$out"
cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab \
    --bin reversi_selfplay --bin reversi_train --bin reversi_datagen --bin reversi_convert
bin=${CARGO_TARGET_DIR:-lab/target}/release
prev="" r=0 data_all=""
for round in $ROUNDS; do
    IFS=: read -r rev games nodes exact seed lambda epochs <<<"$round"
    r=$((r + 1))
    if [ "$rev" != - ]; then
        prev=$out/weights-$rev.bin
        git show "$rev:src/reversi/weights.bin" >"$prev"
    fi
    data=$KGAMES_CACHE/reversi-data/r$r-g$games-n$nodes-e$exact-s$seed-$(sha256sum "$prev" | cut -c1-12)
    if [ "$(head -c 8 "$prev")" = KGRPAT01 ]; then
        "$bin/reversi_convert" "$prev" "$prev.v2"
        prev=$prev.v2
    fi
    "$bin/reversi_datagen" --dir "$data" --games "$games" --chunk-games 200 --nodes "$nodes" \
        --exact "$exact" --seed "$seed" --threads 2 --weights "$prev"
    data_all=${data_all:+$data_all,}$data
    if [ "$epochs" != 0 ]; then
        "$bin/reversi_train" "$data_all" "$out/weights-r$r.bin" "$epochs" "$lambda" "$prev"
        prev=$out/weights-r$r.bin
    fi
done
cp "$prev" "$out/weights.bin"
mode=""
[ "$install" = 1 ] && mode=--install
install_or_compare "$mode" "$out/weights.bin" src/reversi/weights.bin "reversi weights"
