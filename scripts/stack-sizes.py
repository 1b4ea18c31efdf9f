"""Reads `llvm-readobj --stack-sizes` of kgames_main.o on stdin (scripts/stack-sizes.sh) and
prints the frames of each CPU search's call chain and its worst case: every frame live during
the search, from the write trampoline down to the deepest recursion the engine allows, whose
bounds are read from the sources. Argument --all: also every frame of 512 bytes or more."""
import os
import re
import subprocess
import sys

text = sys.stdin.read()
entries = re.findall(r"Functions: \[([^\]]*)\]\s*Size: (0x[0-9A-Fa-f]+)", text)
names = subprocess.run([os.environ["LLVM_BIN"] + "/llvm-cxxfilt"], input="\n".join(e[0] for e in entries),
                       capture_output=True, text=True, check=True).stdout.split("\n")
frames = {}
for (_, size), name in zip(entries, names):
    frames[name] = max(frames.get(name, 0), int(size, 16))


def const(path, name):
    m = re.search(rf"const {name}: \w+ = (\d+);", open(path).read())
    if not m:
        sys.exit(f"no constant {name} in {path}")
    return int(m.group(1))


def frame(pattern):
    hits = [(s, n) for n, s in frames.items() if re.search(pattern, n)]
    if len(hits) != 1:
        sys.exit(f"{len(hits)} functions match {pattern!r}: {[n for _, n in hits]}")
    return hits[0]


max_depth = const("src/reversi/search.rs", "MAX_DEPTH")
max_solve = const("src/reversi/search.rs", "MAX_SOLVE_EMPTIES")
small = const("src/reversi/endgame.rs", "SMALL_EMPTIES")
max_ply = const("src/chess/search.rs", "MAX_PLY")
nesting = const("src/chess/search.rs", "MAX_SINGULAR_NESTING")

GAMEFILE = r"^<kernel::miscdevice::MiscdeviceVTable<kgames_main::kmod::game::file::GameFile<kgames_main::session::{}>>>::write_iter$"
chains = {
    f"reversi midgame ({max_depth} plies, MAX_DEPTH)": [
        (GAMEFILE.format(r"reversi_game::Reversi"), 1),
        (r"^kgames_main::reversi::search::best_move$", 1),
        (r"::Searcher>::root_search$", 1),
        (r"::Searcher>::pvs$", max_depth),
        (r"^kgames_main::reversi::pattern::evaluate$", 1),
    ],
    f"reversi endgame ({max_solve} empties, MAX_SOLVE_EMPTIES)": [
        (GAMEFILE.format(r"reversi_game::Reversi"), 1),
        (r"^kgames_main::reversi::search::best_move$", 1),
        (r"::Searcher>::root_search$", 1),
        (r"::Searcher>::solve$", max_solve - small),
        # The small solver still recurses on a pass: at most two frames an empty square.
        (r"::Searcher>::solve_small$", 2 * small),
    ],
    f"chess ({max_ply} plies, MAX_PLY; a null move each; {nesting} singular search(es) inside, MAX_SINGULAR_NESTING)": [
        (GAMEFILE.format(r"chess_game::Chess"), 1),
        (r"^kgames_main::chess::search::best_move$", 1),
        (r"^<kgames_main::chess::search::Search>::negamax$", max_ply + nesting),
        (r"^<kgames_main::chess::search::Search>::null_move_cuts$", max_ply),
        (r"^<kgames_main::chess::search::Search>::singular$", nesting),
        (r"^<kgames_main::chess::search::Search>::evaluate_at$", 1),
        (r"^<kgames_main::chess::game::Game>::evaluate$", 1),
    ],
}
for title, chain in chains.items():
    total = 0
    print(f"{title}:")
    for pattern, count in chain:
        size, name = frame(pattern)
        total += size * count
        short = re.sub(r"kgames_main::|kernel::miscdevice::|session::\w+::", "", name)
        print(f"  {size:6} x {count:2}  {short}")
    print(f"  {total:6} bytes of Rust frames in all (the kernel stack: 16384)")
if len(sys.argv) > 1 and sys.argv[1] == "--all":
    print("frames of 512 bytes or more:")
    for name, size in sorted(frames.items(), key=lambda x: -x[1]):
        if size >= 512:
            print(f"  {size:6}  {name}")
