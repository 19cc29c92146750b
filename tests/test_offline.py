"""Notebooks re-execute to byte-identical files, with networking disabled."""

from __future__ import annotations

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
    script = 'ip link set lo up && "$0" -c "$1" && exec "$0" -m helpers.report "${@:2}"'
    out = subprocess.run(
        ["unshare", "--net", "bash", "-c", script, sys.executable, PROBE, *map(str, copies)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "network: unreachable" in out.stdout
    for original, copy in zip(originals, copies, strict=True):
        assert copy.read_bytes() == original.read_bytes(), (
            f"{original.name} changed on re-execution"
        )
