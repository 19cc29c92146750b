"""helpers.report: notebooks executed in place, the same bytes however fast the machine is."""

from __future__ import annotations

import nbformat

from helpers import report

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
    report.execute(path)
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
    report.execute(path)
    assert path.read_bytes() == first
