"""What a user types to name a log (`helpers.runs.inputs`): `[NAME=]PATH[#RUN][@STEP]`, a local
path or a URI; a path that exists as written is never split."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import DataError
from helpers.runs import inputs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("runs/a.jsonl", ("a", Path("runs/a.jsonl"))),
        ("base=runs/a.jsonl", ("base", Path("runs/a.jsonl"))),
        ("runs/x=1/a.jsonl", ("a", Path("runs/x=1/a.jsonl"))),  # '=' inside a path
        ("new=s3a://bucket/run/", ("new", "s3a://bucket/run/")),
        ("s3a://bucket/run/", ("run", "s3a://bucket/run/")),
    ],
)
def test_name_and_where(text, expected):
    assert inputs.named(text) == expected


def test_run_and_step_from_the_right_and_existing_paths_kept(tmp_path):
    assert inputs.run_named(Path("wandb#run-7")) == (Path("wandb"), "run-7")
    assert inputs.run_named(Path("a/b#c#d")) == (Path("a/b#c"), "d")
    assert inputs.pinned("wandb#run-7@120") == ("wandb#run-7", 120)
    assert inputs.pinned("runs/@100") == ("runs/", 100)
    assert inputs.pinned("runs/a@v2") == ("runs/a@v2", None)
    assert inputs.pinned("a@" + "9" * 19) == ("a@" + "9" * 19, None)  # past a 64-bit step
    odd = tmp_path / "odd#name@120"
    odd.mkdir()
    assert inputs.pinned(str(odd)) == (str(odd), None)
    assert inputs.run_named(odd) == (odd, None)


def test_a_uri_is_refused_where_only_local_paths_are_read():
    assert inputs.local("runs/a") == Path("runs/a")
    with pytest.raises(DataError, match="a URI is read by --engine spark"):
        inputs.local("s3a://bucket/run/")
