#!/usr/bin/env bash
# `make reversi-weights`: regenerates the reversi pattern weights the way the shipped
# src/reversi/weights.bin was made, and compares the result with it byte for byte.
#
#   lab/scripts/reversi-weights.sh            regenerate into out/reversi-weights/, compare
#   lab/scripts/reversi-weights.sh --install  and copy the result over src/reversi/weights.bin
#
# Each round of ROUNDS, REV:GAMES:NODES:EXACT:SEED:LAMBDA:EPOCHS:ENGINE:STEP, starts from a
# weight set: src/reversi/weights.bin as of the git revision REV, or the set of the round before (REV
# "-"). A set of the first layout (magic KGRPAT01) is converted first (reversi_convert, exact:
# it evaluates every position alike, so it plays the same games). reversi_datagen plays
# GAMES games with that set (NODES a move, perfect from EXACT empties, seed SEED; resumable,
# in KGAMES_CACHE/reversi-data, named after the set's file and the engine) as the engine of
# the git revision ENGINE plays them (default: this checkout's): the games depend on the
# search, so each round names the engine that made its data, and a later change to the
# search leaves the recipe's bytes alone. An older engine's reversi_datagen is built once from
# `git archive ENGINE` into KGAMES_CACHE/reversi-engines/ENGINE. Then, unless
# EPOCHS is 0, the trainer continues from that set for EPOCHS epochs on the data of this
# round and of every round before it (the data piles up), the target LAMBDA% search score
# and the rest game result (lab/README.md, "The rule for weights"), its step divisor STEP
# (rounds 1-3 were trained with 24, which overshoots: reversi_train's header), and its result
# is the next round's "-". A round with EPOCHS 0 only makes data. About 11 minutes of both
# cores a round of 16,000 games (the last round needs XOT, below).
#
# Two optional fields follow STEP: OPENINGS, `xot` to start the games from the XOT openings
# of the file named by the environment's XOT (Egaroucid's bin/resources/xot/openingslarge.txt,
# fetched, never committed) instead of random plies, or `wthorN` from the first N plies of
# the human games of the WTHOR database (the PGN files in the folder named by WTHOR, GitHub
# MartinMSPedersen/othello-games pgn/with_python_code, fetched, never committed; the lines
# by lab/scripts/wthor-openings.py); and EPOCHS may be
# `fit/PRIOR/SMOOTH/ITER[/BACK]`: then reversi_fit, not reversi_train, fits the round's own
# data and that of the BACK rounds before it (default 0; the prior draws each weight to the
# set the round started from, which carries the earlier rounds' knowledge, so older data
# need not be kept).
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
ROUNDS=${ROUNDS-"756ec215:16000:8000:16:1001:50:0:795aff49:24 ae89c77d:32000:8000:16:1002:50:30:795aff49:24 -:32000:8000:16:1003:50:30:795aff49:24 -:16000:8000:16:1004:50:150:87996876:48 -:32000:8000:16:1005:50:150:87996876:48 -:20600:8000:18:1007:50:fit/64/16/40:10e9d804:48:xot -:24000:8000:18:1008:50:fit/64/16/40/1:ec1ad75c:48:xot"}
out=out/reversi-weights
mkdir -p "$out"
cargo build --manifest-path lab/Cargo.toml --release -q -p reversi-lab \
    --bin reversi_selfplay --bin reversi_train --bin reversi_datagen --bin reversi_convert \
    --bin reversi_fit
bin=${CARGO_TARGET_DIR:-lab/target}/release

# datagen ENGINE: the path of reversi_datagen as the git revision ENGINE builds it (this
# checkout's when ENGINE is empty or is HEAD and the tree is clean).
datagen() {
    local engine=$1 dir
    if [ -z "$engine" ]; then
        echo "$bin/reversi_datagen"
        return
    fi
    engine=$(git rev-parse --short=8 "$engine^{commit}")
    dir=$KGAMES_CACHE/reversi-engines/$engine
    if [ ! -x "$dir/reversi_datagen" ]; then
        echo "==> building reversi_datagen as of $engine into $dir" >&2
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        git archive "$engine" | tar -x -C "$dir/src"
        CARGO_TARGET_DIR=$dir/target cargo build --manifest-path "$dir/src/lab/Cargo.toml" \
            --release -q -p reversi-lab --bin reversi_datagen >&2
        cp "$dir/target/release/reversi_datagen" "$dir/reversi_datagen"
        rm -rf "$dir/src" "$dir/target"
    fi
    echo "$dir/reversi_datagen"
}

# A round that starts from XOT openings or WTHOR games needs their files: say so before the
# first round.
case " $ROUNDS " in
    *:xot\ *) [ -f "${XOT:-}" ] || {
        echo "reversi-weights: a round starts from XOT openings: set XOT to Egaroucid's" \
            "bin/resources/xot/openingslarge.txt (fetched, never committed)" >&2
        exit 2
    } ;;
esac
case " $ROUNDS " in
    *:wthor*) compgen -G "${WTHOR:-/nonexistent}/WTH_*.pgn" >/dev/null || {
        echo "reversi-weights: a round starts from WTHOR games: set WTHOR to the folder" \
            "pgn/with_python_code of GitHub MartinMSPedersen/othello-games (fetched, never" \
            "committed)" >&2
        exit 2
    } ;;
esac
prev="" r=0 rounds_data=()
for round in $ROUNDS; do
    IFS=: read -r rev games nodes exact seed lambda epochs engine step openings <<<"$round"
    r=$((r + 1))
    open_args=()
    case "${openings:-}" in
        xot) open_args=(--openings "$XOT") ;;
        wthor*)
            # The first N plies of the WTHOR games (wthorN), each distinct line once.
            python3 lab/scripts/wthor-openings.py "${openings#wthor}" "$WTHOR"/WTH_*.pgn \
                >"$out/$openings.txt"
            open_args=(--openings "$out/$openings.txt")
            ;;
    esac
    if [ "$rev" != - ]; then
        prev=$out/weights-$rev.bin
        git show "$rev:src/reversi/weights.bin" >"$prev"
    fi
    data=$KGAMES_CACHE/reversi-data/r$r-g$games-n$nodes-e$exact-s$seed${openings:+-$openings}-$(sha256sum "$prev" | cut -c1-12)
    [ -n "${engine:-}" ] && data=$data-x$(git rev-parse --short=8 "$engine^{commit}")
    if [ "$(head -c 8 "$prev")" = KGRPAT01 ]; then
        "$bin/reversi_convert" "$prev" "$prev.v2"
        prev=$prev.v2
    fi
    "$(datagen "${engine:-}")" --dir "$data" --games "$games" --chunk-games 200 --nodes "$nodes" \
        --exact "$exact" --seed "$seed" --threads 2 --weights "$prev" "${open_args[@]}"
    rounds_data+=("$data")
    if [ "${epochs%%/*}" = fit ]; then
        IFS=/ read -r _ prior smooth iterations back <<<"$epochs"
        # This round's data and that of the BACK rounds before it, oldest first.
        fit_data=$(IFS=,; echo "${rounds_data[*]: -$((${back:-0} + 1))}")
        "$bin/reversi_fit" --data "$fit_data" --out "$out/weights-r$r.bin" --start "$prev" \
            --lambda "$lambda" --prior "$prior" --smooth "$smooth" --iterations "$iterations"
        prev=$out/weights-r$r.bin
    elif [ "$epochs" != 0 ]; then
        # The data of every round so far.
        train_data=$(IFS=,; echo "${rounds_data[*]}")
        "$bin/reversi_train" "$train_data" "$out/weights-r$r.bin" "$epochs" "$lambda" "$prev" \
            "${step:-48}"
        prev=$out/weights-r$r.bin
    fi
done
cp "$prev" "$out/weights.bin"
mode=""
[ "$install" = 1 ] && mode=--install
install_or_compare "$mode" "$out/weights.bin" src/reversi/weights.bin "reversi weights"
