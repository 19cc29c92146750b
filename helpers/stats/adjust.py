"""p-values adjusted for the many comparisons one `compare` makes (run pairs x benchmarks x
steps): Holm's step-down and Benjamini and Hochberg's step-up, and the level of each
comparison's interval that agrees with its adjusted verdict."""

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


def adjusted_levels(
    p_values: Sequence[float | None], method: str = "holm", alpha: float = 0.05
) -> list[float | None]:
    """The level of each comparison's interval that agrees with its adjusted verdict: the
    interval at level 1 - alpha / c excludes 0 exactly when the adjusted p-value is below
    alpha, where c is the factor the adjustment applied to that p-value (adjusted over raw:
    for Holm m - k + 1 at the k-th smallest p until the procedure stops, for Bonferroni m, for
    Benjamini-Hochberg m / k at its step). A raw p of 0 takes its step's own factor; None
    stays None; "none" gives 1 - alpha throughout.

    >>> [round(x, 4) for x in adjusted_levels([0.01, 0.04, 0.03, 0.005])]
    [0.9833, 0.9667, 0.975, 0.9875]
    """
    adjusted = adjust_p(p_values, method)
    given = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(given)
    step = {i: (m - k if method == "holm" else m / (k + 1)) for k, (_, i) in enumerate(given)}
    out: list[float | None] = []
    for i, (p, q) in enumerate(zip(p_values, adjusted, strict=True)):
        if p is None or method == "none":
            out.append(None if p is None else 1 - alpha)
        elif p > 0:
            out.append(1 - alpha * p / q)
        else:
            out.append(1 - alpha / step[i])
    return out
