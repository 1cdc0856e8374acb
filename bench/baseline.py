# SPDX-License-Identifier: GPL-2.0-or-later
"""Before/after: every workload on this curatord and on an earlier build (`--baseline-bin`).

The earlier build is a peer named `curatord@base`. Each repetition of a workload runs
the workload once with each build, back to back, this build first in even repetitions
and the baseline first in odd ones (ABBA...), so that the neighbours' load falls on
both and neither always goes first; the per-run ratio of the two is then taken within
a repetition like any peer's. The baseline keeps a state directory of its own (its
index may be of an older schema). Its peers' rows (find, watchman, ...) are dropped:
the peers ran twice, once is what the report shows. Targets are not judged in such a
run (each workload sees one repetition at a time); the table is the point.
"""
from dataclasses import replace

from results import Results

BASE = "curatord@base"
BASE_DAEMON = "curatord-base"


def base_subject(subject: str):
    """The baseline's name for a row about curatord ("curatord, one client subscribed" ->
    "curatord@base, one client subscribed", "the writer, curatord watching" -> "the writer,
    curatord@base watching"); None for a peer's row."""
    return subject.replace("curatord", BASE, 1) if "curatord" in subject else None


def current_subject(subject: str):
    """The row of this build that a baseline row is compared with; None for other rows."""
    return subject.replace(BASE, "curatord", 1) if BASE in subject else None


def run_paired(ctx, workload, baseline_binary: str):
    """Runs `workload` as many times as its repetitions, once per build each time, and
    folds what both measured into ctx.results."""
    final, binary, reps, trash_reps = ctx.results, ctx.binary, ctx.reps, ctx.args.trash_reps
    count = trash_reps if workload.KEY == "trash" else reps
    try:
        for rep in range(count):
            for is_base in ((False, True) if rep % 2 == 0 else (True, False)):
                ctx.stop_all()
                ctx.binary, ctx.daemon_name = (baseline_binary, BASE_DAEMON) if is_base else (binary, "curatord")
                ctx.reps, ctx.args.trash_reps = 1, 1
                ctx.results = Results()
                workload.run(ctx)
                _fold(final, ctx.results, is_base)
    finally:
        ctx.stop_all()
        ctx.results, ctx.binary, ctx.daemon_name = final, binary, "curatord"
        ctx.reps, ctx.args.trash_reps = reps, trash_reps
    final.note(workload.KEY, ctx.n, "before/after run: each of %d repetitions ran this curatord and %s (%s) back to "
                                    "back, alternating which went first; targets not judged" % (
                                        count, BASE, baseline_binary))


def _fold(final: Results, part: Results, is_base: bool):
    """Appends one repetition's samples to the series of the run so far."""
    for s in part.series:
        subject = base_subject(s.subject) if is_base else s.subject
        if subject is None:
            continue
        have = final.find(s.workload, s.n, subject, s.metric)
        if have is None:
            final.series.append(replace(s, subject=subject, samples=list(s.samples), interleaved=True))
        else:
            have.samples.extend(s.samples)
    for w, n, text in part.notes:
        note = (w, n, "%s: %s" % (BASE, text) if is_base else text)
        if note not in final.notes:
            final.notes.append(note)
    if not is_base:
        for k in part.skips:
            if all((k.workload, k.n, k.subject) != (o.workload, o.n, o.subject) for o in final.skips):
                final.skips.append(k)
    final.broken += [(w, n, "%s: %s" % (BASE, e) if is_base else e) for w, n, e in part.broken]
    final.profiles += part.profiles
