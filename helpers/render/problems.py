"""The flipped problems of a comparison as an HTML section under its chart: each problem's
text, reference answer and both runs' answers (long text folded, whole on a click), filtered
to the problems the method won or lost. Every piece of log text is escaped; the one script
reads no text."""

from __future__ import annotations

import html

import polars as pl

TEXTS = ("question", "reference", "answer_a", "answer_b")
FOLD = 120  # characters shown before a text folds
MOST = 2000  # rows; the --problems-out CSV holds every one

_SECTION = """<section id="flips">
<h2>Problems that flipped</h2>
<p>{note}</p>
<label>Show <select id="flip-filter">
<option value="all">all problems that differ</option>
<option value="won">the method better</option>
<option value="lost">the baseline better</option>
</select></label>
<table>
<thead><tr><th>benchmark</th><th>compared at</th><th>problem</th><th>better</th>
<th>problem text</th><th>reference</th><th>baseline's answer</th><th>method's answer</th>
</tr></thead>
<tbody>
{rows}
</tbody>
</table>
<script>
document.getElementById("flip-filter").addEventListener("change", (event) => {{
  for (const row of document.querySelectorAll("#flips tbody tr")) {{
    row.hidden = event.target.value !== "all" && !row.classList.contains(event.target.value);
  }}
}});
</script>
<style>
#flips {{ font: 13px Liberation Sans, Helvetica, Arial, sans-serif; margin: 24px 8px; }}
#flips table {{ border-collapse: collapse; margin-top: 8px; }}
#flips td, #flips th {{ border-top: 1px solid #ddd; padding: 4px 8px; text-align: left;
  vertical-align: top; max-width: 420px; white-space: pre-wrap; }}
</style>
</section>"""


def _cell(text: object) -> str:
    if text is None:
        return ""
    text = str(text)
    if len(text) <= FOLD:
        return html.escape(text)
    return f"<details><summary>{html.escape(text[:FOLD])}…</summary>{html.escape(text)}</details>"


def section(problems: pl.DataFrame) -> str:
    """The section, or "" when no log held any problem text."""
    present = [c for c in TEXTS if c in problems.columns]
    if not present or all(problems[c].null_count() == problems.height for c in present):
        return ""
    rows = []
    for r in problems.head(MOST).iter_rows(named=True):
        won = "won" if r["difference"] > 0 else "lost"
        cells = [r["benchmark"], r["at"], r["problem_id"], r["outcome"]]
        cells = [html.escape(str(c)) for c in cells]
        cells += [_cell(r.get(c)) for c in TEXTS]
        rows.append(f'<tr class="{won}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    note = f"{problems.height:,} problems differ between the runs at the step compared"
    if problems.height > MOST:
        note += f"; the first {MOST:,} shown (compare --problems-out writes them all)"
    return _SECTION.format(note=html.escape(note), rows="\n".join(rows))
