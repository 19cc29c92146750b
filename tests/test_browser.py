"""Seen as users see it: every chart drawn in JupyterLab and in the static report, offline.

Uses playwright with Debian's chromium (never a downloaded browser). On failure a screenshot is
saved under test-artifacts/.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from helpers.paths import NOTEBOOKS, ROOT
from helpers.render import site

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("*.ipynb"))


def _screenshot_on_failure(page: Page, name: str):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="session")
def browser():
    assert CHROMIUM.exists(), (
        "Debian chromium is needed: apt-get install -y chromium (make test does it)"
    )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """JupyterLab on a free loopback port, with a token and a home of its own."""
    home = tmp_path_factory.mktemp("labhome")
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # render every cell, not only those in view, so all charts can be counted
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    news = home / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    # never save: a notebook run in a test (009's watch) must leave the committed file as it is
    docs = home / "settings" / "@jupyterlab" / "docmanager-extension"
    docs.mkdir(parents=True)
    (docs / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    env = {
        **os.environ,
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    port, token = _free_port(), secrets.token_hex(16)
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--IdentityProvider.token={token}",
            "--allow-root",
            f"--ServerApp.root_dir={NOTEBOOKS}",
            "--LabApp.news_url=",
            "--ServerApp.open_browser=False",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: open notebooks in one page
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 180  # slow CI machines: an upper bound, not a target
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError((home / "lab.log").read_text()) from None
            time.sleep(0.3)
    yield base, token
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def _chart_outputs(nb: Path) -> int:
    return len(site.figures(nb))


def _stored_pngs(nb: Path) -> list[bytes]:
    """The PNG each chart output stores (vl-convert's drawing, Vega-Lite 6), in order."""
    import base64

    from helpers.render import export

    cells = json.loads(nb.read_text())["cells"]
    return [
        base64.b64decode(o["data"]["image/png"])
        for c in cells
        for o in c.get("outputs", [])
        if export.VEGALITE_MIME in o.get("data", {})
    ]


# JupyterLab draws with the Vega-Lite it bundles (5.6.1), the stored PNG was drawn by vl-convert
# (Vega-Lite 6) from the same spec: a spec using what 5.6 lacks draws differently there. Text
# antialiasing and the PNG's 256-colour palette make 0.5-1.6% of the pixels differ here.
PIXELS_DIFFERING_AT_MOST = 0.03


def _canvases(page: Page) -> list[bytes]:
    """The pixels JupyterLab drew for each chart (its canvas, whole: an element's screenshot
    would be cut where the notebook scrolls)."""
    import base64

    urls = page.evaluate(
        f"() => [...document.querySelectorAll('{PANEL} .vega-embed canvas')]"
        ".map(c => c.toDataURL('image/png'))"
    )
    return [base64.b64decode(u.split(",", 1)[1]) for u in urls]


def _differing(drawn: bytes, stored: bytes) -> float:
    """The share of pixels that differ visibly (a channel by more than 64 of 255); 1.0 when
    the two pictures differ in size by more than the pixel an element's fractional size
    rounds to."""
    import io

    import numpy as np
    from PIL import Image

    a, b = (
        np.asarray(Image.open(io.BytesIO(x)).convert("RGBA"), dtype=int) for x in (drawn, stored)
    )
    (ha, wa, _), (hb, wb, _) = a.shape, b.shape
    if abs(ha - hb) > 1 or abs(wa - wb) > 1:
        return 1.0
    h, w = min(ha, hb), min(wa, wb)
    return float((np.abs(a[:h, :w] - b[:h, :w]).max(axis=2) > 64).mean())


# What a reader meets: a laptop's window with JupyterLab's file browser open (its default).
LAPTOP = {"width": 1366, "height": 900}
# Each chart output's overflow past its output area (px); 0 means no horizontal scrollbar.
OVERFLOW = f"""() => [...document.querySelectorAll('{PANEL} .jp-OutputArea-output')]
    .filter(o => o.querySelector('.vega-embed'))
    .map(o => o.scrollWidth - o.clientWidth)"""


@pytest.fixture(scope="module")
def lab_page(browser, lab):
    """One JupyterLab page for every notebook, as a reader keeps one open: loaded once (its
    scripts take seconds to start), a fresh workspace; returns the page and the list its console
    errors and warnings (Vega's included) and page errors are collected in."""
    base, token = lab
    page = browser.new_page(viewport=LAPTOP)
    said: list[str] = []
    page.on(
        "console",
        lambda m: said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: said.append(f"page error: {e}"))
    page.goto(f"{base}/lab/workspaces/tests-{secrets.token_hex(4)}?reset&token={token}")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=240_000)
    page.evaluate("() => { window.jupyterapp.restored.then(() => { window.restored = true; }); }")
    page.wait_for_function("() => window.restored === true", timeout=240_000)
    yield page, said
    page.evaluate("() => 0")  # the console's last messages reach `said`
    late = list(said)
    page.close()
    assert late == [], f"said after the last notebook was checked: {late}"


@pytest.mark.parametrize("nb", NOTEBOOK_FILES, ids=[n.stem for n in NOTEBOOK_FILES])
def test_every_chart_draws_in_jupyterlab(lab_page, nb):
    """Every chart of the notebook draws in JupyterLab at a laptop's window with the sidebar
    open, fits its output area (no horizontal scrollbar), looks as its stored PNG does (the
    guard for the Vega-Lite JupyterLab ships), and the console says nothing while it opens and
    draws: no error and no warning (Vega's included). The notebook is opened in the page's app
    as the file browser opens it, in a tab of its own (the notebooks before it stay open, in
    tabs behind it: closing one while its kernel connects makes the console speak)."""
    page, said = lab_page
    expected = _chart_outputs(nb)
    assert expected >= 1
    earlier = list(said)  # a kernel connects after its charts are drawn, during the next test
    said.clear()
    assert earlier == [], f"said while JupyterLab loaded, or after the notebook before: {earlier}"
    try:
        page.evaluate(
            "(path) => window.jupyterapp.commands.execute('docmanager:open', {path}).then(() => true)",
            nb.name,
        )
        drawn = f"{PANEL} .vega-embed canvas, {PANEL} .vega-embed svg.marks"
        page.wait_for_function(
            "([sel, n, title]) => document.querySelectorAll(sel).length >= n"
            " && window.jupyterapp.shell.currentWidget?.title.label === title",
            arg=[drawn, expected, nb.name],
            timeout=240_000,
        )
        assert page.locator(PANEL).count() == 1
        assert page.locator("#jp-left-stack").is_visible()  # the file browser takes its room
        assert page.locator(f"{PANEL} .vega-embed").count() == expected
        assert page.locator(drawn).count() == expected
        assert page.evaluate(OVERFLOW) == [0] * expected
        differing = [
            round(_differing(drawn_png, png), 4)
            for drawn_png, png in zip(_canvases(page), _stored_pngs(nb), strict=True)
        ]
        assert all(d <= PIXELS_DIFFERING_AT_MOST for d in differing), differing
        assert said == []
    except Exception:
        _screenshot_on_failure(page, f"lab-{nb.stem}")
        raise
    finally:
        said.clear()


WATCHED = NOTEBOOKS / "009_watch_a_run.ipynb"
FIRST_CANVAS = f"() => document.querySelector('{PANEL} .vega-embed canvas')?.toDataURL()"


def test_a_watched_chart_changes_in_place_in_jupyterlab(browser, lab):
    """Notebook 009 run in JupyterLab (issue 43): the watch's chart is drawn; then the writer's
    cell runs and the chart is drawn again in place as it appends steps, with no page reload; it ends with the whole log's
    chart and 'stopped' under it, and the notebook's file is left as committed."""
    base, token = lab
    before = WATCHED.read_bytes()
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{base}/lab/workspaces/watch-{secrets.token_hex(4)}?reset&token={token}")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=240_000)
        page.evaluate("() => window.jupyterapp.restored")
        page.evaluate(
            "(path) => window.jupyterapp.commands.execute('docmanager:open', {path})"
            ".then(() => true)",
            WATCHED.name,
        )
        idle = (
            "() => window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel"
            "?.status === 'idle'"
        )
        page.wait_for_function(idle, timeout=240_000)
        page.evaluate("() => { window.notReloaded = true; }")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        assert page.evaluate(FIRST_CANVAS) is None
        # the cells up to the watch, then (its first chart drawn) the writer's and the rest
        grows = [
            i
            for i, c in enumerate(json.loads(before)["cells"])
            if "simulated_training.grow" in "".join(c["source"])
        ]
        run_from = (
            "([i, command]) => { const nb = window.jupyterapp.shell.currentWidget.content;"
            " nb.activeCellIndex = i; window.jupyterapp.commands.execute(command); }"
        )  # not waited for: the cells run while the page is looked at
        page.evaluate(run_from, [grows[0], "notebook:run-all-above"])
        page.wait_for_function(f"() => ({FIRST_CANVAS})() !== undefined", timeout=240_000)
        # every drawing the watch's output shows, from now on, in order (looked at each 50 ms)
        page.evaluate(
            f"() => {{ window.drawings = [({FIRST_CANVAS})()]; setInterval(() => {{"
            f" const d = ({FIRST_CANVAS})();"
            " if (d !== undefined && d !== window.drawings.at(-1)) window.drawings.push(d);"
            " }, 50); }"
        )
        page.evaluate(run_from, [grows[0], "notebook:run-all-below"])
        outputs = f"{PANEL} .jp-OutputArea-output"
        page.wait_for_function(
            f"() => [...document.querySelectorAll('{outputs}')]"
            ".some(o => o.textContent.trim().endsWith('stopped'))",
            timeout=120_000,
        )
        page.wait_for_function(
            f"() => document.querySelectorAll('{PANEL} .vega-embed canvas').length === 2",
            timeout=120_000,
        )  # the watch's output and the last state displayed again
        # drawn again in place while the writer wrote (a new evaluated step every 10: 30, 40,
        # 50, 60), not only at the end; the same page all along
        assert page.evaluate("() => new Set(window.drawings).size") >= 3
        assert page.evaluate("() => window.notReloaded") is True
        said = page.locator(outputs).all_text_contents()
        assert any(t.startswith("metrics: step 60  aime24 23.3%") for t in said), said
        assert errors == []
    except Exception:
        _screenshot_on_failure(page, "lab-watch")
        raise
    finally:
        page.close()
    assert WATCHED.read_bytes() == before


@pytest.fixture(scope="session")
def report(tmp_path_factory) -> Path:
    return site.build(NOTEBOOK_FILES, out=tmp_path_factory.mktemp("report") / "site")


def _offline_page(browser) -> tuple[Page, list[str], list[str]]:
    """A page with networking off; returns it with the lists of blocked requests and of
    console errors and warnings it collects."""
    context = browser.new_context(offline=True, viewport={"width": 1300, "height": 900})
    blocked: list[str] = []
    errors: list[str] = []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            try:
                origin = r.request.frame.url
            except Exception:  # noqa: BLE001 - a request no frame made (a worker's): no page to name
                origin = "no frame"
            blocked.append(f"{r.request.url} (from {origin})")
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on(  # each message with the page it came from (pages may be opened one after another)
        "console",
        lambda m: (
            errors.append(f"{m.location.get('url')}: {m.text}")
            if m.type in ("error", "warning")
            else None
        ),
    )
    return page, blocked, errors


def test_report_has_every_notebook_and_figure(report):
    index = (report / "index.html").read_text()
    figures = [f for nb in NOTEBOOK_FILES for f in site.figures(nb)]
    for nb in NOTEBOOK_FILES:
        assert f"href='{nb.stem}.html'" in index
        assert (report / f"{nb.stem}.html").is_file()
    for f in figures:
        for suffix in (".png", ".svg", ".pdf", ".html"):
            assert (report / "figures" / f"{f.stem}{suffix}").stat().st_size > 1000
            assert f"figures/{f.stem}{suffix}" in index
        assert (report / "figures" / f"{f.stem}.pdf").read_bytes().startswith(b"%PDF-")
    for md in sorted((ROOT / "docs").glob("*.md")):  # each docs page, linked from the index
        assert (report / "docs" / site.doc_name(md)).stat().st_size > 1000
        assert f"href='docs/{site.doc_name(md)}'" in index
    assert not list(report.parent.glob(".site.*"))  # no leftover temporary folders


def test_report_pages_render_offline(browser, report):
    """The index, every notebook's page and every docs page load offline in one tab, one after
    another: every image is there and drawn, nothing is blocked and the console says nothing."""
    pages = [
        report / "index.html",
        *(report / f"{nb.stem}.html" for nb in NOTEBOOK_FILES),
        *sorted((report / "docs").glob("*.html")),
    ]
    assert len(pages) > len(NOTEBOOK_FILES) + 1
    page, blocked, errors = _offline_page(browser)
    try:
        for path in pages:
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            images = page.locator("img")
            if path.parent == report and path.name != "index.html":
                nb = NOTEBOOKS / f"{path.stem}.ipynb"
                assert images.count() == _chart_outputs(nb)
            loaded = page.evaluate(
                "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
            )
            assert (path.name, loaded, blocked, errors) == (path.name, True, [], [])
    except Exception:
        _screenshot_on_failure(page, f"report-{path.stem}")
        raise
    finally:
        page.context.close()


def test_report_figures_are_interactive_offline(browser, report):
    """Every figure's HTML draws offline, with nothing blocked and nothing said on the console.
    The figures are opened one after another in one tab, as a reader clicks through them: the
    tab compiles the inlined Vega bundle once (6.7 s for the 18 here, against 11 s in a fresh
    browser context each, four at a time)."""
    figures = sorted((report / "figures").glob("*.html"))
    page, blocked, errors = _offline_page(browser)
    try:
        for html in figures:
            page.goto(html.as_uri())
            page.wait_for_selector(".vega-embed svg.marks, .vega-embed canvas", timeout=120_000)
            assert (html.name, blocked, errors) == (html.name, [], [])
    except Exception:
        _screenshot_on_failure(page, f"figure-{html.stem}")
        raise
    finally:
        page.context.close()


def test_static_site_rebuild_replaces_cleanly(tmp_path):
    nb = NOTEBOOK_FILES[-1]
    out = tmp_path / "site"
    site.build([nb], out=out)
    (out / "stale.html").write_text("old")
    site.build([nb], out=out)
    assert not (out / "stale.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_interrupted_build_keeps_the_previous_site(tmp_path, monkeypatch):
    nb = NOTEBOOK_FILES[-1]
    out = tmp_path / "site"
    site.build([nb], out=out)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(site, "_notebook_body", boom)
    with pytest.raises(KeyboardInterrupt):
        site.build([nb], out=out)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_screenshots_dir_is_ignored_by_git():
    assert "test-artifacts/" in (ROOT / ".gitignore").read_text()
    assert shutil.which("git")


# ---- hostile names: no text from a log or a chart ever runs as script ---------------------------

HOSTILE = [
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<!--<script>alert(3)</script>-->",
    '"><svg onload=alert(4)>',
    "\u2028alert(5)//",
    "'};alert(6);{'",
    "<iframe srcdoc='<script>parent.alert(7)</script>'>",
    "&lt;script&gt;alert(8)&lt;/script&gt;",
]


def _hostile_export(folder: Path) -> Path:
    """A W&B export whose benchmark names (and file name) are hostile; scores are ordinary."""
    import polars as pl

    columns = {"_step": [0, 5, 10]}
    for i, name in enumerate(HOSTILE):
        columns[f"val/test_score/{name}"] = [0.1 * i, 0.1 * i + 0.05, 0.1 * i + 0.02]
    path = folder / "<script>alert(9)<_script>.csv"
    pl.DataFrame(columns).write_csv(path)
    return path


def _assert_nothing_runs(browser, url: str, hover: bool) -> None:
    page, blocked, errors = _offline_page(browser)
    dialogs: list[str] = []

    def on_dialog(d):
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        page.wait_for_load_state("load")
        if hover:
            page.wait_for_selector(".vega-embed svg.marks", timeout=120_000)
            points = page.locator(".vega-embed .mark-symbol path")
            assert points.count() > 0
            for i in range(min(points.count(), 60)):  # each tooltip shows a hostile name
                points.nth(i).scroll_into_view_if_needed(timeout=5_000)
                box = points.nth(i).bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            assert page.locator("#vg-tooltip-element").count() == 1
        page.wait_for_timeout(300)
        assert dialogs == [] and errors == [] and blocked == []
        assert page.evaluate("() => document.querySelectorAll('iframe, img[src=x]').length") == 0
    except Exception:
        _screenshot_on_failure(page, "hostile")
        raise
    finally:
        page.context.close()


def test_hostile_names_never_run_in_html_exports(browser, tmp_path):
    from helpers.cli import main

    out = tmp_path / "grid.html"
    assert main(["plot", str(_hostile_export(tmp_path)), "-o", str(out)]) == 0
    text = out.read_text()
    block = text[text.index('id="vega-spec">') : text.rindex("</script>")]
    assert "</" not in block.split(">", 1)[1].rsplit("</script", 1)[0] and "<!--" not in block
    _assert_nothing_runs(browser, out.as_uri(), hover=True)
    # the names are shown as text, exactly as written
    page, _, _ = _offline_page(browser)
    try:
        page.goto(out.as_uri())
        page.wait_for_selector(".vega-embed svg.marks", timeout=120_000)
        shown = page.evaluate("() => document.querySelector('.vega-embed svg').textContent")
        assert all(name.strip() in shown for name in HOSTILE)
    finally:
        page.context.close()


def test_hostile_names_never_run_in_the_static_report(browser, tmp_path):
    import altair as alt
    import nbformat

    from helpers.render import export

    rows = [{"benchmark": name, "accuracy": 0.1 * i} for i, name in enumerate(HOSTILE)]
    chart = (
        alt.Chart(alt.Data(values=rows))
        .mark_point()
        .encode(x="accuracy:Q", y="benchmark:N", tooltip=["benchmark:N"])
        .properties(title=HOSTILE[0])
    )
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("chart", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output("display_data", data=export.mimebundle(chart.to_dict()), metadata={})
    ]
    nb.cells = [nbformat.v4.new_markdown_cell("# report"), cell]
    path = tmp_path / "hostile.ipynb"
    nbformat.write(nb, path)
    docs = tmp_path / "docs"  # a docs page written with raw HTML: shown as text, never run
    docs.mkdir()
    (docs / "README.md").write_text(
        f"# {HOSTILE[0]}\n\n"
        + "\n\n".join(HOSTILE)
        + "\n\n| a |\n| --- |\n"
        + "".join(f"| {name.replace('|', '')} |\n" for name in HOSTILE)
        + "\n[x](javascript:alert(10)) [y](<javascript:alert(11)>)\n"
    )
    out = site.build([path], out=tmp_path / "site", docs=docs)
    pages = [out / "index.html", out / "hostile.html", out / "docs" / "index.html"]
    figures = sorted((out / "figures").glob("*.html"))
    assert len(figures) == 1
    for page in pages:
        _assert_nothing_runs(browser, page.as_uri(), hover=False)
    _assert_nothing_runs(browser, figures[0].as_uri(), hover=True)


def test_hostile_problem_text_never_runs_and_the_flips_filter(browser, tmp_path):
    """Two runs whose problem texts, references and answers are the hostile strings: compare's
    HTML shows them as text in its tooltips and its table of flipped problems (long ones
    folded), nothing runs, and the filter shows only the problems the method won or lost."""
    from helpers.cli import main

    def run(name, right):
        lines = [
            {"idx": i, "question": text * 20 if i % 2 else text, "gt": text, "pred": [text],
             "score": [ok], "code": [text]}
            for i, (text, ok) in enumerate(zip(HOSTILE, right, strict=True))
        ]  # fmt: skip
        path = tmp_path / name / "math500.jsonl"  # the benchmark named as the file
        path.parent.mkdir()
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return path

    base = run("base", [True, False] * (len(HOSTILE) // 2))
    new = run("new", [False, True] * (len(HOSTILE) // 2))
    out = tmp_path / "compare.html"
    assert main(["compare", f"base={base}", f"new={new}", "-o", str(out)]) == 0
    _assert_nothing_runs(browser, out.as_uri(), hover=True)
    page, _, _ = _offline_page(browser)
    try:
        page.goto(out.as_uri())
        rows = page.locator("#flips tbody tr")
        assert rows.count() == len(HOSTILE)
        cells = page.evaluate(
            "() => [...document.querySelectorAll('#flips tbody tr')].map(r => r.cells[5].textContent)"
        )
        assert sorted(cells) == sorted(HOSTILE)  # references, exactly as written
        page.select_option("#flip-filter", "won")
        assert page.locator("#flips tbody tr:not([hidden])").count() == len(HOSTILE) // 2
        page.select_option("#flip-filter", "all")
        assert page.locator("#flips tbody tr:not([hidden])").count() == len(HOSTILE)
    finally:
        page.context.close()
