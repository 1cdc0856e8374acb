# SPDX-License-Identifier: GPL-2.0-or-later
"""What a run measured: series of samples, target verdicts, skips and notes.

Workloads only record; `report.py` decides how it looks. Keeping the raw samples
lets the report show median, min and max, and lets a later run be compared.

Interleaved series (every workload with peers runs curatord and each peer back to
back in each repetition) keep their samples in repetition order, so sample i of
curatord and sample i of a peer were taken a few seconds apart under the same
neighbours' load: a ratio is taken within each repetition (`ratios`), and targets
are judged on the median of those per-run ratios.
"""
from dataclasses import dataclass, field, asdict

import stats


@dataclass
class Series:
    workload: str
    n: int
    subject: str          # "curatord", "find", "watchman (settle 1 ms)", ...
    metric: str           # "time to index", "latency p50", ...
    unit: str             # "s", "ms", "req/s", "MiB", "B/photo", "missed"
    samples: list
    higher_is_better: bool = False
    note: str = ""
    interleaved: bool = False  # samples[i] is repetition i, taken back to back with the peers'

    @property
    def median(self):
        return stats.median(self.samples)

    @property
    def low(self):
        return min(self.samples)

    @property
    def high(self):
        return max(self.samples)


@dataclass
class Verdict:
    workload: str
    n: int
    target: str
    passed: object        # True, False, or None when it could not be judged
    detail: str
    set_for: str = ""     # whose target, at what N: "issue 6, 100 000", "issue 14, 1 000 000"


@dataclass
class Skip:
    workload: str
    n: int
    subject: str
    reason: str


@dataclass
class Results:
    series: list = field(default_factory=list)
    verdicts: list = field(default_factory=list)
    skips: list = field(default_factory=list)
    notes: list = field(default_factory=list)     # (workload, n, text)
    broken: list = field(default_factory=list)    # (workload, n, error text)
    load: list = field(default_factory=list)      # (workload, n, min, max 1-minute load average meanwhile)
    profiles: list = field(default_factory=list)  # {workload, n, event, samples, summary path, top: [...]}

    def add(self, workload, n, subject, metric, unit, samples, higher_is_better=False, note="", interleaved=False):
        s = Series(workload, n, subject, metric, unit, [float(x) for x in samples], higher_is_better, note,
                   interleaved)
        self.series.append(s)
        return s

    def verdict(self, workload, n, target, passed, detail, set_for=""):
        self.verdicts.append(Verdict(workload, n, target, passed, detail, set_for))

    def skip(self, workload, n, subject, reason):
        self.skips.append(Skip(workload, n, subject, reason))

    def note(self, workload, n, text):
        self.notes.append((workload, n, text))

    def mark(self):
        """A point to roll back to when a workload is run again."""
        return len(self.series), len(self.verdicts), len(self.skips), len(self.notes)

    def rollback(self, mark):
        del self.series[mark[0]:]
        del self.verdicts[mark[1]:]
        del self.skips[mark[2]:]
        del self.notes[mark[3]:]

    def find(self, workload, n, subject, metric):
        for s in self.series:
            if (s.workload, s.n, s.subject, s.metric) == (workload, n, subject, metric):
                return s
        return None

    def ratios(self, workload, n, subject, metric, over_subject, over_metric=None):
        """subject's sample over over_subject's, repetition by repetition (both interleaved,
        as many samples each); None when either series is missing or they are not paired."""
        a = self.find(workload, n, subject, metric)
        b = self.find(workload, n, over_subject, over_metric or metric)
        return paired_ratios(a, b)

    @classmethod
    def from_json(cls, d):
        r = cls()
        r.series = [Series(**s) for s in d.get("series", [])]
        r.verdicts = [Verdict(**v) for v in d.get("verdicts", [])]
        r.skips = [Skip(**s) for s in d.get("skips", [])]
        r.notes = [tuple(x) for x in d.get("notes", [])]
        r.broken = [tuple(x) for x in d.get("broken", [])]
        r.load = [tuple(x) for x in d.get("load", [])]
        r.profiles = list(d.get("profiles", []))
        return r

    def keys(self):
        """The (workload, n) pairs this run has anything for."""
        found = {(s.workload, s.n) for s in self.series} | {(v.workload, v.n) for v in self.verdicts}
        found |= {(s.workload, s.n) for s in self.skips} | {(w, n) for w, n, _ in self.notes}
        return found | {(w, n) for w, n, _ in self.broken}

    def merged_into(self, older: "Results") -> "Results":
        """`older` with every (workload, n) that this run measured replaced by this run's."""
        mine = self.keys()
        out = Results()
        out.series = [s for s in older.series if (s.workload, s.n) not in mine] + self.series
        out.verdicts = [v for v in older.verdicts if (v.workload, v.n) not in mine] + self.verdicts
        out.skips = [s for s in older.skips if (s.workload, s.n) not in mine] + self.skips
        out.notes = [x for x in older.notes if (x[0], x[1]) not in mine] + self.notes
        out.broken = [x for x in older.broken if (x[0], x[1]) not in mine] + self.broken
        out.load = [x for x in older.load if (x[0], x[1]) not in mine] + self.load
        out.profiles = [p for p in older.profiles if (p["workload"], p["n"]) not in mine] + self.profiles
        return out

    def to_json(self):
        return {
            "series": [asdict(s) for s in self.series],
            "verdicts": [asdict(v) for v in self.verdicts],
            "skips": [asdict(s) for s in self.skips],
            "notes": self.notes,
            "broken": self.broken,
            "load": self.load,
            "profiles": self.profiles,
        }


def paired_ratios(a: Series, b: Series):
    """a[i] / b[i] for each repetition i, when both series were interleaved and have as
    many samples; None otherwise (the report then falls back to the ratio of medians)."""
    if a is None or b is None or a is b or not (a.interleaved and b.interleaved):
        return None
    if len(a.samples) != len(b.samples) or any(x == 0 for x in b.samples):
        return None
    return [x / y for x, y in zip(a.samples, b.samples)]


def ratio_of(a: Series, b: Series):
    """The ratio a target is judged on: the median of the per-run ratios when the two
    series are paired, else the ratio of their medians."""
    per_run = paired_ratios(a, b)
    if per_run:
        return stats.median(per_run)
    return a.median / b.median if b.median else float("inf")
