"""Chart functions: each builds one figure from a tidy polars frame that `analysis`/`stats`
prepared, and returns an Altair chart. One module per figure.

They read like the Altair gallery: named layers, composed on the last line. Colours with meaning
come from `theme.COLOURS` / `theme.DESCRIBED`; fonts and sizes from the registered theme.
"""

from ._common import PANEL_H, PANEL_W
from .across import across_papers
from .compare import comparison, paired_differences, problem_flips, run_curves
from .grpo_mel import grpo_vs_mel
from .length_scaling import rl_length_scaling, rl_length_scaling_panel
from .own_run import accuracy_by_group, accuracy_vs_size
from .prm import prm_data_scaling
from .step_dpo import step_dpo_sizing
from .training import CURVE_COLUMNS, gain_vs_growth, training_dynamics

__all__ = [
    "CURVE_COLUMNS",
    "PANEL_H",
    "PANEL_W",
    "accuracy_by_group",
    "accuracy_vs_size",
    "across_papers",
    "comparison",
    "gain_vs_growth",
    "grpo_vs_mel",
    "rl_length_scaling",
    "rl_length_scaling_panel",
    "paired_differences",
    "problem_flips",
    "prm_data_scaling",
    "run_curves",
    "step_dpo_sizing",
    "training_dynamics",
]
