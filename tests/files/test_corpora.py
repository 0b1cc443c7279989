"""Tests for bpe_workshop.files.corpora: the shipped corpora and the standard-library code
corpus."""

import sysconfig
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from bpe_workshop.files.corpora import (
    EXCLUDED_STDLIB_DIRS,
    data_path,
    load_english,
    load_multilingual,
    load_stdlib_code,
    split_held_out,
    stdlib_source_files,
)

STDLIB_DIR = Path(sysconfig.get_paths()["stdlib"])


# ---- data/ files ---------------------------------------------------------------------------


def test_english_size_is_within_the_stated_range():
    text = load_english()
    assert 40_000 <= len(text.encode("utf-8")) <= 60_000


def test_english_is_prose_with_contractions_dialogue_numbers_and_hyphens():
    text = load_english()
    for piece in ("can't", "it's", "we'll", '"', "1784", "forty-two", " the ", "ing", " and "):
        assert piece.lower() in text.lower(), piece
    assert text.count("\n\n") > 100  # many paragraphs


def test_english_most_frequent_byte_pairs_are_the_classic_first_merges():
    text_bytes = load_english().encode("utf-8")
    pair_counts = Counter(zip(text_bytes, text_bytes[1:]))  # (byte, byte) -> count
    top = [bytes(pair) for pair, _ in pair_counts.most_common(6)]
    assert top[0] == b"e "
    assert b"th" in top
    assert b"he" in top


def test_multilingual_size_is_within_the_stated_range():
    text = load_multilingual()
    assert 3_000 <= len(text.encode("utf-8")) <= 6_000


def _has(text, low, high):
    return any(low <= ord(ch) <= high for ch in text)


def test_multilingual_covers_cjk_rtl_cyrillic_greek_devanagari_and_hangul():
    text = load_multilingual()
    assert _has(text, 0x4E00, 0x9FFF)  # CJK unified ideographs
    assert _has(text, 0x3040, 0x30FF)  # hiragana and katakana
    assert _has(text, 0xAC00, 0xD7A3)  # Hangul syllables
    assert _has(text, 0x0600, 0x06FF)  # Arabic
    assert _has(text, 0x0590, 0x05FF)  # Hebrew
    assert _has(text, 0x0400, 0x04FF)  # Cyrillic
    assert _has(text, 0x0370, 0x03FF)  # Greek
    assert _has(text, 0x0900, 0x097F)  # Devanagari
    bidi = {unicodedata.bidirectional(ch) for ch in text}
    assert {"R", "AL"} <= bidi  # Hebrew letters are R, Arabic letters AL: right to left


def test_multilingual_has_emoji_zwj_sequences_flags_and_skin_tones():
    text = load_multilingual()
    assert "\U0001F469\u200d\U0001F4BB" in text  # woman technologist: ZWJ sequence
    assert _has(text, 0x1F1E6, 0x1F1FF)  # regional indicators (flags)
    assert _has(text, 0x1F3FB, 0x1F3FF)  # skin tone modifiers
    assert "\ufe0f" in text  # variation selector 16
    assert any(unicodedata.category(ch) == "Sm" for ch in text)  # maths symbols
    # An emoji is 4 bytes in UTF-8, a CJK character 3, an accented Latin letter 2.
    assert len("👩".encode()) == 4 and len("中".encode()) == 3


def test_corpora_are_nfc_with_unix_line_ends_on_disk():
    for name in ("english.txt", "multilingual.txt"):
        raw = data_path(name).read_bytes()
        assert unicodedata.is_normalized("NFC", raw.decode("utf-8"))
        assert b"\r" not in raw


def test_data_readme_states_the_real_sizes():
    readme = data_path("README.md").read_text(encoding="utf-8")
    for name in ("english.txt", "multilingual.txt"):
        raw = data_path(name).read_bytes()
        assert name in readme
        assert f"{len(raw):,}" in readme, f"{name}: {len(raw):,} bytes not in data/README.md"
        chars = len(raw.decode("utf-8"))
        assert f"{chars:,}" in readme, f"{name}: {chars:,} characters not in data/README.md"


def test_data_path_rejects_paths_and_names_missing_files():
    with pytest.raises(ValueError, match="plain file name"):
        data_path("../pyproject.toml")
    with pytest.raises(TypeError):
        data_path(Path("english.txt"))
    with pytest.raises(FileNotFoundError, match="english.txt"):
        data_path("no_such_corpus.txt")


# ---- standard-library code corpus ----------------------------------------------------------


def test_stdlib_selection_is_sorted_by_relative_posix_path_and_deterministic():
    files = stdlib_source_files()
    relative = [p.relative_to(STDLIB_DIR).as_posix() for p in files]
    assert len(files) > 100
    assert relative == sorted(relative)
    assert len(set(relative)) == len(relative)
    assert stdlib_source_files() == files
    assert "json/decoder.py" in relative


def test_stdlib_selection_excludes_tests_tools_and_site_packages():
    for path in stdlib_source_files():
        parts = path.relative_to(STDLIB_DIR).parts
        assert path.suffix == ".py"
        assert not EXCLUDED_STDLIB_DIRS & set(parts[:-1]), path
        path.read_bytes().decode("utf-8")  # every file is valid UTF-8


def test_stdlib_selection_list_is_a_fresh_copy():
    files = stdlib_source_files()
    files.clear()
    assert stdlib_source_files()


@pytest.mark.parametrize("max_bytes", [1, 5_000, 200_000, 1_000_000])
def test_load_stdlib_code_respects_max_bytes(max_bytes):
    code = load_stdlib_code(max_bytes)
    assert len(code.encode("utf-8")) <= max_bytes


def test_load_stdlib_code_gets_close_to_the_budget_and_keeps_files_whole():
    code = load_stdlib_code(200_000)
    assert len(code.encode("utf-8")) > 190_000
    headers = [line for line in code.splitlines() if line.startswith("# ---- file: ")]
    assert code.startswith("# ---- file: __future__.py\n")
    names = [h.removeprefix("# ---- file: ") for h in headers]
    assert names == sorted(names)
    # every file appears whole, exactly as on disk (plus a final newline if it had none)
    bodies = code.split("# ---- file: ")[1:]
    for name, body in zip(names, bodies):
        source = (STDLIB_DIR / name).read_text(encoding="utf-8")
        expected = source if source.endswith("\n") else source + "\n"
        assert body == f"{name}\n{expected}"


def test_load_stdlib_code_is_deterministic_and_default_is_200_kb():
    assert load_stdlib_code() == load_stdlib_code(200_000)


def test_load_stdlib_code_returns_everything_when_the_budget_is_larger():
    files = stdlib_source_files()
    code = load_stdlib_code(10**10)
    assert code.count("\n# ---- file: ") + 1 == len(files)


def test_load_stdlib_code_rejects_bad_budgets():
    with pytest.raises(ValueError, match="at least 1 \\(a positive size\\)"):
        load_stdlib_code(0)
    with pytest.raises(TypeError, match="int"):
        load_stdlib_code(2.5e5)


# ---- held-out split ------------------------------------------------------------------------


def test_split_held_out_is_complete_disjoint_and_cut_at_a_line_break():
    text = load_english()
    train, held_out = split_held_out(text, fraction=0.1)
    assert train + held_out == text
    assert train.endswith("\n")
    assert train and held_out
    assert 0.05 < len(held_out) / len(text) < 0.15
    assert split_held_out(text, fraction=0.1) == (train, held_out)


def test_split_held_out_small_example_pinned():
    assert split_held_out("a\nb\nc\nd\n", fraction=0.25) == ("a\nb\nc\n", "d\n")
    # no line break after the target: cut at the last one before it
    assert split_held_out("first line\nsecond", fraction=0.01) == ("first line\n", "second")


def test_split_held_out_rejects_bad_input():
    with pytest.raises(ValueError, match="line break"):
        split_held_out("no line breaks here")
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_held_out("a\nb\n", fraction=1.0)
    with pytest.raises(TypeError):
        split_held_out(b"a\nb\n")


# ---- the corpus is rich enough for the lessons ------------------------------------------


def test_training_on_english_learns_the_classic_first_merges():
    from bpe_workshop.algorithm.patterns import GPT2_PATTERN
    from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

    text = load_english()
    plain = ByteLevelBPE.train(text, vocab_size=256 + 30)
    plain_tokens = [plain.vocab[new_id] for new_id in plain.merges.values()]
    assert plain_tokens[:2] == [b"e ", b"th"]
    assert b" the " in plain_tokens and b"ing" in plain_tokens

    split = ByteLevelBPE.train(text, vocab_size=256 + 30, pattern=GPT2_PATTERN)
    split_tokens = [split.vocab[new_id] for new_id in split.merges.values()]
    for token in (b" the", b" and", b"ing", b" of"):
        assert token in split_tokens, token
