"""Apache Spark as the second engine: the session (Spark Connect, a master, or local mode),
reading tidy per-sample Parquet with the same checks as the polars reader, Spark's failures as
the package's error, and `query.summarize` run by Spark. Only Spark reads URIs (s3a://...;
`inputs` tells them from local paths). What a cluster needs (paths, settings, waits, its
failures in words) is in `spark_cluster`."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs import spark_cluster
from helpers.runs.query import Keys, summarize, uneven_pass_at_k


def session():
    """The Spark session of this process: a Spark Connect server (SPARK_REMOTE), a master
    (SPARK_MASTER, or the user's Spark configuration), else local mode on this machine's cores
    (`spark_cluster.target`). The user's settings win: spark-defaults.conf, PYSPARK_SUBMIT_ARGS
    and --spark-conf are never overridden; ours fill only what they leave unset: Spark's logging
    (silent), no console progress bars, and in local mode no web UI and SPARK_LOCAL_IP. Missing
    pyspark or Java, or a master or server that does not answer, is the package's error, not a
    traceback."""
    global _running
    try:
        with warnings.catch_warnings():  # pyspark warns about pandas 3 on import
            warnings.simplefilter("ignore")
            from py4j.protocol import Py4JError
            from pyspark.errors import PySparkException
            from pyspark.sql import SparkSession
    except ImportError:
        raise DataError(
            "--engine spark", "pyspark installed (pip install 'reasoning-figures[spark]')"
        ) from None
    where = spark_cluster.target()
    spark_cluster.wait()  # a bad wait is an error before Spark starts
    if where.kind != "connect":
        java = os.environ.get("JAVA_HOME")
        found = (java and os.path.exists(os.path.join(java, "bin", "java"))) or any(
            os.access(os.path.join(d, "java"), os.X_OK)
            for d in os.environ.get("PATH", "").split(os.pathsep)
        )
        if not found:
            raise DataError(
                "--engine spark", "Java 17 for local Spark (Debian: openjdk-17-jre-headless)"
            )
    spark_cluster.reachable(where)
    # pyspark warns that it does not yet support pandas 3 fully; nothing here goes through pandas
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
    builder = SparkSession.builder.appName("reasoning-figures")
    ours = {spark_cluster.WAIT, "spark.remote", "spark.master"}
    if where.kind == "connect":
        builder = builder.remote(where.url)
    else:
        os.environ.pop("SPARK_REMOTE", None)  # pyspark would go to Connect over the command line
        if where.kind == "local":  # no warning that the host name resolves to loopback
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        _quiet()
        builder = builder.master(where.url)
        settings = {**spark_cluster.quiet_defaults(where), **spark_cluster.SETTINGS}
        for key, value in settings.items():
            if key not in ours:
                builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except (PySparkException, Py4JError) as e:
        given = " or its --spark-conf settings" if spark_cluster.SETTINGS else ""
        raise DataError(
            where.named,
            f"a Spark session that starts there{given}",
            got=spark_cluster.first_line(e),
        ) from None
    if where.kind == "connect":  # only a session's own settings can change under Connect
        for key, value in spark_cluster.SETTINGS.items():
            if key in ours:
                continue
            try:
                spark.conf.set(key, value)
            except PySparkException as e:
                raise DataError(
                    f"--spark-conf {key}",
                    "a setting a Spark Connect session may change (a cluster's own settings "
                    "are given to the Connect server when it starts)",
                    got=spark_cluster.first_line(e),
                ) from None
    _running = (spark, where)
    return spark


_running: tuple = (None, None)  # the session `session` made, and where it runs
_reading: list[str] = ["--engine spark"]  # what `samples` read last: the path errors name


def _quiet() -> None:
    """Spark's logging silenced through SPARK_SUBMIT_OPTS, which comes before the user's own
    spark.driver.extraJavaOptions on the driver's command line (so theirs wins), and not at all
    when the user configures logging (a log4j2.properties in their Spark conf folder)."""
    opts = os.environ.get("SPARK_SUBMIT_OPTS", "")
    folder = Path(os.environ.get("SPARK_CONF_DIR") or spark_cluster.spark_home() / "conf")
    if "log4j" in opts or (folder / "log4j2.properties").exists():
        return
    logging = Path(__file__).with_name("spark-log4j2.properties")
    os.environ["SPARK_SUBMIT_OPTS"] = f"{opts} -Dlog4j.configurationFile=file:{logging}".strip()


def _size_shuffles(spark) -> None:
    """Shuffle partitions for the executors the check found: twice their cores (AQE merges
    small ones), unless the user set them; under Connect the server's setting stands."""
    if _running[1] is None or _running[1].kind == "connect":
        return
    context = spark.sparkContext
    if not context.getConf().contains("spark.sql.shuffle.partitions"):
        partitions = max(4, 2 * context.defaultParallelism)
        spark.conf.set("spark.sql.shuffle.partitions", str(partitions))


def samples(paths: Sequence[str]):
    """The tidy per-sample Parquet logs as one Spark DataFrame of the per-sample columns
    (folders are read with their hive partitions), checked as the polars reader checks them:
    the columns are there with whole-number steps, sample ids and lengths and a boolean or 0/1
    `correct`, and every value but a length is present. The check is one Spark job that stops
    at the first bad row, which it names by file."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    for path in paths:  # a local input must be a tidy per-sample log (a bucket is Spark's to read)
        if os.path.exists(path):
            from helpers.runs.readers import detect

            kind = detect(path)
            parquet = os.path.isdir(path) or str(path).endswith(".parquet")
            if kind not in ("samples", "folder") or not parquet:
                raise DataError(path, "a tidy per-sample Parquet file or folder", got=kind)
    spark = session()
    where = _reading[0] = str(paths[0])
    with read_errors(where):  # Connect reads lazily: a missing path fails at the schema
        frame = spark.read.option("mergeSchema", "true").parquet(*map(spark_cluster.uri, paths))
        if _running[1].kind == "connect":  # a Connect server reports progress on queries only,
            frame.limit(0).collect()  # not while it infers the schema for `.schema`: watch it
        types = {f.name: f.dataType for f in frame.schema.fields}
    whole = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)
    for column in ("step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"):
        if column not in types:
            raise DataError(where, "the per-sample columns", column=column, got="no such column")
        if column in ("step", "sample_id", "response_tokens") and not isinstance(
            types[column], whole
        ):
            raise DataError(
                where,
                "whole numbers (an integer Parquet type)",
                column=column,
                got=types[column].simpleString(),
            )
    correct = F.col("correct")
    if not isinstance(types["correct"], T.BooleanType):
        if not isinstance(types["correct"], whole):
            raise DataError(
                where,
                "true/false or 0/1 (a boolean or integer Parquet type)",
                column="correct",
                got=types["correct"].simpleString(),
            )
        correct = correct == 1
    checks = [
        (c, F.col(c).isNull(), "a value in every row")
        for c in ("step", "benchmark", "problem_id", "sample_id", "correct")
    ]
    if not isinstance(types["correct"], T.BooleanType):
        checks.append(("correct", ~F.col("correct").isin(0, 1), "0 or 1 (or true/false)"))
    if "reward" in types:  # Spark counts `correct`; a mean of partial rewards is polars' work
        partial = (
            "0 or 1 (a reward with partial credit is averaged by polars: leave out --engine spark)"
        )
        checks.append(("reward", ~F.col("reward").isin(0, 1), partial))
    flags = [F.when(bad, F.lit(c)).alias(f"__{i}") for i, (c, bad, _) in enumerate(checks)]
    with read_errors(where):
        found = (
            frame.select("*", F.input_file_name().alias("__file"), *flags)
            .filter(F.coalesce(*[F.col(f"__{i}") for i in range(len(checks))]).isNotNull())
            .limit(1)
            .collect()
        )
    if found:
        row = found[0].asDict()
        i = next(i for i in range(len(checks)) if row[f"__{i}"] is not None)
        column, _, expected = checks[i]
        file = row["__file"] or str(where)
        if file.startswith("file:"):  # Spark names files by URI
            from urllib.parse import unquote, urlparse

            file = unquote(urlparse(file).path)
        raise DataError(file, expected, column=column, got=row[column])
    _size_shuffles(spark)
    return frame.select(
        F.col("step").cast("long"),
        F.col("benchmark").cast("string"),
        F.col("problem_id").cast("string"),
        F.col("sample_id").cast("long"),
        correct.cast("boolean").alias("correct"),
        F.col("response_tokens").cast("long"),
    )


@contextmanager
def read_errors(where):
    """Spark's jobs while it reads `where`: watched for a cluster that never runs them
    (`spark_cluster.Watch`; one watch for nested blocks), and any failure, eager or lazy,
    classic or Connect, turned into the package's one-line error naming the path or setting
    (`spark_cluster.explain`)."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    spark, runs = _running
    runs = runs or spark_cluster.Target("local", "local", "--engine spark")
    outer = _watch[0]
    fresh = outer is None and spark is not None and runs.kind != "local"
    watch = spark_cluster.Watch(spark, runs) if fresh else outer
    try:
        with watch if fresh else nullcontext():
            _watch[0] = watch
            yield
    except (PySparkException, Py4JError) as e:
        if watch is not None and watch.starved:
            raise watch.error() from None
        raise spark_cluster.explain(e, where, runs) from None
    finally:
        _watch[0] = outer


_watch: list = [None]  # the watch of the outermost `read_errors` block, shared by nested ones


def collected(run: str, table: pl.DataFrame) -> None:
    """Say (on stderr) how large a table Spark sent to this machine, beside the driver's limit
    on it (spark.driver.maxResultSize; past it, Spark's failure is one line that says so)."""
    spark = _running[0]
    limit = spark.conf.get("spark.driver.maxResultSize", None) if spark else None
    size = table.estimated_size()
    said = f"{size / 1e6:,.1f} MB" if size >= 1e5 else f"{size / 1e3:,.1f} kB"
    limit = limit or "1g, Spark's default"
    print(
        f"spark: run {run}: {table.height:,} per-problem rows ({said}) sent to this machine "
        f"(spark.driver.maxResultSize: {limit})",
        file=sys.stderr,
    )


def collect(frame, where: object = "--engine spark") -> pl.DataFrame:
    """A narwhals query over a Spark frame, run where the session points; only its result
    comes back, as a polars frame (a failure to read is the package's error naming
    `where`)."""
    with read_errors(where):
        return frame.collect().to_polars()


def summary(frame, bin_tokens: int, percentiles) -> pl.DataFrame:
    """`query.summarize` run by Spark on a per-sample Spark DataFrame; the small per-step table
    comes back as a polars frame (pass@k recomputed where problems have uneven sample counts)."""
    import narwhals as nw
    from pyspark.sql import functions as F

    keys, where = Keys(), _reading[0]
    with read_errors(where):  # narwhals asks a Connect server for schemas as it builds
        bins = frame.withColumn("bin", F.floor(F.col("response_tokens") / bin_tokens))
        lazy = nw.from_native(bins)
        summary = summarize(lazy, keys, bin_tokens=bin_tokens, percentiles=percentiles)
        result = collect(summary, where)
        uneven = result.filter(pl.col("k") > 1, pl.col("k") != pl.col("k_max"))
        if uneven.height:
            spark = frame.sparkSession
            table = uneven.select(*keys.group, "k", "k_max")
            small = nw.from_native(spark.createDataFrame(table.rows(), schema=table.columns))
            fixed = uneven_pass_at_k(lazy, small, keys, set(uneven["k"]))
            result = result.join(collect(fixed, where), on=list(keys.group), how="left")
    return result
