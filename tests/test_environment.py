"""environment.yml must not drift from pyproject.toml, the single source of truth."""

from __future__ import annotations

import re
import tomllib

import yaml

from helpers.paths import ROOT


def _load():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    return project, env


def test_python_bound_matches_requires_python():
    project, env = _load()
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    [python] = [d for d in conda if re.match(r"python\b", d)]
    assert python.replace("python", "", 1) == project["requires-python"]


def test_pip_installs_the_project_with_every_extra():
    project, env = _load()
    assert env["channels"] == ["conda-forge"]
    [pip_section] = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    [line] = pip_section
    match = re.fullmatch(r"-e \.\[(.+)\]", line)
    assert match, line
    assert set(match.group(1).split(",")) == set(project["optional-dependencies"])


def test_no_conda_package_duplicates_a_pyproject_dependency():
    project, env = _load()
    conda = {re.split(r"[<>=! ]", d)[0] for d in env["dependencies"] if isinstance(d, str)}
    # beside Python and pip, only what PyPI cannot bring: Java for local Spark (the Makefile's
    # Debian openjdk-17-jre-headless)
    assert conda == {"python", "pip", "openjdk"}
    declared = project["dependencies"] + sum(project["optional-dependencies"].values(), [])
    names = {re.split(r"[<>=!\[ ]", d)[0].lower() for d in declared}
    assert not conda & names


def test_java_is_the_version_the_makefile_installs():
    _, env = _load()
    [java] = [d for d in env["dependencies"] if isinstance(d, str) and d.startswith("openjdk")]
    makefile = (ROOT / "Makefile").read_text()
    assert f"openjdk-{java.split('=')[1]}-jre-headless" in makefile
