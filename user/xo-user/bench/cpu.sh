#!/usr/bin/env bash
# The CPU cost of xo-user, without the module: docs/tools/xo-user.md, "Cost".
#
#   user/xo-user/bench/cpu.sh [SECONDS] XO-USER...
#
# For each XO-USER binary (e.g. an old build and target/release/xo-user), four cases, each in
# a private tmux server at 200 x 60 (every board on screen):
#   idle      --device FIFO, the FIFO open but silent (a paused or stopped machine)
#   live90    --device FIFO, 90 records/s (9 games at 100 ms: the module's defaults)
#   live3600  --device FIFO, 3600 records/s (the same stream 40 times as fast)
#   replay20  --replay of the demo at --speed 20 (1800 records/s, plus 20 samples/s)
# A FIFO stands in for /dev/kxo: it polls and reads the same way; its ioctls fail (ENOTTY), so
# there are no state or load samples. The records written are those of a `--write-demo`
# recording, at their recorded pace times the factor.
#
# It measures SECONDS (default 20) of CPU time, from 2 s after the start: the sum over the
# process's threads of /proc/PID/task/*/schedstat's run time (nanoseconds; exact, unlike the
# tick-sampled utime/stime), the threads seen, and the voluntary context switches per second
# (the wake-ups), then sends `q`. Needs tmux, python3 and mkfifo.
set -euo pipefail
secs=20
if [[ ${1:-} =~ ^[0-9]+$ ]]; then secs=$1; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [SECONDS] XO-USER..." >&2; exit 2; }
work=$(mktemp -d /tmp/xo-user-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$1" --write-demo "$work/demo.kxorec" --demo-seconds 900
mkfifo "$work/fifo"

# feed FACTOR HOLD: the demo's records into the FIFO at FACTOR times their pace (0: none),
# then the FIFO kept open HOLD seconds.
feed() {
    exec python3 - "$work/demo.kxorec" "$work/fifo" "$1" "$2" <<'EOF' 2>/dev/null
import os, struct, sys, time
path, fifo, speed, hold = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
b = open(path, 'rb').read()
off, entries = 16, []
while off < len(b):
    kind = b[off]
    size = struct.unpack_from('=I', b, off + 4)[0]
    at = struct.unpack_from('=Q', b, off + 8)[0]
    if kind == 1:
        entries.append((at / 1e6, b[off + 16:off + 16 + size]))
    off += 16 + size
fd = os.open(fifo, os.O_WRONLY)
t0 = time.monotonic()
if speed > 0:
    for at, payload in entries:
        d = t0 + at / speed - time.monotonic()
        if d > 0:
            time.sleep(d)
        os.write(fd, payload)
time.sleep(hold)
EOF
}

# measure LABEL BIN FEED ARGS...: one case (FEED: a factor for feed, or - for none).
measure() {
    local label=$1 bin=$2 factor=$3; shift 3
    local d=$work/$label sock=$work/$label/sock fpid=
    mkdir -p "$d"
    if [ "$factor" != - ]; then feed "$factor" $((secs + 30)) & fpid=$!; fi
    tmux -S "$sock" -f /dev/null new-session -d -s t -x 200 -y 60 \
        "$(printf '%q ' "$bin" "$@"); sleep 300"
    sleep 2
    local pid
    pid=$(pgrep -f -n "^$bin " || true)
    [ -n "$pid" ] || { echo "$label: $bin did not start" >&2; tmux -S "$sock" kill-server; return 1; }
    run() { cat /proc/"$pid"/task/*/schedstat | awk '{s += $1} END {printf "%d\n", s}'; }
    wake() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt/ {s += $2} END {print s}'; }
    local a w0 t0 b w1 t1 threads
    w0=$(wake); a=$(run); t0=$(date +%s.%N)
    sleep $((secs / 2)); threads=$(ls /proc/"$pid"/task | wc -l); sleep $((secs - secs / 2))
    b=$(run); w1=$(wake); t1=$(date +%s.%N)
    tmux -S "$sock" send-keys -t t q
    sleep 1
    tmux -S "$sock" kill-server
    if [ -n "$fpid" ]; then kill "$fpid" 2>/dev/null || true; wait "$fpid" 2>/dev/null || true; fi
    python3 -c "print(f'$label: {($b - $a) / 1e6:.0f} ms of CPU in {$t1 - $t0:.1f} s = {($b - $a) / 1e7 / ($t1 - $t0):.2f}% of a CPU, $threads threads, {($w1 - $w0) / ($t1 - $t0):.1f} wake-ups/s')"
}

for bin in "$@"; do
    echo "# $bin"
    measure idle "$bin" 0 --device "$work/fifo"
    measure live90 "$bin" 1 --device "$work/fifo"
    measure live3600 "$bin" 40 --device "$work/fifo"
    measure replay20 "$bin" - --replay "$work/demo.kxorec" --speed 20
done
