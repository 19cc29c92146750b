# ruff: noqa: E402 - nbformat is imported after the IRI grammar is deferred
"""Execute notebooks top to bottom, in place, so that re-execution is byte-identical.

Usage: python -m helpers.render.execute NOTEBOOK...
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()  # before nbformat imports jsonschema: 0.9 s of start-up, no behaviour change

import nbformat
from nbconvert.preprocessors import ClearMetadataPreprocessor, ExecutePreprocessor
from traitlets.config import Config

from helpers.io import write_text_atomic

TIMEOUT_S = 600


def execute(path: Path) -> None:
    """Run every cell of one notebook in its own folder; store outputs without timestamps."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    # The kernel flushes printed text every 0.2 s, so a cell that prints over a longer time
    # yields several stream outputs on a slow machine and one on a fast machine: merge them.
    # The kernel talks to this process over local sockets in a private folder (IPC), not TCP
    # on loopback: nothing listens on a port, and ipykernel has no reason to warn that TCP is
    # unencrypted. The kernel is stopped at once when the last cell is done: asked to shut
    # down politely, ipykernel 7.4 can race its own output thread and print a ZMQError
    # traceback ("Socket operation on non-socket") after every cell ran, which broke `make
    # report`'s one line per notebook (CI saw it once); nothing runs in it after the last cell.
    with tempfile.TemporaryDirectory(prefix="reasoning-figures-kernel-") as sockets:
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": f"{sockets}/kernel"}})
        ExecutePreprocessor(
            timeout=TIMEOUT_S,
            kernel_name="python3",
            record_timing=False,
            coalesce_streams=True,
            shutdown_kernel="immediate",
            config=ipc,
        ).preprocess(nb, {"metadata": {"path": str(path.parent)}})
    ClearMetadataPreprocessor(
        enabled=True,
        preserve_nb_metadata_mask={("kernelspec",), ("language_info",)},
        preserve_cell_metadata_mask={("tags",)},  # e.g. papermill's "parameters"
    ).preprocess(nb, {})
    nbformat.validate(nb)
    write_text_atomic(path, nbformat.writes(nb) + "\n")


def main(argv: list[str]) -> int:
    for name in argv:
        print(f"executing {name}", flush=True)
        execute(Path(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
