"""Every benchmark of `benchmarks/`, run one after another as `make bench` runs them, their
printed tables kept as one page, `docs/speed-latest.md`: the measured figures the docs quote,
regenerated rather than copied by hand. Each script's output is shown as it runs and kept
whole (medians, ratios, peak memory, and the checks that the peers' outputs equal ours);
the page says when, on what machine and at which commit it was measured. A script that fails
is named on the page and makes the run fail, after the others have run.

    python benchmarks/report.py [--out docs/speed-latest.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

from helpers.io import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent

AGGREGATED = ["100000", "1000000", "10000000", "20000000", "50000000"]  # rows
PEERS = ["polars", "duckdb", "pandas", "floor"]
# (section, script and its arguments): what `make bench` measures, in the order the docs give it
BENCHMARKS = [
    ("Start-up", ["benchmarks/startup.py", "--repeats", "15"]),
    (  # Spark's local mode is JVM start-up at these sizes (86 s a run at 1M rows): docs/spark.md
        "Aggregation",
        ["benchmarks/aggregate.py", "--rows", *AGGREGATED, "--repeats", "3", "--engines", *PEERS],
    ),
    (
        "The picture and compare",
        ["benchmarks/outputs.py", "--rows", "100000", "1000000", "--repeats", "5"],
    ),
    ("Notebooks", ["benchmarks/notebooks.py", "--repeats", "3"]),
    ("Trackers' logs", ["benchmarks/trackers.py", "--repeats", "5"]),
    ("Watching a run", ["benchmarks/watch.py", "--repeats", "5"]),
]


def run(args: list[str]) -> tuple[int, str]:
    """A benchmark script run from the project's root: its exit status and everything it
    printed, shown line by line as it comes."""
    lines = []
    with subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as process:
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    return process.returncode, "".join(lines)


def machine() -> str:
    """The machine a run was measured on, in one line."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; commit {commit or 'unknown'}"
    )


def page(results: list[tuple[str, list[str], int, str]], when: str, where: str) -> str:
    """The markdown page of a run: each benchmark's command and its printed tables."""
    out = [
        "# Speed: the latest run of every benchmark",
        "",
        f"Written by `make bench` (`benchmarks/report.py`) on {when}, on {where}. Each section is",
        "one script's output as it printed it: whole processes, medians, ratios against the peer",
        "named in it. The machines are noisy: compare the ratios within a section, not seconds",
        "across runs. What the numbers mean and how they came to be: [speed.md](speed.md).",
    ]
    for section, args, status, printed in results:
        out += ["", f"## {section}", "", f"`python {' '.join(args)}`"]
        if status:
            out += ["", f"**Failed** (exit status {status}); what it printed:"]
        out += ["", "```text", printed.rstrip("\n"), "```"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "speed-latest.md")
    args = parser.parse_args(argv)
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    results = []
    for section, command in BENCHMARKS:
        print(f"== {section}: python {' '.join(command)}", flush=True)
        status, printed = run(command)
        results.append((section, command, status, printed))
    write_text_atomic(args.out, page(results, when, machine()))
    print(f"wrote {args.out}")
    failed = [section for section, _, status, _ in results if status]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
