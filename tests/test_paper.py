"""Figures and tables for a paper (issue 44): `-o fig.pdf` writes a vector PDF with every font
embedded, `--size column` and `page` give the common one- and two-column widths, and the
command says when text gets too small to read in print; `-o table.tex` writes a booktabs table
whose numbers are the CSV's, under a caption that names the methods."""

from __future__ import annotations

import re

import polars as pl
import pytest

from helpers.cli import main
from helpers.render.export import SIZES
from tests.realdata import CHECKPOINTS, SKY, SKY14, SKY14_ACCURACY, SKY_ACCURACY, VAL

from .chart_examples import EXAMPLES, chart_functions


def _page(data: bytes) -> tuple[float, float]:
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    return float(box.group(1)), float(box.group(2))


def _vector_with_fonts_embedded(data: bytes) -> None:
    assert data.startswith(b"%PDF-")
    assert b"/Subtype /Image" not in data  # no raster picture anywhere
    fonts = set(re.findall(rb"/BaseFont /(\w+\+[\w-]+)", data))
    assert fonts and all(b"LiberationSans" in f for f in fonts)  # subset, as embedded fonts are
    assert data.count(b"/FontFile2") >= len(fonts)  # each font's program is in the file


@pytest.mark.parametrize("size", [None, "column", "page"])
def test_plot_writes_a_vector_pdf_at_the_width_asked(tmp_path, size, capsys):
    out = tmp_path / "fig.pdf"
    args = ["plot", str(CHECKPOINTS), "-o", str(out)] + (["--size", size] if size else [])
    assert main(args) == 0
    data = out.read_bytes()
    _vector_with_fonts_embedded(data)
    width, height = _page(data)
    if size is None:  # one point a pixel: the SVG's own size
        svg = tmp_path / "fig.svg"
        assert main(["plot", str(CHECKPOINTS), "-o", str(svg)]) == 0
        found = re.search(r'<svg[^>]*width="([\d.]+)" height="([\d.]+)"', svg.read_text())
        assert (width, height) == (float(found.group(1)), float(found.group(2)))
    else:
        assert width == pytest.approx(SIZES[size] * 72, rel=0.05)
    assert "wrote" in capsys.readouterr().out


def test_compare_writes_a_pdf_and_a_box_fits_the_chart(tmp_path):
    out = tmp_path / "d.pdf"
    assert main(["compare", f"7b={SKY}", f"14b={SKY14}", "-o", str(out), "--size", "5x4"]) == 0
    data = out.read_bytes()
    _vector_with_fonts_embedded(data)
    width, height = _page(data)
    assert width <= 5 * 72 + 0.01 and height <= 4 * 72 + 0.01
    assert max(width / (5 * 72), height / (4 * 72)) == pytest.approx(1, abs=1e-3)


def test_a_figure_too_tall_or_too_narrow_for_print_is_said(tmp_path, capsys):
    """Fifteen benchmarks at a column's width: laid out one panel a row, readable (no note on
    the text) but taller than a page, which the command says; at one inch wide, the text
    cannot stay readable, and the command says how small it got."""
    out = tmp_path / "grid.pdf"
    assert main(["plot", str(VAL), "-o", str(out), "--size", "column"]) == 0
    said = capsys.readouterr().out
    tall = re.search(r"note: the figure is ([\d.]+) in tall at this width, more than a page", said)
    assert tall and float(tall.group(1)) == pytest.approx(_page(out.read_bytes())[1] / 72, abs=0.1)
    assert "smallest text" not in said
    assert main(["plot", str(VAL), "-o", str(out), "--size", "1x20"]) == 0
    note = re.search(
        r"note: the smallest text is ([\d.]+) pt at this size", capsys.readouterr().out
    )
    assert note and float(note.group(1)) < 7


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-o", "x.png", "--size", "column"], "expected a .pdf output for --size"),
        (["-o", "x.pdf", "--size", "wide"], "expected column, page or WIDTHxHEIGHT"),
        (["-o", "x.pdf", "--size", "0x3"], "expected column, page or WIDTHxHEIGHT"),
    ],
)
def test_a_bad_size_is_one_error_line(tmp_path, capsys, args, words):
    args = [a if not a.startswith("x.") else str(tmp_path / a) for a in args]
    try:
        code = main(["plot", str(CHECKPOINTS), *args])
    except SystemExit as e:  # refused by the argument parser, as every bad argument is
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
    assert not list(tmp_path.iterdir())


def _rows(tex: str) -> list[list[str]]:
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [line.removesuffix(" \\\\").split(" & ") for line in body.strip().splitlines()]


def test_compare_writes_a_booktabs_table_with_the_csvs_numbers(tmp_path, capsys):
    """The shared SkyThought MATH500 pair: the difference and both bounds are the CSV's in
    points to one decimal; the caption names the test, the 500 problems and the adjustment."""
    runs = [f"7b={SKY}", f"14b={SKY14}"]
    tex, csv = tmp_path / "table.tex", tmp_path / "d.csv"
    assert main(["compare", *runs, "-o", str(tex)]) == 0
    printed = capsys.readouterr().out
    assert main(["compare", *runs, "-o", str(csv)]) == 0
    text = tex.read_text()
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        assert text.count(rule) == 1
    assert "\\usepackage" not in text and "\\begin{tabular}{llrrrrl}" in text
    row = pl.read_csv(csv).row(0, named=True)
    ((benchmark, step, a, b, difference, p, verdict),) = _rows(text)
    points = [f"{row[k] * 100:+.1f}" for k in ("difference", "lo", "hi")]
    assert difference == f"{points[0]} [{points[1]}, {points[2]}]" == "+28.0 [+23.0, +33.0]"
    assert (benchmark, step, a, b) == (
        "MATH500",
        "--",
        f"{SKY_ACCURACY * 100:.1f}",
        f"{SKY14_ACCURACY * 100:.1f}",
    )
    assert verdict == "separable" and float(p) == pytest.approx(row["p_adjusted"], rel=0.05)
    caption = re.search(r"\\caption\{(.*)\}", text).group(1)
    assert "Tango score interval and McNemar score test" in caption
    assert "MATH500: 500 problems" in caption and "one test, so no adjustment" in caption
    assert f"caption: {caption.replace(chr(92), '')}" in printed


def test_a_table_of_many_comparisons_names_the_adjustment_and_escapes_names():
    from helpers.runs import examples, presentation
    from helpers.runs.compare import compare

    renamed = {"baseline": "base_1 & co", "method": "new%"}
    c = compare([(renamed[name], path) for name, path in examples.comparison_logs()])
    assert "adjusted by Holm's method over 22 tests" in c.caption()
    text = presentation.latex_table(c)
    assert "base\\_1 \\& co" in text and "new\\%" in text
    rows = _rows(text)
    assert len(rows) == c.differences.height and all(len(r) == 7 for r in rows)


def test_plot_writes_a_run_s_accuracies_with_their_intervals(tmp_path):
    tex, csv = tmp_path / "p.tex", tmp_path / "p.csv"
    assert main(["plot", str(CHECKPOINTS), "-o", str(tex)]) == 0
    assert main(["plot", str(CHECKPOINTS), "-o", str(csv)]) == 0
    table = pl.read_csv(csv)
    rows = _rows(tex.read_text())
    assert [r[1] for r in rows] == [str(s) for s in table["step"]]
    for r, row in zip(rows, table.iter_rows(named=True), strict=True):
        interval = f"[{row['lo'] * 100:.1f}, {row['hi'] * 100:.1f}]"
        assert r[2] == f"{row['accuracy'] * 100:.1f} {interval}" and r[3] == "30"


def test_the_html_chart_carries_the_caption_escaped(tmp_path):
    """The methods caption is written under the chart in HTML, a run's name never markup."""
    out = tmp_path / "d.html"
    assert main(["compare", f"<b>7b&={SKY}", f"14b={SKY14}", "-o", str(out)]) == 0
    page = out.read_text()
    caption = re.search(r'<p class="caption">(.*?)</p>', page).group(1)
    assert "of 14b from the baseline &lt;b&gt;7b&amp;" in caption
    assert "MATH500: 500 problems" in caption and "<b>7b" not in page


# ---- print-ready: every chart function at a column's width -------------------------------------


def _at_column(name: str) -> tuple[str, float]:
    """An example chart of the chart function `name` laid out for a column (as `-o x.pdf
    --size column` lays it out), drawn to SVG, and how many points a pixel of it prints at.
    The layout measures charts from Vega's scene graph: it must find what the SVG shows."""
    import vl_convert as vlc

    from helpers.render import print_layout, theme

    theme.enable()
    chart = EXAMPLES[name][0]()
    redraw = getattr(chart, "redraw", None)
    spec = print_layout.for_print(
        chart.to_dict(),
        SIZES["column"] * 72,
        None if redraw is None else lambda a, d: redraw(a, d).to_dict(),
    )
    svg = vlc.vegalite_to_svg(spec)
    width = print_layout.measure(svg)[0]
    assert print_layout.laid_out(spec) == print_layout.measure(svg)
    return svg, SIZES["column"] * 72 / width


@pytest.mark.parametrize(
    "sizes",
    [{"s": 9}, {"s": None}, {}, {"s": "9"}],
    ids=["a size", "a null size", "no size", "a size as text"],
)
def test_a_chart_is_measured_for_print_as_its_svg_shows_it(sizes):
    """Text whose size comes from the data (a user's chart, `helpers.save(..., size=...)`) is
    measured as drawn, where the size is missing, null or text too (Vega's default then)."""
    import vl_convert as vlc

    from helpers.render import print_layout

    rows = [{"x": 1, "t": "a", "s": 12}, {"x": 2, "t": "b", **sizes}]
    for mark in ({"type": "text"}, {"type": "text", "fontSize": None}):
        spec = {
            "data": {"values": rows},
            "mark": mark,
            "encoding": {
                "x": {"field": "x", "type": "quantitative"},
                "text": {"field": "t"},
                "size": {"field": "s", "type": "quantitative", "scale": None},
            },
        }
        assert print_layout.laid_out(spec) == print_layout.measure(vlc.vegalite_to_svg(spec))


# the one chart whose fixed parts are wider than a column: 006's model names (up to 50
# characters at 11 px) beside its plots; it is a page's figure (7.0 pt at a page's width)
PAGE_ONLY = {"across_papers"}


@pytest.mark.parametrize("name", chart_functions())
def test_every_chart_prints_at_a_column_readable_whole_and_uncrowded(name):
    """Issue 44: laid out for a 3.25-in column, a chart's smallest text prints at 7 pt or more,
    no text is cut short (Vega ends a label cut at its limit with an ellipsis) or set outside
    the drawing, and no data label sits on a mark (labels are placed again at the new size)."""
    from helpers.render import print_layout

    from .test_overlaps import overlaps, read_svg

    svg, pt_per_px = _at_column(name)
    width, height, smallest = print_layout.measure(svg)
    if name in PAGE_ONLY:
        assert smallest * pt_per_px < 7  # were this to change, it prints at a column
        return
    assert smallest * pt_per_px >= 7
    assert "…" not in svg
    drawing = read_svg(svg)
    assert all(
        b[0] >= 0 and b[2] <= width and b[1] >= 0 and b[3] <= height
        for b in (label.box for label in drawing.labels)
    )
    assert overlaps(drawing) == []


def test_power_draws_its_curves_as_a_pdf_and_refuses_what_it_cannot_draw(tmp_path, capsys):
    """`power -o fig.pdf`: a vector PDF a column wide of the power against the difference;
    the numbers go to CSV; a budget has no chart, and a size needs a PDF."""
    out = tmp_path / "power.pdf"
    design = ["--problems", "500", "--accuracy", "0.5", "--agreement", "0.8"]
    assert main(["power", *design, "-o", str(out), "--size", "column"]) == 0
    data = out.read_bytes()
    _vector_with_fonts_embedded(data)
    assert _page(data)[0] == pytest.approx(SIZES["column"] * 72, rel=0.05)
    assert f"wrote {out}" in capsys.readouterr().out
    runs = [f"7b={SKY}", f"14b={SKY14}"]
    assert main(["power", *runs, "-o", str(tmp_path / "runs.svg")]) == 0
    svg = (tmp_path / "runs.svg").read_text()
    assert "MATH500: 14b vs 7b (500 problems, 60% answered alike)" in svg
    assert "Could these runs be told apart?" in svg
    # the test these runs are held to, and no other; the observed difference is a rule across
    # the panel, not a point on the curve (whose power there says nothing new)
    assert "McNemar" in svg and "paired t" not in svg and "dotted rule: the difference" in svg
    for args, words in (
        ([*runs, "--budget", "0.05", "-o", str(tmp_path / "b.png")], "expected an output ending in .csv"),
        ([*design, "-o", str(tmp_path / "p.png"), "--size", "column"], "expected a .pdf output for --size"),
        ([*design, "-o", str(tmp_path / "p.tex")], "expected an output ending in .csv, .html"),
    ):  # fmt: skip
        assert main(["power", *args]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["power.pdf", "runs.svg"]


def test_the_caption_names_the_temperature_the_harness_put_in_its_file_name(tmp_path):
    """Issue 44: the Qwen2.5-Math harness names its output `..._seed0_t{temperature}_s0_...`;
    the SkyThought files under that name say their temperature in the caption, and the shared
    copies (renamed) are said to give none."""
    import shutil

    from helpers.runs.compare import compare

    named = []
    for run, path, temperature in (("7b", SKY, "0.0"), ("14b", SKY14, "0.6")):
        target = (
            tmp_path
            / run
            / "math500"
            / f"test_qwen25-math-cot_-1_seed0_t{temperature}_s0_e-1.jsonl"
        )
        target.parent.mkdir(parents=True)
        shutil.copy(path, target)
        named.append((run, target))
    caption = compare(named).caption()
    assert "decoding: 7b temperature 0 (greedy); 14b temperature 0.6;" in caption
    assert "decoding settings not in the logs" in compare([("7b", SKY), ("14b", SKY14)]).caption()
