"""The aggregation written once (helpers.runs.query) gives the same numbers on polars and on Spark,
and the same numbers as a plain Python count; Spark's absence is the package's error."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from helpers.cli import main
from helpers.errors import DataError
from helpers.paths import ROOT
from helpers.runs import compare, engines, readers, spark, spark_cluster, summarise

# Spark's JVMs in these tests live under a minute: the quick compiler only and one GC thread
# (measured on this file alone: 58 s of CPU -> 34 s, 35 s -> 30 s of wall time). The product
# leaves Spark's JVM options to the user.
QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

NUMBERS = ["problems", "samples", "k", "accuracy", "lo", "hi", "pass_k", "mean_tokens"]
NUMBERS += ["p50_tokens", "p90_tokens"]


def write_hive(folder: Path, seed: int = 0, integer_ids: bool = False) -> pl.DataFrame:
    """A per-sample log as a trainer shards it: hive partitions by step, several files per step,
    problems with uneven sample counts (2 to 5), a benchmark missing at some steps, missing
    lengths, and step 30 absent. Returns the rows written."""
    rng = np.random.default_rng(seed)
    rows = []
    for step in (0, 10, 20, 40, 50):
        for bench, problems in (("aime", 7), ("math", 23), ("gpqa", 5)):
            if bench == "gpqa" and step in (10, 40):
                continue  # evaluated at some steps only
            for p in range(problems):
                for s in range(int(rng.integers(2, 6))):
                    tokens = None if rng.random() < 0.05 else int(rng.integers(50, 3000))
                    pid = p if integer_ids else f"{bench}-{p}"
                    rows.append(
                        (step, bench, pid, s, bool(rng.random() < 0.3 + step / 100), tokens)
                    )
    schema = {
        "step": pl.Int64,
        "benchmark": pl.String,
        "problem_id": pl.Int64 if integer_ids else pl.String,
        "sample_id": pl.Int64,
        "correct": pl.Boolean,
        "response_tokens": pl.Int64,
    }
    df = pl.DataFrame(rows, schema=schema, orient="row")
    if integer_ids:  # as trainers' Parquet logs hold them: the packed-key path of polars
        df = df.with_columns(pl.col("benchmark").cast(pl.Categorical))
    for (step,), part in df.partition_by("step", as_dict=True).items():
        target = folder / f"step={step}"
        target.mkdir(parents=True)
        for i, chunk in enumerate(np.array_split(np.arange(part.height), 3)):
            part[chunk.tolist()].drop("step").write_parquet(target / f"part-{i}.parquet")
    return df


def by_hand(df: pl.DataFrame) -> dict[tuple, dict]:
    """The summary counted in plain Python (no engine): problems, samples, k, accuracy and
    unbiased pass@k with k the fewest samples of any problem."""
    out = {}
    for (step, bench), g in df.group_by("step", "benchmark"):
        per = {}
        for pid, correct in g.select("problem_id", "correct").iter_rows():
            n, c = per.get(pid, (0, 0))
            per[pid] = (n + 1, c + correct)
        k = min(n for n, _ in per.values())
        tokens = [t for t in g["response_tokens"].to_list() if t is not None]
        out[(step, str(bench))] = {
            "problems": len(per),
            "samples": sum(n for n, _ in per.values()),
            "k": k,
            "accuracy": sum(c / n for n, c in per.values()) / len(per),
            "pass_k": sum(1 - math.comb(n - c, k) / math.comb(n, k) for n, c in per.values())
            / len(per),
            "mean_tokens": sum(tokens) / len(tokens),
        }
    return out


@pytest.fixture(scope="module")
def spark_session():
    with pytest.MonkeyPatch.context() as mp:  # read when the session's JVM starts
        own = os.environ.get("SPARK_SUBMIT_OPTS", "")
        quick = [f for f in QUICK_JVM.split() if not (f.endswith("GC") and "GC" in own)]
        mp.setenv("SPARK_SUBMIT_OPTS", " ".join([own, *quick]).strip())  # a GC of yours stays
        session = spark.session()
        yield session


def _relative(a, b) -> float:
    if a is None or b is None:
        assert a is None and b is None
        return 0.0
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def assert_same(a: pl.DataFrame, b: pl.DataFrame) -> None:
    assert a.select("step", "benchmark").rows() == b.select("step", "benchmark").rows()
    for column in NUMBERS:
        for x, y in zip(a[column].to_list(), b[column].to_list(), strict=True):
            assert _relative(x, y) <= 1e-9, (column, x, y)


@pytest.mark.parametrize("integer_ids", [False, True], ids=["text ids", "integer ids"])
def test_polars_and_spark_agree_with_each_other_and_by_hand(tmp_path, spark_session, integer_ids):
    df = write_hive(tmp_path / "log", integer_ids=integer_ids)
    local = summarise.aggregate_samples(readers.scan_samples([tmp_path / "log"]))
    if integer_ids:  # packed keys, and several passes over step ranges (sums in another order)
        ranged = summarise.aggregate_samples(
            readers.scan_samples([tmp_path / "log"]), rows_per_pass=300
        )
        assert_same(local, ranged)
    remote = summarise.aggregate_samples(spark.samples([str(tmp_path / "log")]), engine="spark")
    assert_same(local, remote)
    assert sorted(set(local["step"])) == [0, 10, 20, 40, 50]
    assert local.filter(pl.col("benchmark") == "gpqa")["step"].to_list() == [0, 20, 50]
    expected = by_hand(df)
    assert len(expected) == local.height
    for row in local.iter_rows(named=True):
        want = expected[(row["step"], row["benchmark"])]
        for column, value in want.items():
            assert _relative(row[column], value) <= 1e-12, (column, row[column], value)
    assert local["k"].min() == 2 and local["k"].max() <= 5  # uneven: pass@k takes the product


def test_several_files_read_by_both_engines(tmp_path, spark_session):
    write_hive(tmp_path / "log", seed=1)
    files = sorted((tmp_path / "log").glob("step=*/part-0.parquet"))
    # plain files carry no step column: give each one
    flat = []
    for f in files:
        step = int(f.parent.name.split("=")[1])
        flat.append(tmp_path / f"s{step}.parquet")
        pl.read_parquet(f).with_columns(step=pl.lit(step, pl.Int64)).write_parquet(flat[-1])
    local = summarise.aggregate_samples(readers.scan_samples(flat))
    remote = summarise.aggregate_samples(spark.samples([str(f) for f in flat]), engine="spark")
    assert_same(local, remote)


def test_per_problem_counts_agree(tmp_path, spark_session):
    write_hive(tmp_path / "a", seed=2)
    write_hive(tmp_path / "b", seed=3)
    runs = {"a": str(tmp_path / "a"), "b": str(tmp_path / "b")}
    local = compare.compare(runs)
    remote = compare.compare(runs, engine="spark")
    assert local.problems.equals(remote.problems)
    numbers = [c for c in local.differences.columns if local.differences[c].dtype.is_float()]
    for column in numbers:
        for x, y in zip(
            local.differences[column].to_list(), remote.differences[column].to_list(), strict=True
        ):
            assert _relative(x, y) <= 1e-9, (column, x, y)


def test_spark_checks_values_as_the_polars_reader_does(tmp_path, spark_session):
    df = write_hive(tmp_path / "log")
    bad = tmp_path / "bad.parquet"
    df.with_columns(
        correct=pl.when(pl.int_range(pl.len()) == 17).then(None).otherwise(pl.col("correct"))
    ).write_parquet(bad)
    with pytest.raises(DataError) as e:
        spark.samples([str(bad)])
    assert e.value.column == "correct" and e.value.path == str(bad)
    as_int = tmp_path / "int.parquet"
    df.with_columns(pl.col("correct").cast(pl.Int8) * 2).write_parquet(as_int)
    with pytest.raises(DataError, match="0 or 1") as e:
        spark.samples([str(as_int)])
    words = tmp_path / "words.parquet"
    df.with_columns(pl.col("step").cast(pl.String)).write_parquet(words)
    with pytest.raises(DataError, match="whole numbers") as e:
        spark.samples([str(words)])
    text = tmp_path / "t.csv"
    df.write_csv(text)
    with pytest.raises(DataError, match="Parquet"):
        spark.samples([str(text)])
    torn = tmp_path / "torn" / "step=0"
    torn.mkdir(parents=True)
    (torn / "part-0.parquet").write_bytes(bad.read_bytes()[:-100])  # cut short: no footer
    with pytest.raises(DataError, match="Spark can read") as e:
        spark.samples([str(torn.parent)])
    assert e.value.path == str(torn.parent)


def test_shuffles_are_sized_for_the_cores_spark_has(tmp_path, spark_session):
    """Not Spark's 200 partitions, and not this machine's cores on a cluster: twice the cores
    the executors have, once the check has run on them."""
    write_hive(tmp_path / "log")
    spark.samples([str(tmp_path / "log")])
    cores = spark_session.sparkContext.defaultParallelism
    assert spark_session.conf.get("spark.sql.shuffle.partitions") == str(max(4, 2 * cores))


def test_a_file_gone_before_a_task_reads_it_is_one_line_naming_it(tmp_path, spark_session):
    """What an executor that does not see a file at the path the driver listed meets (a local
    path on a cluster): here the file is removed between the listing and the aggregation."""
    write_hive(tmp_path / "log")
    frame = spark.samples([str(tmp_path / "log")])
    gone = tmp_path / "log" / "step=20" / "part-1.parquet"
    gone.unlink()
    with pytest.raises(DataError) as e:
        summarise.aggregate_samples(frame, engine="spark")
    assert str(e.value) == (
        f"{gone}: expected a file every executor can read, in place until Spark has read it; "
        "got 'no such file where a task read it'"
    )


def test_partial_rewards_are_refused_on_spark_not_counted_as_correct(tmp_path, spark_session):
    """Spark aggregates `correct`; a reward with partial credit would be dropped unseen, so it
    is one line naming the file and the value (0/1 rewards pass)."""
    rows = write_hive(tmp_path / "ok").with_columns(reward=pl.col("correct").cast(pl.Float64))
    rows.write_parquet(tmp_path / "binary.parquet")
    spark.samples([str(tmp_path / "binary.parquet")])  # 0/1 rewards: accuracy, as polars has it
    partial = rows.with_columns(reward=pl.when(pl.col("sample_id") == 1).then(0.5).otherwise(1.0))
    partial.write_parquet(tmp_path / "partial.parquet")
    with pytest.raises(DataError, match="averaged by polars: leave out --engine spark") as e:
        spark.samples([str(tmp_path / "partial.parquet")])
    assert e.value.column == "reward" and str(tmp_path / "partial.parquet") in str(e.value)


@pytest.fixture
def no_spark_settings(monkeypatch, tmp_path):
    """No Spark configuration of this machine's, and none left for the other tests."""
    for variable in ("SPARK_MASTER", "SPARK_REMOTE", "PYSPARK_SUBMIT_ARGS"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path / "no-conf"))
    monkeypatch.setattr(spark_cluster, "SETTINGS", {})


def test_paths_go_to_spark_as_absolute_uris(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert spark_cluster.uri("run/step=10") == f"file://{tmp_path}/run/step=10"
    assert spark_cluster.uri(tmp_path / "a b") == f"file://{tmp_path}/a b"
    for uri in ("s3a://b/run/", "gs://b/run", "abfss://c@a.dfs.core.windows.net/r", "hdfs://n/r"):
        assert spark_cluster.uri(uri) == uri


def test_the_users_spark_configuration_wins(tmp_path, monkeypatch, no_spark_settings):
    """The master from spark-defaults.conf, and none of the tool's defaults over a key it sets;
    the command line over the environment, the environment over spark-defaults.conf."""
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        "# the cluster's\nspark.master   spark://h:7077\nspark.ui.showConsoleProgress=true\n"
    )
    monkeypatch.setenv("SPARK_CONF_DIR", str(conf))
    where = spark_cluster.target()
    assert where == spark_cluster.Target(
        "master", "spark://h:7077", "spark-defaults.conf spark.master=spark://h:7077"
    )
    assert spark_cluster.quiet_defaults(where) == {}  # no UI setting on a cluster either
    monkeypatch.setenv("SPARK_REMOTE", "sc://c:15002")
    assert spark_cluster.target().named == "SPARK_REMOTE=sc://c:15002"
    spark_cluster.configure({"spark.master": "local[1]"})
    where = spark_cluster.target()
    assert (where.kind, where.url) == ("local", "local[1]")
    assert spark_cluster.quiet_defaults(where) == {"spark.ui.enabled": "false"}
    monkeypatch.setenv("PYSPARK_SUBMIT_ARGS", "--conf spark.ui.enabled=true pyspark-shell")
    assert spark_cluster.quiet_defaults(where) == {}


def test_a_wait_that_is_not_seconds_is_one_line(no_spark_settings):
    spark_cluster.configure({spark_cluster.WAIT: "soon"})
    with pytest.raises(DataError) as e:
        spark.session()
    assert str(e.value) == (
        "--spark-conf reasoning-figures.wait: expected a number of seconds above 0; got 'soon'"
    )


def test_spark_without_pyspark_is_a_clear_error(monkeypatch):
    for name in [m for m in sys.modules if m == "pyspark" or m.startswith("pyspark.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyspark", None)  # import fails as if not installed
    with pytest.raises(DataError, match=r"pip install 'reasoning-figures\[spark\]'"):
        spark.session()


def test_spark_without_java_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("SPARK_REMOTE", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(DataError, match="openjdk-17-jre-headless"):
        spark.session()


def test_unknown_engine():
    with pytest.raises(ValueError, match="engine must be one of"):
        engines.aggregate(pl.LazyFrame(), engine="dask")


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "helpers", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=600,
    )


def test_cli_on_spark_writes_the_polars_csv_and_a_torn_file_is_one_line(
    tmp_path, spark_session, capfd
):
    """The command line with --engine spark, in this process on its Spark session, writes the
    same CSV as with polars (Spark given the folder by URI, as a cluster names it) and prints
    only that it did; a torn Parquet file is then one error line naming the folder, and no
    output. (A fresh process's Spark start-up saying nothing is checked through a master in
    test_spark_cluster: the JVM's own stderr is not this process's to capture.)"""
    write_hive(tmp_path / "good", integer_ids=True)
    df = write_hive(tmp_path / "torn")
    torn = tmp_path / "torn" / "step=0" / "part-1.parquet"
    torn.write_bytes(torn.read_bytes()[:-64])
    assert main(["plot", str(tmp_path / "good"), "-o", str(tmp_path / "polars.csv")]) == 0
    capfd.readouterr()
    good = (tmp_path / "good").as_uri()
    assert main(["plot", good, "-o", str(tmp_path / "spark.csv"), "--engine", "spark"]) == 0
    said = capfd.readouterr()
    assert said.err == "" and said.out == f"wrote {tmp_path / 'spark.csv'}\n"
    out = tmp_path / "spark.csv.torn.csv"
    assert main(["plot", str(tmp_path / "torn"), "-o", str(out), "--engine", "spark"]) == 2
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"error: {tmp_path / 'torn'}: expected per-sample Parquet that Spark")
    polars = (tmp_path / "polars.csv").read_bytes()
    assert (tmp_path / "spark.csv").read_bytes() == polars
    assert polars.count(b"\n") == 13 + 1  # 13 (step, benchmark) rows and the header
    assert df.height and not out.exists()


def test_cli_without_java_exits_2_with_one_line(tmp_path):
    write_hive(tmp_path / "log")
    env = {"PATH": "/nonexistent", "JAVA_HOME": "/nonexistent"}
    done = _cli(
        "plot", str(tmp_path / "log"), "-o", str(tmp_path / "x.csv"), "--engine", "spark", env=env
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: --engine spark: expected Java 17")
    assert done.stderr.count("\n") == 1 and not (tmp_path / "x.csv").exists()


def test_a_uri_without_spark_is_a_clear_error(tmp_path):
    write_hive(tmp_path / "log")
    uri = (tmp_path / "log").as_uri()
    done = _cli("plot", uri, "-o", str(tmp_path / "x.csv"))
    assert done.returncode == 2
    assert (
        done.stderr
        == f"error: {uri}: expected a local file or folder (a URI is read by --engine spark)\n"
    )
    with pytest.raises(DataError, match="URI is read by --engine spark"):
        compare.compare({"a": uri, "b": str(tmp_path / "log")})
