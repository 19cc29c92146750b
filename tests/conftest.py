"""Shared fixtures: a scratch copy of the data package, and where ../shared lives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers.paths import DATA, ROOT

SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
REALDATA = SHARED / "realdata"


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
