"""Apache Spark as the second engine: the session (Spark Connect, a master, or local mode),
reading tidy per-sample Parquet with the same checks as the polars reader, Spark's failures as
the package's error, and `query.summarize` run by Spark. Local paths and URIs (s3a://...) are
told apart here: only Spark reads URIs."""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import narwhals as nw
import polars as pl

from helpers.errors import DataError
from helpers.runs.query import Keys, collect, summarize, uneven_pass_at_k


def location(where: str | Path) -> Path | str:
    """A local path, or a URI (s3a://..., file://...) kept as written: only Spark reads URIs."""
    return where if isinstance(where, str) and "://" in where else Path(where)


def local(where: str | Path) -> Path:
    """A local path for the polars engine; a URI is an error that points to Spark."""
    where = location(where)
    if isinstance(where, str):
        raise DataError(where, "a local file or folder (a URI is read by --engine spark)")
    return where


def session():
    """A Spark session: SPARK_REMOTE (Spark Connect) or SPARK_MASTER if set, else local mode on
    this machine's cores. Missing pyspark or Java is the package's error, not a traceback."""
    try:
        with warnings.catch_warnings():  # pyspark warns about pandas 3 on import
            warnings.simplefilter("ignore")
            from pyspark.sql import SparkSession
    except ImportError:
        raise DataError(
            "--engine spark", "pyspark installed (pip install 'reasoning-figures[spark]')"
        ) from None
    remote = os.environ.get("SPARK_REMOTE")
    if not remote:
        java = os.environ.get("JAVA_HOME")
        found = (java and os.path.exists(os.path.join(java, "bin", "java"))) or any(
            os.access(os.path.join(d, "java"), os.X_OK)
            for d in os.environ.get("PATH", "").split(os.pathsep)
        )
        if not found:
            raise DataError(
                "--engine spark", "Java 17 for local Spark (Debian: openjdk-17-jre-headless)"
            )
    # pyspark warns that it does not yet support pandas 3 fully; nothing here goes through pandas
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
    builder = SparkSession.builder.appName("reasoning-figures")
    if remote:
        builder = builder.remote(remote)
    else:
        master = os.environ.get("SPARK_MASTER", f"local[{os.cpu_count() or 1}]")
        if master.startswith("local"):  # no warning that the host name resolves to loopback
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        logging = Path(__file__).with_name("spark-log4j2.properties")
        builder = (
            builder.master(master)
            .config("spark.driver.extraJavaOptions", f"-Dlog4j.configurationFile=file:{logging}")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", str(max(4, 2 * (os.cpu_count() or 1))))
            .config("spark.sql.session.timeZone", "UTC")
        )
    return builder.getOrCreate()


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
    where = paths[0]
    with read_errors(where):
        frame = spark.read.option("mergeSchema", "true").parquet(*map(str, paths))
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
    """A Spark failure to read the data (a corrupt file, a path that is not there) as the
    package's error naming the input, with Spark's first line of explanation."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    try:
        yield
    except (PySparkException, Py4JJavaError) as e:
        text = str(e.java_exception.getMessage()) if isinstance(e, Py4JJavaError) else str(e)
        first = text.strip().splitlines()[0][:160] if text.strip() else type(e).__name__
        raise DataError(where, "per-sample Parquet that Spark can read", got=first) from None


def summary(frame, bin_tokens: int, percentiles) -> pl.DataFrame:
    """`query.summarize` run by Spark on a per-sample Spark DataFrame; the small per-step table
    comes back as a polars frame (pass@k recomputed where problems have uneven sample counts)."""
    from pyspark.sql import functions as F

    keys = Keys()
    lazy = nw.from_native(frame.withColumn("bin", F.floor(F.col("response_tokens") / bin_tokens)))
    summary = summarize(lazy, keys, bin_tokens=bin_tokens, percentiles=percentiles)
    result = collect(summary)
    uneven = result.filter(pl.col("k") > 1, pl.col("k") != pl.col("k_max"))
    if uneven.height:
        spark = frame.sparkSession
        table = uneven.select(*keys.group, "k", "k_max")
        small = nw.from_native(spark.createDataFrame(table.rows(), schema=table.columns))
        fixed = uneven_pass_at_k(lazy, small, keys, set(uneven["k"]))
        result = result.join(collect(fixed), on=list(keys.group), how="left")
    return result
