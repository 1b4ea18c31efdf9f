#!/usr/bin/env bash
# `make chess-net`: regenerates the chess network from nothing, the way a shipped
# src/chess/nnue.bin is made: self-play data, training, quantisation.
#
#   lab/scripts/chess-net.sh            data + training into out/chess-net/, compare with the shipped file
#   lab/scripts/chess-net.sh --install  and copy the result over src/chess/nnue.bin
#   lab/scripts/chess-net.sh --smoke    a tiny run (8 games, 2 epochs) that checks the pipeline
#                                       end to end: the network loads and plays (make check)
#
# The data: SETS, each NODES:SEED:GAMES[:REV[:SEARCH]], is chess-datagen --scores at NODES
# nodes a move from 8 random plies, GAMES games from seed SEED, in chunk files of 50 games
# under ~/.cache/kgames/nnue/data-nNODES-sSEED[-REV][-product]; with REV, the games are the
# network's own: src/chess/nnue.bin as of the git revision REV plays them (--net), else the
# classic evaluation. SEARCH is chess-datagen's --search: plain (the default, how the sets
# up to 2026-12-01 were made) or product (the search /dev/chess plays, its table kept
# within a game). Data generation is resumable: a stopped run continues when the command is run
# again, and chunks already made are kept. Then chess-nnue trains H=HIDDEN with ACTIVATION
# for EPOCHS epochs (seed 1, positions mirrored left to right) on the sets in order (the
# held-out positions are the last set's last ones). Node budgets make the games independent
# of the machine's speed (the generator runs 2 threads; a chunk's bytes do not depend on
# them), though not of the search's code: a search change since the data was made changes
# the games. The trainer is deterministic for its thread count (THREADS, 2 for the shipped
# network). With INIT=REV, training starts from src/chess/nnue.bin as of the git revision REV
# (its hidden size and activation) instead of random weights, at the learning rate LR. The
# trainer reads at most MAX_POSITIONS positions (28 bytes of memory each, the batches'
# mirror images made as they are needed). Training is resumable too: it keeps a checkpoint
# per epoch in out/chess-net/, named by its settings, and the same command continues it.
# SCHEDULE is the learning rate's schedule, cosine (the shipped network's, since
# 2026-12-02) or step (the networks before it). OUTPUTS is the number of output buckets by
# the pieces on the board, 1 or 8 (from an INIT network without, each starts as its copy).
# Overridable: SETS HIDDEN ACTIVATION EPOCHS LAMBDA THREADS INIT LR SCHEDULE MAX_POSITIONS
# OUTPUTS.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
mode=${1:-}
# The defaults are the shipped network's recipe (the eighth, 2026-12-02): the seventh
# (0da437ef) trained 2 epochs more on the last set it saw and the first 1.4 M games of its
# own. The seventh was the sixth (e3a63fb5, itself this script with the sets
# "250:9000001:1900000:28da7a7f 250:10000001:1400000:28da7a7f:product" INIT= LR=0.001
# EPOCHS=5 OUTPUTS=1) copied into 8 output buckets and trained 2 epochs more with SETS=
# "250:9000001:1900000:28da7a7f 250:10000001:1900000:28da7a7f:product" INIT=e3a63fb5.
SETS=${SETS:-"250:10000001:1900000:28da7a7f:product 250:11000001:1400000:0da437ef:product"}
HIDDEN=${HIDDEN:-256} ACTIVATION=${ACTIVATION:-screlu} EPOCHS=${EPOCHS:-2}
LAMBDA=${LAMBDA:-0.75} THREADS=${THREADS:-2} INIT=${INIT-0da437ef} LR=${LR:-0.0005}
SCHEDULE=${SCHEDULE:-cosine} OUTPUTS=${OUTPUTS:-8}
MAX_POSITIONS=${MAX_POSITIONS:-300000000}
validation=10000 batch=4096 chunk=50
if [ "$mode" = --smoke ]; then
    SETS="300:1:8:HEAD:product" EPOCHS=2 HIDDEN=16 validation=100 batch=256 INIT= LR=0.001
    out=out/chess-net-smoke data=out/chess-net-smoke
    rm -rf "$out"
else
    out=out/chess-net data=$KGAMES_CACHE/nnue
fi
mkdir -p "$out" "$data"
cargo build --manifest-path lab/Cargo.toml --release -q -p chess-lab --bin chess-datagen --bin chess-nnue
bin=${CARGO_TARGET_DIR:-lab/target}/release
t0=$(date +%s)
sources=()
for set in $SETS; do
    IFS=: read -r nodes seed games rev search <<<"$set"
    search=${search:-plain}
    dir=$data/data-n$nodes-s$seed${rev:+-$rev}
    [ "$search" = plain ] || dir+=-$search
    net=()
    if [ -n "$rev" ]; then
        git show "$rev:src/chess/nnue.bin" >"$out/nnue-$rev.bin"
        net=(--net "$out/nnue-$rev.bin")
    fi
    "$bin/chess-datagen" --games "$games" --chunk-games "$chunk" --nodes "$nodes" --seed "$seed" \
        --scores --threads 2 --search "$search" --dir "$dir" "${net[@]}"
    sources+=(--data "$dir:$(( (games + chunk - 1) / chunk ))")
done
init=()
if [ -n "$INIT" ]; then
    git show "$INIT:src/chess/nnue.bin" >"$out/init-$INIT.bin"
    init=(--init "$out/init-$INIT.bin")
fi
t1=$(date +%s)
settings=(--lr "$LR" --schedule "$SCHEDULE" --hidden "$HIDDEN" --mirror --activation "$ACTIVATION"
    --epochs "$EPOCHS" --batch "$batch" --lambda "$LAMBDA" --threads "$THREADS" --validation "$validation"
    --seed 1 --max-positions "$MAX_POSITIONS" --output-buckets "$OUTPUTS")
# One checkpoint per recipe: the same command continues it, another starts its own.
recipe=$(printf '%s\n' "${sources[@]}" "${init[@]}" "${settings[@]}" | sha256sum | cut -c1-12)
"$bin/chess-nnue" "${sources[@]}" "${init[@]}" "${settings[@]}" \
    --checkpoint "$out/train-$recipe.ckpt" --out "$out/nnue.bin"
t2=$(date +%s)
echo "chess-net: data $((t1 - t0)) s, training $((t2 - t1)) s"
if [ "$mode" = --smoke ]; then
    # The network loads into the engine and plays a move with it.
    cargo build --release -q -p kgames-uci --bin kgames-uci
    reply=$(printf 'position startpos moves e2e4\ngo nodes 2000\n' |
        "${CARGO_TARGET_DIR:-target}/release/kgames-uci" --host --eval nnue --net "$out/nnue.bin")
    grep -q '^bestmove [a-h][1-8][a-h][1-8]' <<<"$reply" || {
        echo "chess-net: the smoke network did not play: $reply" >&2; exit 1; }
    echo "chess-net: the smoke network plays $(grep '^bestmove' <<<"$reply")"
    # It has the output buckets OUTPUTS asked for: the high nibble of the format's byte 10
    # (0 for a single output).
    byte=$(od -An -tu1 -j10 -N1 "$out/nnue.bin" | tr -d ' ')
    outputs=$((byte >> 4))
    [ "$outputs" != 0 ] || outputs=1
    [ "$outputs" = "$OUTPUTS" ] || {
        echo "chess-net: the smoke network has $outputs output buckets, not $OUTPUTS" >&2; exit 1; }
    exit 0
fi
install_or_compare "$mode" "$out/nnue.bin" src/chess/nnue.bin "chess network"
