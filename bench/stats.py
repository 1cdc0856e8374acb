# SPDX-License-Identifier: GPL-2.0-or-later
"""Order statistics over samples (no numpy: the harness is stdlib only)."""


def percentile(samples, p: float) -> float:
    """Linear interpolation between closest ranks; p in [0, 100]."""
    if not samples:
        raise ValueError("no samples")
    s = sorted(samples)
    if len(s) == 1:
        return s[0]
    rank = (len(s) - 1) * p / 100.0
    lo = int(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def median(samples) -> float:
    return percentile(samples, 50)


def summary(samples):
    """(median, min, max) of a non-empty list."""
    return median(samples), min(samples), max(samples)


def spread(values) -> str:
    """"[0.58–0.70 per run]": the range of per-run ratios, for a verdict's detail."""
    if not values:
        return "(not paired)"
    if len(values) < 2:
        return "(one run)"
    return "[%.2f–%.2f per run]" % (min(values), max(values))


def rotated(items, rep: int) -> list:
    """`items` in the order repetition `rep` runs them: rotated by one each repetition
    (A B C, B C A, C A B, ...; A B, B A for two), so that no subject always runs
    first, right after the previous repetition's last one (a cold start right after
    watchman's crawl was seen slower in every repetition)."""
    items = list(items)
    if not items:
        return items
    k = rep % len(items)
    return items[k:] + items[:k]
