"""Start-up: what a process loads before it needs it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys


def _run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_command_line_help_loads_no_chart_code():
    found = _run(
        "import sys, json, contextlib, io\n"
        "from helpers.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['plot', '--help'])\n"
        "    except SystemExit: pass\n"
        "print(json.dumps(sorted(m for m in ('altair', 'helpers.charts', 'vl_convert', 'scipy',"
        " 'jsonschema') if m in sys.modules)))\n"
    )
    assert found == []


def test_a_csv_output_draws_nothing(tmp_path):
    """Aggregating a per-sample log to CSV loads neither the chart code nor numpy and scipy
    (numpy alone is 0.15 s of a 1 s process on 1M rows), nor, where no one watches, tqdm
    and sqlite3 (a tenth of a 100k-row run)."""
    found = _run(
        "import sys, json, contextlib, io\n"
        "from helpers.cli import main\n"
        "from helpers.paths import DATA\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['plot', str(DATA / 'examples' / 'simulated_run.parquet'), '-o', {str(tmp_path / 'x.csv')!r}])\n"
        "print(json.dumps([m for m in ('altair', 'helpers.charts', 'numpy', 'scipy', 'tqdm', 'sqlite3')"
        " if m in sys.modules]))\n"
    )
    assert found == [] and (tmp_path / "x.csv").stat().st_size > 0


def test_a_png_output_loads_no_numerics_library(tmp_path):
    """Drawing a run's grid to PNG needs polars, altair and vl-convert; numpy (0.05 s) and
    scipy come in only where a simulation or a statistic needs them; nor is the IRI grammar
    built (2 s: altair imported before `render.theme` has it wait builds it)."""
    found = _run(
        "import sys, json, contextlib, io\n"
        "from helpers.cli import main\n"
        "from helpers.paths import DATA\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['plot', str(DATA / 'examples' / 'simulated_run.parquet'), '-o', {str(tmp_path / 'x.png')!r}])\n"
        "heavy = ('numpy', 'scipy', 'pandas', 'rfc3987_syntax.syntax_helpers')\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    assert found == [] and (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG")


def test_altair_validates_without_building_the_iri_grammar():
    """The IRI grammar (rfc3987_syntax) is not built by importing the package and drawing;
    jsonschema still validates Vega-Lite specs, and still checks IRIs (the grammar loads then);
    importlib still finds the package while it waits."""
    assert importlib.util.find_spec("rfc3987_syntax"), "JupyterLab's dependencies install it"
    found = _run(
        "import sys, json, importlib.util\n"
        "import helpers, helpers.render.theme, altair as alt\n"
        "import jsonschema\n"
        "found = importlib.util.find_spec('rfc3987_syntax') is not None\n"
        "chart = alt.Chart(alt.Data(values=[{'a': 1}])).mark_point().encode(x='a:Q')\n"
        "chart.to_dict(validate=True)\n"
        "try:\n"
        "    alt.Chart(alt.Data(values=[])).mark_point().encode(x='a:Q').properties(width=True).to_dict()\n"
        "    refused = False\n"
        "except Exception as e:\n"
        "    refused = type(e).__name__ in ('SchemaValidationError', 'ValidationError')\n"
        "built = 'rfc3987_syntax.syntax_helpers' in sys.modules\n"
        "v = jsonschema.Draft7Validator({'format': 'iri'}, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)\n"
        "iri = [v.is_valid(x) for x in ('http://example.com/ü', 'http://exa mple.com', 'rel/path')]\n"
        "print(json.dumps([built, refused, iri, 'rfc3987_syntax.syntax_helpers' in sys.modules, found]))\n"
    )
    eager = _run(
        "import json, rfc3987_syntax, jsonschema\n"
        "v = jsonschema.Draft7Validator({'format': 'iri'}, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)\n"
        "print(json.dumps([v.is_valid(x) for x in ('http://example.com/ü', 'http://exa mple.com', 'rel/path')]))\n"
    )
    built, refused, iri, loaded_later, still_found = found
    assert not built and refused and loaded_later and still_found  # found by importlib too
    assert iri == eager  # the same answers as with the grammar loaded at start


def test_make_reports_processes_validate_notebooks_without_building_the_iri_grammar():
    """The processes `make report` runs (executing the notebooks, building the site) import
    nbformat and altair after deferring the grammar (0.9 s of each start here), and nbformat
    still validates a notebook, and still refuses a broken one."""
    found = _run(
        "import sys, json\n"
        "from helpers.render import execute, site\n"
        "import nbformat\n"
        "from helpers.paths import NOTEBOOKS\n"
        "nb = nbformat.read(NOTEBOOKS / '000_rl_length_scaling.ipynb', as_version=4)\n"
        "nbformat.validate(nb)\n"
        "nb.cells[0]['cell_type'] = 'no such type'\n"
        "try:\n"
        "    nbformat.validate(nb)\n"
        "    refused = False\n"
        "except nbformat.ValidationError:\n"
        "    refused = True\n"
        "print(json.dumps(['rfc3987_syntax.syntax_helpers' in sys.modules, refused]))\n"
    )
    assert found == [False, True]


def test_importing_helpers_changes_nothing_until_setup():
    """`import helpers` leaves altair's theme and renderer as they were, in a kernel as in a
    script (and loads no altair); `helpers.setup()` makes the project's the active ones."""
    for first in ("sys", "IPython"):
        active = _run(
            f"import json, sys, {first}, helpers\n"
            "loaded = 'altair' in sys.modules\n"
            "import altair as alt\n"
            "before = [alt.theme.active, alt.renderers.active]\n"
            "helpers.setup()\n"
            "print(json.dumps([loaded, before, [alt.theme.active, alt.renderers.active]]))\n"
        )
        assert active == [False, ["default", "default"], ["reasoning_figures"] * 2]


def test_the_command_line_has_polars_give_freed_memory_back(monkeypatch):
    """The command line (`helpers.__main__`, the `reasoning-figures` command's module) asks
    polars' allocator, before polars loads, to give freed pages back at once: polars appends
    the setting to its own, the later one winning, and the allocator takes it (it names a
    setting it cannot read on stderr). Importing `helpers` alone changes no setting, and a
    setting the process is given or inherits (a parent that imported polars passes polars'
    own on), or polars loaded first, is left as it is."""
    code = (
        "import json, os, sys\n"
        "if sys.argv[1] == 'polars, then the command': import polars\n"
        "import helpers\n"
        "if sys.argv[1] != 'helpers': import helpers.__main__\n"
        "import polars as pl\n"
        "pl.select(pl.int_range(0, 1_000_000).alias('a')).sort('a', descending=True)\n"
        "print(json.dumps(os.environ['_RJEM_MALLOC_CONF'].split(',')))\n"
    )

    def conf(first: str) -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", code, first], capture_output=True, text=True, check=True
        )
        assert "<jemalloc>" not in out.stderr
        return json.loads(out.stdout)

    monkeypatch.delenv("_RJEM_MALLOC_CONF", raising=False)
    polars_own = conf("helpers")
    assert polars_own and "muzzy_decay_ms:0" not in polars_own
    assert conf("command") == [*polars_own, "muzzy_decay_ms:0"]
    assert conf("polars, then the command") == polars_own  # too late
    monkeypatch.setenv("_RJEM_MALLOC_CONF", ",".join(polars_own))  # inherited from a parent
    assert conf("command") == polars_own * 2
