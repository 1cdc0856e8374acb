#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Extract the commands of one README section, so that the real-systemd test runs
exactly what the README tells people to run, and fails when the two drift apart.

Usage: readme_steps.py README.md SECTION --script OUT.sh [--dropin OUT.conf]

SECTION is a heading's text ("As a system service on a shared folder"). Every
```sh block of the section goes into OUT.sh, verbatim and in order, each under a
comment naming its line in the README. The README shows the content of a
`systemctl edit` drop-in as comment lines indented by three spaces right after
that command ("#   [Service]"); --dropin writes those lines, without the "#   ",
for the test's editor to put in the file systemctl opens.

Exits 1 with a message when the section, its code, or a promised drop-in is missing.
"""

import argparse
import re
import sys


def section_lines(text, title):
    """The lines under the heading `title`, up to the next heading of its level or higher."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if m and m.group(2) == title:
            level = len(m.group(1))
            body = []
            for j in range(i + 1, len(lines)):
                n = re.match(r"^(#{1,6})\s", lines[j])
                if n and len(n.group(1)) <= level and not in_code(lines, i + 1, j):
                    break
                body.append((j + 1, lines[j]))
            return body
    return None


def in_code(lines, start, end):
    """Whether line `end` is inside a fenced block opened after `start` (a '# ' comment there is no heading)."""
    fences = sum(1 for k in range(start, end) if lines[k].startswith("```"))
    return fences % 2 == 1


def code_blocks(body):
    """[(first line number, [lines])] of the ```sh blocks."""
    blocks, current, start = [], None, 0
    for number, line in body:
        if current is None:
            if re.match(r"^```(sh|bash|shell)\s*$", line):
                current, start = [], number + 1
        elif line.startswith("```"):
            blocks.append((start, current))
            current = None
        else:
            current.append(line)
    if current is not None:
        raise SystemExit(f"readme_steps: a code block opened at README line {start - 1} is never closed")
    return blocks


def dropin(blocks):
    """The '#   ' lines right after `systemctl edit ...`, or None when no block edits a unit."""
    for _, lines in blocks:
        for i, line in enumerate(lines):
            if re.match(r"^\s*systemctl\s+(--user\s+)?edit\b", line):
                content = []
                for following in lines[i + 1:]:
                    m = re.match(r"^#   (\S.*)$", following)
                    if not m:
                        break
                    content.append(m.group(1))
                return content
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme")
    parser.add_argument("section")
    parser.add_argument("--script", required=True)
    parser.add_argument("--dropin")
    args = parser.parse_args()

    with open(args.readme, encoding="utf-8") as f:
        body = section_lines(f.read(), args.section)
    if body is None:
        sys.exit(f"readme_steps: {args.readme} has no section \"{args.section}\"")
    blocks = code_blocks(body)
    if not blocks:
        sys.exit(f"readme_steps: the section \"{args.section}\" of {args.readme} has no ```sh block")

    with open(args.script, "w", encoding="utf-8") as out:
        out.write(f"# The commands of {args.readme}, section \"{args.section}\", verbatim (readme_steps.py).\n")
        for start, lines in blocks:
            out.write(f"\n# --- README line {start}\n")
            out.write("\n".join(lines) + "\n")

    if args.dropin:
        content = dropin(blocks)
        if not content:
            sys.exit(f"readme_steps: the section \"{args.section}\" shows no drop-in after `systemctl edit`")
        with open(args.dropin, "w", encoding="utf-8") as out:
            out.write("\n".join(content) + "\n")


if __name__ == "__main__":
    main()
