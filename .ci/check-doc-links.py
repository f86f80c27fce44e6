#!/usr/bin/env python3
"""Checks every relative link and image in README.md and docs/**/*.md: the file it names exists and,
for a #fragment, the target file has a heading with that GitHub anchor. Prints each broken link;
exits 1 when there is one. Usage: python3 .ci/check-doc-links.py (from anywhere in the repository)."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
FENCE = re.compile(r'^\s*(```|~~~)')


def prose(path):
    """The file's lines outside fenced code blocks, with inline code removed."""
    inside = False
    for number, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, re.sub(r'`[^`]*`', '', line)


def main():
    files = [ROOT / 'README.md'] + sorted((ROOT / 'docs').rglob('*.md'))
    broken = []
    checked = 0
    for source in files:
        for number, line in prose(source):
            for target in LINK.findall(line):
                if re.match(r'^[a-z]+:', target):
                    continue  # http:, https:, mailto:
                checked += 1
                path, _, fragment = target.partition('#')
                resolved = (source.parent / path).resolve() if path else source
                where = f'{source.relative_to(ROOT)}:{number}: {target}'
                if not resolved.exists():
                    broken.append(f'{where} (no such file)')
                elif fragment and resolved.suffix == '.md' and fragment not in anchors_raw(resolved):
                    broken.append(f'{where} (no heading with that anchor)')
    for line in broken:
        print(line)
    print(f'{checked} relative links checked in {len(files)} files, {len(broken)} broken')
    return 1 if broken else 0


def anchors_raw(path):
    """GitHub's anchors of the file's headings (inline code keeps its text): lower case, punctuation
    dropped, spaces to hyphens, a repeated heading numbered."""
    seen = {}
    result = set()
    inside = False
    for line in path.read_text(encoding='utf-8').splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        match = None if inside else re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not match:
            continue
        text = re.sub(r'[^\w\- ]', '', match.group(1).lower()).replace(' ', '-')
        count = seen.get(text, 0)
        seen[text] = count + 1
        result.add(text if count == 0 else f'{text}-{count}')
    return result


if __name__ == '__main__':
    sys.exit(main())
