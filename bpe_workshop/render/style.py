"""The one stylesheet of every renderer and widget, and the class names that use it.

Every view is a ``<div class="bpe-view">`` styled by :data:`CSS`, by classes, never inline.
Sizes follow JupyterLab's content font size in ``em`` and widths give way, so a view grows with
the settings and zoom and fits a projector at 150 %. Light backgrounds with dark text (contrast
above 12:1) and a border on every token: colour is never the only cue, in light or dark themes.
"""
from __future__ import annotations

import base64
import gzip
import json

# Token backgrounds; with text colour #111 each has a contrast ratio above 12:1.
PALETTE = (
    "#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff",
    "#ffc6ff", "#fdffb6", "#a0c4ff", "#ffadad",
)
BAR_STEPS = 20  # bar lengths in tables come in this many steps of 0.25em (at most 5em)

_MONO = '"DejaVu Sans Mono", Menlo, Consolas, monospace'

_RULES = f"""
.bpe-view {{ font-size: var(--jp-content-font-size1, 1em); line-height: 1.5; max-width: 100%;
  overflow-wrap: anywhere; }}
.bpe-view .bpe-tokens {{ font-family: {_MONO}; font-size: 1.15em; line-height: 2.1;
  white-space: normal; }}
.bpe-view .bpe-tok {{ display: inline-block; color: #111; border: 1px solid #444;
  border-radius: 0.25em; padding: 0 0.2em; margin: 0.12em 0.06em; white-space: pre-wrap;
  overflow-wrap: anywhere; max-width: 100%; line-height: 1.45; vertical-align: top; }}
.bpe-view .bpe-tok.bpe-with-id {{ display: inline-flex; flex-direction: column;
  align-items: center; }}
.bpe-view .bpe-id {{ font-size: 0.65em; color: #333; line-height: 1.1; }}
.bpe-view .bpe-ws {{ color: #555; }}
.bpe-view .bpe-esc {{ color: #8a1c1c; font-size: 0.85em; }}
.bpe-view .bpe-hex {{ color: #0b3d91; font-size: 0.85em; }}
.bpe-view .bpe-tok.bpe-partial {{ border: 2px dashed #222; }}
.bpe-view .bpe-group {{ display: inline-block; max-width: 100%; border: 2px solid #c2255c;
  border-radius: 0.4em; padding: 0 0.12em; margin: 0.06em 0.12em; }}
.bpe-view .bpe-group-char {{ display: inline-block; background: #fff; color: #111;
  border: 1px solid #c2255c; border-radius: 0.25em; padding: 0 0.25em; margin-left: 0.12em;
  line-height: 1.45; vertical-align: top; }}
.bpe-view .bpe-note, .bpe-view .bpe-summary, .bpe-view .bpe-legend {{ font-size: 0.87em;
  opacity: 0.85; margin: 0.15em 0; }}
.bpe-view .bpe-status {{ margin: 0.15em 0; }}
.bpe-view .bpe-message {{ padding: 0.4em 0.7em; border-left: 0.25em solid #e8590c;
  margin: 0.25em 0; white-space: pre-wrap; }}
.bpe-view .bpe-heading {{ font-weight: bold; font-size: 1.07em; margin: 0.4em 0 0.2em; }}
.bpe-view .bpe-big {{ font-size: 1.45em; margin: 0.4em 0; }}
.bpe-view table.bpe-table {{ border-collapse: collapse; margin: 0.25em 0; max-width: 100%; }}
.bpe-view table.bpe-table caption {{ text-align: left; font-size: 0.87em; opacity: 0.85; }}
.bpe-view table.bpe-table th, .bpe-view table.bpe-table td {{ border: 1px solid #8888;
  padding: 0.1em 0.5em; text-align: left; vertical-align: middle; overflow-wrap: break-word; }}
.bpe-view table.bpe-table td.bpe-num {{ text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }}
.bpe-view .bpe-pair {{ white-space: nowrap; }}
.bpe-view .bpe-mono {{ font-family: {_MONO}; }}
.bpe-view .bpe-small {{ font-size: 0.8em; opacity: 0.8; }}
.bpe-view .bpe-bits {{ font-family: {_MONO}; }}
.bpe-view .bpe-byte {{ white-space: nowrap; }}
.bpe-view .bpe-prefix {{ background: #ffd43b; color: #111; font-weight: bold;
  border-radius: 0.12em; }}
.bpe-view .bpe-zero {{ opacity: 0.55; }}
.bpe-view .bpe-bar {{ display: inline-block; height: 0.9em; background: #4c6ef5;
  border: 1px solid #364fc7; vertical-align: middle; }}
.bpe-view tr.bpe-current td {{ background: #fff3bf; color: #111; }}
.bpe-view .bpe-chart img {{ max-width: 100%; height: auto; background: #fff; }}
.bpe-view .bpe-columns {{ display: flex; flex-wrap: wrap; gap: 0.6em; }}
.bpe-view .bpe-column {{ flex: 1 1 20em; min-width: 0; max-width: 100%;
  border: 1px solid #8888; border-radius: 0.4em; padding: 0.25em 0.5em; }}
.bpe-view .bpe-tree {{ overflow-x: auto; }} .bpe-view .bpe-node {{ display: inline-flex;
  flex-direction: column; align-items: center; }} .bpe-view .bpe-below {{ display: flex;
  gap: 0.3em; border-top: 1px solid #888; padding-top: 0.15em; align-items: flex-start; }}
.bpe-view .bpe-scroll {{ max-height: min(22em, 45vh); overflow-y: auto; }}
.bpe-play > button:nth-child(2) {{ display: none; }}
"""
# subtle: the last rule hides the stop button (■) of the merge stepper's Play widget, which
# jumps back to step 0; the stepper has its own reset button. It is scoped to a class that
# only that Play widget carries.

_COLOURS = "".join(f".bpe-view .bpe-c{i} {{ background: {c}; }}\n" for i, c in enumerate(PALETTE))
_BARS = "".join(f".bpe-view .bpe-bar.bpe-w{n} {{ width: {0.25 * n:.2f}em; }}\n"
                for n in range(1, BAR_STEPS + 1))

CSS = f"<style>{_RULES}{_COLOURS}{_BARS}</style>"


def color_class(index: int) -> str:
    """The class that gives a token the ``index``-th background of the palette (cycling).

    >>> color_class(0), color_class(9)
    ('bpe-c0', 'bpe-c1')
    """
    return f"bpe-c{index % len(PALETTE)}"


def bar_class(count: int, biggest: int) -> str:
    """The class of a bar ``count / biggest`` of the full length (at least one step).

    >>> bar_class(10, 10), bar_class(1, 1000), bar_class(5, 10)
    ('bpe-w20', 'bpe-w1', 'bpe-w10')
    """
    return f"bpe-w{max(1, round(BAR_STEPS * count / max(1, biggest)))}"


def view(body: str, include_css: bool = True) -> str:
    """``body`` inside the ``bpe-view`` div, with the stylesheet unless ``include_css=False``.

    >>> view("<b>hi</b>", include_css=False)
    '<div class="bpe-view"><b>hi</b></div>'
    """
    return f'<div class="bpe-view">{CSS if include_css else ""}{body}</div>'


# Set while `bpe-workshop site` runs the notebooks: widgets then write their reading copy.
READING_COPY = "BPE_WORKSHOP_READING_COPY"


def frames_html(frames: list[str]) -> str:
    """A stepper's every frame in one block, for the reading copy to step through with no kernel.

    The frames travel as gzipped JSON in base64; the site's script unpacks them and adds the
    controls; with no script the first frame shows.

    >>> block = frames_html(["<b>step 0</b>", "<b>step 1</b>"])
    >>> block.startswith('<div class="bpe-frames" data-frames="H4sI'), block[-19:]
    (True, '<b>step 0</b></div>')
    """
    packed = base64.b64encode(gzip.compress(json.dumps(frames).encode(), mtime=0)).decode()
    return f'<div class="bpe-frames" data-frames="{packed}">{frames[0]}</div>'
