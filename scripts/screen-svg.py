#!/usr/bin/env python3
"""A terminal screen captured with colours (`tmux capture-pane -p -e`) drawn as an SVG picture:
one cell per character on a dark terminal's default colours, the xterm 256-colour palette,
bold and reverse video. Rows equal to the row above them (a panel's empty rows) are dropped
after the first two, so the picture keeps what the screen shows.

    screen-svg.py CAPTURE.ansi OUT.svg

play-tmux-test --screens DIR saves DIR/NAME.ansi next to NAME.txt; docs/tools/play.md shows
the pictures made from them (docs/tools/screens/).
"""
import html
import re
import sys

CELL_W, CELL_H, FONT = 9, 18, 15
DEFAULT_FG, DEFAULT_BG = "#d0d0d0", "#1c1c1c"
# Box-drawing characters drawn as lines from the cell's centre: up, down, left, right.
BOX = {"│": "ud", "─": "lr", "┌": "rd", "┐": "ld", "└": "ur", "┘": "ul", "├": "udr",
       "┤": "udl", "┬": "lrd", "┴": "lru", "┼": "udlr"}
# The 16 colours of xterm's default palette.
BASE = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]


def palette(n):
    """The RGB of xterm colour n (0-255)."""
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        r, g, b = levels[n // 36], levels[(n // 6) % 6], levels[n % 6]
        return f"#{r:02x}{g:02x}{b:02x}"
    v = 8 + 10 * (n - 232)
    return f"#{v:02x}{v:02x}{v:02x}"


def cells(line):
    """The line's characters, each with (fg, bg, bold, reverse)."""
    fg = bg = None
    bold = rev = False
    out = []
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if not m:
            for ch in part:
                out.append((ch, fg, bg, bold, rev))
            continue
        codes = [int(c) if c else 0 for c in m.group(1).split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg = bg = None
                bold = rev = False
            elif c == 1:
                bold = True
            elif c == 22:
                bold = False
            elif c == 7:
                rev = True
            elif c == 27:
                rev = False
            elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                if c == 38:
                    fg = palette(codes[i + 2])
                else:
                    bg = palette(codes[i + 2])
                i += 2
            elif 30 <= c <= 37:
                fg = BASE[c - 30]
            elif 90 <= c <= 97:
                fg = BASE[c - 90 + 8]
            elif 40 <= c <= 47:
                bg = BASE[c - 40]
            elif 100 <= c <= 107:
                bg = BASE[c - 100 + 8]
            elif c == 39:
                fg = None
            elif c == 49:
                bg = None
            i += 1
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) == 2 else 2)
    lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
    kept, same = [], 0
    for line in lines:
        same = same + 1 if kept and line == kept[-1] else 0
        if same < 2:
            kept.append(line)
    rows = [cells(line) for line in kept]
    width = max(len(r) for r in rows)
    w, h = width * CELL_W + 16, len(rows) * CELL_H + 16
    # Lines on the cells' edges stay sharp.
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h}" '
           f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT}">',
           f'<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>']
    for y, row in enumerate(rows):
        top = 8 + y * CELL_H
        for x, (ch, fg, bg, bold, rev) in enumerate(row):
            fg, bg = fg or DEFAULT_FG, bg
            if rev:
                fg, bg = bg or DEFAULT_BG, fg
            left = 8 + x * CELL_W
            if bg:
                svg.append(f'<rect x="{left:.1f}" y="{top}" width="{CELL_W + 0.1:.1f}" '
                           f'height="{CELL_H}" fill="{bg}"/>')
            if ch in BOX:
                cx, cy = left + CELL_W / 2, top + CELL_H / 2
                ends = {"u": (cx, top), "d": (cx, top + CELL_H), "l": (left, cy),
                        "r": (left + CELL_W, cy)}
                for e in BOX[ch]:
                    ex, ey = ends[e]
                    svg.append(f'<line x1="{cx:.2f}" y1="{cy}" x2="{ex:.2f}" y2="{ey}" '
                               f'stroke="{fg}"/>')
            elif ch.strip():
                weight = ' font-weight="bold"' if bold else ""
                svg.append(f'<text x="{left + CELL_W / 2:.2f}" y="{top + CELL_H - 5}" '
                           f'text-anchor="middle" fill="{fg}"{weight}>{html.escape(ch)}</text>')
    svg.append("</svg>")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
