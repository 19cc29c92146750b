"""Load the figures' data through the schema in data/datapackage.json, checked on every load."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl

from helpers.errors import DataError
from helpers.paths import DATAPACKAGE

_POLARS_TYPES = {"string": pl.String, "integer": pl.Int64, "number": pl.Float64}
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text"}


@cache
def _package(package: Path) -> dict[str, Any]:
    try:
        descriptor = json.loads(package.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(
            package, "a Frictionless data package descriptor (file not found)"
        ) from None
    except json.JSONDecodeError as e:
        raise DataError(package, f"valid JSON ({e.msg})", line=e.lineno) from None
    return _checked_descriptor(package, descriptor)


_CONSTRAINT_TYPES = (  # (key, JSON type, in words) of the constraints the loader reads
    ("minimum", (int, float), "a number"),
    ("maximum", (int, float), "a number"),
    ("enum", list, "a list"),
    ("required", bool, "true or false"),
)


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    """isinstance, where a JSON true/false is not a number."""
    if isinstance(value, bool):
        return kind is bool
    return isinstance(value, kind)


def _checked_descriptor(package: Path, descriptor: Any) -> dict[str, Any]:
    """The descriptor, its structure checked where the loader relies on it: a list of named
    resources, each field of a type the loader reads, constraints of the right JSON types.
    A primaryKey given as one name (Frictionless v2 allows it) becomes a list of one."""

    def need(ok: bool, where: str, expected: str, got: Any) -> None:
        if not ok:
            raise DataError(package, expected, column=where, got=got)

    need(_is(descriptor, dict), "(descriptor)", "a JSON object", type(descriptor).__name__)
    resources = descriptor.get("resources")
    need(_is(resources, list), "resources", "a list of resources", type(resources).__name__)
    for r, res in enumerate(resources):
        at = f"resources[{r}]"
        need(_is(res, dict), at, "a resource object", res)
        need(
            _is(res.get("name"), str) and res["name"] != "", f"{at}.name", "a name", res.get("name")
        )
        schema = res.get("schema")
        need(_is(schema, dict), f"{at}.schema", "a table schema object", schema)
        fields = schema.get("fields")
        need(_is(fields, list) and fields != [], f"{at}.schema.fields", "a list of fields", fields)
        for i, f in enumerate(fields):
            where = f"{at}.schema.fields[{i}]"
            need(_is(f, dict) and _is(f.get("name"), str), where, "a field with a name", f)
            need(
                _is(f.get("type"), str) and f["type"] in _POLARS_TYPES,
                f"{where}.type",
                "string, integer or number",
                f.get("type"),
            )
            constraints = f.get("constraints", {})
            need(_is(constraints, dict), f"{where}.constraints", "an object", constraints)
            for key, kind, words in _CONSTRAINT_TYPES:
                if key in constraints:
                    value = constraints[key]
                    need(_is(value, kind), f"{where}.constraints.{key}", words, value)
        missing = schema.get("missingValues", [""])
        need(
            _is(missing, list) and all(_is(m, str) for m in missing),
            f"{at}.schema.missingValues",
            "a list of strings",
            missing,
        )
        key = schema.get("primaryKey", [])
        if _is(key, str):
            schema["primaryKey"] = key = [key]
        names = [f["name"] for f in fields]
        need(
            _is(key, list) and all(k in names for k in key),
            f"{at}.schema.primaryKey",
            f"field names from {names}",
            key,
        )
    return descriptor


def names(package: Path = DATAPACKAGE) -> list[str]:
    """Names of the package's resources, in the package's order."""
    return [r["name"] for r in _package(Path(package))["resources"]]


def resource(name: str, package: Path = DATAPACKAGE) -> dict[str, Any]:
    """The descriptor of one resource (schema, sources, figure metadata)."""
    for r in _package(Path(package))["resources"]:
        if r["name"] == name:
            return r
    raise DataError(package, f"a resource named one of {names(package)}", got=name)


def figure(name: str) -> dict[str, Any]:
    """What the description says about the figure itself: title, axis titles and ranges.

    Parameters
    ----------
    name : str
        The figure's resource name in `datapackage.json` (as for `load`).

    Returns
    -------
    dict
        The resource's `figure` entry as recorded from its description: `title`, `y_title`
        and, where stated, `x_title`, a second axis (`y2_title`), axis domains, categories,
        panels and the layout.

    Examples
    --------
    >>> fig = figure("training_dynamics")
    >>> fig["title"], fig["x_title"]
    ('Performance vs. Iterations for Various Benchmarks', 'Iterations')
    """
    return resource(name)["figure"]


def field(name: str, column: str) -> dict[str, Any]:
    """The schema entry of one column: type, unit, readingStep, constraints."""
    for f in resource(name)["schema"]["fields"]:
        if f["name"] == column:
            return f
    raise KeyError(f"{name} has no field {column!r}")


def load(name: str, *, package: Path = DATAPACKAGE) -> pl.DataFrame:
    """One resource as an eager polars DataFrame, in file order, checked against its schema.

    Checks the checksum, encoding, header, types, required values, allowed labels, ranges,
    percent-vs-fraction units and the primary key; any failure raises DataError naming the file,
    line and column.

    Parameters
    ----------
    name : str
        The resource's name in `datapackage.json` (a figure's name, or `published_values`).
    package : Path
        The package's `datapackage.json`; the project's own by default.

    Returns
    -------
    polars.DataFrame
        The resource's rows with the columns its schema declares.

    Examples
    --------
    >>> df = load("grpo_vs_mel")
    >>> df.columns[:3], sorted(df["method"].unique())
    (['method', 'kind', 'step'], ['GRPO', 'MEL'])
    """
    package = Path(package)
    res = resource(name, package)
    path = _file(package, res)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError(path, f"the CSV file of resource '{name}' (file not found)") from None
    if not raw.strip():
        raise DataError(path, "a header row and data rows; the file is empty", line=1)
    text = _decode(path, raw)
    expected_hash = res.get("hash")
    if not expected_hash:  # a package without checksums would load whatever its files became
        raise DataError(
            package, f"a 'hash' for resource '{name}' (`make rehash` records it)", column="hash"
        )
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    if digest != expected_hash:
        raise DataError(
            path,
            f"checksum {expected_hash} recorded in {package.name} (edit the data, then "
            "run `make rehash` to record the new checksum)",
            got=digest,
        )
    rows, lines = _rows(path, text)
    fields = res["schema"]["fields"]
    header = rows[0]
    _check_header(path, header, [f["name"] for f in fields])
    body, lines = rows[1:], lines[1:]
    if not body:
        raise DataError(path, "at least one data row after the header", line=2)
    index = {col: i for i, col in enumerate(header)}
    missing = set(res["schema"].get("missingValues", [""]))
    columns: dict[str, list[Any]] = {}
    for f in fields:
        i = index[f["name"]]
        columns[f["name"]] = [
            _cell(path, line, f, row, i, len(header), missing)
            for line, row in zip(lines, body, strict=True)
        ]
    frame = pl.DataFrame(
        columns, schema={f["name"]: _POLARS_TYPES[f["type"]] for f in fields}, strict=True
    )
    for f in fields:
        _check_units(path, f, frame[f["name"]], lines)
    _check_unique(path, frame, res["schema"].get("primaryKey", []), lines)
    return frame


def _rows(path: Path, text: str) -> tuple[list[list[str]], list[int]]:
    """The CSV's records and the line each starts on (a quoted newline makes a record span
    two lines); a quote left open, or text after a closing quote, is an error."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows, lines, end = [], [], 0
    try:
        for row in reader:
            rows.append(row)
            lines.append(end + 1)
            end = reader.line_num
    except csv.Error as e:
        raise DataError(path, f"well-formed CSV quoting ({e})", line=end + 1) from None
    return rows, lines


def _decode(path: Path, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = raw.rfind(b"\n", 0, e.start) + 1
        line = raw.count(b"\n", 0, e.start) + 1
        header = raw.split(b"\n", 1)[0].decode("utf-8", "replace").strip().split(",")
        field_no = raw[line_start : e.start].count(b",")
        column = header[field_no] if field_no < len(header) else None
        raise DataError(
            path, "UTF-8 text", line=line, column=column, got=raw[e.start : e.end]
        ) from None


def _check_header(path: Path, header: list[str], expected: list[str]) -> None:
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise DataError(path, "each column once in the header", line=1, column=dupes[0])
    absent = [c for c in expected if c not in header]
    if absent:
        raise DataError(
            path, f"a header with the columns {expected}", line=1, column=absent[0], got=header
        )
    extra = [c for c in header if c not in expected]
    if extra:
        raise DataError(
            path, f"only the columns {expected} (unknown column)", line=1, column=extra[0]
        )


def _cell(
    path: Path, line: int, f: dict, row: list[str], i: int, width: int, missing: set[str]
) -> Any:
    name, kind = f["name"], f["type"]
    if len(row) != width:
        raise DataError(path, f"{width} cells as in the header", line=line, got=len(row))
    value = row[i]
    constraints = f.get("constraints", {})
    if value in missing:
        if constraints.get("required"):
            raise DataError(path, f"a value ({_TYPE_WORDS[kind]})", line=line, column=name, got="")
        return None
    # Python's int() and float() also read " 4", "4_0" (as 40) and "٤": a CSV means none
    if kind == "integer":
        if not _INTEGER.fullmatch(value):
            raise DataError(path, "a whole number", line=line, column=name, got=value)
        parsed: Any = int(value)
    elif kind == "number":
        if not _NUMBER.fullmatch(value):
            raise DataError(path, "a finite number", line=line, column=name, got=value)
        parsed = float(value)
        if parsed in (float("inf"), float("-inf")):
            raise DataError(path, "a finite number", line=line, column=name, got=value)
    else:
        parsed = value
    enum = constraints.get("enum")
    if enum is not None and parsed not in enum:
        raise DataError(path, f"one of {enum}", line=line, column=name, got=value)
    unit = f" {f['unit']}" if "unit" in f else ""
    if f.get("unit") == "%" and 0 < parsed < 1:  # 0.885 among 88.5s: a fraction given for %
        raise DataError(
            path,
            "a percentage from 0 to 100 (below 1: a fraction given for %?)",
            line=line,
            column=name,
            got=value,
        )
    low, high = constraints.get("minimum"), constraints.get("maximum")
    if low is not None and parsed < low:
        raise DataError(path, f"at least {low}{unit}", line=line, column=name, got=value)
    if high is not None and parsed > high:
        hint = " (a fraction from 0 to 1, not a percentage)" if f.get("unit") == "fraction" else ""
        raise DataError(path, f"at most {high}{unit}{hint}", line=line, column=name, got=value)
    return parsed


def _check_units(path: Path, f: dict, values: pl.Series, lines: list[int]) -> None:
    """A percent column whose values all lie in [0, 1] was written as fractions."""
    present = values.drop_nulls()
    if f.get("unit") == "%" and len(present) and present.max() <= 1.0 and present.max() > 0:
        line = lines[int(values.is_not_null().arg_true()[0])]
        raise DataError(
            path,
            "percentages from 0 to 100 (every value is at most 1: fractions given for %)",
            line=line,
            column=f["name"],
            got=present[0],
        )


def _check_unique(path: Path, frame: pl.DataFrame, key: list[str], lines: list[int]) -> None:
    if not key:
        return
    dup = frame.with_row_index("_row").filter(pl.struct(key).is_duplicated())
    if len(dup):
        first = dup.row(0, named=True)
        later = dup.filter(pl.all_horizontal(pl.col(k).eq_missing(first[k]) for k in key))[
            "_row"
        ].to_list()
        raise DataError(
            path,
            f"each primary key {key} once (also on line {lines[later[0]]})",
            line=lines[later[1]],
            column=key[-1],
            got=tuple(first[k] for k in key),
        )


def _file(package: Path, res: dict) -> Path:
    """A resource's file: its `path`, relative and inside the package's folder (a descriptor
    naming ../../etc/passwd is refused, not read)."""
    given = res.get("path")  # an absolute path joined to the folder is itself: refused below
    if not (
        isinstance(given, str)
        and given
        and (package.parent / given).resolve().is_relative_to(package.parent.resolve())
    ):
        where = f"resource '{res.get('name')}''s path: a file inside the package's folder"
        raise DataError(package, where, column="path", got=given)
    return package.parent / given


def rehash(package: Path = DATAPACKAGE) -> list[str]:
    """Record each resource's current sha256 in the descriptor; returns the names that changed."""
    package = Path(package)
    descriptor = json.loads(package.read_text(encoding="utf-8"))
    changed = []
    for r in descriptor["resources"]:
        digest = "sha256:" + hashlib.sha256(_file(package, r).read_bytes()).hexdigest()
        if r.get("hash") != digest:
            r["hash"] = digest
            changed.append(r["name"])
    if changed:
        from helpers.io import write_text_atomic

        write_text_atomic(package, json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n")
        _package.cache_clear()
    return changed
