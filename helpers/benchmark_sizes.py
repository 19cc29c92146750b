"""Benchmark names and sizes: what a score logged as a fraction is a fraction of.

A Wilson interval needs the number of problems, which score-only logs (W&B, lighteval and
lm-eval results) do not carry. Each size below has its source; `--problems NAME=N` overrides
any of them, and a benchmark not listed gets no interval (the chart says so).

Names are matched after lower-casing and dropping everything but letters and digits, so
`MATH-500`, `math_500` and `custom|math_500|0`'s task name all mean MATH500.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Benchmark:
    name: str
    problems: int
    aliases: tuple[str, ...]
    source: str


BENCHMARKS = (
    Benchmark(
        "MATH500",
        500,
        ("math500", "mathtest500"),
        "Lightman et al. 2023 (arXiv 2305.20050), the PRM800K test subset of MATH; lighteval's "
        "results in shared/realdata report 500 (summary_tasks)",
    ),
    Benchmark(
        "AIME24",
        30,
        ("aime24", "aime2024"),
        "AIME 2024 I and II, 15 problems each; lighteval's results in shared/realdata report 30",
    ),
    Benchmark("AIME25", 30, ("aime25", "aime2025"), "AIME 2025 I and II, 15 problems each"),
    Benchmark(
        "AMC23",
        40,
        ("amc23", "amc2023"),
        "the AMC 2023 set of the Qwen2.5-Math evaluation; lighteval's results in "
        "shared/realdata report 40",
    ),
    Benchmark(
        "GPQA-Diamond",
        198,
        ("gpqadiamond",),
        "Rein et al. 2023 (arXiv 2311.12022), the Diamond subset",
    ),
    Benchmark("GSM8K", 1319, ("gsm8k",), "Cobbe et al. 2021 (arXiv 2110.14168), test split"),
    Benchmark("MATH", 5000, ("math", "hendrycksmath"), "Hendrycks et al. 2021, test split"),
    Benchmark("HumanEval", 164, ("humaneval",), "Chen et al. 2021 (arXiv 2107.03374)"),
)

_BY_ALIAS = {alias: b for b in BENCHMARKS for alias in b.aliases}
# "math" names a model family as often as a benchmark ("qwen2.5-math-7b"): never read from a path
_PATH_ALIASES = {a: b for a, b in _BY_ALIAS.items() if b.name != "MATH"}


def key(name: str) -> str:
    """A benchmark name reduced to lower-case letters and digits."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def find(name: str) -> Benchmark | None:
    """The known benchmark a name means, or None."""
    return _BY_ALIAS.get(key(name))


def canonical(name: str) -> str:
    """The known benchmark's name, or the name as given."""
    found = find(name)
    return found.name if found else name


def override(name: str, overrides: Mapping[str, int] | None) -> int | None:
    """The size a user gave for this benchmark (names matched as `find` matches them)."""
    for given, n in (overrides or {}).items():
        if key(given) == key(name) or (find(given) is not None and find(given) == find(name)):
            return n
    return None


def size(name: str, overrides: Mapping[str, int] | None = None) -> int | None:
    """Problems in the benchmark: an override, else the table, else None."""
    found = find(name)
    return override(name, overrides) or (found.problems if found else None)


def in_path(parts: list[str]) -> str | None:
    """The first known benchmark named by a token of these path parts (nearest part first):
    'skythought_qwen_math500_samples.jsonl' and 'aime24_eval/aime24/x.jsonl' both name one."""
    for part in parts:
        for token in re.split(r"[^A-Za-z0-9]+", part):
            found = _PATH_ALIASES.get(token.lower())
            if found is not None:
                return found.name
    return None
