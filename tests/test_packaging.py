"""The package as a user installs it without `make`: `pip install .` into a fresh virtual
environment gives the `reasoning-figures` command (`[project.scripts]`), which reads a shared
real log to the same bytes as `python -m helpers` here (issue 42)."""

from __future__ import annotations

import subprocess
import sys

from helpers.cli import main
from tests.conftest import ROOT
from tests.realdata import SKY


def _run(*args, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, **options)
    assert done.returncode == 0, (args, done.stdout[-1000:], done.stderr[-2000:])
    return done


def test_pip_install_gives_a_working_command(tmp_path):
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path, ROOT)
    (wheel,) = tmp_path.glob("reasoning_figures-*.whl")
    fresh = tmp_path / "fresh"
    # a venv with no pip of its own, filled by this pip (`--python`), its dependencies resolved
    # from the index as a user's are; no byte-compiling of the dependencies (half the time)
    _run(sys.executable, "-m", "venv", "--without-pip", fresh)
    _run(sys.executable, "-m", "pip", "--python", fresh / "bin" / "python", "install", "-q",
         "--no-compile", wheel)  # fmt: skip
    command = fresh / "bin" / "reasoning-figures"
    assert "usage: reasoning-figures" in _run(command, "--help").stdout
    installed, here = tmp_path / "installed.csv", tmp_path / "here.csv"
    _run(command, "plot", SKY, "-o", installed, cwd=tmp_path)
    assert main(["plot", str(SKY), "-o", str(here)]) == 0
    assert installed.read_bytes() == here.read_bytes()
    chart = tmp_path / "chart.png"
    _run(command, "plot", SKY, "-o", chart, cwd=tmp_path)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
