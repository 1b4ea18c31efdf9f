#!/usr/bin/env python3
"""The documentation's own checks (run by `make check`; exit 1 and one line per problem).

1. Every relative link in README.md, docs/ and lab/ (the lab's pages) resolves to a file in
   the repository, and a link's #anchor names a heading of that file (GitHub's anchor rules).
2. Every `make <target>` the docs name is a target of the Makefile.
3. No file of the repository cites a path outside it (../shared, PROTOCOL.md).
4. docs/architecture.md's map lists every Rust file of src/, user/, tests/ and lab/ once,
   and every file it lists exists.

    python3 scripts/docs-check.py [ROOT]      check ROOT (default: this repository)
    python3 scripts/docs-check.py --self-test prove each check fails on a planted fault
"""

import os
import re
import sys
import tempfile

# Folders that hold no documentation and may be large.
SKIP_DIRS = {"target", ".git", "corpus", "out"}
# What a citation of a path outside the repository looks like (this file names them).
OUTSIDE = re.compile(r"\.\./shared|PROTOCOL\.md")


def anchors(path):
    """The #anchors GitHub makes of the headings of a Markdown file."""
    out, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
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


def make_targets(root):
    """The targets the Makefile defines."""
    targets = set()
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-zA-Z0-9_.-]+(?:\s+[a-zA-Z0-9_.-]+)*)\s*:(?!=)", line)
            if m:
                targets.update(m.group(1).split())
    return targets


def docs_of(root):
    """README.md and every Markdown file below docs/ and lab/ (not in their build folders)."""
    docs = [os.path.join(root, "README.md")]
    for top in ("docs", "lab"):
        for d, dirs, fs in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            docs += [os.path.join(d, f) for f in sorted(fs) if f.endswith(".md")]
    return docs


def link_problems(root):
    """Checks 1 and 2."""
    targets, problems = make_targets(root), []
    for doc in docs_of(root):
        rel = os.path.relpath(doc, root)
        with open(doc, encoding="utf-8") as f:
            text = f.read()
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
    return problems


def citation_problems(root):
    """Check 3, over every file of the tree but this one."""
    me = os.path.realpath(__file__)
    problems = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for name in sorted(fs):
            path = os.path.join(d, name)
            if os.path.realpath(path) == me or os.path.islink(path):
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        if OUTSIDE.search(line):
                            rel = os.path.relpath(path, root)
                            problems.append(f"cites a path outside the repository: ./{rel}:{n}:{line.rstrip()}")
            except (UnicodeDecodeError, OSError):
                continue
    return problems


MAP_TOPS = ("src", "user", "tests", "lab")


def map_problems(root):
    """Check 4: the map of docs/architecture.md (its `## Map` section's text block: a folder
    per line ending in `/`, then its files indented, one a line) against the tree."""
    doc = os.path.join(root, "docs", "architecture.md")
    if not os.path.exists(doc):
        return []
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Map\n.*?^```text\n(.*?)^```", text, flags=re.S | re.M)
    if not m:
        return ["docs/architecture.md: no map (a ```text block under ## Map)"]
    listed, folder, problems = set(), None, []
    for line in m.group(1).splitlines():
        if line and not line.startswith(" "):
            folder = line.strip().rstrip("/")
        elif line.strip() and folder:
            name = line.split()[0]
            listed.add(f"{folder}/{name}")
    on_disk = set()
    for top in MAP_TOPS:
        for d, dirs, fs in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            on_disk |= {os.path.relpath(os.path.join(d, x), root) for x in fs if x.endswith(".rs")}
    problems += [f"docs/architecture.md: the map lacks {f}" for f in sorted(on_disk - listed)]
    problems += [f"docs/architecture.md: the map lists {f}, which does not exist" for f in sorted(listed - on_disk)]
    return problems


def check(root):
    """Every problem of the tree at ROOT, one line each."""
    return link_problems(root) + citation_problems(root) + map_problems(root)


def self_test():
    """A clean tree passes; each planted fault fails it."""
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "docs"))
        os.makedirs(os.path.join(t, "src"))
        os.makedirs(os.path.join(t, "lab", "target"))
        readme = "# Top\n\n## A section\n\nSee [a](docs/a.md#one) and `make check`.\n"
        lab = "# Lab\n\nSee [the top](../README.md#a-section).\n"
        files = {
            "Makefile": "all:\n\ncheck:\n",
            "README.md": readme,
            "docs/a.md": "# One\n",
            "lab/README.md": lab,
            # A build folder's pages are not the documentation's.
            "lab/target/x.md": "[gone](nowhere.md)\n",
            "docs/architecture.md": "# A\n\n## Map\n\n```text\nsrc/\n  a.rs   one\n```\n",
            "src/a.rs": "//! one\n",
        }
        for name, text in files.items():
            with open(os.path.join(t, name), "w", encoding="utf-8") as f:
                f.write(text)
        if check(t):
            print("self-test: a clean tree fails:", check(t))
            return 1
        for fault in ["see [b](docs/b.md)", "see [a](docs/a.md#two)", "run `make bench`", "see [up](../x.md)"]:
            with open(os.path.join(t, "README.md"), "w", encoding="utf-8") as f:
                f.write(readme + fault + "\n")
            if not check(t):
                print(f"self-test: not caught: {fault}")
                return 1
        with open(os.path.join(t, "README.md"), "w", encoding="utf-8") as f:
            f.write(readme)
        for fault in ["see [b](b.md)", "see [top](../README.md#none)", "run `make bench`"]:
            with open(os.path.join(t, "lab", "README.md"), "w", encoding="utf-8") as f:
                f.write(lab + fault + "\n")
            if not check(t):
                print(f"self-test: not caught in lab/: {fault}")
                return 1
        with open(os.path.join(t, "lab", "README.md"), "w", encoding="utf-8") as f:
            f.write(lab)
        with open(os.path.join(t, "src", "b.rs"), "w", encoding="utf-8") as f:
            f.write("//! two\n")
        if not check(t):
            print("self-test: a file missing from the map was not caught")
            return 1
        os.remove(os.path.join(t, "src", "b.rs"))
        os.remove(os.path.join(t, "src", "a.rs"))
        if not check(t):
            print("self-test: a map line naming no file was not caught")
            return 1
        with open(os.path.join(t, "src", "a.rs"), "w", encoding="utf-8") as f:
            f.write("//! one\n")
        with open(os.path.join(t, "x.rs"), "w", encoding="utf-8") as f:
            f.write("// see ../shared/X.md\n")
        if not check(t):
            print("self-test: a citation outside the repository was not caught")
            return 1
    print("self-test: every planted fault was caught")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip())
        return 0 if argv[1:] in (["-h"], ["--help"]) else 2
    root = os.path.realpath(argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), ".."))
    problems = check(root)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
