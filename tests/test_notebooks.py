"""The notebooks as committed: executed once for the suite (the `executed` fixture), offline,
they come back byte for byte. That also holds nbval's check (every cell's outputs equal the
stored ones on re-execution), which compares less than the bytes: `make nbval` runs nbval
itself."""

from __future__ import annotations

import json

from .conftest import NOTEBOOK_FILES


def test_notebooks_reexecute_byte_identical_without_network(executed):
    copies, said = executed
    assert len(copies) == len(NOTEBOOK_FILES) >= 8
    assert said.count("network: unreachable") == 2 and "network: reachable" not in said
    changed = {
        original.name: _first_difference(original, copies[original.name])
        for original in NOTEBOOK_FILES
        if copies[original.name].read_bytes() != original.read_bytes()
    }
    assert changed == {}, "changed on re-execution"


def test_notebooks_are_small_and_load_nothing_from_the_web():
    for nb in NOTEBOOK_FILES:
        text = nb.read_text()
        assert nb.stat().st_size < 300_000, nb.name
        for remote in ("cdn.jsdelivr", "unpkg.com", "<script src="):
            assert remote not in text, (nb.name, remote)


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
