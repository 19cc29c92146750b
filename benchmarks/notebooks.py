"""Benchmark: the notebook suite under nbval (as `make nbval` runs it) against as many
notebooks that only `import altair, polars`, also under nbval, each a whole pytest process;
and each notebook's size on disk.

    python benchmarks/notebooks.py --repeats 3
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NBVAL = ["-p", "no:cacheprovider", "--nbval", "--nbval-current-env", "-q"]
# the pytest-xdist workers the project's settings give (pyproject.toml's addopts, `-n N`)
_OPTIONS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
WORKERS = int(re.search(r"-n (\d+)", _OPTIONS["addopts"]).group(1))


def bare_notebooks(folder: Path, count: int) -> list[Path]:
    """`count` notebooks whose one cell imports the bare stack (no output to compare)."""
    paths = []
    for i in range(count):
        nb = nbformat.v4.new_notebook()
        nb.cells.append(nbformat.v4.new_code_cell("import altair, polars"))
        nb.cells[0].outputs = []
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        paths.append(folder / f"bare_{i}.ipynb")
        nbformat.write(nb, paths[-1])
    (folder / "pytest.ini").write_text("[pytest]\n")
    return paths


def run(paths: list[Path], cwd: Path, config: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *config, *map(str, paths)],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stdout[-2000:])
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    ours = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in ours:
        print(f"{path.name:32} {path.stat().st_size / 1000:6.0f} KB")
    with tempfile.TemporaryDirectory() as tmp:
        bare = bare_notebooks(Path(tmp), len(ours))
        a, b = [], []
        for _ in range(args.repeats):
            a.append(run(ours, ROOT, NBVAL))  # the project's pytest settings, and nbval
            # the bare notebooks on as many pytest-xdist workers as the project's settings give
            # ours (`-n N --dist loadfile` in pyproject.toml): one stack against the other
            workers = ["-n", str(WORKERS), "--dist", "loadfile"]
            bare_config = ["-c", str(Path(tmp) / "pytest.ini"), *workers]
            b.append(run(bare, Path(tmp), [*bare_config, *NBVAL]))
    m_a, m_b = statistics.median(a), statistics.median(b)
    print(
        f"nbval, {len(ours)} notebooks: ours {m_a:.1f} s, bare {m_b:.1f} s, "
        f"ratio {m_a / m_b:.2f}x (median of {args.repeats})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
