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

numpy and scipy load where a function needs them: `plot -o x.csv` never does; and a module
loads when one of its names is first asked for (`stats.paired_difference` loads
`differences`), so a command that only draws intervals loads only what intervals need.
"""

import importlib

# each name, by the module that holds it
WHERE = {
    "adjust": (
        "ADJUSTMENTS",
        "adjust_p",
        "adjusted_levels",
    ),
    "differences": (
        "TANGO",
        "Difference",
        "Paired",
        "Sample",
        "bootstrap_p",
        "mcnemar_exact_p",
        "mcnemar_score_p",
        "newcombe_unpaired",
        "paired_bootstrap",
        "paired_difference",
        "paired_from",
        "paired_summary",
        "sample_summary",
        "tango_interval",
        "unpaired_difference",
        "unpaired_from",
        "unpaired_scores",
        "welch_from",
        "welch_interval",
    ),
    "fits": (
        "LogLinearFit",
        "best_checkpoint_bias",
        "ema",
        "loglinear_fit",
        "pareto_frontier",
    ),
    "intervals": (
        "BOOTSTRAP_MIN_PROBLEMS",
        "BOOTSTRAP_RESAMPLES",
        "Z95",
        "binomial_se",
        "bootstrap_interval",
        "bootstrap_means",
        "distinguishable",
        "exact_interval",
        "pass_at_k",
        "pass_at_k_expr",
        "percentile_bounds",
        "wilson_exprs",
        "wilson_interval",
        "with_intervals",
    ),
    "power": (
        "EXACT_POWER_UP_TO",
        "design_power",
        "mcnemar_power",
        "minimum_detectable_difference",
        "paired_power",
        "paired_t_power",
        "paired_t_solve",
        "problems_for",
        "problems_needed",
        "seeded_detectable_difference",
        "t_test_power",
        "unpaired_power",
    ),
    "seeds": (
        "SeedLayout",
        "TDifference",
        "seed_layout",
        "seeded_difference",
    ),
    "selection": (
        "SelectedDifference",
        "best_of_checkpoints",
    ),
    "student_t": (
        "t_cdf",
        "t_quantile",
    ),
}
_MODULE = {name: module for module, names in WHERE.items() for name in names}

__all__ = list(_MODULE)


def __getattr__(name: str):
    """A name of `__all__`, from its module, or one of the modules (`stats.seeds`), loaded the
    first time it is asked for."""
    if name in WHERE:
        return importlib.import_module(f"{__name__}.{name}")
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
