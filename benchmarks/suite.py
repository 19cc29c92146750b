"""Benchmark: what `make test` costs the machine, test file by test file. The suite runs in one
pytest process, one test at a time (`-n 0`), and each test is charged the whole machine's busy
CPU time while it runs (from /proc/stat: its JVMs, browser, kernels and writers included, which
a process's own clock misses; time stolen by the hypervisor is not counted); on a quiet machine
that is the work the suite asks of the cores. Printed: the files by CPU seconds, their share,
the sum of the tests' own wall times, and the wall time that work would take spread over this
machine's cores, beside the 180 s target of issue 42.

    python benchmarks/suite.py [--top 20] [pytest arguments, e.g. tests/test_stats.py]

That spread time is an estimate, not a bound: run one at a time, the long-lived processes (a
JupyterLab server, a cluster's JVMs) idle longer and use a little more CPU than in a parallel
run. On 2026-11-28 it gave 344 s, and the suite on three workers took 343-392 s of pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 180.0  # seconds for `make test` on two cores (issue 42)

PLUGIN = """
import json, os, time
import pytest

def _busy():
    with open("/proc/stat") as f:
        user, nice, system, _idle, _wait, irq, softirq = map(int, f.readline().split()[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")

_rows = []

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    busy, start = _busy(), time.monotonic()
    yield
    _rows.append((item.nodeid, _busy() - busy, time.monotonic() - start))

def pytest_sessionfinish(session):
    with open(os.environ["SUITE_CPU_OUT"], "w") as f:
        json.dump(_rows, f)
"""


def measure(pytest_args: list[str]) -> list[tuple[str, float, float]]:
    """(test id, machine CPU s, wall s) of each test, the suite run one test at a time."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "suite_cpu.py").write_text(PLUGIN)
        out = Path(tmp) / "rows.json"
        path = os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "SUITE_CPU_OUT": str(out)}
        args = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "suite_cpu", *pytest_args]
        done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode not in (0, 1) or not out.exists():  # 1: tests ran, some failed
            print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
            raise SystemExit(f"pytest did not run the tests (exit {done.returncode}): no figures")
        if done.returncode == 1:
            print("warning: some tests failed; their time is counted as it was spent")
        return [tuple(r) for r in json.loads(out.read_text())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=20, help="files to list (default 20)")
    args, pytest_args = parser.parse_known_args(argv)
    if any(a.startswith(("-n", "--numprocesses", "--dist")) for a in pytest_args):
        parser.error("the tests run one at a time here: leave out -n and --dist")
    rows = measure(pytest_args)
    cpu, wall, tests = Counter(), Counter(), Counter()
    for nodeid, busy, seconds in rows:
        name = nodeid.split("::")[0]
        cpu[name] += busy
        wall[name] += seconds
        tests[name] += 1
    total, alone = sum(cpu.values()), sum(wall.values())
    whole = total or 1.0  # shares of nothing measurable (the clock counts hundredths)
    cores = os.cpu_count() or 1
    print(
        f"{len(rows):,} tests, one at a time: {alone:.0f} s of their own wall time, "
        f"{total:.0f} s of machine CPU"
    )
    print(f"{'file':40} {'tests':>5} {'CPU s':>7} {'share':>6} {'wall s':>7}")
    for name, busy in cpu.most_common(args.top):
        print(f"{name:40} {tests[name]:5d} {busy:7.1f} {busy / whole:6.1%} {wall[name]:7.1f}")
    rest = total - sum(b for _, b in cpu.most_common(args.top))
    print(f"{'the other files':40} {'':5} {rest:7.1f} {rest / whole:6.1%}")
    floor = total / cores
    print(
        f"that CPU over {cores} cores: about {floor:.0f} s of wall time, {floor / TARGET:.2f}x the "
        f"{TARGET:.0f} s target, which allows {TARGET * cores:.0f} s of CPU "
        f"({TARGET * cores / whole:.0%} of this)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
