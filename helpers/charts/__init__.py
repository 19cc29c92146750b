# ruff: noqa: E402 - altair is imported after the IRI grammar is deferred
"""Chart functions: each builds one figure from a tidy polars frame that `helpers.figures`,
`helpers.runs` or `helpers.stats` prepared, and returns an Altair chart. One module per
figure, named as the figure's data resource and analysis module.

They read like the Altair gallery: named layers, composed on the last line. Colours with meaning
come from `theme.COLOURS` / `theme.DESCRIBED`; fonts and sizes from the registered theme.
"""

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()  # before altair is imported: start-up only, no behaviour changes

from helpers.charts._common import PANEL_H, PANEL_W
from helpers.charts.across_papers import across_papers
from helpers.charts.compare_runs import (
    comparison,
    flip_counts,
    paired_differences,
    problem_flips,
    run_curves,
)
from helpers.charts.detectability import detectability, power_against_difference
from helpers.charts.grpo_vs_mel import grpo_vs_mel
from helpers.charts.leaderboard import leaderboard
from helpers.charts.own_run import accuracy_by_group, accuracy_vs_size, run_grid
from helpers.charts.prm_data_scaling import prm_data_scaling
from helpers.charts.rl_length_scaling import rl_length_scaling, rl_length_scaling_panel
from helpers.charts.step_dpo_sizing import step_dpo_sizing
from helpers.charts.training_dynamics import CURVE_COLUMNS, gain_vs_growth, training_dynamics

__all__ = [
    "CURVE_COLUMNS",
    "PANEL_H",
    "PANEL_W",
    "accuracy_by_group",
    "accuracy_vs_size",
    "across_papers",
    "detectability",
    "flip_counts",
    "comparison",
    "gain_vs_growth",
    "grpo_vs_mel",
    "leaderboard",
    "rl_length_scaling",
    "rl_length_scaling_panel",
    "run_grid",
    "paired_differences",
    "power_against_difference",
    "problem_flips",
    "prm_data_scaling",
    "run_curves",
    "step_dpo_sizing",
    "training_dynamics",
]
