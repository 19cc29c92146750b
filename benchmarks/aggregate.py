"""Benchmark: a per-sample log aggregated as a user runs it, one whole process each, from start
to exit (interpreter start-up and imports included):

- polars: `python -m helpers plot FILE -o out.csv` (the default engine);
- spark:  the same with `--engine spark` (local mode on this machine's cores; JVM start-up
  included), where pyspark and Java are installed;
- duckdb: one `python -c` process running the same aggregation as one SQL query into a CSV;
- pandas: one `python -c` process doing it with pandas group-bys.
- floor:  not a peer but a bound: bare polars computing the same table and writing the same
  CSV, with the shortcuts only a script written for this one file may take (see
  FLOOR_PROCESS). Its ratio is the best `plot` could reach while polars runs the aggregation.

The question is the same everywhere: per step and benchmark, problems, samples, k (the fewest
samples of a problem), accuracy (mean over problems of the share correct), pass@k (share of
problems with any correct sample, k samples each), mean tokens, and p50/p90 of response length
from a 16-token histogram. The synthetic logs have the shape of the issue's (150 steps x 13
benchmarks, 4 samples per problem, benchmark stored as a categorical, one Parquet file).

The engines alternate, one run of each per round. Time is wall-clock; peak memory is the
largest resident size of the process and its children (the JVM for Spark), sampled every 20 ms
from /proc, and at least the kernel's own high-water mark of the process (wait4), which no
sampling interval misses. Linux carries a parent's size across fork and exec into that mark, so
each command is started by a small launcher process (`LAUNCHER`), never by this one, which holds
the synthetic data. Medians over repeats are printed, with ratios against DuckDB.

    python benchmarks/aggregate.py --rows 1000000 10000000 50000000 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np
import polars as pl

BIN = 16
STEPS, BENCHMARKS, SAMPLES = 150, 13, 4
ROOT = Path(__file__).resolve().parent.parent


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
    del idx
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


COLUMNS = ["problems", "samples", "k", "accuracy", "pass_k", "mean_tokens"]
COLUMNS += ["p50_tokens", "p90_tokens"]

# ---- the peers, as one process each ------------------------------------------------------------

DUCKDB_SQL = f"""
WITH s AS (SELECT step, CAST(benchmark AS VARCHAR) AS benchmark, problem_id, correct,
                  response_tokens FROM read_parquet('{{path}}')),
per_problem AS (
  SELECT step, benchmark, problem_id, count(*) AS n, sum(correct::INT) AS c
  FROM s GROUP BY ALL),
summary AS (
  SELECT step, benchmark, count(*) AS problems, sum(n) AS samples, min(n) AS k,
         avg(c / n) AS accuracy, avg((c > 0)::INT) AS pass_k
  FROM per_problem GROUP BY ALL),
hist AS (
  SELECT step, benchmark, response_tokens // {BIN} AS bin, count(*) AS cnt,
         sum(response_tokens) AS tokens
  FROM s WHERE response_tokens IS NOT NULL GROUP BY ALL),
cum AS (
  SELECT *, sum(cnt) OVER (PARTITION BY step, benchmark ORDER BY bin) AS cum,
            sum(cnt) OVER (PARTITION BY step, benchmark) AS total FROM hist),
pct AS (
  SELECT step, benchmark, sum(tokens) / sum(cnt) AS mean_tokens,
         (min(bin) FILTER (WHERE cum >= 0.5 * total) + 1) * {BIN} AS p50_tokens,
         (min(bin) FILTER (WHERE cum >= 0.9 * total) + 1) * {BIN} AS p90_tokens
  FROM cum GROUP BY ALL)
SELECT summary.*, mean_tokens, p50_tokens, p90_tokens
FROM summary LEFT JOIN pct USING (step, benchmark)
ORDER BY step, benchmark
"""

DUCKDB_PROCESS = f"""
import sys, duckdb
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
con.sql({DUCKDB_SQL!r}.format(path=sys.argv[1])).write_csv(sys.argv[2])
"""

PANDAS_PROCESS = f"""
import sys
import pandas as pd

s = pd.read_parquet(sys.argv[1])
s["benchmark"] = s["benchmark"].astype(str)
keys = ["step", "benchmark"]
pp = s.groupby([*keys, "problem_id"], sort=False).agg(
    n=("correct", "size"), c=("correct", "sum")).reset_index()
pp["share"] = pp["c"] / pp["n"]
pp["hit"] = (pp["c"] > 0).astype(float)
out = pp.groupby(keys).agg(problems=("n", "size"), samples=("n", "sum"), k=("n", "min"),
                           accuracy=("share", "mean"), pass_k=("hit", "mean")).reset_index()
t = s[s["response_tokens"].notna()]
t = t.assign(bin=t["response_tokens"] // {BIN})
hist = t.groupby([*keys, "bin"]).agg(cnt=("bin", "size"),
                                     tokens=("response_tokens", "sum")).reset_index()
hist["cum"] = hist.groupby(keys)["cnt"].cumsum()
hist["total"] = hist.groupby(keys)["cnt"].transform("sum")
sums = hist.groupby(keys)[["tokens", "cnt"]].sum()
out = out.merge((sums["tokens"] / sums["cnt"]).rename("mean_tokens").reset_index(), on=keys,
                how="left")
for q, name in ((0.5, "p50_tokens"), (0.9, "p90_tokens")):
    first = hist[hist["cum"] >= q * hist["total"]].groupby(keys)["bin"].min()
    out = out.merge(((first + 1) * {BIN}).rename(name).reset_index(), on=keys, how="left")
out.sort_values(keys).to_csv(sys.argv[2], index=False)
"""


# Not an engine a user runs but a bound on ours: bare polars computing the same table in one
# process and writing it as CSV, with every shortcut a script written for this one file may take
# and the package may not: it knows the file's 13 benchmarks and that its ids fit 32 bits (so it
# packs the keys into one integer without looking), trusts every value (no checks, no
# duplicate-sample test, no uneven-k correction), holds the whole log in one pass (no bounded
# memory) and prints nothing. Whatever the package does around the same group-bys, `plot
# -o out.csv` cannot be faster than this process.
FLOOR_PROCESS = f"""
import sys
import polars as pl

frame = pl.scan_parquet(sys.argv[1])
g = pl.col("step").cast(pl.Int64) * {BENCHMARKS} + pl.col("benchmark").to_physical().cast(pl.Int64)
frame = frame.with_columns(key=g * 2**32 + pl.col("problem_id"),
                           cell=g * 2**32 + pl.col("response_tokens") // {BIN})
per_problem, hist, names = pl.collect_all(
    [frame.group_by("key").agg(n=pl.len(), c=pl.col("correct").sum()),
     frame.group_by("cell").agg(cnt=pl.len(), tokens=pl.col("response_tokens").sum()),
     frame.group_by(code=pl.col("benchmark").to_physical()).agg(pl.col("benchmark").first())],
    engine="streaming")
summary = (per_problem.group_by(g=pl.col("key") // 2**32)
           .agg(problems=pl.len(), samples=pl.col("n").sum(), k=pl.col("n").min(),
                accuracy=(pl.col("c") / pl.col("n")).mean(), pass_k=(pl.col("c") > 0).mean()))
hist = hist.sort("cell").with_columns(g=pl.col("cell") // 2**32, bin=pl.col("cell") % 2**32)
hist = hist.with_columns(cum=pl.col("cnt").cum_sum().over("g"), total=pl.col("cnt").sum().over("g"))
lengths = hist.group_by("g").agg(
    mean_tokens=pl.col("tokens").sum() / pl.col("cnt").sum(),
    p50_tokens=(pl.col("bin").filter(pl.col("cum") >= 0.5 * pl.col("total")).min() + 1) * {BIN},
    p90_tokens=(pl.col("bin").filter(pl.col("cum") >= 0.9 * pl.col("total")).min() + 1) * {BIN})
(summary.join(lengths, on="g", how="left")
 .with_columns(step=pl.col("g") // {BENCHMARKS}, code=(pl.col("g") % {BENCHMARKS}).cast(pl.UInt32))
 .join(names, on="code").sort("step", pl.col("benchmark").cast(pl.String))
 .select("step", pl.col("benchmark").cast(pl.String), "problems", "samples", "k", "accuracy",
         "pass_k", "mean_tokens", "p50_tokens", "p90_tokens")
 .write_csv(sys.argv[2]))
"""


def command(engine: str, path: Path, out: Path) -> list[str]:
    """The command line a user of each engine runs."""
    if engine in ("polars", "spark"):
        return [sys.executable, "-m", "helpers", "plot", str(path), "-o", str(out)] + (
            ["--engine", "spark"] if engine == "spark" else []
        )
    script = {"duckdb": DUCKDB_PROCESS, "pandas": PANDAS_PROCESS, "floor": FLOOR_PROCESS}[engine]
    return [sys.executable, "-c", script, str(path), str(out)]


ENGINES = ("polars", "spark", "duckdb", "pandas", "floor")


def _descendants_rss_mb(root: int) -> float:
    """Resident size of all a process's descendants (MB), from /proc: the command a launcher
    started and whatever it started, without the launcher."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0) if pid != root else 0
        todo.extend(children.get(pid, []))
    return total / 2**20


def measure(engine: str, path: Path, out: Path) -> dict:
    """One engine's whole process: wall-clock seconds and peak memory (MB) of it and its
    children."""
    return measure_command(command(engine, path, out), engine)


# Starts the measured command and reports, on the file descriptor given first, the command's
# seconds from fork to exit and the kernel's high-water mark of its resident size (KiB): this
# process is small, so the mark is the command's own, not carried over from the benchmark's
# process. (Not on stderr: a JVM the command started may still write there after it.)
LAUNCHER = """
import os, sys, time
report = int(sys.argv[1])
os.set_inheritable(report, False)
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, f"{time.perf_counter() - t0} {usage.ru_maxrss}".encode())
sys.exit(os.waitstatus_to_exitcode(status))
"""


def shell_env(**extra: str) -> dict[str, str]:
    """The environment a timed process starts with: this one's, `extra` added, but with the
    allocator setting this process had when it started (`_RJEM_MALLOC_CONF`, from
    /proc/self/environ, which later changes leave as it was), not the one polars wrote into
    os.environ on import here: a child would take polars' in place of the command's own
    (`helpers/__main__.py`), and the user's own setting is kept."""
    env = {**os.environ, **extra}
    env.pop("_RJEM_MALLOC_CONF", None)
    with open("/proc/self/environ", "rb") as handle:
        for pair in handle.read().split(b"\0"):
            name, _, value = pair.partition(b"=")
            if name == b"_RJEM_MALLOC_CONF":
                env["_RJEM_MALLOC_CONF"] = value.decode()
    return env


def measure_command(cmd: list[str], name: str | None = None, *, printed: bool = False) -> dict:
    """One whole process: wall-clock seconds and peak memory (MB) of it and its children, and
    (`printed`) what it wrote to standard output, as text (`stdout`)."""
    env = shell_env(PYTHONPATH=str(ROOT))
    read, write = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(write), *cmd],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE if printed else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(write,),
        )
    finally:
        os.close(write)
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _descendants_rss_mb(proc.pid))
            done.wait(0.02)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, err = (b.decode() if b else "" for b in proc.communicate())
    done.set()
    watcher.join()
    with os.fdopen(read, "rb") as report:
        measured = report.read().decode().split()
    if proc.returncode != 0 or len(measured) != 2:
        raise RuntimeError(f"{name or cmd[:4]} failed ({proc.returncode}): {err.strip()[-400:]}")
    result = {"seconds": float(measured[0]), "peak_mb": max(peak[0], int(measured[1]) / 1024)}
    return {**result, "stdout": out} if printed else result


def read_result(engine: str, out: Path) -> pl.DataFrame:
    frame = pl.read_csv(out)
    return frame.select("step", pl.col("benchmark").cast(pl.String), *COLUMNS).sort(
        "step", "benchmark"
    )


def agree(path: Path, engines=("polars", "duckdb", "pandas")) -> None:
    """Every engine writes the same table (same rows, numbers to 1e-9 relative)."""
    with tempfile.TemporaryDirectory() as tmp:
        frames = {}
        for engine in engines:
            out = Path(tmp) / f"{engine}.csv"
            measure(engine, path, out)
            frames[engine] = read_result(engine, out)
    compare_tables(frames)


def compare_tables(frames: dict[str, pl.DataFrame]) -> None:
    base = frames["polars"]
    for name, frame in frames.items():
        if not frame.select("step", "benchmark").equals(base.select("step", "benchmark")):
            raise AssertionError(f"{name} disagrees with polars on the rows")
        for column in COLUMNS:
            a = base[column].cast(pl.Float64).to_numpy()
            b = frame[column].cast(pl.Float64).to_numpy()
            worst = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), 1e-300), initial=0.0))
            if not worst <= 1e-9:
                raise AssertionError(f"{name} disagrees with polars on {column} ({worst:.3g})")


def compiled() -> None:
    """The package's bytecode written before anything is timed, as `pip install` writes it and
    as any second run finds it (a process that compiles ~60 modules first measures Python's
    compiler, not the tool; this sandbox sets PYTHONDONTWRITEBYTECODE, which would make every
    run do so)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "helpers")], check=True)


def available(engine: str) -> bool:
    if engine == "spark":
        from importlib.util import find_spec

        java = any(os.access(Path(d) / "java", os.X_OK) for d in os.environ["PATH"].split(":"))
        return find_spec("pyspark") is not None and (java or "JAVA_HOME" in os.environ)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rows", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000, 50_000_000]
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    args = parser.parse_args(argv)
    engines = [e for e in args.engines if available(e)]
    skipped = sorted(set(args.engines) - set(engines))
    if skipped:
        print(f"not installed here, not run: {', '.join(skipped)}")
    compiled()
    print(f"whole processes, median of {args.repeats}; ratios against DuckDB and the floor")
    print(
        f"{'rows':>11} {'engine':8} {'median s':>9} {'peak MB':>8} "
        f"{'vs DuckDB: time':>16} {'memory':>7} {'vs floor: time':>15} {'memory':>7}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            path = Path(tmp) / f"samples_{rows}.parquet"
            make_data(rows, path)
            n = pl.scan_parquet(path).select(pl.len()).collect().item()
            runs: dict[str, list[dict]] = {engine: [] for engine in engines}
            for _ in range(args.repeats):  # the engines alternate: a machine that slows down
                for engine in engines:  # part way slows every engine's median alike
                    runs[engine].append(measure(engine, path, Path(tmp) / f"{engine}.csv"))
            frames = {e: read_result(e, Path(tmp) / f"{e}.csv") for e in engines}
            results = {
                e: {k: statistics.median(r[k] for r in rs) for k in ("seconds", "peak_mb")}
                for e, rs in runs.items()
            }
            if "polars" in frames:
                compare_tables(frames)  # the same numbers from every engine, or no figures
            for engine, r in results.items():
                ratios = ""
                for peer, width in (("duckdb", 16), ("floor", 15)):
                    base = results.get(peer)
                    t = r["seconds"] / base["seconds"] if base else float("nan")
                    m = r["peak_mb"] / base["peak_mb"] if base else float("nan")
                    ratios += f" {t:>{width - 1}.2f}x {m:6.2f}x"
                print(
                    f"{n:>11,} {engine:8} {r['seconds']:9.2f} {r['peak_mb']:8.0f}{ratios}",
                    flush=True,
                )
    print("(every engine wrote the same numbers, to 1e-9 relative, at every size)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
