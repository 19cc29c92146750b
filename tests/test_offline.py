"""Notebooks re-execute to byte-identical files, with networking disabled."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from helpers.paths import NOTEBOOKS

PROBE = (
    "import socket\n"
    "try:\n"
    "    socket.create_connection(('1.1.1.1', 80), timeout=3)\n"
    "except OSError:\n"
    "    print('network: unreachable')\n"
    "else:\n"
    "    print('network: reachable')\n"
)


def test_notebooks_reexecute_byte_identical_without_network(tmp_path):
    originals = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert len(originals) >= 5
    copies = []
    for nb in originals:
        copies.append(tmp_path / nb.name)
        shutil.copy(nb, copies[-1])
    # a new network namespace holds only a loopback device (the kernel talks to it over 127.0.0.1)
    script = 'ip link set lo up && "$0" -c "$1" && exec "$0" -m helpers.render.execute "${@:2}"'
    out = subprocess.run(
        ["unshare", "--net", "bash", "-c", script, sys.executable, PROBE, *map(str, copies)],
        capture_output=True,
        text=True,
        timeout=2400,  # an upper bound for slow machines, not a speed check
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "network: unreachable" in out.stdout
    changed = {
        original.name: _first_difference(original, copy)
        for original, copy in zip(originals, copies, strict=True)
        if copy.read_bytes() != original.read_bytes()
    }
    assert changed == {}, "changed on re-execution"


def _first_difference(original, copy) -> str:
    """Where two notebooks first differ, short enough to read in a CI log."""
    before, after = json.loads(original.read_text()), json.loads(copy.read_text())
    for number, (old, new) in enumerate(zip(before["cells"], after["cells"], strict=False)):
        for field in sorted(set(old) | set(new)):
            if old.get(field) == new.get(field):
                continue
            if field != "outputs":
                return f"cell {number}: {field}"
            for index, (a, b) in enumerate(zip(old["outputs"], new["outputs"], strict=False)):
                for key in sorted(set(a.get("data", {})) | set(b.get("data", {}))):
                    if a.get("data", {}).get(key) != b.get("data", {}).get(key):
                        return f"cell {number}: output {index}: {key}"
            return f"cell {number}: outputs"
    return "notebook metadata, cell count or formatting"
