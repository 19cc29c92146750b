"""Benchmark: start-up as the user feels it, each a whole process, against the bare stack in the
same environment:

- `python -m helpers --help` against `python -c "import altair, polars"`;
- a notebook's first cell (`import helpers`, the chart functions, `helpers.setup()`) in a process
  that, like a notebook kernel, has IPython loaded, against the same process importing altair
  and polars.

    python benchmarks/startup.py --repeats 15
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PAIRS = {
    "python -m helpers --help": (
        ["-m", "helpers", "--help"],
        ["-c", "import altair, polars"],
    ),
    "first notebook cell (IPython loaded)": (
        ["-c", "import IPython, helpers\nfrom helpers import charts\nhelpers.setup()"],
        ["-c", "import IPython, altair, polars"],
    ),
}


def seconds(args: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    print(f"median of {args.repeats} whole processes, alternating ours and the bare stack")
    print(f"{'':42} {'ours s':>7} {'bare s':>7} {'ratio':>6}")
    for name, (ours, bare) in PAIRS.items():
        seconds(ours), seconds(bare)  # warm the file cache
        a, b = [], []
        for _ in range(args.repeats):
            a.append(seconds(ours))
            b.append(seconds(bare))
        m_a, m_b = statistics.median(a), statistics.median(b)
        print(f"{name:42} {m_a:7.2f} {m_b:7.2f} {m_a / m_b:5.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
