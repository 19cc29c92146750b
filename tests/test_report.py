"""helpers.render.execute: notebooks executed in place, the same bytes however fast the machine is."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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


def test_printed_text_is_one_output_per_stream_and_reexecution_is_identical(tmp_path):
    path = _notebook(tmp_path / "slow.ipynb")
    execute.execute(path)
    first = path.read_bytes()
    nb = nbformat.reads(first.decode(), as_version=4)
    outputs = nb.cells[1].outputs
    assert [(o.output_type, o.name) for o in outputs] == [
        ("stream", "stdout"),
        ("stream", "stderr"),
    ]
    assert outputs[0].text == "first\nsecond\nthird\n"
    assert outputs[1].text == "warned\n"
    # no timestamps or execution metadata; papermill's tag kept
    assert nb.cells[1].metadata == {}
    assert nb.cells[0].metadata == {"tags": ["parameters"]}
    assert set(nb.metadata) == {"kernelspec", "language_info"}
    execute.execute(path)
    assert path.read_bytes() == first


def test_the_kernel_talks_over_a_private_socket_and_the_run_prints_no_warning(tmp_path):
    """`make report` shows one line per notebook: the kernel uses IPC sockets in a temporary
    folder (removed after), so ipykernel does not warn about unencrypted TCP."""
    path = _notebook(tmp_path / "quiet.ipynb")
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(
        nbformat.v4.new_code_cell(
            "import json, os\n"
            "from ipykernel.kernelapp import IPKernelApp\n"
            "app = IPKernelApp.instance()\n"
            "print(json.dumps([app.transport, os.path.dirname(app.ip)]))"
        )
    )
    nbformat.write(nb, path)
    run = subprocess.run(
        [sys.executable, "-m", "helpers.render.execute", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stderr == ""
    transport, folder = json.loads(nbformat.read(path, as_version=4).cells[2].outputs[0].text)
    assert transport == "ipc" and "reasoning-figures-kernel-" in folder
    assert not os.path.exists(folder)
