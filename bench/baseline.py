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

The same machinery runs this build with grouping off (`--groups-off-peer`, issue 15) as
the peer `curatord@groups-off`: every root of its configuration says `groups: false`,
so that "groups on ÷ off" is one interleaved run of one binary on one tree.
"""
import re
from dataclasses import dataclass, replace

from results import Results

BASE = "curatord@base"
BASE_DAEMON = "curatord-base"
GROUPS_OFF = "curatord@groups-off"
GROUPS_OFF_DAEMON = "curatord-groups-off"
# Every peer daemon's name (socket, state directory), for clean-ups.
PEER_DAEMONS = (BASE_DAEMON, GROUPS_OFF_DAEMON)
_PEER_LABEL = re.compile(r"curatord@[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Peer:
    """A second curatord run against this one: its row label, daemon name, binary and
    the settings its roots get (None: given by `--root`, every setting its default)."""
    label: str
    daemon_name: str
    binary: str
    root_options: dict = None
    description: str = ""


def baseline_peer(binary: str) -> Peer:
    return Peer(BASE, BASE_DAEMON, binary, None, "before/after run: %s is %s" % (BASE, binary))


def groups_off_peer(binary: str) -> Peer:
    return Peer(GROUPS_OFF, GROUPS_OFF_DAEMON, binary, {"groups": False},
                "groups on/off run: %s is this binary with `groups: false` on its root" % GROUPS_OFF)


def base_subject(subject: str, label: str = BASE):
    """The peer's name for a row about curatord ("curatord, one client subscribed" ->
    "curatord@base, one client subscribed", "the writer, curatord watching" -> "the writer,
    curatord@base watching"); None for a peer's row."""
    return subject.replace("curatord", label, 1) if "curatord" in subject else None


def current_subject(subject: str):
    """The row of this build that a baseline (or groups-off) row is compared with; None
    for other rows."""
    return _PEER_LABEL.sub("curatord", subject, 1) if _PEER_LABEL.search(subject) else None


def run_paired(ctx, workload, peer):
    """Runs `workload` as many times as its repetitions, once for this curatord and once
    for `peer` (a Peer, or the path of a baseline binary) each time, and folds what both
    measured into ctx.results."""
    if isinstance(peer, str):
        peer = baseline_peer(peer)
    final, binary, reps, trash_reps = ctx.results, ctx.binary, ctx.reps, ctx.args.trash_reps
    own = getattr(ctx, "root_options", None)  # this curatord's root settings (--root-option)
    count = trash_reps if workload.KEY == "trash" else reps
    try:
        for rep in range(count):
            for is_base in ((False, True) if rep % 2 == 0 else (True, False)):
                ctx.stop_all()
                if is_base:
                    ctx.binary, ctx.daemon_name, ctx.root_options = peer.binary, peer.daemon_name, peer.root_options
                else:
                    ctx.binary, ctx.daemon_name, ctx.root_options = binary, "curatord", own
                ctx.reps, ctx.args.trash_reps = 1, 1
                ctx.results = Results()
                workload.run(ctx)
                _fold(final, ctx.results, is_base, peer.label)
    finally:
        ctx.stop_all()
        ctx.results, ctx.binary, ctx.daemon_name, ctx.root_options = final, binary, "curatord", own
        ctx.reps, ctx.args.trash_reps = reps, trash_reps
    final.note(workload.KEY, ctx.n, "%s; each of %d repetitions ran this curatord and %s back to back, alternating "
                                    "which went first; targets not judged" % (peer.description, count, peer.label))


def _fold(final: Results, part: Results, is_base: bool, label: str = BASE):
    """Appends one repetition's samples to the series of the run so far."""
    for s in part.series:
        subject = base_subject(s.subject, label) if is_base else s.subject
        if subject is None:
            continue
        have = final.find(s.workload, s.n, subject, s.metric)
        if have is None:
            final.series.append(replace(s, subject=subject, samples=list(s.samples), interleaved=True))
        else:
            have.samples.extend(s.samples)
    for w, n, text in part.notes:
        note = (w, n, "%s: %s" % (label, text) if is_base else text)
        if note not in final.notes:
            final.notes.append(note)
    if not is_base:
        for k in part.skips:
            if all((k.workload, k.n, k.subject) != (o.workload, o.n, o.subject) for o in final.skips):
                final.skips.append(k)
    final.broken += [(w, n, "%s: %s" % (label, e) if is_base else e) for w, n, e in part.broken]
    final.profiles += part.profiles
