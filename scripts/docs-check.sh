#!/usr/bin/env bash
# The documentation's own checks (run by `make check`; exit 1 and one line per problem):
#  1. every relative link in README.md and docs/ resolves to a file in the repository, and a
#     link's #anchor names a heading of that file (GitHub's anchor rules);
#  2. every `make <target>` the docs name is a target of the Makefile;
#  3. no file of the repository cites a path outside it (../shared, PROTOCOL.md).
# `scripts/docs-check.sh --self-test` proves each check fails on a planted fault.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

check() {
    local root=$1 bad=0
    python3 - "$root" <<'EOF' || bad=1
import os, re, sys
root = sys.argv[1]
docs = [os.path.join(root, "README.md")]
for d, _, fs in os.walk(os.path.join(root, "docs")):
    docs += [os.path.join(d, f) for f in fs if f.endswith(".md")]

def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        text = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n, a = 0, text
        while a in out:
            n += 1
            a = f"{text}-{n}"
        out.add(a)
    return out

targets = set()
for line in open(os.path.join(root, "Makefile"), encoding="utf-8"):
    m = re.match(r"^([a-zA-Z0-9_.-]+(?:\s+[a-zA-Z0-9_.-]+)*)\s*:(?!=)", line)
    if m:
        targets.update(m.group(1).split())

problems = []
for doc in docs:
    rel = os.path.relpath(doc, root)
    text = open(doc, encoding="utf-8").read()
    # Links outside code: strip fenced blocks and inline code first.
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if not dest.startswith(root + os.sep) and dest != root:
            problems.append(f"{rel}: link leaves the repository: {target}")
            continue
        if not os.path.exists(dest):
            problems.append(f"{rel}: broken link: {target}")
            continue
        if anchor and dest.endswith(".md") and anchor not in anchors(dest):
            problems.append(f"{rel}: no heading for #{anchor} in {os.path.relpath(dest, root)}")
    # `make <target>` in inline code, or at the start of a line of a code block.
    for t in re.findall(r"(?:`|^\s*(?:\$\s+)?)make\s+([a-z][a-z0-9_-]*)", text, flags=re.M):
        if t not in targets:
            problems.append(f"{rel}: names `make {t}`, which the Makefile does not have")

for line in problems:
    print(line)
sys.exit(1 if problems else 0)
EOF
    # 3. Citations of paths outside the repository, in any tracked or new file.
    local hits
    hits=$(cd "$root" && grep -rnE '\.\./shared|PROTOCOL\.md' --exclude-dir=target --exclude-dir=.git \
        --exclude-dir=corpus --exclude=docs-check.sh . 2>/dev/null)
    if [ -n "$hits" ]; then
        echo "$hits" | sed 's/^/cites a path outside the repository: /'
        bad=1
    fi
    return $bad
}

if [ "${1:-}" = --self-test ]; then
    t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/docs"
    printf 'all:\n\ncheck:\n' > "$t/Makefile"
    printf '# Top\n\n## A section\n\nSee [a](docs/a.md#one) and `make check`.\n' > "$t/README.md"
    printf '# One\n' > "$t/docs/a.md"
    check "$t" > /dev/null || { echo "self-test: a clean tree fails"; exit 1; }
    for fault in 'see [b](docs/b.md)' 'see [a](docs/a.md#two)' 'run `make bench`' \
        'see [up](../x.md)'; do
        cp "$t/README.md" "$t/R.bak"; echo "$fault" >> "$t/README.md"
        check "$t" > /dev/null && { echo "self-test: not caught: $fault"; exit 1; }
        mv "$t/R.bak" "$t/README.md"
    done
    echo '// see ../shared/X.md' > "$t/x.rs"
    check "$t" > /dev/null && { echo "self-test: a citation outside the repository was not caught"; exit 1; }
    echo "self-test: every planted fault was caught"
    exit 0
fi
check "$repo"
