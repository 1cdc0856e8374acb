# SPDX-License-Identifier: GPL-2.0-or-later
"""Turns recorded results into the console report and the generated part of docs/BENCHMARKS.md.

The doc's generated block sits between two marker comments; everything outside them
(the hand-written analysis) is kept as it is when the table is rewritten.
"""
import os
import subprocess
import time

import machine
import stats
from baseline import current_subject
from results import paired_ratios

BEGIN = "<!-- BEGIN GENERATED RESULTS (bench/run.py --write-doc rewrites this block) -->"
END = "<!-- END GENERATED RESULTS -->"


def fmt(value: float, unit: str) -> str:
    if unit in ("req/s", "files", "B/photo", "count", "files/s"):
        return "{:,.0f}".format(value).replace(",", " ")
    if unit in ("MB", "cores"):
        return "%.1f" % value if unit == "MB" else "%.2f" % value
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return "%.0f" % value
    if abs(value) >= 10:
        return "%.1f" % value
    if abs(value) >= 1:
        return "%.2f" % value
    return "%.3g" % value


def ratio_text(cur, peer) -> str:
    """curatord over the peer, with a word on which way is better: the median of the
    per-run ratios and their range when the two were interleaved, else the ratio of
    the medians (said so)."""
    if cur is None or peer is cur or peer.median == 0 or cur.median == 0:
        return ""
    if peer.subject.startswith("curatord") and current_subject(peer.subject) is None:
        return ""  # curatord under other conditions (subscribed): its target says how it compares
    per_run = paired_ratios(cur, peer)
    x = stats.median(per_run) if per_run else cur.median / peer.median
    better = x >= 1 if cur.higher_is_better else x <= 1
    spread = ""
    if per_run and len(per_run) > 1:
        spread = " [%.2f–%.2f]" % (min(per_run), max(per_run))
    elif not per_run:
        spread = " (of medians)"
    return "x%.2f%s (%s)" % (x, spread, "curatord better" if better else "curatord worse")


def _compared_with(rows, s):
    """The row a row is compared with: this build's row of the same kind for a baseline
    row (--baseline-bin), curatord's for a peer's."""
    subject = current_subject(s.subject) or "curatord"
    return next((r for r in rows if r.subject == subject), None)


def _groups(results, workload_order):
    """(n, workload, [series]) in run order."""
    ns = []
    for s in results.series + [type("V", (), {"n": v.n}) for v in results.verdicts]:
        if s.n not in ns:
            ns.append(s.n)
    for n in ns:
        for key in workload_order:
            series = [s for s in results.series if s.n == n and s.workload == key]
            verdicts = [v for v in results.verdicts if v.n == n and v.workload == key]
            skips = [k for k in results.skips if k.n == n and k.workload == key]
            notes = [t for (w, nn, t) in results.notes if nn == n and w == key]
            broken = [e for (w, nn, e) in results.broken if nn == n and w == key]
            if series or verdicts or skips or notes or broken:
                yield n, key, series, verdicts, skips, notes, broken


def _verdict_word(passed) -> str:
    return {True: "PASS", False: "MISS", None: "n/a"}[passed]


def _load_text(results, n, key) -> str:
    for w, nn, low, high in results.load:
        if (w, nn) == (key, n):
            return "%.1f" % low if round(low, 1) == round(high, 1) else "%.1f–%.1f" % (low, high)
    return ""


def console(results, titles, workload_order) -> str:
    out = []
    last_n = None
    for n, key, series, verdicts, skips, notes, broken in _groups(results, workload_order):
        if n != last_n:
            out.append("")
            out.append("=" * 30 + " N = %d photos " % n + "=" * 30)
            last_n = n
        out.append("")
        load = _load_text(results, n, key)
        out.append("## %s [%s]%s" % (titles.get(key, key), key, "  (load %s)" % load if load else ""))
        for metric in _metrics(series):
            rows = [s for s in series if s.metric == metric]
            for s in rows:
                cur = _compared_with(rows, s)
                out.append("  %-34s %-34s median %10s  min %10s  max %10s %-7s %s" % (
                    s.subject, metric, fmt(s.median, s.unit), fmt(s.low, s.unit), fmt(s.high, s.unit), s.unit,
                    ratio_text(cur, s)))
        for k in skips:
            out.append("  SKIP %s: %s" % (k.subject, k.reason))
        for e in broken:
            out.append("  BROKEN: %s" % e)
        for v in verdicts:
            out.append("  target%s: %s -> %s (%s)" % (" (%s)" % v.set_for if v.set_for else "", v.target,
                                                      _verdict_word(v.passed), v.detail))
        for t in notes:
            out.append("  note: %s" % t)
    for p in results.profiles:
        out.append("")
        out.append("## perf profile of curatord, %s at N=%d (%s, %s samples; %s)" % (
            titles.get(p["workload"], p["workload"]), p["n"], p["event"], p["samples"], p["summary"]))
        out += ["  " + line for line in p["top"]]
    return "\n".join(out)


def _metrics(series):
    seen = []
    for s in series:
        if s.metric not in seen:
            seen.append(s.metric)
    return seen


METHOD = ("Method: **interleaved**. Each repetition runs curatord and each peer back to back, in an order "
          "that rotates from one repetition to the next (curatord, find, watchman; find, watchman, curatord; "
          "...), so that whatever load the neighbours put on the shared cores falls on both sides and no subject "
          "always runs first; a ratio is taken within each repetition (curatord's figure over the peer's from "
          "the same repetition), and the *curatord ÷ this* column and every target give the median of those "
          "per-run ratios, with their range in brackets. Targets are judged on ratios, not on absolute times, "
          "wherever a peer does the same work, so that they hold on whichever host runs them.")


def environment(fs_description: str, commands, host: dict, load_end, when=None, soft=None) -> list:
    """Lines describing the machine and the run (`host` from machine.describe() with the
    run's load range; `soft` from `software()` at the time of the run)."""
    soft = soft or software()
    lines = [
        "- Machine: %s" % machine.one_line(host),
        "- inotify limits: max_queued_events %s, max_user_watches %s, max_user_instances %s" % (
            host.get("inotify_max_queued_events"), host.get("inotify_max_user_watches"),
            host.get("inotify_max_user_instances")),
        "- Date: %s; 1-minute load average %.2f at the start, %.2f at the end%s (the cores are shared with "
        "other work: absolute times are noisy, the interleaved ratios much less)" % (
            when or time.strftime("%Y-%m-%d %H:%M %Z"), host["loadavg_at_start"][0], load_end[0],
            ", %s while the workloads ran" % host["load_range"] if host.get("load_range") else ""),
        "- Scratch filesystem: %s" % fs_description,
        "- " + METHOD,
        "- Command%s: %s" % ("s (later ones redo some workloads, merged with --merge)" if len(commands) > 1 else "",
                             "; ".join("`%s`" % c for c in commands)),
        "- curatord: %s" % soft["sources"],
        "- Peers: %s" % "; ".join(soft["peers"]),
    ]
    return lines


def software() -> dict:
    """What a run's figures belong to: the commits and the peers' versions."""
    return {"sources": _git_describe(), "peers": _versions()}


def _git_describe() -> str:
    """The commit that last changed the daemon's sources, and the harness's commit."""
    here = os.path.dirname(os.path.abspath(__file__))

    def last(*paths):
        r = subprocess.run(["git", "-C", os.path.dirname(here), "log", "-1", "--format=%h %s", "--"] + list(paths),
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "unknown"
    return "sources at %s; harness at %s" % (last("Sources", "Package.swift"), last("bench"))


def _versions():
    probes = [
        ("find", ["find", "--version"]),
        ("watchman", ["watchman", "--version"]),
        ("inotifywait", ["inotifywait", "--help"]),
        ("trash-cli", ["trash-put", "--version"]),
        ("gio", ["gio", "version"]),
    ]
    out = []
    for name, cmd in probes:
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
            text = (r.stdout or r.stderr).strip().splitlines()
            out.append("%s %s" % (name, text[0].split()[-1] if text else "?"))
        except (OSError, subprocess.TimeoutExpired):
            out.append("%s missing" % name)
    return out


def markdown(results, titles, workload_order, env_lines) -> str:
    out = [BEGIN, "", "### The run", ""] + env_lines + [""]
    out += ["Median, min and max over the repetitions; *curatord ÷ this* is the median of curatord's figure over "
            "that row's, repetition by repetition, [lowest–highest of those ratios] (below 1 is better for times, "
            "above 1 for rates).", ""]
    last_n = None
    verdict_rows = []
    load_rows = []
    for n, key, series, verdicts, skips, notes, broken in _groups(results, workload_order):
        if n != last_n:
            out += ["", "### N = %d photos" % n, "",
                    "| workload | measure | who | median | min | max | unit | curatord ÷ this, per run |",
                    "|---|---|---|---:|---:|---:|---|---|"]
            last_n = n
        for metric in _metrics(series):
            rows = [s for s in series if s.metric == metric]
            for s in rows:
                cur = _compared_with(rows, s)
                out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    titles.get(key, key), metric, s.subject, fmt(s.median, s.unit), fmt(s.low, s.unit),
                    fmt(s.high, s.unit), s.unit, ratio_text(cur, s)))
        for k in skips:
            out.append("| %s | — | %s | skipped | | | | %s |" % (titles.get(key, key), k.subject, k.reason))
        for e in broken:
            out.append("| %s | — | — | BROKEN | | | | %s |" % (titles.get(key, key), e.replace("|", "/")[:200]))
        for v in verdicts:
            verdict_rows.append((n, titles.get(key, key), v))
        for t in notes:
            verdict_rows.append((n, titles.get(key, key), t))
        load = _load_text(results, n, key)
        if load:
            load_rows.append("| %d | %s | %s |" % (n, titles.get(key, key), load))
    out += ["", "### Targets", "",
            "Each judged in this run, on the median of the per-run ratios where a peer is involved.", "",
            "| N | workload | target | set for | result | curatord |", "|---:|---|---|---|---|---|"]
    for n, title, v in verdict_rows:
        if not isinstance(v, str):
            out.append("| %d | %s | %s | %s | **%s** | %s |" % (n, title, v.target, v.set_for or "",
                                                               _verdict_word(v.passed), v.detail))
    if results.profiles:
        out += ["", "### Profiles", ""]
        for p in results.profiles:
            out += ["%s at N=%d: `perf record -g -e %s` of curatord, %s samples (`%s`):" % (
                titles.get(p["workload"], p["workload"]), p["n"], p["event"], p["samples"], p["summary"]), "",
                "```"] + p["top"] + ["```", ""]
    if load_rows:
        out += ["", "### Load while each workload ran", "",
                "The host's 1-minute load average, lowest–highest, sampled every 5 s.", "",
                "| N | workload | load |", "|---:|---|---|"] + load_rows
    out += ["", "### Notes", ""]
    for n, title, v in verdict_rows:
        if isinstance(v, str):
            out.append("- N=%d, %s: %s" % (n, title, v))
    out += ["", END]
    return "\n".join(out)


SKELETON_HEAD = """# Benchmarks

curatord side by side with what people use today (`find` scripts, `inotifywait`,
watchman, `trash-put`, `gio trash`, `mv`), on the workloads and targets of issues 6
and 14. Run it with `make bench` (full: N = 10 000 and 100 000), `make bench-1m`
(N = 1 000 000, not run by CI) or `make bench-quick` (N = 1000, one repetition, what
CI runs); `bench/run.py --help` lists the options.
The table below is generated; the analysis after it is written by hand.

## Results

"""

SKELETON_TAIL = """

## Analysis

(Hand-written: where the time goes for each missed target.)
"""


def write_doc(path: str, generated: str):
    """Replaces the generated block of `path` (creating the file if needed), keeping the rest."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    else:
        text = ""
    if BEGIN in text and END in text:
        head = text[:text.index(BEGIN)]
        tail = text[text.index(END) + len(END):]
        text = head + generated + tail
    else:
        text = SKELETON_HEAD + generated + SKELETON_TAIL + ("\n" + text if text else "")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
