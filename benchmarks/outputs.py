"""Benchmark: the outputs a user waits for, each a whole process from start to exit, against
the floor of what the same output needs in the bare stack (run in the same benchmark):

- drawing: `python -m helpers plot FILE -o chart.png` (and `.svg`) on the synthetic per-sample
  logs of `aggregate.py`, against the sum of two bare processes: the aggregation floor
  (`aggregate.FLOOR_PROCESS`, the same table in bare polars) and a process that only renders
  the very spec we drew with vl-convert, at the same resolution. The spec's size and the PNG's
  (pixels and bytes) are printed; the bare render must give the same PNG bytes as ours.
- comparing: `python -m helpers compare a=A b=B -o d.csv` of two per-sample runs of 100 steps x
  500 problems x 16 samples (0.8M rows each), against one bare polars process that groups both
  runs by step and problem, joins them and writes the mean difference per step.

Peak memory is the process tree's, sampled from /proc (see `aggregate.measure`); medians over
`--repeats`, ours and the floor alternating.

    python benchmarks/outputs.py --rows 100000 1000000 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

try:
    from benchmarks import aggregate
except ImportError:  # run as a script: benchmarks/ is the path's first entry
    import aggregate  # type: ignore[no-redef]

from helpers.io import PPI  # as `helpers.render.export.save` writes a PNG

BARE_RENDER = f"""
import json, sys
import vl_convert as vlc

spec = json.loads(open(sys.argv[1]).read())
if sys.argv[2].endswith(".png"):
    open(sys.argv[2], "wb").write(vlc.vegalite_to_png(spec, scale=1.0, ppi={PPI!r}))
else:
    open(sys.argv[2], "w").write(vlc.vegalite_to_svg(spec))
"""

BARE_COMPARE = """
import sys
import polars as pl

def per_problem(path):
    return pl.scan_parquet(path).group_by("step", "problem_id").agg(
        n=pl.len(), c=pl.col("correct").sum())

a, b = pl.collect_all([per_problem(sys.argv[1]), per_problem(sys.argv[2])], engine="streaming")
both = a.join(b, on=["step", "problem_id"], suffix="_b")
(both.group_by("step")
 .agg(difference=(pl.col("c_b") / pl.col("n_b") - pl.col("c") / pl.col("n")).mean())
 .sort("step").write_csv(sys.argv[3]))
"""

STEPS, PROBLEMS, SAMPLES = 100, 500, 16


def make_run(path: Path, seed: int, gain: float) -> None:
    """A per-sample log of one run: 100 steps x 500 problems x 16 samples of one benchmark,
    problems of differing difficulty, accuracy rising with the step (and by `gain`)."""
    rng = np.random.default_rng(seed)
    n = STEPS * PROBLEMS * SAMPLES
    idx = np.arange(n)
    step, problem = idx // (PROBLEMS * SAMPLES), (idx // SAMPLES) % PROBLEMS
    ease = np.random.default_rng(0).random(PROBLEMS)
    p = np.clip(0.1 + 0.8 * ease[problem] + 0.002 * step + gain, 0, 1)
    pl.DataFrame(
        {
            "step": step.astype(np.int32),
            "benchmark": pl.Series(["math"] * n).cast(pl.Categorical),
            "problem_id": problem.astype(np.int32),
            "sample_id": (idx % SAMPLES).astype(np.int16),
            "correct": rng.random(n) < p,
            "response_tokens": np.exp(rng.normal(np.log(800), 0.5, n)).astype(np.int32),
        }
    ).write_parquet(path)


def the_spec(path: Path, out: Path) -> None:
    """The spec `plot FILE -o chart.png` draws, as the command line builds it."""
    from helpers.render import theme
    from helpers.runs.choose import chart_for

    theme.enable()
    chart, _ = chart_for([path])
    out.write_text(json.dumps(chart.to_dict(validate=False)))


def medians(commands: dict[str, list[str]], repeats: int) -> dict[str, dict]:
    """Median seconds and peak MB of each command, the commands alternating each round."""
    runs: dict[str, list[dict]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, cmd in commands.items():
            runs[name].append(aggregate.measure_command(cmd))
    return {
        name: {k: statistics.median(r[k] for r in rs) for k in ("seconds", "peak_mb")}
        for name, rs in runs.items()
    }


def line(label: str, r: dict, floor: dict | None) -> str:
    ratio = (
        f"{r['seconds'] / floor['seconds']:6.2f}x {r['peak_mb'] / floor['peak_mb']:6.2f}x"
        if floor
        else f"{'':7} {'':7}"
    )
    return f"{label:44} {r['seconds']:8.2f} {r['peak_mb']:8.0f}  {ratio}"


def drawing(rows: int, repeats: int, tmp: Path, formats=(".png", ".svg")) -> None:
    py = sys.executable
    data = tmp / f"samples_{rows}.parquet"
    aggregate.make_data(rows, data)
    spec = tmp / "spec.json"
    the_spec(data, spec)
    for suffix in formats:
        ours, bare = tmp / f"ours{suffix}", tmp / f"bare{suffix}"
        commands = {
            "ours": [py, "-m", "helpers", "plot", str(data), "-o", str(ours)],
            "aggregation floor": [py, "-c", aggregate.FLOOR_PROCESS, str(data), str(tmp / "f.csv")],
            "bare render": [py, "-c", BARE_RENDER, str(spec), str(bare)],
        }
        m = medians(commands, repeats)
        if ours.read_bytes() != bare.read_bytes():
            raise AssertionError(f"the bare render of our spec differs from ours ({suffix})")
        floor = {
            "seconds": m["aggregation floor"]["seconds"] + m["bare render"]["seconds"],
            "peak_mb": max(m["aggregation floor"]["peak_mb"], m["bare render"]["peak_mb"]),
        }
        n = pl.scan_parquet(data).select(pl.len()).collect().item()
        sizes = spec.stat().st_size / 1e3, ours.stat().st_size / 1e3
        extra = f"spec {sizes[0]:,.0f} KB, {suffix[1:]} {sizes[1]:,.0f} KB"
        if suffix == ".png":
            from PIL import Image

            width, height = Image.open(ours).size
            extra += f" ({width} x {height} px)"
        print(f"plot -o chart{suffix}, {n:,} rows: {extra}")
        print(line("  ours", m["ours"], floor))
        print(line("  aggregation floor", m["aggregation floor"], None))
        print(line("  bare render of the same spec", m["bare render"], None))
        print(line("  floor: the two, one after the other", floor, floor), flush=True)


def comparing(repeats: int, tmp: Path) -> None:
    py = sys.executable
    a, b = tmp / "run_a.parquet", tmp / "run_b.parquet"
    make_run(a, 1, 0.0)
    make_run(b, 2, 0.02)
    ours, bare = tmp / "ours.csv", tmp / "bare.csv"
    commands = {
        "ours": [py, "-m", "helpers", "compare", f"a={a}", f"b={b}", "-o", str(ours)],
        "bare polars: group both, join": [py, "-c", BARE_COMPARE, str(a), str(b), str(bare)],
    }
    m = medians(commands, repeats)
    got = pl.read_csv(ours).select("step", "difference").sort("step")
    want = pl.read_csv(bare)
    if not np.allclose(got["difference"].to_numpy(), want["difference"].to_numpy(), rtol=1e-9):
        raise AssertionError("compare and the bare join disagree on the differences")
    rows = STEPS * PROBLEMS * SAMPLES
    print(f"compare a=A b=B -o d.csv, two runs of {rows:,} rows each")
    floor = m["bare polars: group both, join"]
    print(line("  ours", m["ours"], floor))
    print(line("  bare polars: group both, join", floor, floor), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    aggregate.compiled()
    print(f"whole processes, median of {args.repeats}; ratios against the floor (time, memory)")
    print(f"{'':44} {'median s':>8} {'peak MB':>8}  {'time':>7} {'memory':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            drawing(rows, args.repeats, Path(tmp))
        comparing(args.repeats, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
