"""helpers.load: schema from datapackage.json, checked on every load; one clear error for bad files."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers
import helpers.data as data
from helpers.paths import DATAPACKAGE

NAMES = [
    "rl_length_scaling",
    "training_dynamics",
    "step_dpo_sizing",
    "prm_data_scaling",
    "grpo_vs_mel",
    "published_values",
    "published_axes",
]
FIGURES = NAMES[:5]


def test_the_five_resources_are_described():
    assert helpers.names() == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_load_types_and_order_follow_the_schema(name):
    df = helpers.load(name)
    fields = helpers.resource(name)["schema"]["fields"]
    assert df.columns == [f["name"] for f in fields]
    kinds = {"string": pl.String, "integer": pl.Int64, "number": pl.Float64}
    assert df.dtypes == [kinds[f["type"]] for f in fields]
    again = helpers.load(name)
    assert df.equals(again)
    csv_order = pl.read_csv(DATAPACKAGE.parent / f"{name}.csv", infer_schema=False)
    assert df[df.columns[0]].cast(pl.String).to_list() == csv_order[df.columns[0]].to_list()


def test_frictionless_validates_the_package():
    exe = Path(sys.executable).parent / "frictionless"
    out = subprocess.run([exe, "validate", str(DATAPACKAGE)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("VALID") == len(NAMES) and "INVALID" not in out.stdout


def test_descriptor_records_provenance_and_checksums():
    for name in FIGURES:
        res = helpers.resource(name)
        assert res["sources"][0]["path"].startswith("shared/seeds/")
        assert res["hash"].startswith("sha256:") and len(res["hash"]) == 7 + 64
        assert res["licenses"] and res["schema"]["primaryKey"]
        assert "title" in res["figure"]


def _granularity(values: list[float]) -> Decimal:
    steps = [
        Decimal(s)
        for s in ("1000", "500", "100", "50", "10", "5", "1", "0.5", "0.1", "0.05", "0.01")
    ]
    vals = [Decimal(str(v)) for v in values if v]
    return next(s for s in steps if all(v % s == 0 for v in vals))


@pytest.mark.parametrize("name", FIGURES)
def test_reading_step_is_the_finest_step_the_description_uses(name):
    """Fields sharing a unit share a readingStep: the largest step that all their values sit on."""
    df = helpers.load(name)
    by_unit: dict[str, list] = {}
    for f in helpers.resource(name)["schema"]["fields"]:
        if "readingStep" in f:
            by_unit.setdefault(f["unit"], []).append(f)
    assert by_unit
    for fields in by_unit.values():
        values = [v for f in fields for v in df[f["name"]].drop_nulls().to_list()]
        steps = {Decimal(str(f["readingStep"])) for f in fields}
        assert steps == {_granularity(values)}, [f["name"] for f in fields]


def test_long_view_holds_every_stated_value_once():
    lv = helpers.long_view()
    assert lv.columns == [
        "document",
        "benchmark",
        "panel",
        "series",
        "x_name",
        "x",
        "metric",
        "statistic",
        "value",
        "unit",
        "status",
    ]
    counts = dict(lv.group_by("document").len().sort("document").iter_rows())
    # 20 points; 13 x (2 accuracy + 2 token values); 11 points + 3 baselines; 10; 15
    assert counts == {"000": 20, "001": 52, "002": 14, "003": 10, "004": 15}
    assert lv.null_count()["value"].item() == 0
    assert lv.filter(series="k1.5-short w/ rl", benchmark="AIME2024")["value"].to_list() == [61.0]
    assert set(lv["unit"]) == {"%", "fraction", "tokens"}


# ---- bad files: each gives DataError naming the file, the line and the column -------------------


def _edit(package: Path, name: str, old: str, new: str, rehash: bool = True) -> Path:
    path = package.parent / f"{name}.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if rehash:
        data.rehash(package)
    return path


def _error(package: Path, name: str) -> helpers.DataError:
    with pytest.raises(helpers.DataError) as info:
        helpers.load(name, package=package)
    return info.value


# One edit of a data file each: (resource, text, replaced by, line, column, words in the error);
# None where the error names no column (a row with too few cells).
EDITS = {
    "missing column": (
        "grpo_vs_mel",
        "method,kind,step,step_end,score",
        "method,kind,step,step_end",
        1,
        "score",
        "grpo_vs_mel.csv, line 1, column 'score': expected a header with the columns",
    ),
    "unknown extra column": (
        "grpo_vs_mel",
        "step_end,score\n",
        "step_end,score,seed\n",
        1,
        "seed",
        "(unknown column)",
    ),
    "duplicated header": (
        "grpo_vs_mel",
        "method,kind,step,step_end,score",
        "method,kind,step,step,score",
        1,
        "step",
        "expected each column once in the header",
    ),
    "wrong type": (
        "rl_length_scaling",
        "MATH500,k1.5-shortest,k1.5,orange,650,",
        "MATH500,k1.5-shortest,k1.5,orange,about 650,",
        2,
        "token_length",
        "expected a whole number; got 'about 650'",
    ),
    "fraction given as percent": (
        "grpo_vs_mel",
        "GRPO,point,0,,0.13",
        "GRPO,point,0,,13",
        2,
        "score",
        "not a percentage",
    ),
    "out of range": (
        "step_dpo_sizing",
        "Qwen2-7B-Step-DPO,point,7B,56.0",
        "Qwen2-7B-Step-DPO,point,7B,156.0",
        2,
        "accuracy",
        "at most 100 %",
    ),
    "negative value": ("grpo_vs_mel", "GRPO,point,20,", "GRPO,point,-20,", 3, "step", "at least 0"),
    "duplicate key": (
        "grpo_vs_mel",
        "GRPO,point,20,,0.20",
        "GRPO,point,0,,0.20",
        3,
        "step",
        "also on line 2",
    ),
    "unknown label": (
        "rl_length_scaling",
        "AIME2024,k1.5-short w/ rl,",
        "AIME2024,k1.5-short w/ RL,",
        16,
        "model",
        "got 'k1.5-short w/ RL'",
    ),
    "missing required value": (
        "training_dynamics",
        "5,AIME2024,generally increasing,0.5,0.7,,,0,20000",
        "5,AIME2024,generally increasing,0.5,0.7,,,,20000",
        6,
        "token_length_start",
        "expected a value (a whole number)",
    ),
    "ragged row": ("grpo_vs_mel", "MEL,point,0,,0.13", "MEL,point,0,0.13", 10, None, "5 cells"),
    "not a number": (
        "grpo_vs_mel",
        "GRPO,point,40,,0.27",
        "GRPO,point,40,,nan",
        4,
        "score",
        "finite number",
    ),
    # issue 21, item 8
    "one percentage given as a fraction": (
        "rl_length_scaling",
        "MATH500,k1.5-shortest,k1.5,orange,650,88.5,",
        "MATH500,k1.5-shortest,k1.5,orange,650,0.885,",
        2,
        "accuracy",
        "expected a percentage from 0 to 100 (below 1: a fraction given for %?); got '0.885'",
    ),
    "an integer with a digit separator": (
        "rl_length_scaling",
        "MATH500,k1.5-shortest,k1.5,orange,650,",
        "MATH500,k1.5-shortest,k1.5,orange,6_50,",
        2,
        "token_length",
        "expected a whole number; got '6_50'",
    ),
    "a number with a digit separator": (
        "grpo_vs_mel",
        "GRPO,point,40,,0.27",
        "GRPO,point,40,,0.2_7",
        4,
        "score",
        "expected a finite number; got '0.2_7'",
    ),
    "a quoted newline before a bad value": (
        "grpo_vs_mel",
        "GRPO,point,40,,0.27",
        'GRPO,point,40,,0.27\n"GRPO\n",point,41,,x',
        5,
        "method",
        "expected one of",
    ),
    "a quote left open on the last line": (
        "grpo_vs_mel",
        "MEL,point,140,,0.33",
        'MEL,point,140,,"0.33',
        16,
        None,
        "well-formed CSV quoting (unexpected end of data)",
    ),
}


@pytest.mark.parametrize("case", EDITS)
def test_a_bad_edit_is_named_by_file_line_and_column(package, case):
    name, old, new, line, column, words = EDITS[case]
    _edit(package, name, old, new)
    e = _error(package, name)
    assert f"{name}.csv" in str(e) and words in str(e)
    assert (e.line, e.column) == (line, column)


def test_percent_given_as_fraction(package):
    path = package.parent / "prm_data_scaling.csv"
    df = pl.read_csv(path, infer_schema=False)
    df = df.with_columns(accuracy=(pl.col("accuracy").cast(pl.Float64) / 100).cast(pl.String))
    df.write_csv(path)
    data.rehash(package)
    e = _error(package, "prm_data_scaling")
    assert (e.line, e.column) == (2, "accuracy")
    assert "fraction given for %" in str(e)


def test_empty_file(package):
    (package.parent / "grpo_vs_mel.csv").write_bytes(b"")
    e = _error(package, "grpo_vs_mel")
    assert e.line == 1 and "the file is empty" in str(e)


def test_header_only(package):
    (package.parent / "grpo_vs_mel.csv").write_text("method,kind,step,step_end,score\n")
    data.rehash(package)
    assert _error(package, "grpo_vs_mel").line == 2


def test_not_utf8(package):
    path = package.parent / "step_dpo_sizing.csv"
    path.write_bytes(path.read_bytes().replace("Instruct†".encode(), "Instruct†".encode("cp1252")))
    data.rehash(package)
    e = _error(package, "step_dpo_sizing")
    assert (e.line, e.column) == (11, "model") and "UTF-8" in str(e)


def test_checksum_mismatch(package):
    _edit(package, "grpo_vs_mel", "MEL,point,130,,0.46", "MEL,point,130,,0.47", rehash=False)
    e = _error(package, "grpo_vs_mel")
    assert "checksum sha256:" in str(e) and "make rehash" in str(e)


def _descriptor(package, change) -> None:
    """Edit the copied package's descriptor in place."""
    doc = json.loads(package.read_text())
    change(doc)
    package.write_text(json.dumps(doc))
    data._package.cache_clear()


@pytest.mark.parametrize("where", ["../../etc/passwd", "/etc/passwd", "", None, 5])
def test_a_resource_path_stays_inside_the_package(package, where):
    """Issue 21, item 8: a descriptor naming a file outside its folder is refused, not read."""
    _descriptor(package, lambda d: d["resources"][0].update(path=where))
    name = json.loads(package.read_text())["resources"][0]["name"]
    e = _error(package, name)
    assert e.column == "path" and "inside the package's folder" in str(e)
    assert "root:" not in str(e)  # nothing of the file is printed


def test_a_resource_without_its_checksum_is_refused(package):
    """Removing `hash` does not switch the checksum off: it is an error saying how to record it."""
    _descriptor(package, lambda d: d["resources"][0].pop("hash"))
    name = json.loads(package.read_text())["resources"][0]["name"]
    e = _error(package, name)
    assert e.column == "hash" and "make rehash" in str(e)
    data.rehash(package)
    assert helpers.load(name, package=package).height > 0


DESCRIPTOR_DAMAGE = {
    "resources an object": (lambda d: d.update(resources={}), "resources", "a list of resources"),
    "a resource without a name": (
        lambda d: d["resources"][0].pop("name"),
        "resources[0].name",
        "a name",
    ),
    "fields a string": (
        lambda d: d["resources"][0]["schema"].update(fields="panel"),
        "resources[0].schema.fields",
        "a list of fields",
    ),
    "a date type": (
        lambda d: d["resources"][0]["schema"]["fields"][0].update(type="date"),
        "resources[0].schema.fields[0].type",
        "string, integer or number; got 'date'",
    ),
    "a minimum as text": (
        lambda d: d["resources"][0]["schema"]["fields"][4]["constraints"].update(minimum="0"),
        "resources[0].schema.fields[4].constraints.minimum",
        "a number; got '0'",
    ),
    "missingValues a number": (
        lambda d: d["resources"][0]["schema"].update(missingValues=5),
        "resources[0].schema.missingValues",
        "a list of strings",
    ),
    "primaryKey naming no field": (
        lambda d: d["resources"][0]["schema"].update(primaryKey=["nope"]),
        "resources[0].schema.primaryKey",
        "field names from",
    ),
}


@pytest.mark.parametrize("case", DESCRIPTOR_DAMAGE)
def test_a_malformed_descriptor_is_named_by_its_place(package, case):
    """Issue 21, item 6: each of these was a KeyError, TypeError or AttributeError."""
    change, where, words = DESCRIPTOR_DAMAGE[case]
    _descriptor(package, change)
    with pytest.raises(helpers.DataError) as info:
        helpers.load("rl_length_scaling", package=package)
    assert info.value.path == str(package) and info.value.column == where
    assert words in str(info.value)


def test_a_primary_key_may_be_one_name(package):
    """Frictionless v2 allows primaryKey as one field name: it is read as a list of one."""
    _descriptor(package, lambda d: d["resources"][4]["schema"].update(primaryKey="score"))
    with pytest.raises(helpers.DataError, match=r"each primary key \['score'\] once"):
        helpers.load("grpo_vs_mel", package=package)


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _nodes(value, path=()):
    """Every (path, value) in a JSON document, the root first."""
    yield path, value
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in items:
        yield from _nodes(child, (*path, key))


@settings(max_examples=60, deadline=None)
@given(pick=st.integers(0, 10**6), value=JSON_VALUES)
def test_descriptor_mutations_of_type_are_caught(tmp_path_factory, pick, value):
    """Any one node of the descriptor replaced by a JSON value of any type: every load gives
    a frame or the package's error, never another exception."""
    import shutil

    folder = tmp_path_factory.mktemp("descriptor") / "data"
    shutil.copytree(DATAPACKAGE.parent, folder)
    package = folder / "datapackage.json"
    doc = json.loads(package.read_text())
    nodes = list(_nodes(doc))[1:]
    path, _ = nodes[pick % len(nodes)]
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    package.write_text(json.dumps(doc))
    data._package.cache_clear()
    for name in NAMES:
        with contextlib.suppress(helpers.DataError):
            helpers.load(name, package=package)


def test_missing_file(package):
    (package.parent / "grpo_vs_mel.csv").unlink()
    assert "file not found" in str(_error(package, "grpo_vs_mel"))


def test_unknown_resource():
    with pytest.raises(helpers.DataError, match="a resource named one of"):
        helpers.load("grpo_vs_mle")


def test_bad_descriptor(tmp_path):
    bad = tmp_path / "datapackage.json"
    bad.write_text('{"resources": [\n  {"name": oops}\n]}')
    with pytest.raises(helpers.DataError) as info:
        helpers.load("x", package=bad)
    assert info.value.line == 2


def test_loading_prints_nothing(package, capsys):
    _edit(package, "grpo_vs_mel", "GRPO,point,40,,0.27", "GRPO,point,40,,x")
    with pytest.raises(helpers.DataError):
        helpers.load("grpo_vs_mel", package=package)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_rehash_is_atomic_and_reports_changes(package):
    assert data.rehash(package) == []
    _edit(package, "grpo_vs_mel", "MEL,point,130,,0.46", "MEL,point,130,,0.45", rehash=False)
    assert data.rehash(package) == ["grpo_vs_mel"]
    assert helpers.load("grpo_vs_mel", package=package).filter(step=130)["score"].item() == 0.45
    assert not list(package.parent.glob("*.tmp"))


def test_published_values_match_description_labels():
    pub = helpers.load("published_values")
    described = (
        set(helpers.load("rl_length_scaling")["model"])
        | set(helpers.load("step_dpo_sizing")["model"])
        | set(helpers.load("training_dynamics")["benchmark"])
        | set(helpers.load("prm_data_scaling")["series"])
        | set(helpers.load("grpo_vs_mel")["method"])
    )
    matches = set(pub["matches"].drop_nulls())
    assert matches <= described, matches - described
    assert (
        pub.filter(pl.col("source").str.contains("Table|Section|README|Figure")).height
        == pub.height
    )


def test_papers_own_tables_as_read():
    """Spot checks against the sources read: Step-DPO Table 1 (paper PDF in the authors'
    repository) and ReasonFlux-PRM Table 2 (the authors' image of it)."""
    pub = helpers.load("published_values")

    def value(document, source_word, model, benchmark):
        row = pub.filter(document=document, model=model, benchmark=benchmark).filter(
            pl.col("source").str.contains(source_word),
            pl.col("metric").is_in(["accuracy", "pass@1"]),
        )
        return row["value"].item()

    # the three dashed baselines and the four legend-only entries of figure 002
    assert value("002", "Table 1", "GPT-4-1106", "MATH") == 64.3
    assert value("002", "Table 1", "Claude-3-Opus", "MATH") == 60.1
    assert value("002", "Table 1", "Gemini-1.5-Pro (May)", "MATH") == 67.7
    assert value("002", "Table 1", "DeepSeekMath-Instruct", "MATH") == 46.8
    assert value("002", "Table 1", "MathGenieLM-Mistral", "MATH") == 45.1
    # one model, two printed numbers: the paper's Table 1 and the repository README disagree
    assert value("002", "Table 1", "Qwen2-7B-Instruct", "MATH") == 49.6
    assert value("002", "README", "Qwen2-7B-Instruct", "MATH") == 53.0
    # ReasonFlux-PRM Table 2, all four columns for the PRM itself and the human baseline
    table2 = pub.filter(document="003", model="ReasonFlux-PRM-7B").sort("benchmark")
    assert dict(table2.select("benchmark", "value").iter_rows()) == {
        "AIME24": 40.0,
        "AIME25": 33.3,
        "GPQA-Diamond": 47.5,
        "MATH500": 84.8,
    }
    assert value("003", "Table 2", "Human-curated (s1k)", "MATH500") == 78.8
    assert pub.filter(document="003").height == 8 * 4
    # MEL Table 1: the 14B run's final Pass@1 are the described curves' end values (0.30, 0.33)
    assert value("004", "Table 1", "Qwen3-14B-Base GRPO", "AIME2024") == 30.0
    mel = pub.filter(document="004", model="Qwen3-14B-Base MEL", benchmark="AIME2024")
    assert dict(mel.select("metric", "value").iter_rows()) == {
        "pass@1": 33.33,
        "avg@8": 35.83,
        "pass@8": 60.0,
    }
    assert pub.filter(document="004").height == 3 * 3 * 2 * 3


# ---- generated damage: the loader never accepts what frictionless rejects -----------------------

DAMAGE = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", "NaN", "-1", "1e9", "101", "0.5", "\ufeff", '"', "a,b", "\x00", "é"]),
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=False).map(repr),
)


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    where=st.tuples(st.integers(0, 400), st.integers(0, 20)),
    value=DAMAGE,
    rehash=st.booleans(),
)
def test_generated_damage_is_caught(tmp_path_factory, name, where, value, rehash):
    """One cell of one resource replaced by a generated value (the file rehashed or not): the
    load gives the package's error or a frame, never anything else; a changed file whose
    checksum was not updated is refused; and nothing frictionless finds invalid is accepted."""
    import shutil

    from frictionless import Package

    folder = tmp_path_factory.mktemp("damaged") / "data"
    shutil.copytree(DATAPACKAGE.parent, folder)
    package = folder / "datapackage.json"
    path = folder / f"{name}.csv"
    rows = path.read_text(encoding="utf-8").splitlines(keepends=True)
    row = 1 + where[0] % (len(rows) - 1)
    cells = rows[row].rstrip("\n").split(",")
    cells[where[1] % len(cells)] = value
    rows[row] = ",".join(cells) + "\n"
    path.write_bytes("".join(rows).encode("utf-8", errors="surrogatepass"))
    changed = path.read_bytes() != (DATAPACKAGE.parent / f"{name}.csv").read_bytes()
    if rehash:
        data.rehash(package)
    try:
        frame = helpers.load(name, package=package)
    except helpers.DataError as e:
        assert str(e).startswith(str(path))
        return
    assert not changed or rehash, "a changed file was accepted with its old checksum"
    report = Package(str(package)).get_resource(name).validate()
    assert report.valid, (
        f"accepted what frictionless rejects: {report.flatten(['type', 'note'])[:2]}"
    )
    assert frame.height == len(rows) - 1
