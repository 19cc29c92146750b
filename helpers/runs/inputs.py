"""What a user types to name a log, parsed in one place for the command line, notebooks and
the API.

    [NAME=]PATH[#RUN][@STEP]

- `PATH`: a local file or folder, or a URI (`s3a://...`, `file://...`) kept as written, which
  only Spark reads (`location`, `local`);
- `NAME=`: what `compare` calls the run (else the file's stem; a path may itself hold `=`);
- `#RUN`: one run of a tracker's store of several, by name or id (`run_named`);
- `@STEP`: the run at that one checkpoint (`pinned`).

A path that exists as written is never split, whatever it holds.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers.errors import DataError


def location(where: str | Path) -> Path | str:
    """A local path, or a URI (s3a://..., file://...) kept as written: only Spark reads URIs."""
    return where if isinstance(where, str) and "://" in where else Path(where)


def local(where: str | Path) -> Path:
    """A local path for the polars engine; a URI is an error that points to Spark."""
    where = location(where)
    if isinstance(where, str):
        raise DataError(where, "a local file or folder (a URI is read by --engine spark)")
    return where


def named(text: str) -> tuple[str, Path | str]:
    """NAME=PATH, or a bare PATH named after its file (a path may itself hold '=')."""
    name, sep, path = text.partition("=")
    if sep and name and "/" not in name and not Path(text).exists():
        return name, location(path)
    return Path(text).stem or text, location(text)


def run_named(path: Path) -> tuple[Path, str | None]:
    """`PATH#RUN`: one run of a store of several, by its name or id."""
    text = str(path)
    if "#" not in text or path.exists():
        return path, None
    store, _, run = text.rpartition("#")
    return Path(store), run


def pinned(given: str | Path) -> tuple[str | Path, int | None]:
    """PATH@STEP: the run at that one step, a checkpoint of it (`early=run/@100`)."""
    text = str(given)
    path, at, step = text.rpartition("@")
    if not at or not step.isdigit() or Path(text).exists() or len(step) > 18:
        return given, None
    return path, int(step)


# names that say nothing of which run a log holds: a tool's folder or file name, a hash, a
# date and host (Hugging Face's Trainer names its TensorBoard folder `Aug03_00-13-34_<host>`)
GENERIC = {
    "completions", "data", "eval", "evals", "events", "files", "log", "logs", "metrics",
    "mlruns", "output", "outputs", "result", "results", "run", "runs", "samples", "tb",
    "tensorboard", "wandb",
}  # fmt: skip
MACHINE = re.compile(
    r"[0-9a-f]{6,}|[A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2}_.*|(offline-)?run-\d{8}_\d{6}-\w+"
    r"|events\.out\.tfevents\..*"
)
# a checkpoint's folder, named by its step: the run is the folder above it
# a model named as a hub names it (owner/name), not a path on someone's disk
HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
CHECKPOINT = re.compile(r"(checkpoint|ckpt|step|global_step|iter|epoch|Exp\d*)[-_]?\d+")


def display_name(path: str | Path, run: str | None = None, model: str | None = None) -> str:
    """The name a chart gives a log: the run's own name where the log holds one a person gave
    (not a machine's), else the model the log says it evaluated (a hub id such as
    `quyanh/OpenRS-GRPO`, not a local path), else the file's or folder's name, going up past
    names that say nothing of the run (a tool's `results`, `completions`, `runs`; a hash; a
    date and host); a checkpoint's folder is named with the run's or the model's.

    >>> display_name("outputs/evals/wordle--gpt-4.1-mini/816ec3b0/results.jsonl")
    'wordle--gpt-4.1-mini'
    >>> display_name("stage2/runs/Aug03_00-13-34_forcifer-123", run="Aug03_00-13-34_forcifer-123")
    'stage2'
    >>> display_name("open-rs_results/Exp2_400"), display_name("math500_samples.jsonl")
    ('open-rs_results, Exp2_400', 'math500_samples')
    >>> display_name("open-rs_results/Exp2_400", model="quyanh/OpenRS-GRPO")
    'quyanh/OpenRS-GRPO at step 400'
    """
    if run and not MACHINE.fullmatch(run):
        return run
    path = Path(path)
    names = [path.stem if path.suffix else path.name, *(p.name for p in path.parents)]
    names = [n for n in names if n not in ("", ".", "..")]
    kept = [n for n in names if n.lower() not in GENERIC and not MACHINE.fullmatch(n)]
    hub = model if model and HUB_ID.fullmatch(model) else None
    if not kept:
        return hub or (names[0] if names else str(path))
    first = kept[0]
    if CHECKPOINT.fullmatch(first):
        if hub:  # the model's name, and the step its folder says
            step = int(re.search(r"(\d+)$", first).group(1))
            return f"{hub} at step {step}"
        if len(kept) > 1:
            return f"{kept[1]}, {first}"
    return hub or first
