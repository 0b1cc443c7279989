"""Notebook 08 (tokenizers in the wild): its checkers, its helpers and its closing figures.

As for notebooks 00-07, the solutions and the untouched stubs are read from the notebooks
themselves (``notebook_files.definitions``): each solution passes, each stub is "not attempted",
and each known wrong answer (a mistake a learner makes) fails on its smallest input with a hint.
The decoding exercise's reference is checked against the ``sentencepiece`` package itself, .
"""

from __future__ import annotations

import pytest
from notebook_files import definitions, notebook_path
from verdicts import assert_smallest

from bpe_workshop.exercises import nb08
from bpe_workshop.files.corpora import (
    LANGUAGES,
    load_english,
    load_multilingual,
    load_parallel,
    parse_parallel,
)
from bpe_workshop.tokenizers.sentencepiece_bpe import train_sentencepiece

EXERCISES = ["number_pieces", "costliest_language", "decode_pieces"]


def checker(name: str):
    return getattr(nb08, f"check_{name}")


def test_every_checker_has_an_exercise_here():
    found = {name[len("check_"):] for name in dir(nb08) if name.startswith("check_")}
    assert found == set(EXERCISES)


@pytest.mark.parametrize("name", EXERCISES)
def test_the_worked_solution_passes(name, capsys):
    solution = definitions(notebook_path("08", solutions=True))[f"my_{name}"]
    result = checker(name)(solution)
    assert result.passed and result.attempted, result.message
    assert result.message.startswith(f"✅ my_{name} passed (")
    assert result.message in capsys.readouterr().out


@pytest.mark.parametrize("name", EXERCISES)
def test_the_untouched_stub_is_not_attempted(name, capsys):
    stub = definitions(notebook_path("08"))[f"my_{name}"]
    result = checker(name)(stub)  # must not raise
    assert not result.passed and not result.attempted
    assert result.message.startswith(f"⏳ my_{name}: not attempted yet")
    assert result.message in capsys.readouterr().out


# ----- known wrong answers ---------------------------------------------------------------


def number_pieces_from_the_right(number):
    digits = str(number)
    first = len(digits) % 3 or 3  # thousands style: 1234 -> 1|234
    return [digits[:first]] + [digits[i:i + 3] for i in range(first, len(digits), 3)]


def costliest_language_by_bytes(sentences, encoding_name):
    return max(sentences, key=lambda code: len(sentences[code].encode("utf-8")))


def costliest_language_returning_the_count(sentences, encoding_name):
    from bpe_workshop import get_encoding

    encoding = get_encoding(encoding_name)
    return max(len(encoding.encode(text)) for text in sentences.values())


def decode_pieces_byte_by_byte(pieces):
    out = []
    for piece in pieces:
        if piece.startswith("<0x"):
            out.append(bytes([int(piece[3:5], 16)]).decode("utf-8", errors="replace"))
        else:
            out.append(piece.replace("▁", " "))
    return "".join(out).removeprefix(" ")


def decode_pieces_keeping_the_mark(pieces):
    text = b"".join(bytes([int(p[3:5], 16)]) if p.startswith("<0x") else p.encode() for p in pieces)
    return text.decode("utf-8")


def decode_pieces_keeping_the_first_space(pieces):
    text = b"".join(bytes([int(p[3:5], 16)]) if p.startswith("<0x") else
                    p.replace("▁", " ").encode() for p in pieces)
    return text.decode("utf-8")


def number_pieces_as_ints(number):
    return [int(piece) for piece in nb08.reference_number_pieces(number)]


def costliest_language_always_cl100k(sentences, encoding_name):
    return nb08.reference_costliest_language(sentences, "cl100k_base")  # ignores its argument


def costliest_language_with_min(sentences, encoding_name):
    from bpe_workshop import get_encoding

    encoding = get_encoding(encoding_name)
    return min(sentences, key=lambda code: len(encoding.encode(sentences[code])))


def costliest_language_last_of_ties(sentences, encoding_name):
    return nb08.reference_costliest_language(dict(reversed(sentences.items())), encoding_name)


def decode_pieces_lstrip(pieces):
    return nb08.reference_decode_pieces(pieces).lstrip()


def decode_pieces_dropping_the_first_character(pieces):
    return (nb08.reference_decode_pieces(pieces) + "x")[1:-1] if pieces else ""


WRONG = [  # (exercise, wrong answer, the smallest failing input as shown, a word of the hint)
    ("number_pieces", number_pieces_as_ints, "ints(0)", "each item must be a str"),
    ("costliest_language", costliest_language_always_cl100k, "({'ja'",
     "count TOKENS with get_encoding(encoding_name)"),
    ("costliest_language", costliest_language_with_min, "({'en': 'information'", "MOST tokens"),
    ("costliest_language", costliest_language_last_of_ties, "({'zz': 'cat', 'aa': 'dog'}",
     "the first on a tie"),
    ("decode_pieces", decode_pieces_lstrip, "(['▁', '▁two', '▁', '▁spaces'])",
     "drop the encoder's one space"),
    ("decode_pieces", decode_pieces_dropping_the_first_character, "(['▁a'])",
     "drop the encoder's one space"),
    ("number_pieces", number_pieces_from_the_right, "from_the_right(1000)", "LEFT"),
    ("costliest_language", costliest_language_by_bytes,
     "({'en': 'information', 'el': 'νερό'}, 'gpt2')", "TOKENS"),
    ("costliest_language", costliest_language_returning_the_count, "({'fr': 'Bonjour'}, 'gpt2')",
     "return a str, not a number (3)"),
    ("decode_pieces", decode_pieces_byte_by_byte, "(['▁', '<0xE4>', '<0xBD>', '<0xA0>', '好'])",
     "join them, decode once"),
    ("decode_pieces", decode_pieces_keeping_the_mark, "mark(['▁a'])", "U+2581"),
    ("decode_pieces", decode_pieces_keeping_the_first_space, "space(['▁a'])", "first piece only"),
]


@pytest.mark.parametrize(("name", "wrong", "smallest", "hint"), WRONG,
                         ids=[wrong.__name__ for _, wrong, _, _ in WRONG])
def test_a_known_wrong_answer_fails_with_its_smallest_input(name, wrong, smallest, hint, capsys):
    result = checker(name)(wrong)
    assert result.attempted and not result.passed
    assert "❌" in result.message
    assert smallest in result.message
    assert hint in result.message
    assert result.message in capsys.readouterr().out
    assert_smallest(nb08, wrong, name)


def test_answers_of_the_wrong_type_get_a_verdict_not_an_exception(capsys):
    for name in EXERCISES:
        for answer in (lambda *args: [[]], lambda *args: {1: 2}, lambda *args: 3.5):
            result = checker(name)(answer)
            assert not result.passed and "❌" in result.message
    capsys.readouterr()


# ----- the reference decoder is SentencePiece's own rule ---------------------------------


@pytest.fixture(scope="module")
def trained_sp():
    return train_sentencepiece(load_english() + load_multilingual(), vocab_size=2000)


@pytest.mark.parametrize("text", [
    *load_parallel().values(),
    "Où est le café ? 你好 🫠 2024",
    "  two  spaces, then a tab\tand 👩‍💻",
    "€5 ≠ ¥800",
])
def test_reference_decode_pieces_agrees_with_sentencepiece(trained_sp, text):
    pieces = trained_sp.encode(text, out_type=str)
    assert nb08.reference_decode_pieces(pieces) == trained_sp.decode_pieces(pieces) == text


def test_byte_fallback_writes_an_unseen_character_as_its_utf8_bytes(trained_sp):
    assert trained_sp.encode("🫠", out_type=str) == ["▁", "<0xF0>", "<0x9F>", "<0xAB>", "<0xA0>"]


def test_without_byte_fallback_an_unseen_character_is_unk_and_lost():
    sp = train_sentencepiece(load_english(), vocab_size=600, byte_fallback=False)
    assert sp.unk_id() in sp.encode("a 🫠")
    assert sp.decode(sp.encode("a 🫠")) == "a  ⁇ "  # the lost character becomes " ⁇ "


def test_asking_for_more_pieces_than_the_text_allows_is_a_value_error():
    with pytest.raises(ValueError, match="at most \\d+ pieces"):
        train_sentencepiece("low lower lowest", 400)
    with pytest.raises(TypeError):
        train_sentencepiece(b"low lower", 300)


# ----- the parallel sentences ------------------------------------------------------------


def test_the_parallel_block_has_one_line_per_language_and_no_emoji():
    parallel = load_parallel()
    assert list(parallel) == list(LANGUAGES)
    for code, sentence in parallel.items():
        assert sentence.count(".") + sentence.count("。") + sentence.count("।") >= 2, code
        assert all(ord(ch) < 0x1F000 for ch in sentence), code


def test_parse_parallel_rejects_a_malformed_line():
    with pytest.raises(ValueError, match="xx: sentence"):
        parse_parallel("Parallel sentences: x\nno colon here\n")


def costliest_language_by_words(sentences, encoding_name):
    return max(sentences, key=lambda code: len(sentences[code].split()))


@pytest.mark.parametrize("wrong", [costliest_language_by_words, lambda sentences, name: next(
    iter(sentences))], ids=["words", "first key"])
def test_a_mistake_no_known_answer_makes_gets_the_general_hint(wrong, capsys):
    """Counting words, or not counting at all, is neither the characters nor the bytes answer:
    on a fixed case where those answers are right, these are wrong."""
    result = checker("costliest_language")(wrong)
    assert result.message.splitlines()[-1] == ("   hint: count TOKENS with get_encoding("
                                               "encoding_name); return the code with the most, "
                                               "the first on a tie.")
