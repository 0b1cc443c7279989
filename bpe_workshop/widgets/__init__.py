"""Interactive widgets (ipywidgets 8) for the notebooks: thin controls over ``render``.

Each function returns an object that displays as its widget box when it ends a cell; its
controls and output ``HTML`` widgets are attributes, so tests can set values and read HTML.
"""
from bpe_workshop.widgets.playground import TokenPlayground, token_playground

__all__ = [
    "TokenPlayground",
    "token_playground",
]
