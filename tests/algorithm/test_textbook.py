"""The textbook module is the one home of byte-level BPE's steps, short enough to read at once."""

import ast
import doctest
from pathlib import Path

import bpe_workshop
from bpe_workshop.algorithm import textbook
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

PACKAGE = Path(bpe_workshop.__file__).parent
STEPS = ("get_stats", "merge", "learn_merges", "encode_chunk", "encode_chunks", "build_vocab",
         "decode")


def top_level_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_textbook_defines_every_step_and_no_other_module_defines_get_stats_or_merge():
    homes = {name: [] for name in ("get_stats", "merge")}
    for path in PACKAGE.rglob("*.py"):
        for name in top_level_functions(path) & set(homes):
            homes[name].append(path.relative_to(PACKAGE).as_posix())
    assert homes == {"get_stats": ["algorithm/textbook.py"], "merge": ["algorithm/textbook.py"]}
    assert set(STEPS) <= top_level_functions(Path(textbook.__file__))


def test_textbook_is_short_and_each_step_has_a_worked_example():
    source = Path(textbook.__file__).read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 260
    with_examples = {test.name.rsplit(".", 1)[-1] for test in doctest.DocTestFinder().find(textbook)
                     if test.examples}
    assert set(STEPS) <= with_examples


def test_the_naive_trainer_runs_through_the_textbooks_get_stats(monkeypatch):
    calls = []

    def counting_get_stats(ids, counts=None):
        calls.append(len(ids))
        return original(ids, counts)

    original = textbook.get_stats
    monkeypatch.setattr(textbook, "get_stats", counting_get_stats)
    tok = ByteLevelBPE.train("aaabdaaabac", 259, algorithm="naive")
    assert calls, "ByteLevelBPE.train(algorithm='naive') did not count pairs with textbook"
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
