"""W&B run folders as the training machine keeps them, written here by wandb itself in offline
mode (no network: wandb's local service writes `wandb/offline-run-<time>-<id>/run-<id>.wandb`),
read back without wandb by helpers.runs.readers.trackers.wandb_store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from helpers import DataError
from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers.detect import detect
from helpers.runs.readers.trackers import wandb_store

STEPS = 50  # logged at step 10 * s: 0, 10, ..., 490
BIG = 20  # the step index whose record holds a 50,000-character string: chunks across blocks

# Three runs in one wandb/ folder: "grpo-math" (50 steps; then resumed for 5 more, in a second
# folder with the same id), "summary-only" (no history; a summary), "other" (3 steps).
WRITER = f"""
import json, wandb
a = wandb.init(project="figures", name="grpo-math",
               config={{"lr": 1e-6, "model": {{"name": "qwen"}}, "n_samples": 4}})
for s in range({STEPS}):
    row = {{"val-core/math500/acc/mean@1": s / 64, "response_length/mean": 1000.0 + 7 * s}}
    if s % 10 == 9:
        row["val-core/aime24/acc/mean@4"] = (s // 10) / 8
    if s == {BIG}:
        row["notes/text"] = "x" * 50_000
    a.log(row, step=10 * s)
a.finish()
resumed = wandb.init(project="figures", id=a.id, resume="allow")
for s in range({STEPS}, {STEPS} + 5):
    resumed.log({{"val-core/math500/acc/mean@1": s / 64}}, step=10 * s)
resumed.finish()
b = wandb.init(project="figures", name="summary-only")
b.summary["val-core/math500/acc/mean@1"] = 0.625
b.finish()
c = wandb.init(project="figures", name="other")
for s in range(3):
    c.log({{"val-core/math500/acc/mean@1": 0.5}})
c.finish()
print(json.dumps({{"a": a.id, "b": b.id, "c": c.id}}))
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    """The run folders wandb wrote, by name: grpo, resumed, summary, other."""
    base = tmp_path_factory.mktemp("wandb_runs")
    env = {
        **os.environ,
        "WANDB_MODE": "offline",
        "WANDB_SILENT": "true",
        "WANDB_DIR": str(base),
        "WANDB_CONFIG_DIR": str(base / "config"),
        "WANDB_CACHE_DIR": str(base / "cache"),
        "WANDB_DATA_DIR": str(base / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-c", WRITER], env=env, cwd=base, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    ids = json.loads(done.stdout.strip().splitlines()[-1])
    found = {p.name: p for p in (base / "wandb").iterdir() if p.is_dir() and not p.is_symlink()}

    def folders(run_id: str) -> list[Path]:  # by start time; `-1` where a second collides
        return [found[n] for n in sorted(found) if f"-{run_id}" in n]

    (grpo, resumed), (summary,), (other,) = (folders(ids[k]) for k in "abc")
    return {"grpo": grpo, "resumed": resumed, "summary": summary, "other": other}


def _log(folder: Path) -> Path:
    (log,) = folder.glob("run-*.wandb")
    return log


def _snapshot(folder: Path) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def _expected_math500(steps=range(STEPS)) -> list[tuple[int, float]]:
    return [(10 * s, s / 64) for s in steps]


def test_offline_run_is_read_as_logged(written):
    """50 steps of val-core/math500/acc/mean@1 (s/64 at step 10s), aime24 mean@4 every tenth
    step, response_length/mean 1000 + 7s: exactly as logged; the run's name and config are
    recorded; the run folder is left as it was."""
    folder = written["grpo"]
    before = _snapshot(folder)
    run = readers.load(folder)
    assert run.format == "wandb-run" and detect(folder) == "wandb-run"
    scores = run.scores.sort("benchmark", "step")
    math500 = scores.filter(benchmark="math500")
    assert math500.select("step", "score").rows() == _expected_math500()
    assert math500["k"].unique().to_list() == [1] and math500["problems"][0] == 500
    aime = scores.filter(benchmark="aime24")
    assert aime.select("step", "score").rows() == [
        (10 * s, (s // 10) / 8) for s in range(9, 50, 10)
    ]
    assert aime["k"].unique().to_list() == [4]
    assert run.tokens.sort("step").select("step", "tokens").rows() == [
        (10 * s, 1000.0 + 7 * s) for s in range(STEPS)
    ]
    notes = "\n".join(run.notes)
    assert f"run 'grpo-math' (id {folder.name.rsplit('-', 1)[1]}, project figures)" in notes
    assert 'config (3 keys): lr=1e-6, model={"name":"qwen"}, n_samples=4' in notes
    assert "left unread" not in notes
    # the record of 50,000 characters spans two 32 KiB blocks (first and last chunks)
    rows, _, ended = wandb_store.wide(folder)
    assert ended  # its exit record read
    text = rows.filter(pl.col("_step") == str(10 * BIG))["notes/text"].item()
    assert text == json.dumps("x" * 50_000)
    assert _log(folder).stat().st_size > 2 * wandb_store.BLOCK
    # the log alone reads the same, recognised by its ':W&B' header under any name
    copy = folder.parent.parent / "history.bin"
    shutil.copyfile(_log(folder), copy)
    assert readers.load(copy).scores.sort("benchmark", "step").equals(scores)
    assert _snapshot(folder) == before


def test_plot_writes_the_logged_values(written, tmp_path):
    """`python -m helpers plot RUN -o out.csv`, a whole process: one row per logged step."""
    out = tmp_path / "out.csv"
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "plot", str(written["grpo"]), "-o", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = pl.read_csv(out).sort("benchmark", "step")
    math500 = table.filter(benchmark="math500")
    assert math500.select("step", "score").rows() == _expected_math500()
    assert math500["tokens"].to_list() == [1000.0 + 7 * s for s in range(STEPS)]
    assert table.filter(benchmark="aime24")["score"].to_list() == [0.125 * i for i in range(5)]


def test_a_run_folders_chart_is_titled_with_the_runs_name(written):
    """A W&B run folder is `run-<time>-<id>`; its chart is titled with the name the run was
    given (wandb.init(name="grpo-math")), which the log holds (issue 41)."""
    from helpers.runs.choose import fitting

    assert written["grpo"].name.startswith(("run-", "offline-run-"))
    draw, _ = fitting([written["grpo"]])
    title = draw().to_dict()["title"]
    text = title if isinstance(title, str) else title["text"]
    assert text.startswith("grpo-math: ") and written["grpo"].name not in text


def test_wandb_folder_of_several_runs(written, tmp_path, capsys):
    """A wandb/ folder: a run that logged no history is passed over; a resumed run's two
    folders are one curve (55 steps); two runs with history are two runs, each as logged:
    `inspect` lists them, `plot` draws both, `load` (one run) is an error naming them and
    PATH#RUN reads one."""
    store = tmp_path / "wandb"
    for name in ("grpo", "resumed", "summary"):
        shutil.copytree(written[name], store / written[name].name)
    run = readers.load(store)
    math500 = run.scores.filter(benchmark="math500").sort("step")
    assert math500.select("step", "score").rows() == _expected_math500(range(STEPS + 5))
    assert any("one run resumed: 2 logs" in n for n in run.notes)
    shutil.copytree(written["other"], store / written["other"].name)
    assert main(["inspect", str(store)]) == 0
    text = capsys.readouterr().out
    # in the order they started (runs started within one second: by id)
    listed = text.splitlines()[0].removeprefix(f"{store}: 2 runs (wandb-run): ")
    assert sorted(listed.split(", ")) == ["grpo-math", "other"]
    assert f"{store}#other: wandb-run" in text
    assert "summary-only" not in text  # no history: not one of the runs
    out = tmp_path / "runs.csv"
    assert main(["plot", str(store), "-o", str(out)]) == 0
    table = pl.read_csv(out).filter(benchmark="math500")
    grpo = table.filter(run="grpo-math").select("step", "score").rows()
    assert grpo == _expected_math500(range(STEPS + 5))
    assert table.filter(run="other").select("step", "score").rows() == [(s, 0.5) for s in range(3)]
    with pytest.raises(DataError, match=rf"the store holds 2 runs \({listed}\)"):
        readers.load(store)
    other = readers.load(f"{store}#other").scores
    assert other.select("step", "score").rows() == [(s, 0.5) for s in range(3)]


def test_run_without_history_reads_its_summary_or_console(written, tmp_path):
    """No history: the summary is one row (step 0); verl's console lines in files/output.log
    are read instead where present, a line W&B cut at 4,096 characters never."""
    run = readers.load(written["summary"])
    assert run.scores.select("step", "benchmark", "score").rows() == [(0, "math500", 0.625)]
    assert any("the run's summary as one row" in n for n in run.notes)
    folder = tmp_path / written["summary"].name
    shutil.copytree(written["summary"], folder)
    cut = "step:30 - val-core/math500/acc/mean@1:0.9 - " + "pad:1 - " * 600
    (folder / "files" / "output.log").write_text(
        "loading\nstep:10 - val-core/math500/acc/mean@1:0.25 - response_length/mean:np.float64(812.0)\n"
        f"{cut[: wandb_store.CONSOLE_LINE_LIMIT]}\n"
        "\x1b[36m(TaskRunner pid=4242)\x1b[0m step:20 - val-core/math500/acc/mean@1:0.375\n"
    )
    run = readers.load(folder)
    assert run.scores.select("step", "score").rows() == [(10, 0.25), (20, 0.375)]
    assert run.tokens.select("step", "tokens").rows() == [(10, 812.0)]
    assert any("1 step lines of 4,096 characters or more (cut) skipped" in n for n in run.notes)


def _records(log: Path) -> list[tuple[int, int, bytes]]:
    return list(wandb_store.Records(log))


def test_a_log_cut_between_records_says_the_run_did_not_end(written, tmp_path, capsys):
    """A run killed between two records (issue 41): nothing is left unread, but W&B writes an
    exit record when a run ends and this log has none: `inspect` exits 0 and says so, while
    the whole log says nothing of it."""
    log = _log(written["grpo"])
    offsets = [o for _, o, _ in _records(log)]
    folder = tmp_path / "cut"
    shutil.copytree(written["grpo"], folder)
    _log(folder).write_bytes(log.read_bytes()[: offsets[len(offsets) // 2]])
    assert main(["inspect", str(folder)]) == 0
    assert "no exit record: the run was killed or crashed" in capsys.readouterr().out
    assert main(["inspect", str(written["grpo"])]) == 0
    assert "no exit record" not in capsys.readouterr().out


def test_a_watch_ends_with_a_run_that_ended_and_says_a_cut_one_stalled(written, tmp_path):
    """Issue 43: W&B writes an exit record when a run ends, so watching a run that ended says
    so and exits at once; a run cut before its exit record stops growing and is said to have
    stalled (after --idle-exit), not to have ended."""
    log = _log(written["other"])
    offsets = [o for _, o, _ in _records(log)]
    cut = tmp_path / "cut"
    shutil.copytree(written["other"], cut)
    _log(cut).write_bytes(log.read_bytes()[: offsets[len(offsets) // 2]])
    assert readers.load(written["other"]).ended is True and readers.load(cut).ended is False

    def watch(*args: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "helpers", "watch", *args, "--every", "0.1"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    assert watch(f"other={written['other']}")[-1] == "other: ended"  # no --idle-exit needed
    assert watch(f"cut={cut}", "--idle-exit", "1")[-1].startswith("cut: stalled: no growth")


def test_truncated_log_keeps_every_complete_record(written, tmp_path):
    """A run killed mid-write: cut inside the record of 50,000 characters (which spans
    blocks), every history record before it is read and a note says how much was not."""
    log = _log(written["grpo"])
    data = log.read_bytes()
    big = next(o for _, o, d in _records(log) if len(d) > 50_000)
    for cut in (big + 40_000, big + 3):
        folder = tmp_path / f"cut{cut}"
        folder.mkdir()
        (folder / log.name).write_bytes(data[:cut])
        run = readers.load(folder)
        math500 = run.scores.filter(benchmark="math500").sort("step")
        assert math500.select("step", "score").rows() == _expected_math500(range(BIG))
        note = next(n for n in run.notes if "left unread" in n)
        assert note.startswith(f"{log.name}: the last {cut - big:,} bytes (a record cut short")
        assert f"; {BIG} history records read" in note


def test_damaged_log_is_one_error_line(written, tmp_path, capsys):
    """A byte flipped inside a record mid-file: one error line naming the file, the record
    and its offset; never a traceback, never an output."""
    log = _log(written["grpo"])
    records = _records(log)
    number, offset, _ = records[len(records) // 2]
    damaged = bytearray(log.read_bytes())
    damaged[offset + 7 + 5] ^= 0xFF
    bad = tmp_path / "run" / log.name
    bad.parent.mkdir()
    bad.write_bytes(bytes(damaged))
    out = tmp_path / "x.csv"
    assert main(["plot", str(bad.parent), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: {bad}: expected a W&B record matching its checksum (record {number}, "
        f"at byte {offset:,}; the file is damaged there)\n"
    )
    assert not out.exists()


def test_wandb_name_without_the_header_is_not_a_wandb_log(tmp_path):
    fake = tmp_path / "run-abc.wandb"
    fake.write_text("step,acc\n1,0.5\n")
    assert not wandb_store.is_wandb_file(fake)
    with pytest.raises(DataError, match="expected a .csv, .json"):
        detect(fake)


GENERATIONS = """
import wandb
for name, right in (("base", {0}), ("new", {0, 1, 2})):
    run = wandb.init(project="figures", name=name)
    rows, columns = [], ["step"] + sum(
        [[f"input_{i + 1}", f"output_{i + 1}", f"score_{i + 1}"] for i in range(3)], []
    )
    for step in (10, 20):
        row = [step]
        for i in range(3):  # verl logs the same prompts at each validation
            row += [f"  Question {i}:\\n what is {i} + {i}?", f"{name} says", float(i in right)]
        rows.append(row)  # verl's table holds every validation so far
        table = wandb.Table(columns=columns, data=[list(r) for r in rows])
        run.log({"val/generations": table, "val-core/math/acc/mean@1": len(right) / 3}, step=step)
    run.finish()
"""


def test_verls_validation_generations_pair_two_runs_prompt_by_prompt(tmp_path, capsys):
    """verl's `val/generations` tables, written by wandb itself (issue 41): read as per-sample
    logs keyed by the prompt, compared problem by problem at each step both runs sampled, with
    how many prompts each step sampled said; the run folder's `inspect` points to them."""
    env = {
        **os.environ,
        "WANDB_MODE": "offline",
        "WANDB_SILENT": "true",
        "WANDB_DIR": str(tmp_path),
    }
    env |= {f"WANDB_{k}_DIR": str(tmp_path / k.lower()) for k in ("CONFIG", "CACHE", "DATA")}
    done = subprocess.run(
        [sys.executable, "-c", GENERATIONS], env=env, cwd=tmp_path, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    folders = sorted(p for p in (tmp_path / "wandb").iterdir() if p.name.startswith("offline-run"))
    tables = [f / "files" / "media" / "table" / "val" for f in folders]
    assert all(detect(t) == "wandb-generations" for t in tables)
    out = tmp_path / "d.csv"
    assert main(["compare", f"base={tables[0]}", f"new={tables[1]}", "-o", str(out)]) == 0
    assert "validation generations, step 20: new vs base: +66.7 points" in capsys.readouterr().out
    d = pl.read_csv(out).sort("step")
    assert d["step"].to_list() == [10, 20] and d["problems"].to_list() == [3, 3]
    assert d.select("won", "lost", "tied").rows() == [(2, 0, 1), (2, 0, 1)]
    assert d["difference"].to_list() == pytest.approx([2 / 3, 2 / 3])
    assert main(["inspect", str(tables[0])]) == 0
    assert "3 prompts a step at 2 steps" in capsys.readouterr().out
    assert main(["inspect", str(folders[0])]) == 0
    assert "compare two runs prompt by prompt as NAME=" in capsys.readouterr().out


def test_a_growing_log_is_followed_decoding_each_record_once(written, tmp_path):
    """Issue 43: the log wandb wrote, reaching the disk piece by piece, cut anywhere (between
    records, inside a chunk's header, inside the 50,000-character record that spans blocks):
    after each piece a watch's look gives what a full read of the folder gives (history,
    notes, how the run ended), and decodes each record once in all; the log replaced by a
    shorter one is read again from its start."""
    from helpers.runs.readers.follow import Follow
    from helpers.runs.readers.wire.protobuf import fields

    data = _log(written["grpo"]).read_bytes()
    records = _records(_log(written["grpo"]))
    big = next(o for _, o, d in records if len(d) > 50_000)
    offsets = [o for _, o, _ in records]
    first = next(i for i, (_, _, d) in enumerate(records) if any(k == 2 for k, _, _ in fields(d)))
    history = offsets[first + 1]  # the first history record whole
    cuts = sorted({history, history + 3, big + 3, big + 40_000, offsets[-3] + 5, len(data)})
    folder = tmp_path / "grpo"
    shutil.copytree(written["grpo"], folder)
    log = _log(folder)
    log.write_bytes(data[: offsets[1]])
    follow = Follow(folder)
    with pytest.raises(DataError, match="logged history"):  # not yet: a watch waits
        follow.look()
    looks = []
    at = offsets[1]
    for cut in cuts:
        with log.open("ab") as f:  # the same file, grown
            f.write(data[at:cut])
        at = cut
        followed, whole = follow.look(), readers.load(folder)
        assert followed.scores.equals(whole.scores) and followed.tokens.equals(whole.tokens)
        assert (followed.notes, followed.ended, followed.run) == (
            whole.notes, whole.ended, whole.run,
        )  # fmt: skip
        looks.append(followed)
    assert follow.read == len(records)  # each record decoded once over the looks
    assert looks[-1].ended is True and looks[-2].ended is False
    assert looks[-1].scores["step"].max() == 10 * (STEPS - 1)
    log.write_bytes(data[: offsets[10]])  # cut shorter: read again from the start
    followed, whole = follow.look(), readers.load(folder)
    assert followed.scores.equals(whole.scores) and followed.notes == whole.notes
