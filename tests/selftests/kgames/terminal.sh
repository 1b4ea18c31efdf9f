#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kgames selftest: the user tools in a real terminal (tmux) on the live devices. xo-user as the
# unprivileged user nobody (Ctrl-P freezes its display) and as root (Ctrl-P pauses the module);
# play as nobody: reversi, chess (a FEN mate in one), kxo, an interrupted CPU move, line mode,
# a 0x0 terminal, the boards as pictures (glyphs and colours read with capture-pane -e), the
# mouse.
# Every check of xo-user-tmux-test and play-tmux-test becomes one line here.
. "$(dirname "$0")/ksft.sh"
require_module
command -v tmux >/dev/null || skip_all "tmux is not installed"
xotest=$(tool xo-user-tmux-test) playtest=$(tool play-tmux-test)

# tmux_tap LABEL CMD...: runs a tmux test program (in /tmp, 900 s at most; the debug kernel
# four times that) and makes each of its `ok - X` / `not ok - X` lines a check "LABEL: X".
# A program stopped by the limit, or failing without saying which check, is a failed check
# too: the checks it did not reach must not pass unseen.
tmux_limit=900
[ -n "${KGAMES_DEBUG:-}" ] && tmux_limit=3600
tmux_tap() {
    local label=$1 line got=0 bad=0 rc=0 out; shift
    out=$(mktemp /tmp/kgames-tmux-tap.XXXXXX)
    (cd /tmp && timeout "$tmux_limit" "$@") > "$out" 2>&1 || rc=$?
    while IFS= read -r line; do
        case "$line" in
            "ok - "*) got=$((got + 1)); ok "$label: ${line#ok - }" ;;
            "not ok - "*) got=$((got + 1)); bad=$((bad + 1)); notok "$label: ${line#not ok - }" ;;
            "#"*) echo "$line" ;;
        esac
    done < "$out"
    rm -f "$out"
    [ $got -gt 0 ] || notok "$label: the test program printed no result"
    if [ $rc = 124 ]; then
        notok "$label: the test program was stopped after $tmux_limit s, before its last check"
    elif [ $rc != 0 ] && [ $bad = 0 ]; then
        notok "$label: the test program failed (status $rc) with no failed check"
    fi
    # A test program stopped by the timeout leaves its tmux server and the tool under test
    # (with a device open, which would keep the module from unloading).
    pkill -KILL -x tmux 2>/dev/null; pkill -KILL -u 65534 2>/dev/null
    sleep 0.2
}
# nobody has a nologin shell: tmux gets /bin/sh.
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp TMPDIR=/tmp SHELL=/bin/sh)
if [ -x "$xotest" ]; then
    # The games run and publish, whatever ran before.
    "$(tool kxo-cat)" restart; "$(tool kxo-cat)" resume
    tmux_tap "xo-user in tmux as nobody" "${nobody[@]}" "$xotest" --timeout 60
    tmux_tap "xo-user in tmux as root" env TMPDIR=/tmp "$xotest" --timeout 60
else
    notok "xo-user: $xotest is not built (make tools)"
fi
if [ -x "$playtest" ]; then
    tmux_tap "play in tmux" "${nobody[@]}" "$playtest" --timeout 60 --quick
else
    notok "play: $playtest is not built (make tools)"
fi
finish
