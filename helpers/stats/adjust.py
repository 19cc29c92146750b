"""p-values adjusted for the many comparisons one `compare` makes (run pairs x benchmarks x
steps): Holm's step-down and Benjamini and Hochberg's step-up."""

from __future__ import annotations

from collections.abc import Sequence

ADJUSTMENTS = ("holm", "bh", "none")


def adjust_p(p_values: Sequence[float | None], method: str = "holm") -> list[float | None]:
    """p-values adjusted for making all these comparisons at once (None stays None and does
    not count): Holm's step-down (controls the chance of any false verdict), Benjamini and
    Hochberg's step-up ("bh": controls the expected share of false verdicts among those
    made), or "none". An adjusted value is never below its raw one.

    >>> adjust_p([0.0625, 0.0625, 0.69, 0.125, 0.51])
    [0.3125, 0.3125, 1.0, 0.375, 1.0]
    """
    if method not in ADJUSTMENTS:
        raise ValueError(f"method must be one of {ADJUSTMENTS}; got {method!r}")
    given = [(i, p) for i, p in enumerate(p_values) if p is not None]
    out: list[float | None] = list(p_values)
    if method == "none" or not given:
        return out
    m = len(given)
    ranked = sorted(given, key=lambda ip: ip[1])
    if method == "holm":  # the k-th smallest times (m - k), never below an earlier one
        running = 0.0
        for k, (i, p) in enumerate(ranked):
            running = max(running, min(1.0, (m - k) * p))
            out[i] = running
    else:  # the k-th smallest times m / k, never above a later one
        running = 1.0
        for k in range(m - 1, -1, -1):
            i, p = ranked[k]
            running = min(running, m * p / (k + 1))
            out[i] = running
    return out
