"""The code base, notebooks included, passes ruff (lint and format), as configured in
pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.paths import ROOT

RUFF = Path(sys.executable).parent / "ruff"
PATHS = ["helpers", "tests", "benchmarks", "notebooks"]


def test_ruff_check():
    out = subprocess.run([RUFF, "check", *PATHS], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_ruff_format():
    out = subprocess.run(
        [RUFF, "format", "--check", *PATHS], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout
