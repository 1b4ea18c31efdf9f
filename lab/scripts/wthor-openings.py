#!/usr/bin/env python3
"""Opening lines for reversi_datagen from the WTHOR database's human games.

    lab/scripts/wthor-openings.py PLIES WTH_YYYY.pgn... > wthor-openings.txt

Reads the PGN files of GitHub MartinMSPedersen/othello-games (`pgn/with_python_code/`,
136,055 games of 1977-2025; fetched, never committed) and prints the first PLIES moves of
every game with at least that many, written together in lower case (`f5d6c3...`, the form
of `reversi_datagen --openings`), each distinct line once, sorted: the output depends only
on the files, not on their order. reversi_datagen replays a line and checks it (an illegal
line is dropped there), then plays the game on by search, so the positions it records are
the engine's, reached from openings that people played.
"""
import re
import sys

MOVE = re.compile(r"\b([A-Ha-h][1-8])\b")


def games(path):
    """The move lists of the games of one PGN file."""
    moves = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.strip()
            if line.startswith("[Event"):
                if moves:
                    yield moves
                moves = []
            elif line and not line.startswith("["):
                moves += [m.lower() for m in MOVE.findall(line)]
    if moves:
        yield moves


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2
    try:
        plies = int(sys.argv[1])
    except ValueError:
        print(f"wthor-openings: PLIES must be a number, not {sys.argv[1]!r}", file=sys.stderr)
        return 2
    lines = set()
    for path in sys.argv[2:]:
        try:
            for moves in games(path):
                if len(moves) >= plies:
                    lines.add("".join(moves[:plies]))
        except OSError as e:
            print(f"wthor-openings: {path}: {e.strerror}", file=sys.stderr)
            return 1
    for line in sorted(lines):
        print(line)
    print(f"wthor-openings: {len(lines)} distinct lines of {plies} plies", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
