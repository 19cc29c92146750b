"""SwanLab run logs written by swanlab itself, offline, for the reader tests: run by the
environment `make` gives the real writers (.venv-writers), never imported by the package.
SwanLab 0.10 writes `run-<id>.swanlab` (protocol-buffer records); with `swanlab-0.6` first on
PYTHONPATH, SwanLab 0.6 writes `backup.swanlab` (JSON records).

`python swanlab_writer.py DIR KIND`, KIND one of:
- `finished`: two runs in DIR/swanlog, "grpo" and "baseline", each logging verl's validation
  key for MATH500 (0.40 + step/1000 for grpo, 0.40 for baseline) and a training loss at
  steps 10, 20, ..., 100, then finishing;
- `killed`: one run that logs steps 10-20,000 and ends by os._exit (no end record; SwanLab
  writes through Python's buffer, so the file ends where the last full buffer did, mid-record
  as a rule)."""

import os
import sys

import swanlab

KEY = "val-core/math500/acc/mean@1"


def one(folder: str, name: str, gain: float, last: int) -> None:
    swanlab.init(
        project="rl", experiment_name=name, mode="offline", logdir=folder,
        config={"temperature": 0.6},
    )  # fmt: skip
    for step in range(10, last + 1, 10):
        swanlab.log({KEY: 0.40 + gain * step, "train/loss": 1.0 / step}, step=step)


if __name__ == "__main__":
    out, kind = sys.argv[1], sys.argv[2]
    folder = os.path.join(out, "swanlog")
    if kind == "finished":
        one(folder, "grpo", 0.001, 100)
        swanlab.finish()
        one(folder, "baseline", 0.0, 100)
        swanlab.finish()
    else:
        one(folder, "stopped", 0.00001, 20000)
        sys.stdout.flush()
        os._exit(0)  # as a killed process: no finish, no end record
