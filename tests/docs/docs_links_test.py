#!/usr/bin/env python3
"""The repository stands alone: every relative link in docs/*.md and README.md resolves to a file or
directory inside the repository, and a #anchor to a heading of its target (GitHub's heading ids); no
doc points to the papers' folder outside the repository (shared/) or cites a paper by its number
there ("paper 002") instead of by authors, title and venue.

    docs_links_test.py --root REPO
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check  # noqa: E402
import cartex_testing  # noqa: E402

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
OUTSIDE = [(re.compile(r"(?<![\w.-])shared/"), "points to shared/ (not in the repository)"),
           (re.compile(r"\bpapers?\s+00\d", re.I), "cites a paper by its number instead of authors, title, venue")]


def prose(text):
    """The text without fenced code blocks (whose brackets are code, not links)."""
    return FENCE.sub("", text)


def slug(heading):
    """GitHub's id of a heading: markup dropped, lower case, punctuation other than - and _ removed,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The heading ids of a Markdown file (repeated headings get -1, -2, ... as on GitHub)."""
    if path not in cache:
        seen, ids = {}, set()
        with open(path, encoding="utf-8") as f:
            for h in HEADING.findall(prose(f.read())):
                base = slug(h)
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
        cache[path] = ids
    return cache[path]


def check_file(root, path):
    where = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    text = prose(raw)
    for number, line in enumerate(raw.splitlines(), 1):
        for pattern, what in OUTSIDE:
            check(not pattern.search(line), f"{where}:{number}: {what}: {line.strip()}")
    links = INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)
    for link in links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", link, re.I):  # http:, https:, mailto:
            continue
        target, _, anchor = link.partition("#")
        resolved = os.path.realpath(os.path.join(os.path.dirname(path), target)) if target else path
        inside = resolved == root or resolved.startswith(root + os.sep)
        if not check(inside and os.path.exists(resolved), f"{where}: link {link!r}: {resolved} is not in the repository"):
            continue
        if anchor and resolved.endswith(".md"):
            check(anchor in anchors(resolved), f"{where}: link {link!r}: no heading with id #{anchor} in "
                                               f"{os.path.relpath(resolved, root)}")
    return len(links)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    root = os.path.realpath(p.parse_args().root)
    files = sorted(glob.glob(os.path.join(root, "docs", "*.md"))) + [os.path.join(root, "README.md")]
    links = sum(check_file(root, f) for f in files)
    check(len(files) > 5 and links > 20, f"only {len(files)} files and {links} links found: is --root the repository?")
    print(f"{len(files)} files, {links} relative and absolute links")
    cartex_testing.finish("docs_links")


if __name__ == "__main__":
    main()
