"""Wikipedia stepper: Gage's pair replacement on a short string, one replacement per step.

The ``aaabdaaabac`` example of Wikipedia's page, stepped by ``by_hand.replace_pairs_by_hand``:
the string at each step, the pair counts (the next pair and its ties marked) and the table.
Left out: editing the table by hand, and long texts (see the merge stepper).
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from bpe_workshop.algorithm.by_hand import TIE_RULES, count_pairs, replace_pairs_by_hand
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import (
    message_html,
    pair_counts_html,
    replacement_table_html,
    token_chip,
)
from bpe_workshop.token_text import counted, visible_text
from bpe_workshop.validation import require_choice, require_str
from bpe_workshop.widgets._common import WidgetView, shows_errors

MAX_LENGTH = 300  # characters; the by-hand view is for strings that fit on a slide
TIE_RULE_OPTIONS = [("smallest pair (this series)", "smallest"), ("first seen", "first_seen")]


class _WikipediaStepper(WidgetView):
    """Text box, tie rule, step slider and back/next buttons; the string, counts and table.

    Accessors: ``text`` (Text), ``tie_rule`` (ToggleButtons), ``slider`` (IntSlider),
    ``back_button``/``next_button`` (Button), ``output`` (HTML), ``value``, ``steps`` (the
    ``HandStep`` list), ``current`` (the string at the slider's step).
    """

    stepped_on_site = True

    def __init__(self, text: str = "aaabdaaabac", tie_rule: str = "smallest"):
        require_str(text, "text")
        require_choice(tie_rule, "tie_rule", TIE_RULES)
        self.steps = []  # HandStep per replacement, from by_hand
        self.text = widgets.Text(value=text, description="string",
                                 layout=widgets.Layout(width="auto", max_width="40em"))
        self.tie_rule = widgets.ToggleButtons(options=TIE_RULE_OPTIONS, value=tie_rule,
                                              description="ties",
                                              style={"button_width": "auto"})  # whole labels
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="step")
        self.back_button = widgets.Button(description="◀ back", layout=widgets.Layout(width="auto"))
        self.next_button = widgets.Button(description="next ▶", layout=widgets.Layout(width="auto"))
        self.output = widgets.HTML()
        self.widget = widgets.VBox([
            self.text, self.tie_rule,
            widgets.HBox([self.back_button, self.slider, self.next_button],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.output], layout=widgets.Layout(max_width="100%"))
        self.back_button.on_click(lambda button: self._move(-1))
        self.next_button.on_click(lambda button: self._move(+1))
        self.text.observe(lambda change: self.recompute(), names="value")
        self.tie_rule.observe(lambda change: self.recompute(keep_step=True), names="value")
        self.slider.observe(lambda change: self.render(), names="value")
        self.recompute()

    @property
    def current(self) -> str:
        k = self.slider.value
        return self.steps[k - 1].after if k else self.text.value

    def _move(self, delta: int) -> None:
        self.slider.value = min(self.slider.max, max(0, self.slider.value + delta))

    @shows_errors
    def recompute(self, keep_step: bool = False) -> None:
        """Run the replacements again (a new text starts at step 0, a new tie rule keeps it)."""
        text = self.text.value
        self.steps = []
        if len(text) <= MAX_LENGTH:
            self.steps = replace_pairs_by_hand(text, tie_rule=self.tie_rule.value)
        with self.slider.hold_trait_notifications():
            step = min(self.slider.value, len(self.steps)) if keep_step else 0
            self.slider.max = len(self.steps)
            self.slider.value = step
        self.render()

    @shows_errors
    def render(self) -> None:
        text, k, steps = self.text.value, self.slider.value, self.steps
        if not text:
            raise ValueError("The string is empty: type one, e.g. aaabdaaabac.")
        if len(text) > MAX_LENGTH:
            raise ValueError(
                f"This stepper is for short strings (at most {MAX_LENGTH} characters; this one "
                f"has {len(text):,}). Use the merge stepper for real text.")
        current = self.current
        table = steps[k - 1].table if k else {}
        parts = []
        # the string, one box per symbol; fresh symbols stand out
        chips = "".join(token_chip(ch, 5 if ch in table else 2, title=(
            f"{ch} = {table[ch]}" if ch in table else f"{ch!r}")) for ch in current)
        alphabet = len(set(text)) + k
        parts.append(f'<div class="bpe-big">{chips}</div>')
        parts.append(f'<div class="bpe-summary">step {k} of {len(steps)} · '
                     f'{counted(len(current), "symbol")} (started with {len(text)}) · '
                     f'alphabet of {counted(alphabet, "symbol")}</div>')
        if k:
            last = steps[k - 1]
            made = token_chip(last.symbol, 5)
            parts.append(f'<div>Replaced {token_chip("".join(last.pair), 1)} '
                         f'(counted {counted(last.count, "time")}) by {made}: '
                         f'<span class="bpe-mono">{html.escape(visible_text(last.before))} → '
                         f'{html.escape(visible_text(last.after))}</span></div>')
        if k < len(steps):
            nxt = steps[k]
            pair = html.escape(visible_text("".join(nxt.pair)))
            tie = ""
            if len(nxt.ties) > 1:
                others = ", ".join(visible_text("".join(p)) for p in nxt.ties if p != nxt.pair)
                rule = "smallest pair" if self.tie_rule.value == "smallest" else "first seen"
                tie = (f" It is tied with {html.escape(others)} at {nxt.count}; the "
                       f"“{rule}” rule picks {pair}.")
            parts.append(f'<div>Next: replace <b>{pair}</b> '
                         f"(count {nxt.count}) by <b>{nxt.symbol}</b>.{tie}</div>")
            counts, ties = nxt.pair_counts, nxt.ties
        else:
            counts, ties = count_pairs(current), ()
            if not steps:
                done = "No pair occurs more than once in this string: nothing to replace."
            else:
                undo = ", ".join(f"{s}→{p}" for s, p in reversed(list(table.items())))
                done = (f"Done: no pair occurs more than once. {counted(len(text), 'symbol')} "
                        f"became {len(current)}. To decompress, replace back in reverse order: "
                        f"{undo}.")
            parts.append(message_html(done, include_css=False))
        if counts:  # the next pair and its ties highlighted
            parts.append(pair_counts_html(counts, top=12, highlight=ties, title="pair counts now",
                                          include_css=False))
        parts.append('<div class="bpe-heading">replacement table</div>')
        parts.append(replacement_table_html(table, highlight=steps[k - 1].symbol if k else None,
                                            include_css=False))
        self.output.value = view("".join(parts))


def wikipedia_stepper(text: str = "aaabdaaabac",
                      tie_rule: str = "smallest") -> _WikipediaStepper:
    """Step through Gage's pair replacement on ``text`` (fresh symbols Z, Y, X, ...).

    ``tie_rule`` is ``"smallest"`` (the series' rule; Wikipedia's run) or ``"first_seen"``.
    """
    return _WikipediaStepper(text, tie_rule)
