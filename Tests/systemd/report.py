#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print the results of the real-systemd checks and decide the exit status.

Usage: report.py RESULTS_DIR PENDING_FILE [--elapsed SECONDS]

RESULTS_DIR is what checks.sh wrote in the container (checks.list, results.tsv,
details/). A check named in PENDING_FILE ("pending: issue 13 features not built
yet") is shown as PENDING and does not fail the run; one that passes is reported
loudly, to be made required. A planned check with no result did not finish.
Exit status: 0 when every required check passed, 1 otherwise.
"""

import argparse
import os
import sys


def read_pending(path):
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, why = line.partition(" ")
            names[name] = why.strip()
    return names


def read_results(directory):
    results = {}
    path = os.path.join(directory, "results.tsv")
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t", 3)
                if len(parts) == 4:
                    results[parts[0]] = (parts[1], int(parts[2]), parts[3])
    return results


def detail(directory, name, last=None):
    path = os.path.join(directory, "details", name + ".log")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().replace("\r\n", "\n").splitlines()
    except OSError:
        return ["(no details: the check did not start)"]
    return lines if last is None else lines[-last:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("pending")
    parser.add_argument("--elapsed", type=int)
    args = parser.parse_args()

    with open(os.path.join(args.results, "checks.list"), encoding="utf-8") as f:
        planned = [line.strip() for line in f if line.strip()]
    pending = read_pending(args.pending)
    results = read_results(args.results)

    rows, failed, now_passing = [], [], []
    counts = {"PASS": 0, "FAIL": 0, "PENDING": 0}
    for name in planned:
        status, seconds, summary = results.get(name, ("FAIL", 0, "did not finish (the container stopped or timed out)"))
        if name in pending:
            label = "PENDING"
            counts["PENDING"] += 1
            if status == "PASS":
                label = "PENDING!"
                now_passing.append(name)
        else:
            label = status
            counts[status] += 1
            if status == "FAIL":
                failed.append(name)
        rows.append((label, name, seconds, summary))
    unknown = sorted(set(pending) - set(planned))

    width = max(len(name) for name in planned)
    print()
    print(f"curatord under systemd (Debian bookworm booted by systemd-nspawn): {len(planned)} checks")
    print()
    for label, name, seconds, summary in rows:
        print(f"  {label:<8} {name:<{width}} {seconds:>3} s  {summary}")

    if failed:
        print()
        print("Required checks that FAILED:")
        for name in failed:
            print(f"\n--- {name} ({os.path.join(args.results, 'details', name + '.log')})")
            for line in detail(args.results, name):
                print("    " + line)
    shown = [name for name in planned if name in pending and name not in now_passing]
    if shown:
        print()
        print("PENDING (issue 13 features not built yet; Tests/systemd/pending.txt): what each showed")
        for name in shown:
            print(f"\n--- {name}: {pending[name]}")
            for line in detail(args.results, name, last=8):
                print("    " + line)
    if now_passing:
        print()
        print("!" * 78)
        print("!! PENDING checks that PASS now: make them required by removing them from")
        print("!! Tests/systemd/pending.txt:")
        for name in now_passing:
            print(f"!!   {name}  ({pending[name]})")
        print("!" * 78)
    if unknown:
        print()
        print(f"Tests/systemd/pending.txt names checks that checks.sh does not have: {', '.join(unknown)}")

    print()
    print(f"Details: {os.path.join(args.results, 'details')}/, the container's journal: "
          f"{os.path.join(args.results, 'journal.txt')}")
    elapsed = f" in {args.elapsed} s" if args.elapsed is not None else ""
    print(f"systemd checks{elapsed}: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['PENDING']} pending ({len(now_passing)} of them passing)")
    return 1 if failed or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
