#!/usr/bin/env bash
# `make run` as a person meets it, driven from tmux on the host: a 120x40 terminal runs
# `make run KERNEL=...`; the checks type into it (send-keys) and read the screen (capture-pane):
# the shell has a controlling terminal with job control, the host's size and later resizes,
# `play reversi` draws its board and takes a move, `play chess` draws figurines (the host's
# UTF-8 locale), Ctrl-C interrupts its CPU move with the game unchanged and a shell job,
# Ctrl-Z stops one, `xo-user` draws boards and quits on `q`, and `exit` ends `make run` with
# status 0; then `make run | cat` (its output through a pipe) still gives the guest the
# host's size. Prints "ok - ..." / "not ok - ..." lines.
#   run-terminal-check.sh [KERNEL]    default debian-7.3
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
kernel=${1:-debian-7.3}
s=kgames-run-$$
out=$repo/out/run-terminal
mkdir -p "$out" && rm -f "$out/exit"
fails=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }
screen() { tmux capture-pane -p -t "$s"; }
# until SECONDS REGEX: waits for the screen to match; prints nothing.
until_screen() {
    local end=$((SECONDS + $1))
    while [ $SECONDS -lt $end ]; do screen | grep -qE "$2" && return 0; sleep 0.3; done
    return 1
}
keys() { tmux send-keys -t "$s" "$@"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; screen | tail -n 15 | sed 's/^/    | /'; fi; }
cleanup() { tmux kill-session -t "$s" 2>/dev/null; }
trap cleanup EXIT

tmux new-session -d -s "$s" -x 120 -y 40 -e TERM=xterm-256color -e LANG=C.UTF-8 \
    "cd '$repo' && make -s run KERNEL=$kernel; echo \$? > '$out/exit'; sleep 600"
check "make run reaches the guest's shell prompt as nobody" until_screen 600 'kgames\$ ?$'
keys 'clear; tty; id -un; uname -r; stty size' Enter
check "tty is a terminal device, not 'not a tty'" until_screen 10 '^/dev/(ttyS0|hvc0|tty[0-9]+|pts/[0-9]+)'
rel=$("$here/debian-kernel.sh" "$kernel" --release 2>/dev/null || echo '[0-9.]+')
check "the guest runs the kernel $kernel names" until_screen 5 "^${rel//+/\\+}\$"
check "the shell's user is nobody" until_screen 5 '^nobody$'
check "the guest's terminal has the host's size (40 rows, 120 columns)" until_screen 5 '^40 120$'
tmux resize-window -t "$s" -x 100 -y 30 2>/dev/null || tmux resize-pane -t "$s" -x 100 -y 30
sleep 1
keys 'clear; stty size' Enter
check "a resize of the host's terminal reaches the guest (30 rows, 100 columns)" until_screen 10 '^30 100$'

# Job control: Ctrl-Z stops a job, Ctrl-C ends one.
keys 'clear; sleep 300' Enter; sleep 1; keys C-z
check "Ctrl-Z stops the foreground job (job control)" until_screen 10 'Stopped.*sleep 300'
keys 'kill %1; clear; sleep 300' Enter; sleep 1; keys C-c
keys 'echo after-ctrl-c' Enter
check "Ctrl-C ends the foreground job and the shell goes on" until_screen 10 '^after-ctrl-c$'

# play reversi: the board, a move.
keys 'clear; play reversi --budget N2000' Enter
check "play reversi draws its board" until_screen 30 'a +b +c +d +e +f +g +h'
keys 'd3' Enter
check "play reversi takes a move (d3) and the CPU answers" until_screen 30 'the CPU played [a-h][1-8]'
keys q
check "play reversi quits on q, back to the shell" until_screen 10 'kgames\$ ?$'

# play chess: Ctrl-C during a 9 s CPU move interrupts it; the game is unchanged.
keys 'clear; play chess --budget 9000' Enter
check "play chess draws figurines (the host's UTF-8 locale reached the guest's shell)" \
    until_screen 30 '♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜'
keys 'e2e4' Enter
check "play chess: the CPU is thinking after e2e4" until_screen 10 'CPU thinking'
keys C-c
check "Ctrl-C during the CPU's move interrupts it (the game is as it was)" until_screen 10 'CPU move interrupted'
keys q
check "play chess quits, back to the shell" until_screen 10 'kgames\$ ?$'

# xo-user: boards, q quits.
keys 'clear; xo-user' Enter
check "xo-user draws the AI games' boards" until_screen 30 '#0 r[0-9]+ [A-Z]+ vs [A-Z]+'
keys q
check "xo-user quits on q, back to the shell" until_screen 15 'kgames\$ ?$'

keys 'exit' Enter
for _ in $(seq 100); do [ -s "$out/exit" ] && break; sleep 0.5; done
check "exit powers the VM off and make run ends with status 0" test "$(cat "$out/exit" 2>/dev/null)" = 0

# make run with its output through a pipe: the guest's terminal still has the host's size.
tmux kill-session -t "$s" 2>/dev/null; rm -f "$out/exit"
tmux new-session -d -s "$s" -x 120 -y 40 -e TERM=xterm-256color \
    "cd '$repo' && { make -s run KERNEL=$kernel; echo \$? > '$out/exit'; } | cat; sleep 600"
check "make run | cat reaches the guest's shell prompt" until_screen 300 'kgames\$ ?$'
keys 'clear; stty size' Enter
check "make run | cat: the guest's terminal has the host's size (40 rows, 120 columns)" until_screen 10 '^40 120$'
keys 'exit' Enter
for _ in $(seq 100); do [ -s "$out/exit" ] && break; sleep 0.5; done
check "make run | cat: exit ends it with status 0" test "$(cat "$out/exit" 2>/dev/null)" = 0
[ $fails = 0 ]
