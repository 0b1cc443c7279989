"""Interactive widgets (ipywidgets 8) for the notebooks: thin controls over ``render``.

Each function returns an object that displays as its widget box when it ends a cell; its
controls and output ``HTML`` widgets are attributes, so tests set values and read the HTML.

- ``token_playground(text, encodings=("gpt2", "cl100k_base"), extra={"mine": tok})``
- ``utf8_explorer(text)``
- ``split_explorer(text, pattern="gpt2")``
- ``wikipedia_stepper(text="aaabdaaabac", tie_rule="smallest")``
- ``merge_stepper(text, vocab_size=512, pattern="gpt4", tokenizer=None)``
- ``word_stepper(text_or_tokenizer, num_merges=20)``
- ``training_progress(total)``: a ``progress=`` callback for ``ByteLevelBPE.train``
"""
from bpe_workshop.widgets.merge_stepper import MergeStepper, merge_stepper
from bpe_workshop.widgets.playground import TokenPlayground, token_playground
from bpe_workshop.widgets.progress import TrainingProgress, training_progress
from bpe_workshop.widgets.split_explorer import SplitExplorer, split_explorer
from bpe_workshop.widgets.utf8_explorer import Utf8Explorer, utf8_explorer
from bpe_workshop.widgets.wikipedia_stepper import WikipediaStepper, wikipedia_stepper
from bpe_workshop.widgets.word_stepper import WordStepper, word_stepper

__all__ = [
    "MergeStepper",
    "SplitExplorer",
    "TokenPlayground",
    "TrainingProgress",
    "Utf8Explorer",
    "WikipediaStepper",
    "WordStepper",
    "merge_stepper",
    "split_explorer",
    "token_playground",
    "training_progress",
    "utf8_explorer",
    "wikipedia_stepper",
    "word_stepper",
]
