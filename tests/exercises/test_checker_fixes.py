"""What two more new-learner walks found: a slow right answer failed as an endless loop,
lower-cased answers and float counts that passed, unsound ranks tables in notebook 06's generated
cases, '_' split as a letter, and hints about something the answer did not do.

Each wrong answer here fails on the input shown; its right counterpart passes.
"""

from __future__ import annotations

import functools
import importlib
import random
import re
import time
from collections import Counter

import pytest
from test_exercises import checker
from verdicts import assert_smallest, reported

from bpe_workshop.algorithm.textbook import decode, get_stats, merge
from bpe_workshop.algorithm.word_paper import merge_vocab
from bpe_workshop.algorithm.wordpiece import WordPiece
from bpe_workshop.exercises import core, nb02, nb04, nb05, nb06, nb07, nb08, nb09
from bpe_workshop.files.offline import get_encoding


def sleeping(seconds, answer):
    def my_answer(*args):
        time.sleep(seconds)
        return answer(*args)
    return my_answer


@pytest.fixture
def short_check(monkeypatch):
    """A check of 1 s whose calls may take 0.5 s each: generated cases start in its first half.
    GPT-2's pattern has split a text beyond ASCII before the check (the first such split in a
    process takes about 0.4 s more, as in a notebook that has split text already), so a call's
    time is its own sleep."""
    nb02.reference_gpt2_split("warm é")
    monkeypatch.setattr(core, "TIME_LIMIT", 0.5)
    monkeypatch.setattr(core, "CHECK_LIMIT", 1.0)


def test_a_slow_right_answer_passes_on_every_fixed_case(short_check):
    result = checker("02", "gpt2_split")(sleeping(0.1, nb02.reference_gpt2_split))  # 11 cases
    assert result.passed, result.message
    assert result.message.endswith("(11 cases and 0 generated ones, when the check's time ran "
                                   "out)")


def test_an_answer_too_slow_for_the_check_is_not_called_an_endless_loop(short_check):
    result = checker("02", "gpt2_split")(sleeping(0.25, nb02.reference_gpt2_split))
    assert "was still running when the check's time ran out (1 s for all its cases): it is " \
           "slow, not necessarily wrong" in result.message, result.message
    assert "loop" not in result.message and "stopped after" not in result.message


def test_an_endless_loop_on_a_fixed_case_gets_the_whole_limit_of_one_call(short_check):
    def my_gpt2_split(text):
        while text != "Hi":
            pass
        return [text]

    result = checker("02", "gpt2_split")(my_gpt2_split)  # "" and "Hi" come first, then a loop
    assert "did not finish: it was stopped after 0.5 s, the limit being 0.5 s" in result.message
    assert "loop that never ends" in result.message


def lower_cased(reference, *keyed):
    """``reference`` on the lower-cased text (the dict keys too, for merge_vocab)."""
    def my_answer(first, second):
        if keyed:
            return reference(first, {key.lower(): n for key, n in second.items()})
        return reference(first.lower(), second)
    return my_answer


def greedy_on_words_of(split):
    return lambda text, vocab: [w for w in split(text)
                                if WordPiece(vocab).tokenize_word(w) == ["[UNK]"]]


def replay_rightmost_first(token, ranks):
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        _, i = min((ranks.get(parts[i] + parts[i + 1], ranks[token]), -i)
                   for i in range(len(parts) - 1))
        parts[-i:-i + 2] = [parts[-i] + parts[-i + 1]]
    return tuple(parts)


def longest_tokens_deleting(vocab, k):
    ids = []
    while vocab and len(ids) < k:
        best = min(vocab, key=lambda i: (-len(vocab[i]), i))
        ids.append(best)
        del vocab[best]
    return ids


# (notebook, exercise, wrong answer, the start of the smallest failing call, words of the hint)
WRONG = [
    ("04", "encode", lower_cased(nb04.reference_encode), "('Aa', {", ""),
    ("05", "merge_vocab", lower_cased(merge_vocab, "keys"), "(('e', 's'), {'E s t </w>': 1})",
     ""),
    ("05", "apply_merges", lower_cased(nb05.reference_apply_merges), "('Lowest', [", ""),
    ("09", "greedy_pieces", lower_cased(nb09.reference_greedy_pieces), "('Unable', [", ""),
    ("09", "best_path", lower_cased(nb09.reference_best_path), "('▁Hat', {", ""),
    ("04", "get_stats", lambda ids: {p: float(n) for p, n in get_stats(ids).items()},
     "([1, 2])", "each value must be an int, but one of yours is a float (1.0)"),
    ("09", "unk_words", greedy_on_words_of(lambda text: re.findall(r"\w+|[^\w\s]", text)),
     "('a_b', [", "split_words(text) (whitespace AND each punctuation character)"),
    ("06", "recover_pair", replay_rightmost_first, "(b'aaa', {b'a': 0, b'aa': 1, b'aaa': 2})",
     "the leftmost if that pair stands twice"),
    ("06", "recover_pair", lambda token, ranks: iter(nb06.reference_recover_pair(token, ranks)),
     "(b'aaa', {", "never equals a tuple: return a tuple, e.g. tuple(...)."),
]


@pytest.mark.parametrize(("nn", "name", "wrong", "smallest", "hint"), WRONG,
                         ids=[f"{nn}-{name}-{k}" for k, (nn, name, *_) in enumerate(WRONG)])
def test_a_wrong_answer_fails_on_the_case_that_shows_it(nn, name, wrong, smallest, hint, capsys):
    wrong.__name__ = f"my_{name}"
    result = checker(nn, name)(wrong)
    assert not result.passed and result.message.startswith(f"❌ my_{name}{smallest}"), \
        result.message
    assert hint in result.message.split("hint:")[1], result.message
    assert result.message in capsys.readouterr().out
    assert_smallest(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), wrong, name)


def replay_in_rank_order(token, ranks):
    """A right answer: every merge below the token's rank, in rank order, leftmost first."""
    parts = [bytes([b]) for b in token]
    for merged in sorted((t for t in ranks if len(t) > 1 and ranks[t] < ranks[token]),
                         key=ranks.get):
        i = 0
        while i < len(parts) - 1:
            if parts[i] + parts[i + 1] == merged:
                parts[i:i + 2] = [merged]
            i += 1
    return tuple(parts)


def merge_vocab_with_an_escaped_template(pair, vocab):
    pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
    return {pattern.sub("".join(pair).replace("\\", "\\\\"), word): n for word, n in vocab.items()}


@pytest.mark.parametrize(("nn", "name", "right"), [
    ("06", "recover_pair", replay_in_rank_order),
    ("07", "longest_tokens", longest_tokens_deleting),  # right, though it empties its argument
    ("05", "merge_vocab", merge_vocab_with_an_escaped_template),
    ("05", "merge_vocab", nb05.merge_vocab_by()),  # a function replacement, as the stub has it
    ("04", "get_stats", get_stats),
    ("09", "unk_words", greedy_on_words_of(nb09.split_words)),
])
def test_the_right_answer_passes(nn, name, right):
    assert checker(nn, name)(right).passed


def test_the_generated_ranks_tables_are_sound_and_the_reference_takes_them_all():
    rng = random.Random(5)
    for size in [*range(1, 10)] * 60:
        token, ranks = nb06.token_and_ranks(rng, size)
        assert nb06.sound(token, ranks), (token, ranks)
        assert b"".join(nb06.reference_recover_pair(token, ranks)) == token
    assert not nb06.sound(b"cabaa", {b"a": 0, b"b": 1, b"c": 2, b"ba": 3, b"ca": 4, b"bca": 5,
                                     b"cab": 6, b"aa": 7, b"cabaa": 8})  # the walk's table


def test_a_ranks_table_is_shrunk_to_a_smaller_sound_one():
    def my_recover_pair(token, ranks):  # right while no token is longer than 4 bytes of abc
        right = nb06.reference_recover_pair(token, ranks)
        return right if max(map(len, ranks)) < 5 or set(token) - set(b"abc") else right[::-1]

    result, (token, ranks), (_, inputs, _) = reported(nb06, my_recover_pair, "recover_pair")
    assert not result.passed and (token, ranks) not in inputs, result.message
    assert result.message.startswith(f"❌ my_recover_pair({token!r}, ")
    # subtle: dropping a token's pieces leaves the long token in, and this answer wrong; only
    # the `valid` filter keeps the table one that BPE can make
    assert max(map(len, ranks)) >= 5 and nb06.sound(token, ranks), result.message
    assert_smallest(nb06, my_recover_pair, "recover_pair")  # smaller than the generated one


def test_notebook_06_never_reads_tiktokens_own_ranks(monkeypatch):
    monkeypatch.setattr(get_encoding("gpt2"), "_mergeable_ranks", {})  # tiktoken's shared dict
    nb06._gpt2_alphabet.cache_clear()
    try:
        assert checker("06", "gpt2_byte_to_char")(nb06.reference_gpt2_byte_to_char).passed
        assert checker("06", "recover_pair")(nb06.reference_recover_pair).passed
    finally:
        nb06._gpt2_alphabet.cache_clear()


def encode_by(choose):
    """An encoder that merges the pair ``choose(present pairs, ids, merges)`` each time."""
    def my_encode(text, merges):
        ids = list(text.encode("utf-8"))
        while present := [pair for pair in get_stats(ids) if pair in merges]:
            pair = choose(present, ids, merges)
            ids = merge(ids, pair, merges[pair])
        return ids
    return my_encode


def greedy_trying(ends, first_mark=""):
    def my_greedy_pieces(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            mark = first_mark if start == 0 else "##"
            end = next((e for e in ends(word, start) if mark + word[start:e] in vocab), None)
            if end is None:
                return ["[UNK]"]
            pieces, start = [*pieces, mark + word[start:end]], end
        return pieces
    return my_greedy_pieces


def costliest_under(fixed):
    return lambda sentences, _: nb08.reference_costliest_language(sentences, fixed)


def decode_pieces_by(byte, mark=" ", first=lambda pieces: pieces):
    def my_decode_pieces(pieces):
        pieces = first(pieces)
        text = b"".join(bytes([byte(p[3:5])]) if p.startswith("<0x") else
                        p.replace("▁", mark).encode() for p in pieces)
        return text.decode("utf-8", errors="replace").removeprefix(" ")
    return my_decode_pieces


def padded_merge_vocab(pair, vocab):
    a, b = pair
    return {f" {w} ".replace(f" {a} {b} ", f" {a}{b} ")[1:-1]: n for w, n in vocab.items()}


# (notebook, exercise, wrong answer, words its hint must not hold, words it must hold)
OFF_TARGET = [
    ("04", "merge", lambda ids, pair, new_id: merge(ids, pair, new_id + 1), "string",
     "your answer holds 257, which is neither an id of the input nor new_id"),
    ("04", "get_stats", lambda ids: {p: n for p, n in get_stats(ids).items() if n > 1},
     "last pair", "every position i"),
    ("04", "decode", lambda ids, vocab: decode(ids, vocab).lower(), "errors=", "join them ALL"),
    ("04", "decode", lambda ids, vocab: bytes(ids).decode("utf-8", "replace"), "errors=",
     "join them ALL"),
    ("04", "encode", encode_by(lambda present, ids, merges: max(
        present, key=lambda pair: get_stats(ids)[pair])), "leftmost", "smallest rank"),
    ("04", "encode", encode_by(lambda present, ids, merges: max(present, key=merges.get)),
     "leftmost", "smallest rank"),
    ("04", "encode", lambda text, merges: functools.reduce(
        lambda ids, item: merge(ids, *item), reversed(merges.items()), list(text.encode())),
     "leftmost", "smallest rank"),
    ("05", "merge_vocab", padded_merge_vocab, "count=1", "build the pattern"),
    ("05", "merge_vocab", lambda pair, vocab: dict.fromkeys(merge_vocab(pair, vocab), 1),
     "build the pattern", "the words are right, but not their counts"),
    ("09", "greedy_pieces", greedy_trying(lambda word, start: range(len(word), start, -1), "##"),
     "write '##' in front", "LONGEST"),
    ("09", "greedy_pieces", greedy_trying(lambda word, start: range(len(word) - 1, start, -1)),
     "write '##' in front", "LONGEST"),
    ("02", "gpt2_split", lambda text: [c.strip() for c in nb02.reference_gpt2_split(text)],
     "split", "join back to the text exactly"),
    ("02", "gpt2_split", lambda text: nb02.reference_gpt2_split(text)[:-1], "split",
     "join back to the text exactly"),
    ("07", "most_frequent", lambda ids, k: sorted(Counter(ids).items(), key=lambda item: (
        -item[1], -item[0]))[:k], "most_common", "among equal counts the smaller id first"),
    ("08", "costliest_language", costliest_under("o200k_base"), "max, not min",
     "count TOKENS with get_encoding("),
    ("08", "costliest_language", costliest_under("gpt2"), "characters",
     "count TOKENS with get_encoding(encoding_name)"),
    ("08", "decode_pieces", decode_pieces_by(int), "add_dummy_prefix", "int('E4', 16)"),
    ("08", "decode_pieces", decode_pieces_by(lambda digits: int(digits, 16), first=lambda p: [
        p[0][1:], *p[1:]]), "add_dummy_prefix", "int('E4', 16)"),
    ("08", "decode_pieces", decode_pieces_by(lambda digits: int(digits, 16), mark=""),
     "add_dummy_prefix", "int('E4', 16)"),
]


@pytest.mark.parametrize(("nn", "name", "wrong", "not_said", "said"), OFF_TARGET,
                         ids=[f"{nn}-{name}-{k}" for k, (nn, name, *_) in enumerate(OFF_TARGET)])
def test_a_hint_names_only_what_the_answer_did(nn, name, wrong, not_said, said):
    result = checker(nn, name)(wrong)
    assert not result.passed, result.message
    hint = result.message.split("hint:")[1]
    assert said in hint and not_said not in hint, result.message


def test_a_value_passed_instead_of_a_function_is_told_with_the_checkers_name():
    assert "check_merge(x) rather than check_merge(x())" in checker("04", "merge")(3).message


@pytest.mark.parametrize("errors", ["ignore", "backslashreplace"])
def test_decode_with_another_errors_mode_is_told_which_one(errors):
    result = checker("04", "decode")(
        lambda ids, vocab: b"".join(vocab[i] for i in ids).decode("utf-8", errors))
    assert not result.passed and 'hint: decode with errors="replace"' in result.message


@pytest.mark.parametrize("name", ["longest_tokens", "most_frequent"])
def test_one_too_many_is_told_to_keep_k(name):
    reference = getattr(nb07, f"reference_{name}")
    result = checker("07", name)(lambda table, k: reference(table, k + 1))
    assert not result.passed and "[:k]" in result.message.split("hint:")[1]
