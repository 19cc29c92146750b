"""SwanLab's local run logs, written by swanlab itself offline (0.10: `run-<id>.swanlab`,
protocol-buffer records; 0.6: `backup.swanlab`, JSON records; from .venv-writers), read
without swanlab: the values logged, the runs of a `swanlog/` folder by name, a killed run
said to be cut, a damaged record one error line (issue 41)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import polars as pl
import pytest

from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers.detect import detect
from helpers.runs.readers.trackers import swanlab_store
from tests.conftest import ROOT, WRITERS, writer_env

WRITER = Path(__file__).with_name("swanlab_writer.py")
VERSIONS = {"0.10": "", "0.6": str(ROOT / ".venv-writers" / "swanlab-0.6")}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """(version, kind) -> the swanlog/ folder swanlab wrote (the four in parallel)."""
    out = tmp_path_factory.mktemp("swanlab")
    running = {}
    for version, path in VERSIONS.items():
        for kind in ("finished", "killed"):
            folder = out / f"{version}-{kind}"
            env = writer_env(out, PYTHONPATH=path) if path else writer_env(out)
            running[version, kind] = (
                subprocess.Popen(
                    [WRITERS, WRITER, str(folder), kind],
                    env=env,
                    cwd=out,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                ),
                folder / "swanlog",
            )
    for process, _ in running.values():
        process.wait(timeout=300)
    return {key: folder for key, (_, folder) in running.items()}


def _logs(folder: Path) -> list[Path]:
    return sorted(folder.glob("run-*/*.swanlab"))


@pytest.mark.parametrize("version", list(VERSIONS))
def test_each_run_reads_the_values_swanlab_logged(written, version, tmp_path):
    """Two runs in one swanlog/ folder, read as a store of runs by their names; the
    validation accuracy is verl's key, at the steps and values logged."""
    folder = written[version, "finished"]
    name = {"0.10": "run-", "0.6": "backup.swanlab"}[version]
    assert len(_logs(folder)) == 2 and all(log.name.startswith(name) for log in _logs(folder))
    assert detect(folder) == "swanlab"
    runs = {r.run: r for r in readers.load_runs(folder)}
    assert sorted(runs) == ["baseline", "grpo"]
    for name, gain in (("grpo", 0.001), ("baseline", 0.0)):
        scores = runs[name].scores.sort("step")
        assert scores["benchmark"].unique().to_list() == ["math500"]
        assert scores["step"].to_list() == list(range(10, 101, 10))
        expected = [0.40 + gain * s for s in range(10, 101, 10)]
        assert scores["score"].to_list() == pytest.approx(expected, abs=1e-15)
    out = tmp_path / "d.csv"
    assert main(["compare", f"{folder}#baseline", f"{folder}#grpo", "-o", str(out)]) == 0
    row = pl.read_csv(out).filter(pl.col("step") == 100).row(0, named=True)
    assert row["difference"] == pytest.approx(0.1) and row["lo"] > 0


@pytest.mark.parametrize("version", list(VERSIONS))
def test_a_killed_run_is_said_to_be_cut(written, version, capsys):
    """A run ended by os._exit: no end record, and (SwanLab writing through a buffer) the
    file ends where the last full buffer did; `inspect` exits 0 and says so, and every
    step read is one the run logged."""
    folder = written[version, "killed"]
    assert main(["inspect", str(folder)]) == 0
    said = capsys.readouterr().out
    assert "no end record: the run was killed or crashed, or is still writing" in said
    run = readers.load_runs(folder)[0]
    assert run.ended is False  # what a watch takes as not ended (stalled, when it stops growing)
    assert readers.load_runs(written[version, "finished"])[0].ended is True
    steps = run.scores.sort("step")
    assert 0 < steps.height < 2000
    expected = [0.40 + 0.00001 * s for s in steps["step"]]
    assert steps["score"].to_list() == pytest.approx(expected, abs=1e-15)
    assert steps["step"].to_list() == list(range(10, 10 * steps.height + 1, 10))


def test_a_damaged_record_is_one_error_line(written, tmp_path, capsys):
    log = _logs(written["0.10", "finished"])[0]
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "run-x" / log.name
    bad.parent.mkdir()
    bad.write_bytes(bytes(data))
    assert main(["plot", str(bad.parent), "-o", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {bad}: expected a SwanLab record matching its checksum")
    assert "\n" not in err and not (tmp_path / "x.csv").exists()


def test_a_log_cut_mid_record_reads_to_the_last_whole_one(written, tmp_path):
    log = _logs(written["0.6", "finished"])[0]
    whole = swanlab_store.scan(log)
    cut = tmp_path / log.name
    cut.write_bytes(log.read_bytes()[: os.path.getsize(log) - 100])
    part = swanlab_store.scan(cut)
    assert whole.ended == "finished" and part.ended is None and part.unread > 0
    assert all(part.steps[s] == whole.steps[s] for s in part.steps)
