"""How wide a label is drawn: Liberation Sans's advance widths (the theme's font), so label
placement (`labels`) and the overlap test measure text as Vega-Lite draws it."""

from __future__ import annotations

from collections.abc import Sequence

FONT_SIZE = 10  # the theme's text size
CHAR_W = 5.8  # px per character at FONT_SIZE where a character's width is not known
BOLD = 1.1  # bold text is at most this much wider (Liberation Sans Bold against Regular)

# Advance widths per 1000 em of Liberation Sans, the theme's font (metric-compatible with
# Helvetica and Arial), read from its font file: a label's box is as wide as it is drawn.
_WIDTHS = {
    191: "'",
    222: "ijl",
    260: "|",
    278: " \u00a0!,./:;I[\\]ft",  # a no-break space is a space
    333: "()-`r",
    334: "{}",
    355: '"',
    389: "*",
    469: "^",
    500: "Jcksvxyz",
    556: "#$0123456789?L_abdeghnopqu†–",
    584: "+<=>~−×",
    611: "FTZ",
    667: "&ABEKPSVXY",
    722: "CDHNRUw",
    778: "GOQ",
    833: "Mm",
    889: "%",
    944: "W",
    1000: "—",
    1015: "@",
}
_WIDTH = {c: w / 1000 for w, chars in _WIDTHS.items() for c in chars}


def text_width(text: str, size: float = FONT_SIZE, *, bold: bool = False) -> float:
    """How wide `text` is drawn, in pixels, at `size` px."""
    return sum(_WIDTH.get(c, CHAR_W / FONT_SIZE) for c in text) * size * (BOLD if bold else 1)


SUBTITLE_SIZE = 12  # the theme's subtitles, in px


def wrapped(lines: Sequence[str], width: float, size: float = SUBTITLE_SIZE) -> list[str]:
    """Subtitle lines broken between words so that none is drawn wider than `width` px (a
    chart's width) at `size` px; a word longer than that stays whole on its own line.

    >>> wrapped(["lines: Wilson 95% over each benchmark's problems (AIME24 30, AMC23 40)"], 250)
    ["lines: Wilson 95% over each benchmark's", 'problems (AIME24 30, AMC23 40)']
    """
    out = []
    for line in lines:
        words, current = line.split(" "), ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if current and text_width(trial, size) > width:
                out.append(current)
                current = word
            else:
                current = trial
        out.append(current)
    return out
