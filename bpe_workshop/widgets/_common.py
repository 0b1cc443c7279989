"""What every widget here shares: display, error messages on screen, pattern names.

Each widget is a small class holding ipywidgets controls; its ``.widget`` is the box to show,
and the object itself displays as that box when it ends a notebook cell. Callbacks compute
HTML with ``bpe_workshop.render`` and write it to an ``HTML`` widget's ``value``, so tests can
drive a widget by setting ``.value`` on its controls and read the result in plain Python.
"""
from __future__ import annotations

import functools
import html

import ipywidgets as widgets

# The pattern names live in patterns.py, one table for the tokenizers and the widgets alike.
from bpe_workshop.patterns import PATTERN_NAMES, resolve_pattern  # noqa: F401 (re-exported)
from bpe_workshop.render.tables import message_html


class WidgetView:
    """Base for the widgets: ``.widget`` is the box; the object displays as that box."""

    widget: widgets.Widget

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: display it in a notebook, or use .widget>"


def shows_errors(target_attr: str):
    """Decorate an update method: a ValueError/TypeError (or any error) becomes a message.

    The message goes to the ``HTML`` widget named ``target_attr`` on the instance, so a typo in
    a regex or an empty text shows a sentence on screen instead of a traceback in the log.
    """
    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except (ValueError, TypeError) as err:
                getattr(self, target_attr).value = message_html(str(err))
            except Exception as err:  # noqa: BLE001 - a widget must not die on screen
                getattr(self, target_attr).value = message_html(
                    f"Something went wrong: {type(err).__name__}: {err}")
        return wrapper
    return decorate


def text_area(value: str, rows: int = 4, placeholder: str = "Type some text") -> widgets.Textarea:
    """A full-width text box."""
    return widgets.Textarea(
        value=value, placeholder=placeholder, rows=rows,
        layout=widgets.Layout(width="100%"),
    )


def heading_html(text: str) -> str:
    return f'<div style="font-weight:bold;font-size:16px;margin:4px 0">{html.escape(text)}</div>'
