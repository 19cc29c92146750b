"""Benchmark: aggregate synthetic per-sample logs into per-step, per-benchmark accuracy with
intervals and response-length statistics, with polars (helpers.aggregate), DuckDB and pandas.

The three engines answer the same question the same way: per problem, count samples and correct
ones; per step and benchmark, accuracy (mean over problems), problems, samples, mean tokens; and
the 50th and 90th percentile of response length from a 16-token histogram. Each run is a fresh
process, so peak memory (ru_maxrss) is that engine's alone; times exclude interpreter start-up
and imports. Medians over repeats are reported, with ratios against polars.

    python benchmarks/aggregate.py --rows 10000000 50000000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

BIN = 16
STEPS, BENCHMARKS, SAMPLES = 150, 13, 4


def make_data(rows: int, path: Path, seed: int = 0) -> None:
    """Synthetic per-sample rows: 150 steps x 13 benchmarks, 4 samples per problem."""
    rng = np.random.default_rng(seed)
    problems = max(1, rows // (STEPS * BENCHMARKS * SAMPLES))
    n = STEPS * BENCHMARKS * problems * SAMPLES
    idx = np.arange(n, dtype=np.int64)
    sample = (idx % SAMPLES).astype(np.int8)
    problem = ((idx // SAMPLES) % problems).astype(np.int32)
    bench = ((idx // (SAMPLES * problems)) % BENCHMARKS).astype(np.int8)
    step = (idx // (SAMPLES * problems * BENCHMARKS)).astype(np.int32)
    p = 0.2 + 0.5 * step / STEPS
    correct = rng.random(n) < p
    tokens = np.exp(rng.normal(np.log(600 + 20 * step), 0.5)).astype(np.int32)
    names = np.array([f"bench{b:02d}" for b in range(BENCHMARKS)])
    pl.DataFrame(
        {
            "step": step,
            "benchmark": pl.Series(names[bench]).cast(pl.Categorical),
            "problem_id": problem,
            "sample_id": sample,
            "correct": correct,
            "response_tokens": tokens,
        }
    ).write_parquet(path)


# ---- the three engines (each returns a frame sorted by step, benchmark) ------------------------


def run_polars(path: str) -> pl.DataFrame:
    from helpers import aggregate, readers

    out = aggregate.aggregate_samples(readers.scan_samples([path]))
    return out.select(
        "step",
        "benchmark",
        "problems",
        "samples",
        "accuracy",
        "mean_tokens",
        "p50_tokens",
        "p90_tokens",
    )


DUCKDB_SQL = f"""
WITH s AS (SELECT step, CAST(benchmark AS VARCHAR) AS benchmark, problem_id, correct,
                  response_tokens FROM read_parquet('{{path}}')),
per_problem AS (
  SELECT step, benchmark, problem_id, count(*) AS n, sum(correct::INT) AS c,
         sum(response_tokens) AS tokens
  FROM s GROUP BY ALL),
summary AS (
  SELECT step, benchmark, count(*) AS problems, sum(n) AS samples, avg(c / n) AS accuracy,
         sum(tokens) / sum(n) AS mean_tokens
  FROM per_problem GROUP BY ALL),
hist AS (
  SELECT step, benchmark, response_tokens // {BIN} AS bin, count(*) AS cnt
  FROM s GROUP BY ALL),
cum AS (
  SELECT *, sum(cnt) OVER (PARTITION BY step, benchmark ORDER BY bin) AS cum,
            sum(cnt) OVER (PARTITION BY step, benchmark) AS total FROM hist),
pct AS (
  SELECT step, benchmark,
         (min(bin) FILTER (WHERE cum >= 0.5 * total) + 1) * {BIN} AS p50_tokens,
         (min(bin) FILTER (WHERE cum >= 0.9 * total) + 1) * {BIN} AS p90_tokens
  FROM cum GROUP BY ALL)
SELECT summary.*, p50_tokens, p90_tokens FROM summary JOIN pct USING (step, benchmark)
ORDER BY step, benchmark
"""


def run_duckdb(path: str) -> pl.DataFrame:
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return pl.from_arrow(con.sql(DUCKDB_SQL.format(path=path)).arrow())


def run_pandas(path: str) -> pl.DataFrame:
    import pandas as pd

    s = pd.read_parquet(path)
    s["benchmark"] = s["benchmark"].astype(str)
    keys = ["step", "benchmark"]
    per_problem = (
        s.groupby([*keys, "problem_id"], sort=False)
        .agg(n=("correct", "size"), c=("correct", "sum"), tokens=("response_tokens", "sum"))
        .reset_index()
    )
    per_problem["share"] = per_problem["c"] / per_problem["n"]
    summary = (
        per_problem.groupby(keys)
        .agg(
            problems=("n", "size"),
            samples=("n", "sum"),
            accuracy=("share", "mean"),
            tokens=("tokens", "sum"),
        )
        .reset_index()
    )
    summary["mean_tokens"] = summary.pop("tokens") / summary["samples"]
    s["bin"] = s["response_tokens"] // BIN
    hist = s.groupby([*keys, "bin"]).size().rename("cnt").reset_index()
    hist["cum"] = hist.groupby(keys)["cnt"].cumsum()
    hist["total"] = hist.groupby(keys)["cnt"].transform("sum")
    for q, name in ((0.5, "p50_tokens"), (0.9, "p90_tokens")):
        first = hist[hist["cum"] >= q * hist["total"]].groupby(keys)["bin"].min()
        summary = summary.merge(((first + 1) * BIN).rename(name).reset_index(), on=keys)
    return pl.from_pandas(summary.sort_values(keys).reset_index(drop=True))


ENGINES = {"polars": run_polars, "duckdb": run_duckdb, "pandas": run_pandas}


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def _child(engine: str, path: str) -> None:
    """Run one engine in this process; print seconds and the peak memory the run added above
    the process's resident size before it (MB), as JSON."""
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak-RSS mark (Linux)
    before = _status_mb("VmRSS")
    t0 = time.perf_counter()
    out = ENGINES[engine](path)
    seconds = time.perf_counter() - t0
    peak_mb = _status_mb("VmHWM") - before
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "rows": out.height}))


def measure(engine: str, path: Path) -> dict:
    # import the engine first so that import time is not counted, then run it
    root = str(Path(__file__).resolve().parent.parent)
    module = {"polars": "helpers.aggregate", "duckdb": "duckdb", "pandas": "pandas"}[engine]
    code = (
        f"import sys; sys.path.insert(0, {root!r}); import benchmarks.aggregate as b; "
        f"import {module}; b._child({engine!r}, {str(path)!r})"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def agree(path: Path) -> None:
    """The three engines give the same table (same rows, same numbers)."""
    frames = {
        name: fn(str(path)).with_columns(pl.col("benchmark").cast(pl.String))
        for name, fn in ENGINES.items()
    }
    base = frames["polars"].sort("step", "benchmark")
    for name, frame in frames.items():
        other = frame.sort("step", "benchmark").cast(base.schema)
        diff = base.select(pl.exclude("step", "benchmark")) - other.select(
            pl.exclude("step", "benchmark")
        )
        worst = max(abs(v) for v in diff.max().row(0) + diff.min().row(0))
        if (
            base.select("step", "benchmark").equals(other.select("step", "benchmark")) is False
            or worst > 1e-9
        ):
            raise AssertionError(f"{name} disagrees with polars (max difference {worst})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000_000, 50_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            path = Path(tmp) / f"samples_{rows}.parquet"
            make_data(rows, path)
            n = pl.scan_parquet(path).select(pl.len()).collect().item()
            in_memory = pl.read_parquet(path).estimated_size("mb")
            print(
                f"\n{n:,} rows, {path.stat().st_size / 2**20:.0f} MB Parquet, "
                f"{in_memory:.0f} MB in memory (polars)"
            )
            if rows <= 2_000_000:
                agree(path)
                print("engines agree on every row")
            results = {}
            for engine in args.engines:
                runs = [measure(engine, path) for _ in range(args.repeats)]
                results[engine] = {
                    "seconds": statistics.median(r["seconds"] for r in runs),
                    "peak_mb": statistics.median(r["peak_mb"] for r in runs),
                }
            base = results.get("polars")
            print(
                f"{'engine':8} {'median s':>9} {'peak MB':>8} {'time vs polars':>15} "
                f"{'memory vs polars':>17}   (peak MB: added above the process's size before)"
            )
            for engine, r in results.items():
                t_ratio = r["seconds"] / base["seconds"] if base else float("nan")
                m_ratio = r["peak_mb"] / base["peak_mb"] if base else float("nan")
                print(
                    f"{engine:8} {r['seconds']:9.2f} {r['peak_mb']:8.0f} "
                    f"{t_ratio:14.2f}x {m_ratio:16.2f}x"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
