# SPDX-License-Identifier: GPL-2.0-or-later
"""Turns recorded results into the console report and the generated part of docs/BENCHMARKS.md.

The doc's generated block sits between two marker comments; everything outside them
(the hand-written analysis) is kept as it is when the table is rewritten.
"""
import os
import platform
import subprocess
import time

BEGIN = "<!-- BEGIN GENERATED RESULTS (bench/run.py --write-doc rewrites this block) -->"
END = "<!-- END GENERATED RESULTS -->"


def fmt(value: float, unit: str) -> str:
    if unit in ("req/s", "files", "B/photo"):
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
    """curatord's median over the peer's, with a word on which way is better."""
    if cur is None or peer is cur or peer.median == 0 or cur.median == 0:
        return ""
    x = cur.median / peer.median
    if cur.higher_is_better:
        better = x >= 1
    else:
        better = x <= 1
    return "x%.2f (%s)" % (x, "curatord better" if better else "curatord worse")


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


def console(results, titles, workload_order) -> str:
    out = []
    last_n = None
    for n, key, series, verdicts, skips, notes, broken in _groups(results, workload_order):
        if n != last_n:
            out.append("")
            out.append("=" * 30 + " N = %d photos " % n + "=" * 30)
            last_n = n
        out.append("")
        out.append("## %s [%s]" % (titles.get(key, key), key))
        for metric in _metrics(series):
            rows = [s for s in series if s.metric == metric]
            cur = next((s for s in rows if s.subject == "curatord"), None)
            for s in rows:
                out.append("  %-30s %-28s median %10s  min %10s  max %10s %-7s %s" % (
                    s.subject, metric, fmt(s.median, s.unit), fmt(s.low, s.unit), fmt(s.high, s.unit), s.unit,
                    ratio_text(cur, s)))
        for k in skips:
            out.append("  SKIP %s: %s" % (k.subject, k.reason))
        for e in broken:
            out.append("  BROKEN: %s" % e)
        for v in verdicts:
            out.append("  target: %s -> %s (%s)" % (v.target, _verdict_word(v.passed), v.detail))
        for t in notes:
            out.append("  note: %s" % t)
    return "\n".join(out)


def _metrics(series):
    seen = []
    for s in series:
        if s.metric not in seen:
            seen.append(s.metric)
    return seen


def environment(fs_description: str, commands) -> list:
    """Lines describing the machine and the run."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    return [
        "- Machine: %s, %d CPUs (nproc), %s RAM, Linux %s" % (model, os.cpu_count() or 0, mem, platform.release()),
        "- Date: %s; load average at the end %s (the 2 cores are shared with other work, so expect noise)" % (
            time.strftime("%Y-%m-%d %H:%M %Z"), " ".join("%.2f" % x for x in os.getloadavg())),
        "- Filesystem: %s" % fs_description,
        "- Command%s: %s" % ("s (later ones redo some workloads, merged with --merge)" if len(commands) > 1 else "",
                             "; ".join("`%s`" % c for c in commands)),
        "- curatord: %s" % _git_describe(),
        "- Peers: %s" % "; ".join(_versions()),
    ]


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
    out += ["Median, min and max over the repetitions; *curatord ÷ this* is curatord's median over that row's median "
            "(below 1 is better for times, above 1 for rates).", ""]
    last_n = None
    verdict_rows = []
    for n, key, series, verdicts, skips, notes, broken in _groups(results, workload_order):
        if n != last_n:
            out += ["", "### N = %d photos" % n, "",
                    "| workload | measure | who | median | min | max | unit | curatord ÷ this |",
                    "|---|---|---|---:|---:|---:|---|---|"]
            last_n = n
        for metric in _metrics(series):
            rows = [s for s in series if s.metric == metric]
            cur = next((s for s in rows if s.subject == "curatord"), None)
            for s in rows:
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
    out += ["", "### Targets", "", "| N | workload | target | result | curatord |", "|---:|---|---|---|---|"]
    for n, title, v in verdict_rows:
        if not isinstance(v, str):
            out.append("| %d | %s | %s | **%s** | %s |" % (n, title, v.target, _verdict_word(v.passed), v.detail))
    out += ["", "### Notes", ""]
    for n, title, v in verdict_rows:
        if isinstance(v, str):
            out.append("- N=%d, %s: %s" % (n, title, v))
    out += ["", END]
    return "\n".join(out)


SKELETON_HEAD = """# Benchmarks

curatord side by side with what people use today (`find` scripts, `inotifywait`,
watchman, `trash-put`, `gio trash`, `mv`), on the workloads and targets of issue 6.
Run it with `make bench` (full: N = 10 000 and 100 000) or `make bench-quick`
(N = 1000, one repetition, what CI runs); `bench/run.py --help` lists the options.
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
