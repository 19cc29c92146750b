"""Best checkpoint against best checkpoint, with the picking counted: a max-statistic bootstrap
of the problems (Romano and Wolf 2005, Econometrica 73:1237; White 2000's reality check).

Picking each run's best of K checkpoints on the same problems it is then scored on overstates
that score: with eight equally good checkpoints the best is about 1.4 standard errors above
their common accuracy. The test here compares the picked difference T = B[j*] - A[i*] (each a
mean over the problems) with its distribution under the least favourable null, resampling the
problems (each with every checkpoint's value on it, so checkpoints keep their correlation):

- against T large (the method better): every checkpoint of the method equally good, so the
  method's side is the maximum of its checkpoints' deviations, and the baseline's pick is
  taken as it is: U* = max_j (B*_j - B_j) - (A*_i* - A_i*);
- against T small (the baseline better): the same with the sides swapped,
  L* = (B*_j* - B_j*) - max_i (A*_i - A_i).

The two-sided p-value is twice the smaller tail, #(U* >= T) / R or #(L* <= T) / R, and the
interval [T - u, T - l] takes u the r-th largest U* and l the r-th smallest L*, r = ceil(R
(1 - level) / 2), so it excludes 0 exactly when p < 1 - level. Each comparison is measured in
units of its standard error under no difference (the per-problem differences' root mean
square over sqrt(N)); where the picked pair agree on every problem there is no such unit, and
the interval is Tango's for no flips (as wide as 0/1 answers allow), with p = 1. The interval
bounds the picked pair's difference with the other run's pick held as it is: it is not an
interval for "best against best" over every possible pick.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from helpers.stats.differences import tango_interval, z_for
from helpers.stats.intervals import BOOTSTRAP_RESAMPLES

if TYPE_CHECKING:
    import numpy as np

SELECTED = "paired: best checkpoints, max-statistic bootstrap over problems ({:,} resamples)"


@dataclass(frozen=True)
class SelectedDifference:
    """The picked checkpoints' difference, its standard error and t, and the null
    distributions of the two tails' max-t."""

    difference: float
    se: float
    t: float
    upper: np.ndarray  # U*, sorted
    lower: np.ndarray  # L*, sorted
    problems: int
    flat: bool = False  # the picked pair agree on every problem: no unit to scale by

    @property
    def method(self) -> str:
        return SELECTED.format(self.upper.size)

    def p_value(self) -> float:
        import numpy as np

        t, r = self.t, self.upper.size
        above = r - int(np.searchsorted(self.upper, t, side="left"))  # U* >= T
        below = int(np.searchsorted(self.lower, t, side="right"))  # L* <= T
        return min(1.0, 2 * min(above, below) / r)

    def bounds(self, level: float = 0.95) -> tuple[float, float]:
        r = max(1, math.ceil(self.upper.size * (1 - level) / 2 - 1e-9))
        if self.flat:
            return tango_interval(0, 0, self.problems, z_for(level))
        u, low = float(self.upper[-r]), float(self.lower[r - 1])
        # in t's units, so that a bound's sign is exactly the comparison the p-value counts
        return (self.t - u) * self.se + 0.0, (self.t - low) * self.se + 0.0


def best_of_checkpoints(
    a: Sequence[Sequence[float]],
    b: Sequence[Sequence[float]],
    pick_a: int,
    pick_b: int,
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> SelectedDifference:
    """`SelectedDifference` of run b's checkpoint `pick_b` minus run a's `pick_a`, where a[i][n]
    and b[j][n] are checkpoint i's (j's) value on problem n, every checkpoint on the same
    problems in the same order; the picks are each run's best, made on these values.

    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> base = (rng.uniform(size=(1, 30)) < 0.4).astype(float)  # one baseline checkpoint
    >>> new = (rng.uniform(size=(8, 30)) < 0.4).astype(float)  # 8 checkpoints, no better
    >>> best = int(np.argmax(new.mean(axis=1)))
    >>> d = best_of_checkpoints(base, new, 0, best)
    >>> round(d.difference, 3), d.p_value() > 0.05
    (0.233, True)
    """
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] < 2:
        raise ValueError("checkpoints x problems tables on the same two problems or more")
    n = a.shape[1]
    # per-problem differences: each of b's checkpoints against a's pick (the upper tail's
    # comparisons), then b's pick against each of a's (the lower tail's)
    d = np.vstack([b - a[pick_a], b[pick_b] - a])
    mean = d.mean(axis=1)
    # each comparison's deviations in units of its standard error under no difference (the
    # per-problem differences' root mean square over sqrt(N): McNemar's score test's for 0/1
    # answers), fixed, so no comparison's noise sets the others' critical value
    scale = np.sqrt((d * d).mean(axis=1) / n)
    flat = bool(scale[pick_b] == 0)
    scale[scale == 0] = 1.0  # no problem differs: the comparison never moves
    rng = np.random.default_rng(seed)
    t = np.empty((resamples, d.shape[0]))
    block = max(1, 2_000_000 // n)
    for start in range(0, resamples, block):
        stop = min(resamples, start + block)
        rows = stop - start  # each resample's count of each problem, by one bincount
        drawn = rng.integers(0, n, (rows, n)) + n * np.arange(rows)[:, None]
        counts = np.bincount(drawn.ravel(), minlength=rows * n).reshape(rows, n)
        t[start:stop] = (counts @ d.T / n - mean) / scale
    observed = mean[pick_b] / scale[pick_b]
    k = b.shape[0]
    upper = np.round(t[:, :k].max(axis=1), 12)
    lower = np.round(t[:, k:].min(axis=1), 12)
    return SelectedDifference(
        float(mean[pick_b]), float(scale[pick_b]), round(float(observed), 12),
        np.sort(upper), np.sort(lower), n, flat,
    )  # fmt: skip
