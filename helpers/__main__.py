"""`python -m helpers`, and the `reasoning-figures` command (`[project.scripts]`): see
`helpers.cli`."""

import gc
import os
import sys

# polars allocates with jemalloc, which polars tells (polars/__init__.py) to hand freed pages
# back lazily: marked free after 0.5 s and left in the process's memory up to 1 s more. Handed
# back at once (`muzzy_decay_ms:0`, which polars appends to its own settings), the command that
# read a 200 MB W&B log peaked at 495-507 MB against 607-621 MB, 3.10-3.23 s against 2.84-3.27 s
# (three alternating pairs; docs/speed.md). Set here, before the command line loads polars
# (importing `helpers` alone loads neither polars nor this), where the process was given no
# setting of its own; what it starts inherits it, as it would inherit polars' own.
if "polars" not in sys.modules:
    os.environ.setdefault("_RJEM_MALLOC_CONF", "muzzy_decay_ms:0")

from helpers.cli import main  # noqa: E402  (after the allocator's setting, before polars loads)


def run() -> None:
    """Run the command line and exit with its status."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head`: the reader left; say nothing more (Python's advice)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    # the output is written: what is left goes with the process, so the collections Python
    # runs on its way out need not walk it (over altair's and polars' objects that walk took
    # 0.12 s of a chart's 1.7 s, measured on a 13-panel SVG); exit handlers still run
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
