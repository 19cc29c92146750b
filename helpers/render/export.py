"""Write a chart to PNG, SVG, PDF or self-contained HTML (scripts inlined), whole or not at all;
and the outputs a notebook stores for a chart (spec, small PNG, plain text).

A PDF is vector, its fonts (Liberation, as the PNGs') embedded, as vl-convert's PDF export writes
it from the chart's SVG: one SVG pixel is one point. `--size column` or `page` lays the chart out
again for the common one- and two-column widths (3.25 and 6.75 in; `print_layout`) and scales
the page to that width, the aspect kept.

HTML is built here rather than by `vl_convert.vegalite_to_html`, which pastes the spec's JSON
into a script as it is: a benchmark named `</script><script>...` in someone's log would run
when the chart is opened. The spec travels in a JSON data block with every `<`, `>` and `&`
written as a JSON escape, so nothing in it can end the block or start markup, and the page's
one script parses it with `JSON.parse`.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import io
import json
import os
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import png as pypng
import vl_convert as vlc
from PIL import Image

from helpers.io import FORMATS, PPI, write_bytes_atomic, write_text_atomic
from helpers.render import render_process

# JupyterLab 4 draws this MIME type natively, offline, trusted or not, with the Vega-Lite it
# bundles (5.6.1 in JupyterLab 4.6). altair 6 labels its specs Vega-Lite 6, and vega-embed then
# warns on every chart; the notebook's copy is labelled for the Vega-Lite that draws it. The
# specs use nothing 5.6 lacks: the browser tests draw every stored chart in JupyterLab and hold
# it to the PNG that vl-convert (Vega-Lite 6) drew from the same spec.
VEGALITE_MIME = "application/vnd.vegalite.v5+json"
JUPYTERLAB_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"

_JSON_ESCAPES = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<script>{bundle}</script>
</head>
<body>
<div id="vega-chart"></div>
<script type="application/json" id="vega-spec">{spec}</script>
<script>
vegaEmbed("#vega-chart", JSON.parse(document.getElementById("vega-spec").textContent),
          {{renderer: "svg"}}).catch(console.error);
</script>
{appendix}
</body>
</html>
"""


def json_for_html(value: object) -> str:
    """JSON text safe inside an HTML `<script>` block: no `<`, `>` or `&` appears raw (so no
    `</script>` or `<!--`), and the line separators JavaScript once rejected are escaped."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES)


@cache
def _bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script (from vl-convert; no network), kept in
    the user's cache (`bundle_path`) once built: vl-convert builds it from its modules in
    2.0 s, a process's whole HTML export otherwise, and reading it back takes milliseconds."""
    path = bundle_path()
    try:
        kept = "" if path is None else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        kept = ""
    text, _, mark = kept.rpartition("\n" + _SUM)
    if kept and mark == hashlib.sha256(text.encode("utf-8")).hexdigest() and _inlinable(text):
        return text
    bundle = vlc.javascript_bundle()
    assert _inlinable(bundle), "the vl-convert bundle cannot be inlined"
    digest = hashlib.sha256(bundle.encode("utf-8")).hexdigest()
    with contextlib.suppress(OSError):  # a cache that cannot be written: built again next time
        if path is not None:
            write_text_atomic(path, f"{bundle}\n{_SUM}{digest}")
    return bundle


_SUM = "// sha256 of the above: "  # the cached bundle's last line: read back only if it holds


def _inlinable(script: str) -> bool:
    return "</script" not in script.lower()


def bundle_path() -> Path | None:
    """Where the built bundle is kept: the user's cache ($XDG_CACHE_HOME where it is an
    absolute path, else ~/.cache), under this package's name, named by the vl-convert version
    and a digest of the Vega, vega-embed and Vega-Lite versions it bundles; None where the
    user has no home (then it is built in each process, as before it was kept)."""
    root = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(root):
        try:
            root = str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):  # no HOME and no passwd entry
            return None
    bundled = [vlc.get_vega_version(), vlc.get_vega_embed_version(), *vlc.get_vegalite_versions()]
    tag = hashlib.sha256(" ".join(bundled).encode()).hexdigest()[:12]
    return Path(root) / "reasoning-figures" / f"vega-bundle-{vlc.__version__}-{tag}.js"


def warm_up() -> threading.Thread:
    """Start vl-convert's JavaScript engine and renderer in the background.

    The first chart a process draws pays about half a second to start them. vl-convert holds
    Python's lock while it starts, so in a notebook kernel that half second overlaps only with
    the time the kernel waits between cells (for the next cell, or for nbval to send it); the
    command line, which never waits, draws in a process of its own (`RenderProcess`).
    """
    thread = threading.Thread(target=_warm, name="vl-convert warm-up", daemon=True)
    thread.start()
    return thread


def _warm() -> None:
    try:
        vlc.vegalite_to_png(render_process.TINY, scale=1.0)
    except Exception:  # noqa: BLE001 - a chart drawn later reports the same fault itself
        return


def spec_title(spec: dict) -> str:
    """A spec's title as plain text (titles may be a string, a list or a Title object)."""
    title = spec.get("title", "")
    if isinstance(title, dict):
        title = title.get("text", "")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    return str(title)


def to_html(spec: dict, appendix: str = "") -> str:
    """A self-contained interactive page for the spec; no user text can run as script.
    `appendix` is HTML put under the chart, already escaped by whoever built it."""
    return _PAGE.format(
        title=html.escape(spec_title(spec) or "chart"),
        bundle=_bundle(),
        spec=json_for_html(spec),
        appendix=appendix,
    )


# the common widths of a figure in a paper, in inches: one column, and the whole page
SIZES = {"column": 3.25, "page": 6.75}


class Printed(NamedTuple):
    """A chart as a PDF: its bytes, its smallest text and its page's height, in points."""

    data: bytes
    smallest: float | None
    height: float


def pdf(svg: str, size: str | tuple[float, float] | None = None) -> Printed:
    """A chart's SVG as a vector PDF, fonts embedded. `size`: "column" or "page" (the page that
    wide, its height following the chart's aspect), or (width, height) in inches (the largest
    page of the chart's aspect that fits); None keeps one point a pixel."""
    from helpers.render.print_layout import measure, scaled  # it loads the charts' text widths

    width, height, smallest = measure(svg)
    factor = 1.0
    if size is not None:
        if isinstance(size, str):
            factor = SIZES[size] * 72 / width
        else:
            factor = min(size[0] * 72 / width, size[1] * 72 / height)
        svg = scaled(svg, factor)
    return Printed(
        vlc.svg_to_pdf(svg), None if smallest is None else smallest * factor, height * factor
    )


def pdf_of(spec: dict, size: str | tuple[float, float] | None = None, redraw=None) -> Printed:
    """`pdf` of the chart drawn from `spec`; at a `size`, laid out for print first
    (`print_layout.for_print`, `redraw` as there: its text stays readable, its plots make
    room)."""
    if size is not None:
        from helpers.render.print_layout import for_print

        width = (SIZES[size] if isinstance(size, str) else size[0]) * 72
        spec = for_print(spec, width, redraw)
    return pdf(vlc.vegalite_to_svg(spec), size)


def save(
    spec: dict, path: str | Path, appendix: str = "", *, ppi: float = PPI, size=None, redraw=None
) -> Path:
    """Render a Vega-Lite spec to `path`, the format chosen by its suffix (`appendix`: HTML
    under an HTML chart; `size`: a PDF's page, see `pdf`). A PNG has `ppi` pixels per inch,
    and says so in its header, so it keeps the chart's size in a document whatever its
    resolution."""
    path = Path(path)
    if path.suffix in (".png", ".svg"):
        return write_bytes_atomic(path, render_process.render(spec, path.suffix[1:], ppi))
    if path.suffix == ".pdf":
        return write_bytes_atomic(path, pdf_of(spec, size, redraw)[0])
    if path.suffix == ".html":
        return write_text_atomic(path, to_html(spec, appendix))
    raise ValueError(f"{path}: the output must end in one of {', '.join(FORMATS)}")


def save_each_format(spec: dict, base: Path) -> list[Path]:
    """The spec written as `base` with each suffix of FORMATS (PNG, SVG, PDF, HTML). Vega lays
    the chart out once: the PNG is the SVG rasterised (at PPI), byte for byte the PNG `save`
    draws from the spec, for about 0.15 s less a chart; the PDF is the same SVG, vector."""
    svg = vlc.vegalite_to_svg(spec)
    drawn = {
        ".svg": svg.encode("utf-8"),
        ".png": vlc.svg_to_png(svg, scale=1.0, ppi=PPI),
        ".pdf": pdf(svg)[0],
    }
    paths = [base.with_name(base.name + suffix) for suffix in FORMATS]
    return [
        write_bytes_atomic(p, drawn[p.suffix]) if p.suffix in drawn else save(spec, p)
        for p in paths
    ]


class RenderProcess:
    """A PNG or SVG drawn by `render_process` in a process of its own, started before the
    spec is built, so that vl-convert's engine starts while this process builds the chart
    (within one process it holds Python's lock as it starts). `save` hands the spec over and
    writes the picture whole; `close` ends the process if no spec came."""

    def __init__(self, suffix: str, ppi: float = PPI) -> None:
        if suffix not in (".png", ".svg"):
            raise ValueError(f"a render process draws .png or .svg, not {suffix!r}")
        script = Path(render_process.__file__)
        self._proc = subprocess.Popen(
            # -P: the script's folder (this package's render/, with a site.py) stays off the path
            [sys.executable, "-P", str(script), suffix[1:], repr(float(ppi))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def save(self, spec: dict, path: str | Path) -> Path:
        """The spec drawn into `path` (written whole, as `save` writes it)."""
        picture, err = self._proc.communicate(json.dumps(spec).encode("utf-8"))
        if self._proc.returncode != 0:
            said = err.decode("utf-8", "replace").strip()
            why = said or f"it ended with code {self._proc.returncode}"
            raise RuntimeError(f"drawing {Path(path).name} failed: {why}")
        return write_bytes_atomic(Path(path), picture)

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.communicate()

    def __enter__(self) -> RenderProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---- notebook outputs ----------------------------------------------------------------------------


def notebook_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec as a notebook stores it: labelled for the Vega-Lite JupyterLab bundles."""
    return {**spec, "$schema": JUPYTERLAB_SCHEMA}


def mimebundle(spec: dict[str, Any], *, png: bool = True) -> dict[str, Any]:
    """The outputs a notebook stores for one chart: Vega-Lite spec, PNG and plain text; with
    `png` false the spec and text only (a chart redrawn often, whose PNG would cost each time)."""
    bundle = {VEGALITE_MIME: notebook_spec(spec)}
    if png:
        drawn = small_png(vlc.vegalite_to_png(spec, scale=1.0))
        bundle["image/png"] = base64.b64encode(drawn).decode("ascii")
    return bundle | {"text/plain": f"<Vega-Lite chart: {spec_title(spec) or 'untitled'}>"}


def small_png(png: bytes) -> bytes:
    """The same picture with a 256-colour palette: about a tenth of the bytes, so notebooks
    stay small on disk.

    Pillow quantizes; pypng writes the file through Python's own zlib. Pillow's wheels compress
    with zlib-ng, which promises only that its output decompresses to the same pixels (its bytes
    may change with its version, build and the code paths it picks for the CPU), and a notebook
    must stay byte-identical when re-executed elsewhere.
    """
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    rgba = image.getpalette("RGBA")
    palette = [tuple(rgba[i : i + 4]) for i in range(0, len(rgba), 4)]
    width, height = image.size
    pixels = image.tobytes()
    rows = (pixels[y * width : (y + 1) * width] for y in range(height))
    out = io.BytesIO()
    pypng.Writer(width, height, palette=palette, bitdepth=8, compression=9).write(out, rows)
    return out.getvalue()
