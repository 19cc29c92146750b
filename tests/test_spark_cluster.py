"""Spark on a real cluster, on loopback only: a standalone master with one worker and a Spark
Connect server, started from the installed pyspark (its spark-class and spark-submit, its
bundled Connect jar). Through the master and through Connect, `plot` and `compare` write the
bytes polars writes; what goes wrong (a missing path, a filesystem pip's pyspark lacks, the
driver's result limit, no free cores, a closed port) is one error line; every process the
fixture starts is stopped, whatever happens."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl
import pytest

from helpers.cli import main
from helpers.runs.spark_cluster import DEFAULT_WAIT, spark_home
from tests.test_spark import QUICK_JVM, write_hive

HOME = spark_home()
CONNECT = "org.apache.spark.sql.connect.service.SparkConnectServer"
WAIT = 5  # seconds a starved run waits (reasoning-figures.wait) before it fails
JVM_NOTE = "WARNING: Using incubator modules"  # the JVM's own line about its vector module


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _stop(process: subprocess.Popen) -> None:
    """The process and the group it leads (a worker's executors are its children there)."""
    for sig, grace in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


class Cluster:
    """Processes started on loopback with their logs in `folder`, stopped by `stop`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen] = []
        self.logs: list = []
        conf = folder / "conf"
        conf.mkdir()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK", "PYSPARK"))}
        self.env |= {
            "SPARK_HOME": str(HOME),
            "SPARK_CONF_DIR": str(conf),  # none of this machine's Spark settings
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_LOG_DIR": str(folder / "logs"),
            "SPARK_PID_DIR": str(folder / "pids"),
            "SPARK_WORKER_DIR": str(folder / "work"),
            "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false",
            # JVMs that live a minute: the quick compiler only, one GC thread (a third less CPU
            # for the eight JVMs on two cores); the CLI adds its logging to SPARK_SUBMIT_OPTS
            "SPARK_DAEMON_JAVA_OPTS": QUICK_JVM,
            "SPARK_SUBMIT_OPTS": QUICK_JVM,
        }
        (conf / "spark-defaults.conf").write_text(f"spark.executor.extraJavaOptions {QUICK_JVM}\n")
        self.master_port, self.master_ui = free_port(), free_port()
        self.connect_port = free_port()
        self.master = f"spark://127.0.0.1:{self.master_port}"

    def start(self, name: str, *args: str) -> None:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 (closed by `stop`)
        self.logs.append(log)
        self.processes.append(
            subprocess.Popen(
                args, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        )

    def connect_server(self, name: str, port: int, *conf: str) -> None:
        settings = [f"spark.connect.grpc.binding.port={port}", "spark.ui.enabled=false", *conf]
        settings += ["spark.connect.grpc.binding.address=127.0.0.1"]
        confs = [a for s in settings for a in ("--conf", s)]
        self.start(name, str(HOME / "bin" / "spark-submit"), "--class", CONNECT, "--name", name,
                   "--master", self.master, *confs, "spark-internal")  # fmt: skip

    def start_worker(self) -> None:
        """One worker with two cores, registered with the master."""
        self.start("worker", str(HOME / "bin" / "spark-class"), "org.apache.spark.deploy.worker.Worker",
                   "--host", "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port",
                   str(free_port()), "--work-dir", str(self.folder / "work"), self.master)  # fmt: skip
        self.wait_for("the worker", lambda: self.state()["aliveworkers"] == 1)

    def state(self) -> dict:
        url = f"http://127.0.0.1:{self.master_ui}/json/"
        with urllib.request.urlopen(url, timeout=5) as answer:
            return json.load(answer)

    def wait_for(self, what: str, ready, seconds: float = 120) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            dead = [p for p in self.processes if p.poll() is not None]
            assert not dead, f"{dead[0].args[:3]} exited while waiting for {what}"
            try:
                if ready():
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"{what} not ready in {seconds} s; logs in {self.folder}")

    def stop(self) -> None:
        with ThreadPoolExecutor(len(self.processes) or 1) as pool:
            list(pool.map(_stop, reversed(self.processes)))
        for log in self.logs:
            log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A master and a Connect server that may hold one core, all on 127.0.0.1 at free ports,
    logs and work files in a temporary folder. No worker yet: until `start_worker` gives the
    cluster one (two cores), every application waits for an executor."""
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        c.start("master", str(HOME / "bin" / "spark-class"), "org.apache.spark.deploy.master.Master",
                "--host", "127.0.0.1", "--port", str(c.master_port), "--webui-port", str(c.master_ui))  # fmt: skip
        c.wait_for("the master", lambda: _listening(c.master_port))
        c.connect_server(
            "connect", c.connect_port, "spark.cores.max=1", "spark.executor.memory=512m"
        )
        c.wait_for("the Connect server", lambda: _listening(c.connect_port))
        yield c
    finally:
        c.stop()


RUNNER = """
import json, sys, time
from helpers.cli import main
for argv in json.loads(sys.argv[1]):
    start = time.monotonic()
    code = main(argv)
    print(f"=== {code} {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
"""


def _run(commands: list[list[str]], env: dict, cwd: Path) -> list[tuple[int, list[str], float]]:
    """The commands run one after another in one process (one Spark session, as a user's
    process has): each one's exit code, what it wrote on stderr, and its time."""
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(commands)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )
    out, said = [], []
    for line in done.stderr.splitlines():
        if line.startswith("=== "):
            _, code, seconds, _ = line.split()
            out.append((int(code), said, float(seconds)))
            said = []
        elif not line.startswith(JVM_NOTE):
            said.append(line)
    assert len(out) == len(commands), done.stderr
    return out


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """Two runs on the same problems, a large third (for the driver's limit), and what polars
    writes from them."""
    folder = tmp_path_factory.mktemp("logs")
    write_hive(folder / "a", seed=2)
    write_hive(folder / "b", seed=3)
    rows = 5 * 4000 * 2
    pl.DataFrame(
        {
            "step": pl.int_range(rows, eager=True) // 8000 * 10,
            "benchmark": ["math"] * rows,
            "problem_id": (pl.int_range(rows, eager=True) // 2 % 4000).cast(pl.String),
            "sample_id": pl.int_range(rows, eager=True) % 2,
            "correct": pl.int_range(rows, eager=True) % 3 == 0,
            "response_tokens": pl.int_range(rows, eager=True) % 900,
        }
    ).write_parquet(folder / "big.parquet")
    here = os.getcwd()
    os.chdir(folder)  # the paths as a user types them, relative to where they are
    try:
        for name, argv in POLARS.items():
            assert main([*argv, "-o", f"polars-{name}.csv"]) == 0
    finally:
        os.chdir(here)
    return folder


POLARS = {
    "plot": ["plot", "a"],
    "compare": ["compare", "base=a", "new=b"],
    "best": ["compare", "base=a", "new=b", "--checkpoint", "best"],
}


@pytest.fixture(scope="module")
def runs(cluster, logs, tmp_path_factory):
    """Four processes, each with the paths relative to the logs' folder as a user types them:
    first, a plot through each way in that finds no free cores (through the master, executors
    asking for more cores than the worker will have; through Connect, before the cluster has a
    worker); then, once the worker is there, the commands through the master (with a
    spark-defaults.conf of the user's that sets the driver's result limit to 256 kB) and the
    same through Connect, at once. Returns, by mode, each command's exit code, stderr and time."""
    client = tmp_path_factory.mktemp("client-conf")
    (client / "spark-defaults.conf").write_text(
        f"spark.driver.maxResultSize  256k\nspark.executor.extraJavaOptions {QUICK_JVM}\n"
    )
    remote = f"sc://127.0.0.1:{cluster.connect_port}"
    envs = {
        "master": {**cluster.env, "SPARK_CONF_DIR": str(client), "SPARK_MASTER": cluster.master},
        "connect": {**cluster.env, "SPARK_REMOTE": remote},
        "starved master": {**cluster.env, "SPARK_MASTER": cluster.master},
        "starved connect": {**cluster.env, "SPARK_REMOTE": remote},
    }
    for env in envs.values():
        del env["SPARK_HOME"]  # the CLI finds pip's Spark itself, as a user's does
    spark = ["--engine", "spark"]

    def commands(mode):
        out = [[*argv, "-o", f"{mode}-{name}.csv", *spark] for name, argv in POLARS.items()]
        out += [["plot", "missing", "-o", f"{mode}-x.csv", *spark]]
        out += [["plot", "s3a://bucket/run/", "-o", f"{mode}-x.csv", *spark]]
        big = ["compare", "a=big.parquet", "b=big.parquet", "-o", "x.csv", *spark]
        return out + [big] if mode == "master" else out

    wait = ["--spark-conf", f"reasoning-figures.wait={WAIT}"]
    cases = {m: commands(m) for m in ("master", "connect")}
    cases["starved master"] = [
        ["plot", "a", "-o", "starved.csv", *spark, *wait, "--spark-conf", "spark.executor.cores=4",
         "--spark-conf", "spark.app.name=starved"]
    ]  # fmt: skip
    cases["starved connect"] = [["plot", "a", "-o", "starved.csv", *spark, *wait]]
    with ThreadPoolExecutor(len(cases)) as pool:
        done = {m: pool.submit(_run, cases[m], envs[m], logs) for m in cases if "starved" in m}
        done["starved connect"].result()  # the Connect server gets its executor only after this
        cluster.start_worker()
        done |= {m: pool.submit(_run, cases[m], envs[m], logs) for m in cases if m not in done}
        return {m: d.result() for m, d in done.items()}


@pytest.mark.parametrize("mode", ["master", "connect"])
def test_plot_and_compare_write_the_bytes_polars_writes(runs, logs, mode, cluster):
    """The CSVs of plot, compare and compare --checkpoint best are polars' bytes; compare says
    how much each run sends back; through the master, executors ran on the worker."""
    for i, name in enumerate(POLARS):
        code, said, _ = runs[mode][i]
        assert code == 0, said
        assert (logs / f"{mode}-{name}.csv").read_bytes() == (
            logs / f"polars-{name}.csv"
        ).read_bytes()
    assert runs[mode][0][1] == []  # plot says nothing while Spark starts and works
    limit = "256k" if mode == "master" else "1g, Spark's default"  # the user's, or Spark's
    for i in (1, 2):  # compare says how large a table each run sends back, beside the limit
        said = runs[mode][i][1]
        assert [line.split(":")[1] for line in said] == [" run base", " run new"]
        for line in said:
            assert re.fullmatch(
                r"spark: run \w+: 165 per-problem rows \(\d+\.\d kB\) sent to this machine "
                rf"\(spark.driver.maxResultSize: {limit}\)",
                line,
            ), line
    if mode == "master":  # executors ran on the worker, for the application the CLI started
        ours = {"reasoning-figures", "starved"}
        cluster.wait_for(  # the master marks an application done once its driver has said so
            "the applications to finish",
            lambda: not ours & {a["name"] for a in cluster.state()["activeapps"]},
        )
        cores = {}
        for app in cluster.state()["completedapps"]:
            cores.setdefault(app["name"], []).append(app["cores"])
        assert cores["reasoning-figures"] == [1]  # the core the Connect server left
        assert cores["starved"] == [0]  # named by --spark-conf, over the tool's own name


@pytest.mark.parametrize("mode", ["master", "connect"])
def test_what_goes_wrong_is_one_line(runs, logs, mode):
    """A relative path that is not there, named as typed and as the absolute URI Spark was
    given; s3a:// with the jar a cluster needs; the driver's result limit of the user's."""
    missing, s3a, *big = (r[:2] for r in runs[mode][3:])
    reader = {
        "master": "every executor reads a local path on its own disk",
        "connect": "the Spark Connect server and its executors read a local path on their own disks",
    }[mode]
    assert missing == (2, [
        f"error: missing: expected a file or folder at file:{logs / 'missing'} ({reader}: use a "
        "filesystem they share, or a bucket); got 'no such path'"
    ])  # fmt: skip
    code, [line] = s3a
    assert code == 2 and line.startswith(
        "error: s3a://bucket/run/: expected a filesystem for s3a://"
    )
    assert "org.apache.hadoop:hadoop-aws:3." in line and "S3AFileSystem" in line
    if mode == "master":  # past the limit of the user's spark-defaults.conf
        [(code, [line])] = big
        assert code == 2 and line.startswith(
            "error: spark.driver.maxResultSize: expected a limit above the results Spark sends"
        )
        assert line.endswith(" tasks, over the limit'")


@pytest.mark.parametrize("mode", ["master", "connect"])
def test_no_free_cores_is_one_line_after_the_stated_wait(runs, cluster, logs, mode):
    """Spark's own answer is to wait for ever, saying so only in the log the tool silences."""
    [(code, said, seconds)] = runs[f"starved {mode}"]
    named = {
        "master": f"SPARK_MASTER={cluster.master}",
        "connect": f"SPARK_REMOTE=sc://127.0.0.1:{cluster.connect_port}",
    }[mode]
    assert code == 2 and len(said) == 1, said
    assert said[0].startswith(
        f"error: {named}: expected an executor to take Spark's tasks within {WAIT} s "
        "(--spark-conf reasoning-figures.wait=SECONDS): free cores and memory"
    )
    assert said[0].endswith("got 'no task started'") and not (logs / "starved.csv").exists()
    assert WAIT <= seconds < DEFAULT_WAIT  # the wait given, not the default


def test_a_closed_port_and_a_cluster_setting_under_connect_are_one_line(cluster, tmp_path):
    """A master or Connect server not listening where the environment says; a setting only
    the Connect server's start can give (executor cores), asked of a Connect session."""
    write_hive(tmp_path / "log")
    closed = free_port()
    spark = ["plot", "log", "-o", "x.csv", "--engine", "spark"]
    cases = {
        "SPARK_MASTER": (f"spark://127.0.0.1:{closed}", "a Spark standalone master"),
        "SPARK_REMOTE": (f"sc://127.0.0.1:{closed}", "a Spark Connect server"),
    }
    for variable, (url, what) in cases.items():  # said before any JVM starts or any retry
        [(code, said, _)] = _run([spark], {**cluster.env, variable: url}, tmp_path)
        assert (code, said) == (2, [
            f"error: {variable}={url}: expected {what} listening at 127.0.0.1:{closed} (start "
            "it, or correct the host and port); got 'Connection refused'"
        ])  # fmt: skip
    remote = {**cluster.env, "SPARK_REMOTE": f"sc://127.0.0.1:{cluster.connect_port}"}
    [(code, said, _)] = _run([spark + ["--spark-conf", "spark.executor.cores=2"]], remote, tmp_path)
    assert code == 2 and len(said) == 1
    assert said[0].startswith(
        "error: --spark-conf spark.executor.cores: expected a setting a Spark Connect session "
        "may change"
    )
