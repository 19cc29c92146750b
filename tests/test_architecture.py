"""The package's shape (issue 42): no import circle, even through imports inside functions;
nothing below `helpers.runs` imports it (the paper figures, charts, statistics, rendering);
`helpers.charts` loads no own-run module; every log format declared once and registered."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys

from helpers.paths import ROOT
from helpers.runs import readers
from helpers.runs.readers.format import Format
from helpers.runs.readers.registry import FORMATS, REGISTRY

BELOW_RUNS = (
    "helpers.figures",
    "helpers.charts",
    "helpers.stats",
    "helpers.render",
    "helpers.data",
)


def _modules() -> dict[str, object]:
    found = {}
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def _imports(every_level: bool) -> dict[str, set[str]]:
    """Each module's imports of the package's modules (`from pkg import module` counts as the
    module); `every_level` counts imports inside functions too."""
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text())
        nodes = ast.walk(tree) if every_level else tree.body
        targets = set()
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & set(mods)
                targets |= subs or {node.module}
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
        graph[name] = {t for t in targets if t in mods and t != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_even_inside_functions():
    assert _circles(_imports(every_level=False)) == []
    assert _circles(_imports(every_level=True)) == []


def test_nothing_below_the_runs_imports_them():
    up = [
        (module, target)
        for module, targets in _imports(every_level=True).items()
        if module.startswith(BELOW_RUNS)
        for target in targets
        if target.startswith(("helpers.runs", "helpers.cli"))
    ]
    assert up == []


def test_importing_the_charts_loads_no_own_run_module():
    code = "import sys, helpers.charts; print([m for m in sys.modules if m.startswith('helpers.runs')])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_format_is_declared_once_and_registered():
    """Every `Format` a reader module declares is in the registry, under a name of its own,
    with a way to be recognised and a way to be read (a file's reader or a store's runs)."""
    declared = []
    for info in pkgutil.walk_packages(readers.__path__, "helpers.runs.readers."):
        module = importlib.import_module(info.name)
        for name in ("FORMAT", "FORMATS"):
            value = getattr(module, name, None)
            if isinstance(value, Format):
                declared.append(value)
            elif isinstance(value, list):
                declared += [f for f in value if isinstance(f, Format)]
    registered = [f for f in REGISTRY if f.name != "folder"]
    assert sorted(f.name for f in declared) == sorted(f.name for f in registered)
    assert len(FORMATS) == len(REGISTRY)
    sniffs = ("folder", "magic", "document", "line", "parquet", "csv", "text")
    for f in REGISTRY:
        assert f.description and any(getattr(f, s) for s in sniffs), f.name
        assert f.name == "folder" or f.read is not None or f.runs is not None, f.name


def test_no_function_is_over_a_hundred_lines():
    """Issue 42: a function a reader can hold in view; cut longer ones into named steps."""
    long = []
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > 100:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines})")
    assert long == []
