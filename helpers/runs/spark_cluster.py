"""Where Spark runs (local mode, a master, or a Spark Connect server) and what a cluster asks
of this machine: the user's settings, which win over ours; paths as absolute URIs, since a
relative path would be resolved wherever Spark happens to run; reachability checked before
anything waits on it; a watch that ends a run no executor takes; and Spark's failures said in
one line that names the path or setting and what to do. `helpers.runs.spark` uses these."""

from __future__ import annotations

import os
import re
import shlex
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from helpers.errors import DataError

# Read here, never sent to Spark: how long a run may wait for an executor to take its tasks.
WAIT = "reasoning-figures.wait"
DEFAULT_WAIT = 120.0  # seconds: executors on a standalone or YARN cluster start well within it
REACH = 10.0  # seconds to wait for a master or a Connect server to answer on its port

SETTINGS: dict[str, str] = {}  # --spark-conf KEY=VALUE, for the one session of this process

# The filesystems that pip's pyspark cannot read, and the Hadoop module each needs on the
# driver's and every executor's classpath ({v}: the cluster's Hadoop version).
CONNECTORS = {
    "s3a": "org.apache.hadoop:hadoop-aws:{v} (and the AWS SDK bundle it depends on)",
    "gs": "org.apache.hadoop:hadoop-gcp:{v} (or Google's shaded gcs-connector jar)",
    "abfss": "org.apache.hadoop:hadoop-azure:{v}",
    "abfs": "org.apache.hadoop:hadoop-azure:{v}",
    "wasbs": "org.apache.hadoop:hadoop-azure:{v}",
}


def configure(settings: dict[str, str]) -> None:
    """Settings for the Spark session this process starts (one session a process, as Spark
    has it): `--spark-conf KEY=VALUE` from the command line."""
    SETTINGS.clear()
    SETTINGS.update(settings)


def wait() -> float:
    """Seconds a job may wait with no task taken before the run fails (`reasoning-figures.wait`)."""
    text = SETTINGS.get(WAIT)
    if text is None:
        return DEFAULT_WAIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise DataError(f"--spark-conf {WAIT}", "a number of seconds above 0", got=text)
    return seconds


@dataclass(frozen=True)
class Target:
    """Where the session runs: `kind` is local, master or connect; `url` is Spark's master URL
    or the Connect address; `named` says where the user set it, for error messages."""

    kind: str
    url: str
    named: str


def spark_home() -> Path:
    """The Spark installation pyspark runs (pip's: the pyspark package itself)."""
    if os.environ.get("SPARK_HOME"):
        return Path(os.environ["SPARK_HOME"])
    from importlib.util import find_spec

    spec = find_spec("pyspark")
    return Path(spec.origin).parent if spec and spec.origin else Path(".")


def defaults() -> dict[str, str]:
    """spark-defaults.conf ($SPARK_CONF_DIR, else the Spark installation's conf/), as Java
    properties: a key, then whitespace, '=' or ':', then the value."""
    folder = Path(os.environ.get("SPARK_CONF_DIR") or spark_home() / "conf")
    out = {}
    try:
        text = (folder / "spark-defaults.conf").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        found = re.match(r"\s*([^\s=:#!][^\s=:]*)\s*[=:\s]\s*(.*?)\s*$", line)
        if found:
            out[found.group(1)] = found.group(2)
    return out


def quiet_defaults(where: Target) -> dict[str, str]:
    """What a classic session needs beside the user's settings, each only where no
    spark-defaults.conf, PYSPARK_SUBMIT_ARGS --conf or --spark-conf sets it: no console progress
    bars (pyspark turns them on as if it were a shell), and in local mode no web UI."""
    ours = {"spark.ui.showConsoleProgress": "false"}
    if where.kind == "local":
        ours["spark.ui.enabled"] = "false"
    submit = shlex.split(os.environ.get("PYSPARK_SUBMIT_ARGS", ""))
    given = {*defaults(), *SETTINGS}
    given |= {
        b.partition("=")[0] for a, b in zip(submit, submit[1:], strict=False) if a == "--conf"
    }
    return {k: v for k, v in ours.items() if k not in given}


def target() -> Target:
    """Where this process's session runs, the command line first: --spark-conf spark.remote
    or spark.master, then SPARK_REMOTE (Spark Connect), SPARK_MASTER, PYSPARK_SUBMIT_ARGS
    --master and spark-defaults.conf's spark.master; else local mode on this machine's cores."""
    submit = shlex.split(os.environ.get("PYSPARK_SUBMIT_ARGS", ""))
    given = [
        ("--spark-conf spark.remote", SETTINGS.get("spark.remote"), True),
        ("--spark-conf spark.master", SETTINGS.get("spark.master"), False),
        ("SPARK_REMOTE", os.environ.get("SPARK_REMOTE"), True),
        ("SPARK_MASTER", os.environ.get("SPARK_MASTER"), False),
        ("PYSPARK_SUBMIT_ARGS --master", _flag(submit, "--master"), False),
        ("spark-defaults.conf spark.master", defaults().get("spark.master"), False),
    ]
    for named, url, remote in given:
        if url:
            kind = "connect" if remote else "local" if url.startswith("local") else "master"
            return Target(kind, url, f"{named}={url}")
    cores = os.cpu_count() or 1
    return Target("local", f"local[{cores}]", "--engine spark (local mode)")


def _flag(args: list[str], flag: str) -> str | None:
    return next((b for a, b in zip(args, args[1:], strict=False) if a == flag), None)


def reachable(where: Target) -> None:
    """A standalone master or a Connect server that does not answer on its port is an error
    now, not a minute of Spark's retries: the first address of spark://h1:p1,h2:p2 that
    answers will do."""
    if where.kind == "connect":
        found = re.match(r"sc://([^/:;]+|\[[^\]]+\])(?::(\d+))?", where.url)
        what, default = "a Spark Connect server", 15002
    elif where.url.startswith("spark://"):
        found = re.match(r"spark://(.+)", where.url)
        what, default = "a Spark standalone master", 7077
    else:  # yarn, k8s://, mesos: reached by their own clients
        return
    if not found:
        raise DataError(where.named, f"the address of {what} (sc://HOST:PORT or spark://HOST:PORT)")
    if where.kind == "connect":
        addresses = [(found.group(1).strip("[]"), int(found.group(2) or default))]
    else:
        addresses = []
        for part in found.group(1).split(","):
            host, _, port = part.rpartition(":") if ":" in part else (part, "", "")
            addresses.append((host.strip("[]"), int(port) if port.isdigit() else default))
    why = ""
    for host, port in addresses:
        try:
            socket.create_connection((host, port), timeout=REACH).close()
            return
        except OSError as e:
            why = e.strerror or f"no answer in {REACH:.0f} s"
    raise DataError(
        where.named,
        f"{what} listening at {', '.join(f'{h}:{p}' for h, p in addresses)} (start it, or "
        "correct the host and port)",
        got=why,
    )


def uri(path: str | Path) -> str:
    """The path as Spark should be given it: a URI (s3a://, gs://, abfss://, hdfs://, file://)
    untouched; a local path as file:// of its absolute path here, which the driver and every
    executor must then see at that same place (a shared filesystem, or one machine)."""
    text = str(path)
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text):
        return text
    return "file://" + os.path.abspath(text)


def hadoop() -> str:
    """The Hadoop version of the installed pyspark (of its hadoop-client jars)."""
    jars = sorted((spark_home() / "jars").glob("hadoop-client-api-*.jar"))
    return jars[-1].name.removeprefix("hadoop-client-api-").removesuffix(".jar") if jars else "?"


class Watch:
    """While Spark runs a job: if no task has started or finished for `wait()` seconds while
    a stage waits for one (no executor with free cores, or executors that cannot reach the
    driver), cancel the session's jobs and remember it, so the failure says so. Classic
    sessions are polled through their status tracker; Connect reports progress itself."""

    def __init__(self, spark, where: Target) -> None:
        self.spark, self.where, self.seconds = spark, where, wait()
        self.starved = False
        self._since: float | None = None
        self._last: object = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watch:
        if self.where.kind == "connect":
            self.spark.registerProgressHandler(self._progress)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        if self.where.kind == "connect":
            self.spark.removeProgressHandler(self._progress)

    def _seen(self, waiting: bool, state: object) -> None:
        if not waiting or state != self._last:
            self._since = time.monotonic() if waiting else None
        elif self._since is None:
            self._since = time.monotonic()
        self._last = state

    def _progress(self, stages, inflight_tasks, operation_id, done) -> None:
        stages = list(stages or [])
        pending = not done and any(not s.done for s in stages) and inflight_tasks == 0
        finished = sum(s.num_completed_tasks for s in stages)
        self._seen(pending, (operation_id, len(stages), finished))

    def _poll(self) -> None:
        tracker = self.spark.sparkContext.statusTracker()
        jobs = tracker.getActiveJobsIds()
        stages = [tracker.getStageInfo(s) for s in tracker.getActiveStageIds()]
        stages = [s for s in stages if s is not None]
        running = sum(s.numActiveTasks for s in stages)
        ended = sum(s.numCompletedTasks + s.numFailedTasks for s in stages)
        self._seen(bool(jobs) and running == 0, (tuple(sorted(jobs)), len(stages), ended))

    def _run(self) -> None:
        try:
            while not self._stop.wait(0.5):
                if self.where.kind != "connect":
                    self._poll()
                if self._since is not None and time.monotonic() - self._since >= self.seconds:
                    self.starved = True
                    if self.where.kind == "connect":
                        self.spark.interruptAll()
                    else:
                        self.spark.sparkContext.cancelAllJobs()
                    return
        except Exception:  # a session that went away fails the run itself, in one line
            return

    def error(self) -> DataError:
        driver = "the Connect server" if self.where.kind == "connect" else "this machine"
        return DataError(
            self.where.named,
            f"an executor to take Spark's tasks within {self.seconds:g} s (--spark-conf "
            f"{WAIT}=SECONDS): free cores and memory for this application on the cluster (or "
            "ask for less: spark.executor.cores, spark.executor.memory), and executors that "
            f"reach the driver on {driver} (SPARK_LOCAL_IP or spark.driver.host)",
            got="no task started",
        )


def _text(e: BaseException) -> str:
    """Everything Spark said: a Java exception's message and its causes', or the Python
    exception's text (Connect's holds the server's)."""
    java = getattr(e, "java_exception", None)
    if java is None:
        return str(e)
    parts = []
    while java is not None and len(parts) < 12:
        parts.append(f"{java.getClass().getName()}: {java.getMessage()}")
        java = java.getCause()
    return "\n".join(parts)


def first_line(e: BaseException) -> str:
    """Spark's first line of explanation (a Java exception's message, without its class)."""
    java = getattr(e, "java_exception", None)
    text = str(java.getMessage() if java is not None else e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


def _plain(file: str) -> str:
    """A file:// URI as Spark names files, as the local path it stands for."""
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(file).path) if file.startswith("file:") else file


def explain(e: BaseException, where: object, target: Target) -> DataError:
    """A Spark failure while reading `where` as the package's one-line error: what went wrong,
    named by path or setting, and what to do."""
    text = _text(e)
    shared = {
        "connect": " (the Spark Connect server and its executors read a local path on their own "
        "disks: use a filesystem they share, or a bucket)",
        "master": " (every executor reads a local path on its own disk: use a filesystem they "
        "share, or a bucket)",
    }.get(target.kind, "")
    if found := re.search(r"Path does not exist: (\S+?)\.?(?:\s|$)", text):
        return DataError(where, f"a file or folder at {found.group(1)}{shared}", got="no such path")
    found = re.search(r"Class (org\.\S+FileSystem\S*) not found", text)
    found = found or re.search(r'No FileSystem for scheme "(\w+)"', text)
    if found:
        scheme = str(where).partition("://")[0] if "://" in str(where) else "?"
        jar = CONNECTORS.get(scheme, "the Hadoop FileSystem for {scheme}://").format(
            v=hadoop(), scheme=scheme
        )
        when = ", set when the Connect server starts" if target.kind == "connect" else ""
        return DataError(
            where,
            f"a filesystem for {scheme}://, which pip's pyspark does not bring: {jar} on the "
            f"classpath of the driver and every executor (spark.jars.packages, or the cluster's "
            f"jars folder{when})",
            got=found.group(1),
        )
    found = re.search(r"reading file (\S+?)\. File does not exist", text)
    if found := found or re.search(r"FileNotFoundException: File (\S+) does not exist", text):
        return DataError(
            _plain(found.group(1)),
            f"a file every executor can read, in place until Spark has read it{shared}",
            got="no such file where a task read it",
        )
    found = re.search(
        r"results of (\d+) tasks \(([^)]*)\) is bigger than spark\.driver\.maxResultSize", text
    )
    if found:
        how = "when the Connect server starts" if target.kind == "connect" else "--spark-conf"
        return DataError(
            "spark.driver.maxResultSize",
            f"a limit above the results Spark sends to this machine: raise it ({how} "
            "spark.driver.maxResultSize=4g) or ask for fewer benchmarks (--benchmarks)",
            got=f"{found.group(2)} from {found.group(1)} tasks, over the limit",
        )
    if re.search(r"SparkContext (was|has been) shut down|All masters are unresponsive", text):
        return DataError(target.named, "a Spark master that stays reachable", got=first_line(e))
    if re.search(r"StatusCode\.UNAVAILABLE|failed to connect to all addresses", text):
        return DataError(target.named, "a Spark Connect server that answers", got=first_line(e))
    return DataError(where, "per-sample Parquet that Spark can read", got=first_line(e))
