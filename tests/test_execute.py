"""helpers.render.execute: notebooks executed in place, the same bytes however fast the machine is."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

from helpers.render import execute

SLOW_PRINTS = """\
import sys, time
print("first")
time.sleep(0.5)  # longer than the kernel's 0.2 s flush interval: two stream messages
print("second")
print("warned", file=sys.stderr)
time.sleep(0.5)
print("third")
"""


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("WEIGHT = 0.6", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell(SLOW_PRINTS),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path.write_text(nbformat.writes(nb))
    return path


IPC = (
    "import json, os\n"
    "from ipykernel.kernelapp import IPKernelApp\n"
    "app = IPKernelApp.instance()\n"
    "folder = os.path.basename(os.path.dirname(app.ip))\n"
    "print(json.dumps([app.transport, folder.startswith('reasoning-figures-kernel-')]))"
)


def test_execution_is_quiet_private_merged_and_identical_when_repeated(tmp_path):
    """`make report` shows one line per notebook: the kernel uses IPC sockets in a temporary
    folder (removed after), so ipykernel does not warn about unencrypted TCP. Text printed over
    longer than the kernel's flush interval is one output per stream, no timestamps or
    execution metadata are stored (papermill's tag is kept), and a second run writes the same
    bytes."""
    path = _notebook(tmp_path / "slow.ipynb")
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(IPC))
    nbformat.write(nb, path)
    sockets = Path(tempfile.mkdtemp(prefix="rf-"))  # short: a socket path has a length limit
    try:
        run = subprocess.run(
            [sys.executable, "-m", "helpers.render.execute", str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "TMPDIR": str(sockets)},
        )
        assert run.returncode == 0 and run.stderr == ""
        assert list(sockets.iterdir()) == []  # the private folder is removed after
    finally:
        shutil.rmtree(sockets)
    first = path.read_bytes()
    nb = nbformat.reads(first.decode(), as_version=4)
    assert json.loads(nb.cells[2].outputs[0].text) == ["ipc", True]
    outputs = nb.cells[1].outputs
    assert [(o.output_type, o.name) for o in outputs] == [
        ("stream", "stdout"),
        ("stream", "stderr"),
    ]
    assert outputs[0].text == "first\nsecond\nthird\n"
    assert outputs[1].text == "warned\n"
    assert nb.cells[1].metadata == {}
    assert nb.cells[0].metadata == {"tags": ["parameters"]}
    assert set(nb.metadata) == {"kernelspec", "language_info"}
    execute.execute(path)
    assert path.read_bytes() == first
