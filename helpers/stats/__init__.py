"""Statistics for reading benchmark numbers honestly, in one namespace (`from helpers import
stats`; `stats.wilson_interval(...)`), kept in eight modules by what they answer:

- `intervals`: one accuracy's interval (Wilson, as a number and as a polars expression from one
  formula; Clopper-Pearson), a mean reward's (the problem bootstrap), pass@k, the distribution
  functions the others share;
- `differences`: two runs compared, paired and unpaired (rewards: the paired bootstrap and the
  test that inverts it);
- `adjust`: p-values adjusted for many tests (Holm, Benjamini-Hochberg) and the interval
  levels that agree with them;
- `seeds`: training randomness in a comparison (seed variance, Satterthwaite's df);
- `selection`: best checkpoint against best checkpoint, the picking counted (max-statistic
  bootstrap);
- `power`: what difference a benchmark of N problems can detect (with seeds; by the t test);
- `fits`: log-linear fits, Pareto frontiers, EMA smoothing, best-checkpoint selection bias;
- `student_t`: Student's t distribution function and quantile, on `math` alone (every
  comparison takes them; scipy.special's import would cost `compare` more than its reading).

numpy and scipy load where a function needs them: `plot -o x.csv` never does.
"""

from helpers.stats.adjust import ADJUSTMENTS, adjust_p, adjusted_levels
from helpers.stats.differences import (
    TANGO,
    Difference,
    Paired,
    Sample,
    bootstrap_p,
    mcnemar_exact_p,
    mcnemar_score_p,
    newcombe_unpaired,
    paired_bootstrap,
    paired_difference,
    paired_from,
    paired_summary,
    sample_summary,
    tango_interval,
    unpaired_difference,
    unpaired_from,
    unpaired_scores,
    welch_from,
    welch_interval,
)
from helpers.stats.fits import (
    LogLinearFit,
    best_checkpoint_bias,
    ema,
    loglinear_fit,
    pareto_frontier,
)
from helpers.stats.intervals import (
    BOOTSTRAP_MIN_PROBLEMS,
    BOOTSTRAP_RESAMPLES,
    Z95,
    binomial_se,
    bootstrap_interval,
    bootstrap_means,
    distinguishable,
    exact_interval,
    pass_at_k,
    pass_at_k_expr,
    percentile_bounds,
    wilson_exprs,
    wilson_interval,
    with_intervals,
)
from helpers.stats.power import (
    EXACT_POWER_UP_TO,
    design_power,
    mcnemar_power,
    minimum_detectable_difference,
    paired_power,
    paired_t_power,
    paired_t_solve,
    problems_for,
    problems_needed,
    seeded_detectable_difference,
    t_test_power,
    unpaired_power,
)
from helpers.stats.seeds import SeedLayout, TDifference, seed_layout, seeded_difference
from helpers.stats.selection import SelectedDifference, best_of_checkpoints
from helpers.stats.student_t import t_cdf, t_quantile

__all__ = [
    "ADJUSTMENTS",
    "BOOTSTRAP_MIN_PROBLEMS",
    "BOOTSTRAP_RESAMPLES",
    "EXACT_POWER_UP_TO",
    "TANGO",
    "Z95",
    "adjust_p",
    "adjusted_levels",
    "best_of_checkpoints",
    "best_checkpoint_bias",
    "binomial_se",
    "bootstrap_interval",
    "bootstrap_means",
    "bootstrap_p",
    "Difference",
    "design_power",
    "distinguishable",
    "ema",
    "exact_interval",
    "loglinear_fit",
    "LogLinearFit",
    "mcnemar_exact_p",
    "mcnemar_power",
    "mcnemar_score_p",
    "minimum_detectable_difference",
    "newcombe_unpaired",
    "Paired",
    "paired_bootstrap",
    "paired_difference",
    "paired_from",
    "paired_power",
    "paired_summary",
    "paired_t_power",
    "paired_t_solve",
    "pareto_frontier",
    "pass_at_k",
    "pass_at_k_expr",
    "percentile_bounds",
    "problems_for",
    "t_test_power",
    "problems_needed",
    "Sample",
    "sample_summary",
    "seed_layout",
    "seeded_difference",
    "SeedLayout",
    "SelectedDifference",
    "TDifference",
    "seeded_detectable_difference",
    "t_cdf",
    "t_quantile",
    "tango_interval",
    "unpaired_difference",
    "unpaired_from",
    "unpaired_power",
    "unpaired_scores",
    "welch_from",
    "welch_interval",
    "wilson_exprs",
    "wilson_interval",
    "with_intervals",
]
