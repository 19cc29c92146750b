"""Shared fixtures: a scratch copy of the data package, and where ../shared lives."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

import helpers
from helpers.paths import DATA, NOTEBOOKS, ROOT

helpers.setup()  # charts in the tests are drawn as the notebooks draw them

# the real logs in ../shared/realdata and what they should give: tests/realdata.py
from tests.realdata import SEEDS  # noqa: E402

EXAMPLE = DATA / "examples" / "simulated_run.parquet"


# the real writers of Inspect, Every Eval Ever and SwanLab logs, each pinning its own stack
# (`make` installs them; see the Makefile): the tests run them in subprocesses
WRITERS = ROOT / ".venv-writers" / "bin" / "python"


def writer_env(home: Path, **extra: str) -> dict[str, str]:
    """An environment for a writer subprocess: no network settings, its own home."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), **extra}


def session_folder(tmp_path_factory) -> Path:
    """The folder of this test session that all its workers share (one worker: its own)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def written_once(tmp_path_factory, name: str) -> Iterator[tuple[Path, bool]]:
    """A folder every worker of this test session shares, and whether the caller is to write
    it: the first worker to come does (the others wait on a lock, then find it written), so a
    slow writer runs once a session, not once for each worker whose tests read its files.
    Files written so are only read."""
    root = session_folder(tmp_path_factory)
    folder, written = root / name, root / f"{name}.written"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if written.exists():
            yield folder, False
            return
        shutil.rmtree(folder, ignore_errors=True)  # a worker that failed part way
        folder.mkdir()
        yield folder, True
        written.touch()


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory) -> Iterator[None]:
    """What the package keeps in the user's cache (the HTML page's scripts: `export.bundle_path`)
    the tests keep in a folder of this session's own, shared by its workers and the commands
    they start, never in the home of whoever runs them."""
    root = session_folder(tmp_path_factory)
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(root / "cache")
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory) -> dict[str, Path]:
    """Each kind of Inspect log, written by inspect-ai's own eval() with a mock model (the
    four runs in parallel processes, once a session): finished (.eval and JSON; two epochs),
    cancelled, stopped by an error, killed."""
    with written_once(tmp_path_factory, "inspect") as (out, fresh):
        if fresh:
            writer = Path(__file__).with_name("inspect_writer.py")
            kinds = ("finished", "cancelled", "error", "killed")
            env = writer_env(out, INSPECT_LOG_DIR=str(out))
            running = [
                subprocess.Popen([WRITERS, writer, str(out), kind], env=env, cwd=out)
                for kind in kinds
            ]
            try:
                for process in running:
                    process.wait(timeout=300)
            finally:  # none left writing into the folder another worker may write again
                for process in running:
                    if process.poll() is None:
                        process.kill()
                        process.wait()
    found = {}
    for name in ("eval", "json", "epochs", "cancelled", "error", "killed"):
        files = sorted((out / name).glob("*.eval")) + sorted((out / name).glob("*.json"))
        assert len(files) == 1, (name, files)
        found[name] = files[0]
    return found


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A writable copy of data/; returns the path of its datapackage.json."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target / "datapackage.json"


@pytest.fixture(scope="session")
def seeds() -> dict[str, str]:
    """The five figure descriptions, keyed by their three-digit number."""
    assert SEEDS.is_dir(), f"the figure descriptions are expected in {SEEDS}"
    return {p.name[:3]: p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))}


NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("*.ipynb"))
PROBE = (
    "import socket\n"
    "try:\n"
    "    socket.create_connection(('1.1.1.1', 80), timeout=3)\n"
    "except OSError:\n"
    "    print('network: unreachable')\n"
    "else:\n"
    "    print('network: reachable')\n"
)


@pytest.fixture(scope="session")
def executed(tmp_path_factory) -> tuple[dict[str, Path], str]:
    """Every notebook executed once for the whole suite, as `make report` does, in a network
    namespace that holds only a loopback device (the kernel talks to it over local sockets),
    two notebooks at a time (one per core). Returns the executed copies by name, and what the
    runs printed (the network probe's answer first)."""
    folder = tmp_path_factory.mktemp("executed")
    copies = [Path(shutil.copy(nb, folder / nb.name)) for nb in NOTEBOOK_FILES]
    script = 'ip link set lo up && "$0" -c "$1" && exec "$0" -m helpers.render.execute "${@:2}"'

    def run(half: list[Path]) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["unshare", "--net", "bash", "-c", script, sys.executable, PROBE, *map(str, half)],
            capture_output=True,
            text=True,
            timeout=2400,  # a bound for slow machines, not a speed check
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(run, (copies[0::2], copies[1::2])))
    said = [d.stdout + d.stderr for d in done]
    for d, text in zip(done, said, strict=True):
        assert d.returncode == 0, text
    return {c.name: c for c in copies}, "".join(said)


def pytest_generate_tests(metafunc):
    """A test taking `chart_function` (`chart_checks`) runs once for each public chart function
    of the chart modules its test file names in `CHART_MODULES`."""
    if "chart_function" in metafunc.fixturenames:
        from tests.chart_examples import chart_functions

        metafunc.parametrize("chart_function", chart_functions(metafunc.module.CHART_MODULES))
