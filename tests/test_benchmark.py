"""The benchmark's engines answer the same question: same rows, same numbers."""

from __future__ import annotations

import sys

import polars as pl
import pytest

from benchmarks import aggregate, report


def test_engines_agree_on_a_small_synthetic_log(tmp_path):
    path = tmp_path / "samples.parquet"
    aggregate.make_data(60_000, path, seed=3)
    aggregate.agree(path)  # raises if DuckDB or pandas differs from polars anywhere


def test_agreement_check_can_fail(tmp_path):
    path = tmp_path / "samples.parquet"
    aggregate.make_data(60_000, path, seed=3)
    out = tmp_path / "polars.csv"
    aggregate.measure("polars", path, out)
    base = aggregate.read_result("polars", out)
    assert base.height == aggregate.STEPS * aggregate.BENCHMARKS
    off = base.with_columns(pl.col("p90_tokens") + aggregate.BIN)
    with pytest.raises(AssertionError, match="pandas disagrees with polars on p90_tokens"):
        aggregate.compare_tables({"polars": base, "pandas": off})
    with pytest.raises(AssertionError, match="on the rows"):
        aggregate.compare_tables({"polars": base, "duckdb": base.head(5)})


def test_measure_sees_the_whole_process_tree(tmp_path, monkeypatch):
    # the parent starts a child that holds ~200 MB: the parent's own size would miss it
    child = "b = bytearray(200 * 2**20); import time; time.sleep(0.3)"
    code = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"
    monkeypatch.setattr(aggregate, "command", lambda *_: [sys.executable, "-c", code])
    r = aggregate.measure("duckdb", tmp_path / "x", tmp_path / "y")
    assert r["peak_mb"] > 200 and r["seconds"] > 0.3


def test_the_benchmark_prints_every_engine_with_ratios(capsys):
    assert (
        aggregate.main(
            ["--rows", "60000", "--repeats", "1", "--engines", "polars", "duckdb", "floor"]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    n = f"{54_600:,}"  # 7 problems x 4 samples x 150 steps x 13 benchmarks
    rows = {line.split()[1]: line.split() for line in lines if line.split()[:1] == [n]}
    assert set(rows) == {"polars", "duckdb", "floor"}
    assert rows["duckdb"][4:6] == ["1.00x", "1.00x"]  # against DuckDB, then the floor
    assert rows["floor"][6:8] == ["1.00x", "1.00x"]
    assert all(float(r[2]) > 0 for r in rows.values())


def test_the_outputs_benchmark_holds_ours_to_the_bare_stack(tmp_path, capsys, monkeypatch):
    """The PNG floor renders the very spec we drew (the same bytes), and the bare comparison
    finds the same differences as `compare`; both print ratios against their floor."""
    from benchmarks import outputs

    # the machinery, not the speed: 40,000 rows a run to compare, 2 panels of 20 steps to draw
    monkeypatch.setattr(outputs, "STEPS", 5)
    monkeypatch.setattr(aggregate, "STEPS", 20)
    monkeypatch.setattr(aggregate, "BENCHMARKS", 2)
    outputs.drawing(60_000, 1, tmp_path, formats=(".png",))
    outputs.comparing(1, tmp_path)
    out = capsys.readouterr().out
    assert "plot -o chart.png, 60,000 rows: spec" in out and " px)" in out
    floors = [line.split() for line in out.splitlines() if line.strip().startswith("floor")]
    assert floors and floors[0][-2:] == ["1.00x", "1.00x"]
    ours = [line.split() for line in out.splitlines() if line.strip().startswith("ours")]
    assert len(ours) == 2 and all(float(r[-2].rstrip("x")) > 0 for r in ours)


def test_a_small_command_is_not_charged_the_benchmarks_own_size():
    # this process holds 400 MB when it starts the command: the kernel's high-water mark of a
    # child forked straight from it would report that size for a command of a few MB
    held = bytearray(400 * 2**20)
    held[::4096] = b"\1" * len(held[::4096])  # touched: resident, not only reserved
    r = aggregate.measure_command([sys.executable, "-c", "pass"])
    assert r["peak_mb"] < 100 and 0 < r["seconds"] < 5
    del held


def test_the_speed_page_keeps_what_each_benchmark_printed_and_names_a_failure(
    tmp_path, monkeypatch, capsys
):
    """`make bench` writes docs/speed-latest.md from the scripts' own output: each section's
    command and tables as printed; a script that fails is said on the page and fails the run,
    after the others ran."""
    table = "print('ours  1.00 s  0.50x'); print('(outputs checked equal)')"
    monkeypatch.setattr(
        report,
        "BENCHMARKS",
        [
            ("Fails", ["-c", "import sys; print('half a table'); sys.exit(3)"]),
            ("Runs", ["-c", table]),
        ],
    )
    out = tmp_path / "speed-latest.md"
    assert report.main(["--out", str(out)]) == 1
    text = out.read_text()
    assert text.startswith("# Speed: the latest run of every benchmark")
    fails, runs = text.split("## Fails")[1].split("## Runs")
    assert "**Failed** (exit status 3)" in fails and "half a table" in fails
    assert "ours  1.00 s  0.50x\n(outputs checked equal)\n```" in runs
    assert "Failed" not in runs
    assert "half a table" in capsys.readouterr().out  # shown as it ran


def test_the_suite_benchmark_charges_each_test_the_machines_cpu(tmp_path, capsys):
    """A test whose child process keeps a core busy is charged that child's CPU (a process's own
    clock would miss it), and each file is listed with its tests."""
    from benchmarks import suite

    busy = "import time\nwhile time.process_time() < 0.5: pass"
    (tmp_path / "test_busy.py").write_text(
        "import subprocess, sys\n\n"
        f"def test_child():\n    subprocess.run([sys.executable, '-c', {busy!r}], check=True)\n"
    )
    (tmp_path / "test_idle.py").write_text("def test_a():\n    pass\n\ndef test_b():\n    pass\n")
    files = [str(tmp_path / "test_busy.py"), str(tmp_path / "test_idle.py")]
    assert suite.main(["--top", "1", *files]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 tests, one at a time")
    [busy_file] = [line.split() for line in out.splitlines() if "test_busy.py" in line]
    assert busy_file[1] == "1" and float(busy_file[2]) >= 0.45  # the child's half second
    assert "test_idle.py" not in out and "the other files" in out  # past --top, summed


def test_timed_commands_start_with_the_allocator_setting_the_benchmark_was_given(monkeypatch):
    """A benchmark that imported polars holds polars' allocator setting in os.environ; the
    commands it times start with the one the benchmark itself was started with, or none."""
    import json
    import subprocess

    code = (
        "import json, os, polars\n"
        "from benchmarks.aggregate import shell_env\n"
        "print(json.dumps([os.environ['_RJEM_MALLOC_CONF'], shell_env(A='1')]))\n"
    )
    for given in (None, "background_thread:true"):
        if given is None:
            monkeypatch.delenv("_RJEM_MALLOC_CONF", raising=False)
        else:
            monkeypatch.setenv("_RJEM_MALLOC_CONF", given)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        held, env = json.loads(out)
        assert held != given and env["A"] == "1"  # polars wrote its own before
        assert env.get("_RJEM_MALLOC_CONF") == given
