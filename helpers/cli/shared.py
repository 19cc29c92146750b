"""What the commands share: their arguments, how a run is named, output checks, and writing an
output whole (CSV, or a chart drawn)."""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.io import PPI, write_atomic
from helpers.runs import spark_cluster
from helpers.runs.inputs import named


def command_parser(
    sub, name: str, help: str, description: str, inputs: tuple
) -> argparse.ArgumentParser:
    """A subcommand that reads inputs (positional: name, type, metavar, help) and writes OUT."""
    parser = sub.add_parser(
        name,
        help=help,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dest, kind, metavar, text = inputs
    parser.add_argument(dest, nargs="+", type=kind, metavar=metavar, help=text)
    output_args(parser)
    return parser


def output_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="OUT",
        help="output file: .html (interactive, self-contained), .png, .svg, .pdf (vector, fonts "
        "embedded), .csv, .json (results in the Every Eval Ever schema, intervals included; "
        "one file per run), or .tex (a booktabs table under a caption naming the methods)",
    )
    parser.add_argument(
        "--benchmarks",
        nargs="+",
        metavar="NAME",
        help="only these benchmarks (W&B: the part after val/test_score/)",
    )
    parser.add_argument("--title", help="chart title")
    drawing_args(parser)


def drawing_args(parser: argparse.ArgumentParser) -> None:
    """--size (a PDF's page) and --ppi (a PNG's resolution)."""
    parser.add_argument(
        "--size",
        type=page_size,
        metavar="SIZE",
        help="a PDF's page: column (3.25 in wide) or page (6.75 in), the chart laid out again "
        "for it (text at 7.5 pt, the plots making room; the height following), or "
        "WIDTHxHEIGHT in inches (the chart fitted in it); the command says when text gets "
        "under 7 pt or the figure taller than a page",
    )
    parser.add_argument(
        "--ppi",
        type=_ppi,
        default=PPI,
        help=f"a PNG's pixels per inch (default {PPI:g}: twice a screen's pixels, sharp on "
        "slides; 300 for print); the chart's size in inches stays the same",
    )


def page_size(text: str) -> str | tuple[float, float]:
    """--size: column, page, or WIDTHxHEIGHT in inches (each from 1 to 100)."""
    if text in ("column", "page"):
        return text
    width, sep, height = text.lower().partition("x")
    try:
        size = (float(width), float(height))
    except ValueError:
        size = (float("nan"), float("nan"))
    if not sep or not all(1 <= v <= 100 for v in size):
        raise argparse.ArgumentTypeError(
            f"expected column, page or WIDTHxHEIGHT in inches (such as 5x3); got {text!r}"
        )
    return size


def number(text: str, cast, ok, expected: str):
    """An argument's TEXT cast to a number `ok` accepts, else argparse's one-line error
    `expected` (text that is no number fails too)."""
    try:
        value = cast(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise argparse.ArgumentTypeError(expected)
    return value


def _ppi(text: str) -> float:
    expected = f"expected pixels per inch from 36 to 600; got {text!r}"
    return number(text, float, lambda v: 36 <= v <= 600, expected)


def reading_args(parser: argparse.ArgumentParser) -> None:
    """How to read logs no convention covers: column mapping, benchmark sizes, steps."""
    parser.add_argument(
        "--map",
        action="append",
        metavar="ROLE=COLUMN",
        help="which column is what, for per-step logs no convention covers; ROLE is step, "
        "accuracy or tokens, and {benchmark} in COLUMN stands for the benchmark's name "
        "(e.g. --map step=global_step --map 'accuracy=eval/{benchmark}/acc'); in tables of "
        "several runs, run=COLUMN names each row's run and benchmark=COLUMN each row's "
        "benchmark (with accuracy=COLUMN its value); for results "
        "files, accuracy=METRIC picks the metric; for answer dumps (verl, SkyRL, NeMo-RL), "
        "reward=KEY reads KEY as each answer's reward, compared and charted by mean reward",
    )
    parser.add_argument(
        "--problems",
        nargs="+",
        type=size_arg,
        metavar="NAME=N",
        help="benchmark sizes for score-only logs (known: "
        + ", ".join(f"{b.name} {b.problems}" for b in benchmark_sizes.BENCHMARKS)
        + ")",
    )
    parser.add_argument(
        "--step-from-path",
        metavar="REGEX",
        help="read the step from folder names with this pattern (one group: the step); "
        "default: checkpoint-N, ckpt_N, global_stepN, step=N, iter_N, ExpK_N",
    )


def mapping(args) -> dict[str, str]:
    from helpers.runs.readers.formats.metric_columns import parse_map

    try:
        return parse_map(args.map)
    except ValueError as e:
        raise DataError("--map", str(e)) from None


def run_arg(text: str) -> tuple[str, Path | str]:
    """NAME=PATH, or a bare PATH named after its file (`inputs.named`)."""
    return named(text)


def size_arg(text: str) -> tuple[str, int]:
    name, sep, n = text.rpartition("=")
    if not sep or not name or not n.isdigit() or int(n) < 1:
        raise argparse.ArgumentTypeError(f"expected NAME=N with N a positive count; got {text!r}")
    return name, int(n)


def fraction(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1; got {text}")
    return value


def check_seed_sd(seed_sd: float | None) -> None:
    """--seed-sd (compare and power): a run's accuracy's sd across seeds, from 0 to below 1."""
    if seed_sd is not None and not 0 <= seed_sd < 1:
        raise DataError("--seed-sd", "a standard deviation from 0 to 1 (a fraction)", got=seed_sd)


def panels_per_row(text: str) -> int:
    """--columns: a whole number of panels per row, at least 1."""
    expected = f"expected a whole number of panels, 1 or more; got {text}"
    return number(text, int, lambda v: v >= 1, expected)


def smoothing(text: str) -> float:
    """--smooth: an EMA weight, at least 0 and below 1 (0.6 as TensorBoard's default)."""
    expected = f"expected a weight from 0 to below 1; got {text}"
    return number(text, float, lambda v: 0 <= v < 1, expected)


def engine_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        choices=["polars", "spark"],
        default="polars",
        help="who aggregates per-sample Parquet logs: polars on this machine (default), or Spark "
        "(local mode; SPARK_MASTER or SPARK_REMOTE point it at a cluster, which must see a local "
        "path at the same place); needs the [spark] extra",
    )
    parser.add_argument(
        "--spark-conf",
        action=SparkSettings,
        type=setting_arg,
        default=[],
        metavar="KEY=VALUE",
        help="a Spark setting for this run (repeatable), over spark-defaults.conf: e.g. "
        "spark.executor.memory=8g; under SPARK_REMOTE only session settings (spark.sql.*). "
        f"{spark_cluster.WAIT}=SECONDS: how long a job may wait for an executor before the "
        f"run fails (default {spark_cluster.DEFAULT_WAIT:g})",
    )
    spark_cluster.configure({})  # a command line starts with no settings of an earlier one


def setting_arg(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE; got {text!r}")
    return key.strip(), value


class SparkSettings(argparse.Action):
    """--spark-conf: kept on the namespace and handed to the Spark session this process will
    start (one a process, as Spark has it), so every command that reads with Spark gets them."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        settings = [*getattr(namespace, self.dest), values]
        setattr(namespace, self.dest, settings)
        spark_cluster.configure(dict(settings))


def write_csv(out: Path, table: pl.DataFrame) -> None:
    """The table written whole as CSV, floats to 12 significant digits: far beyond any interval
    here, and the same text whichever engine summed them (sums in another order differ in the
    last bits). A place it cannot be written is a DataError saying why."""
    import polars.selectors as cs

    try:
        write_atomic(out, table.with_columns(cs.float().round_sig_figs(12)).write_csv)
    except OSError as e:
        raise unwritable(out, e) from None


def unwritable(out: Path, error: OSError) -> DataError:
    """The DataError for an output that could not be written, saying why (the system's reason;
    polars' own errors carry theirs in their text, not in `strerror`)."""
    return DataError(out, "a place the output can be written", got=error.strerror or str(error))


def check_output(out: Path, inputs: list[Path]) -> None:
    """The output never replaces or lands inside an input."""
    target = out.resolve()
    for p in inputs:
        if not isinstance(p, Path):  # a URI: not a local file the output could replace
            continue
        source = p.resolve()
        if target == source or source in target.parents:
            raise DataError(out, "an output path that is not one of the inputs", got=str(p))


SMALLEST_PT = 7  # text smaller than this is hard to read in print
TALLEST_IN = 9  # a letter or A4 page's text is about this tall


def write_output(out: Path, make, table, appendix: str, args) -> None:
    """The output, written whole: the numbers (.csv), or the chart drawn (a PNG or SVG in a
    process started before the chart is built; a PDF at the page size asked for)."""
    drawing = None
    if out.suffix in (".png", ".svg"):  # its process starts vl-convert while the chart is built
        from helpers.render.export import RenderProcess

        drawing = RenderProcess(out.suffix, args.ppi)
    try:
        spec = None if out.suffix == ".csv" else _spec(make)
        try:
            if spec is None:
                write_csv(out, table)
            elif drawing is not None:
                drawing.save(spec, out)
            elif out.suffix == ".pdf":
                _write_pdf(out, spec, args.size)
            else:
                from helpers.render import export

                export.save(spec, out, appendix)
        except OSError as e:
            raise unwritable(out, e) from None
    finally:
        if drawing is not None:
            drawing.close()


def _write_pdf(out: Path, spec: dict, size) -> None:
    from helpers.io import write_bytes_atomic
    from helpers.render import export

    printed = export.pdf_of(spec, size)
    write_bytes_atomic(out, printed.data)
    if printed.smallest is not None and printed.smallest < SMALLEST_PT:
        print(
            f"note: the smallest text is {printed.smallest:.1f} pt at this size (below "
            f"{SMALLEST_PT} pt is hard to read in print: a wider --size keeps it larger)"
        )
    if size is not None and printed.height > TALLEST_IN * 72:
        print(
            f"note: the figure is {printed.height / 72:.1f} in tall at this width, more than a "
            f"page's {TALLEST_IN} in: fewer benchmarks (--benchmarks) or a wider --size"
        )


def _spec(make) -> dict:
    """The chart's spec, not validated again: the tests validate every chart function's
    specs, and validation is a fifth of the time from numbers to a 13-panel PNG. Nor are the
    chart's parts as they are made (altair checks each against the schema when created):
    the 13-panel grid was built in 0.42-0.45 s so, 0.21-0.28 s without, the same spec."""
    from helpers.render import theme  # first: it has the IRI grammar wait before altair loads

    theme.enable()
    from altair.utils.schemapi import debug_mode

    with debug_mode(False):
        return make().to_dict(validate=False)
