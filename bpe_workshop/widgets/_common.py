"""What every widget here shares: display, the one way to show a problem, a text box, play.

A widget is a small class holding ipywidgets controls; ``.widget`` is its box, and the object
displays as that box. Callbacks write ``render``'s HTML to an ``HTML`` widget's ``value``, so
tests drive a widget by setting ``.value`` and read the result in plain Python. A bad argument
to the builder raises at once; a problem met while drawing (an empty text, a stuck regex) is
written on screen by :func:`shows_errors`, never a traceback under a live widget.
"""
from __future__ import annotations

import functools
import os

import ipywidgets as widgets

from bpe_workshop.render.style import READING_COPY, frames_html
from bpe_workshop.render.tables import message_html
from bpe_workshop.validation import require_int

# While `bpe-workshop site` runs the notebooks (READING_COPY is set), a widget also writes the
# HTML its page shows with no kernel; the site fills in the {colab} and {binder} addresses.
NEEDS_KERNEL = ('<p class="bpe-needs-kernel">This widget needs a running Python: <a '
                'href="{colab}">open in Colab</a> or <a href="{binder}">launch on Binder</a>.</p>')


class WidgetView:
    """Base for the widgets: ``.widget`` is the box; the object displays as that box.

    ``parts`` names the ``HTML`` widgets that show the result, in order: ``value`` joins them,
    and :func:`shows_errors` writes a problem into the first and empties the others.
    """

    widget: widgets.Widget
    parts = ("output",)
    stepped_on_site = False  # a stepper: the reading copy steps through its slider's values

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if os.environ.get(READING_COPY):
            bundle["text/html"] = self.reading_copy()
        return bundle

    @property
    def value(self) -> str:
        """The HTML shown: the ``parts`` joined."""
        return "".join(getattr(self, name).value for name in self.parts)

    def reading_copy(self) -> str:
        """The HTML a page shows with no kernel: a stepper's every step, made now; any other
        widget's first state and where to get a kernel."""
        if not self.stepped_on_site:
            return self.value + NEEDS_KERNEL
        start, frames = self.slider.value, []
        for step in range(self.slider.max + 1):
            self.slider.value = step
            frames.append(self.value)
        self.slider.value = start
        return frames_html(frames)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: display it in a notebook, or use .widget>"


def shows_errors(method):
    """Decorate a method that computes what to show: an error becomes a message on screen.

    The message goes to the first of the widget's ``parts``, the others are emptied. A
    ``ValueError``/``TypeError`` shows its own sentence; anything else also its type.
    """
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (ValueError, TypeError) as err:
            message = str(err)
        except Exception as err:  # any other failure: still a message, not a dead widget
            message = f"Something went wrong: {type(err).__name__}: {err}"
        first, *others = self.parts
        getattr(self, first).value = message_html(message)
        for name in others:
            getattr(self, name).value = ""
        return None
    return wrapper


def play_button(slider: widgets.IntSlider, interval_ms: int) -> widgets.Play:
    """A play/pause button that moves ``slider`` one step every ``interval_ms`` to its max."""
    play = widgets.Play(min=0, max=slider.max, interval=require_int(
        interval_ms, "interval_ms", minimum=1, example=500), description="play",
        show_repeat=False, layout=widgets.Layout(width="auto"))
    # subtle: the Play widget's own stop button (■) jumps back to step 0; the stylesheet hides
    # it for this class (the merge stepper's reset button does that job under its own name).
    play.add_class("bpe-play")
    widgets.jslink((play, "value"), (slider, "value"))  # in the browser, with no round trip
    widgets.dlink((slider, "max"), (play, "max"))
    return play


def text_area(value: str, rows: int = 4, placeholder: str = "Type some text") -> widgets.Textarea:
    """A full-width text box."""
    return widgets.Textarea(value=value, placeholder=placeholder, rows=rows,
                            layout=full_width())


def full_width() -> widgets.Layout:
    """A layout that makes a control as wide as its box, and no wider."""
    # subtle: width 100% plus ipywidgets' own margin around each control sticks out of the
    # box; an auto width stretched by the box fills it exactly.
    return widgets.Layout(width="auto", align_self="stretch")
