# SPDX-License-Identifier: GPL-2.0-or-later
"""What a run measured: series of samples, target verdicts, skips and notes.

Workloads only record; `report.py` decides how it looks. Keeping the raw samples
lets the report show median, min and max, and lets a later run be compared.
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

    def add(self, workload, n, subject, metric, unit, samples, higher_is_better=False, note=""):
        s = Series(workload, n, subject, metric, unit, [float(x) for x in samples], higher_is_better, note)
        self.series.append(s)
        return s

    def verdict(self, workload, n, target, passed, detail):
        self.verdicts.append(Verdict(workload, n, target, passed, detail))

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

    @classmethod
    def from_json(cls, d):
        r = cls()
        r.series = [Series(**s) for s in d.get("series", [])]
        r.verdicts = [Verdict(**v) for v in d.get("verdicts", [])]
        r.skips = [Skip(**s) for s in d.get("skips", [])]
        r.notes = [tuple(x) for x in d.get("notes", [])]
        r.broken = [tuple(x) for x in d.get("broken", [])]
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
        return out

    def to_json(self):
        return {
            "series": [asdict(s) for s in self.series],
            "verdicts": [asdict(v) for v in self.verdicts],
            "skips": [asdict(s) for s in self.skips],
            "notes": self.notes,
            "broken": self.broken,
        }
