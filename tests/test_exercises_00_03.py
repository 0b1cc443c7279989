"""Exercises of notebooks 00-03: every solution passes its checker, a known wrong answer fails
with the smallest failing input named, and the untouched stub is reported as not attempted.

Solutions are not copied here: they are read from ``notebooks/solutions/NN_*_solutions.ipynb``
(every code cell run in one namespace), and the stubs from the exercise notebooks themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import regex
from IPython.core.inputtransformer2 import TransformerManager

from bpe_workshop import exercises
from bpe_workshop.by_hand import count_pairs  # noqa: F401 - used by a wrong answer below
from bpe_workshop.exercises import nb00, nb01, nb02, nb03
from bpe_workshop.offline import get_encoding

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _code_cells(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def _run_cells(sources: list[str]) -> dict:
    """Run notebook code (IPython syntax such as %pip allowed) in a fresh namespace."""
    namespace: dict = {"__name__": "__notebook__"}
    transform = TransformerManager().transform_cell
    for source in sources:
        exec(compile(transform(source), "<cell>", "exec"), namespace)  # noqa: S102
    return namespace


_SOLUTION_CACHE: dict[str, dict] = {}


def solutions(prefix: str) -> dict:
    """The namespace left by running the solutions notebook of notebook ``prefix``."""
    if prefix not in _SOLUTION_CACHE:
        [path] = sorted((NOTEBOOKS / "solutions").glob(f"{prefix}_*_solutions.ipynb"))
        _SOLUTION_CACHE[prefix] = _run_cells(_code_cells(path))
    return _SOLUTION_CACHE[prefix]


def stub(prefix: str, name: str):
    """The untouched stub of exercise ``name``, taken from the exercise notebook."""
    [path] = [p for p in NOTEBOOKS.glob(f"{prefix}_*.ipynb")]
    sources = [s for s in _code_cells(path)
               if re.match(rf"(def {name}\(|{name} = )", s)]
    assert len(sources) == 1, f"expected one stub cell for {name} in {path.name}"
    return _run_cells(sources)[name]


def _wrong_token_pieces(text, encoding_name):
    enc = get_encoding(encoding_name)
    return [enc.decode([token]) for token in enc.encode(text)]  # str, not bytes


def _wrong_decompress(text, table):
    for symbol, pair in table.items():  # oldest first: wrong when symbols nest
        text = text.replace(symbol, pair)
    return text


# notebook, exercise name, checker, a known wrong answer, the smallest input it fails on
EXERCISES = [
    ("00", "count_tokens", exercises.check_count_tokens,
     lambda text, encoding_name: len(text.split()), "count_tokens('Egg.', 'gpt2')"),
    ("00", "token_pieces", exercises.check_token_pieces,
     _wrong_token_pieces, "token_pieces('Egg.', 'gpt2')"),
    ("01", "count_bytes", exercises.check_count_bytes,
     lambda text: len(text), "count_bytes('é')"),
    ("01", "utf8_length", exercises.check_utf8_length,
     lambda cp: 1 if cp < 0x7F else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4,
     "utf8_length(127)"),
    ("01", "encode_utf8", exercises.check_encode_utf8,
     lambda cp: bytes([cp]) if cp < 0x80 else bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F]),
     "encode_utf8(2048)"),
    ("02", "gpt2_split", exercises.check_gpt2_split,
     lambda text: text.split(), "gpt2_split(\"YOU'D\")"),
    ("02", "number_chunks", exercises.check_number_chunks,
     lambda text: regex.findall(r"\p{N}+", text), "number_chunks('2024')"),
    ("02", "chunk_ids", exercises.check_chunk_ids,
     lambda text: list(text.encode("utf-8")), "chunk_ids('Hi')"),
    ("03", "pair_counts", exercises.check_pair_counts,
     lambda text: {pair: text.count("".join(pair)) for pair in zip(text, text[1:])},
     "pair_counts('aaa')"),
    ("03", "replace_pair", exercises.check_replace_pair,
     lambda text, pair, symbol: "".join(
         symbol if text[i:i + 2] == "".join(pair) else text[i] for i in range(len(text))),
     "replace_pair('aa', ('a', 'a'), 'Z')"),
    ("03", "decompress", exercises.check_decompress, _wrong_decompress,
     "decompress('XdXac', {'Z': 'aa', 'Y': 'ab', 'X': 'ZY'})"),
    ("03", "first_wrong_step", exercises.check_first_wrong_step, 2, "first_wrong_step"),
]
IDS = [name for _, name, *_ in EXERCISES]


def test_every_checker_of_notebooks_00_03_has_an_exercise_here():
    checkers = {name for module in (nb00, nb01, nb02, nb03) for name in dir(module)
                if name.startswith("check_")}
    assert checkers == {checker.__name__ for _, _, checker, _, _ in EXERCISES}


@pytest.mark.parametrize(("prefix", "name", "checker", "wrong", "smallest"), EXERCISES, ids=IDS)
def test_solution_passes(prefix, name, checker, wrong, smallest, capsys):
    result = checker(solutions(prefix)[name])
    assert result.passed and result.attempted
    assert result.message.startswith(f"✅ {name} passed (")
    assert result.message in capsys.readouterr().out  # the verdict is printed


@pytest.mark.parametrize(("prefix", "name", "checker", "wrong", "smallest"), EXERCISES, ids=IDS)
def test_wrong_answer_fails_on_the_smallest_input(prefix, name, checker, wrong, smallest):
    if callable(wrong):
        wrong.__name__ = name  # as if the learner had written it under the exercise's name
    result = checker(wrong)
    assert not result.passed and result.attempted
    assert result.message.startswith(f"❌ {smallest} gave the wrong answer.")
    assert "hint:" in result.message


@pytest.mark.parametrize(("prefix", "name", "checker", "wrong", "smallest"), EXERCISES, ids=IDS)
def test_untouched_stub_is_not_attempted(prefix, name, checker, wrong, smallest):
    result = checker(stub(prefix, name))
    assert not result.passed and not result.attempted
    assert result.message.startswith(f"⏳ {name}: not attempted yet")


def test_puzzle_answer_is_not_revealed():
    result = exercises.check_first_wrong_step(2)
    assert "expected" not in result.message and "got:      2" in result.message


def test_learner_errors_are_reported_not_raised():
    def count_bytes(text):
        return 1 / 0

    result = exercises.check_count_bytes(count_bytes)
    assert not result.passed and result.attempted
    assert result.message.startswith("❌ count_bytes('') raised ZeroDivisionError: division by zero")
    assert "expected: 0" in result.message


def test_missing_return_is_named():
    def count_bytes(text):
        len(text.encode("utf-8"))

    result = exercises.check_count_bytes(count_bytes)
    assert not result.attempted and "is a `return` missing?" in result.message


def test_calling_the_function_instead_of_passing_it_is_explained():
    result = exercises.check_count_bytes(3)
    assert not result.passed and "without calling it" in result.message


def test_published_example_really_holds_a_mistake_at_step_3():
    assert nb03.first_wrong_published_step() == 3


def test_a_path_without_return_names_the_smallest_such_input():
    def utf8_length(code_point):
        if code_point < 0x80:
            return 1
        if code_point < 0x800:
            return 2
        if code_point < 0x10000:
            return 3

    result = exercises.check_utf8_length(utf8_length)
    assert result.attempted and not result.passed
    assert result.message.startswith("❌ utf8_length(65536) returned None")
