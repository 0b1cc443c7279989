"""Layer 5, widgets: interactive controls (ipywidgets 8) for the notebooks, thin over ``render``.

One public function per widget, returning an object that displays as its widget box; its
controls and ``HTML`` outputs are attributes, so tests set values and read the HTML:
``token_playground(text, encodings=("gpt2", "cl100k_base"), extra={"mine": tok})``,
``merge_tree_explorer(text, encodings=("o200k_base", "gpt2"))``, ``utf8_explorer(text)``,
``split_explorer(text, pattern="gpt2")``,
``wikipedia_stepper(text="aaabdaaabac")``, ``merge_stepper(text, vocab_size=512)``,
``lattice_explorer(unigram, text="unbelievable")``, ``word_stepper(text_or_tokenizer)``, and
``training_progress(total)``, a ``progress=`` callback for ``ByteLevelBPE.train``.
May import: ``render`` and every layer below it.
"""
from bpe_workshop.widgets.lattice_explorer import lattice_explorer
from bpe_workshop.widgets.merge_stepper import merge_stepper
from bpe_workshop.widgets.playground import merge_tree_explorer, token_playground
from bpe_workshop.widgets.progress import training_progress
from bpe_workshop.widgets.split_explorer import split_explorer
from bpe_workshop.widgets.utf8_explorer import utf8_explorer
from bpe_workshop.widgets.wikipedia_stepper import wikipedia_stepper
from bpe_workshop.widgets.word_stepper import word_stepper

__all__ = [
    "lattice_explorer", "merge_stepper", "merge_tree_explorer", "split_explorer",
    "token_playground", "training_progress", "utf8_explorer", "wikipedia_stepper", "word_stepper"
]
