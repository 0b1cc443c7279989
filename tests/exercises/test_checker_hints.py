"""Wrong answers that once passed, and hints that described something the answer did not do.

Each answer here is a mistake a learner made in a walk of notebooks 04, 05 and 09: it must fail
with a hint about what it did. Honest answers of another type (a Counter for a dict) must pass,
a stub helper must be named, and an answer of the wrong shape gets a shape hint before any hint
about values. Generated cases: a mistake that only shows on inputs none of the fixed cases has
is found, and reported on a shrunk input.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter, OrderedDict, defaultdict

import pytest
from test_exercises import checker
from verdicts import assert_smallest, reported

from bpe_workshop import merge
from bpe_workshop.algorithm.patterns import GPT2_PATTERN, split_text
from bpe_workshop.algorithm.unigram import Unigram
from bpe_workshop.algorithm.wordpiece import WordPiece, split_words
from bpe_workshop.exercises import core, nb04, nb09
from bpe_workshop.exercises.nb04 import reference_encode


def paper_merge(before=r"(?<!\S)", escape=re.escape, count=0):
    def my_merge_vocab(pair, vocab):  # written as a learner writes it, pattern.sub on each word
        pattern = re.compile(before + escape(" ".join(pair)) + r"(?!\S)")
        return {pattern.sub(lambda _: "".join(pair), word, count=count): n
                for word, n in vocab.items()}
    return my_merge_vocab


def merge_vocab_putting_the_space_back(pair, vocab):
    pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
    return {pattern.sub(" ".join(pair), word): n for word, n in vocab.items()}


def merge_vocab_with_a_template(pair, vocab):  # the solution as it stood: a str replacement
    pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
    return {pattern.sub("".join(pair), word): n for word, n in vocab.items()}


def merge_vocab_as_a_list(pair, vocab):
    pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
    return [pattern.sub("".join(pair), word) for word in vocab]


def merge_vocab_changed_words_only(pair, vocab):
    pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(pair)) + r"(?!\S)")
    return {pattern.sub("".join(pair), word): n for word, n in vocab.items()
            if pattern.search(word)}


def word_table(words, order=None):
    def my_word_table(text):
        table = {" ".join([*word, "</w>"]): n for word, n in Counter(words(text)).items()}
        return dict(sorted(table.items(), key=order)) if order else table
    return my_word_table


def merge_matching(matches):
    def my_merge(ids, pair, new_id):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and matches(ids[i], ids[i + 1], pair):
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out
    return my_merge


def encode_chunks_with_gpt2s_pattern(text, merges, pattern):
    return [i for chunk in split_text(text, GPT2_PATTERN) for i in reference_encode(chunk, merges)]


def greedy_from_the_right(word, vocab):
    pieces, end = [], len(word)
    while end > 0:
        start = next((s for s in range(end)
                      if (word[s:end] if s == 0 else "##" + word[s:end]) in vocab), None)
        if start is None:
            return ["[UNK]"]
        pieces.insert(0, word[start:end] if start == 0 else "##" + word[start:end])
        end = start
    return pieces


def greedy_accepting_bare_pieces_inside(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if start and "##" + word[start:end] in vocab:
                pieces.append("##" + word[start:end])
                break
            if word[start:end] in vocab:  # wrong inside a word: only the ## form counts there
                pieces.append(word[start:end])
                break
        else:
            return ["[UNK]"]
        start = end
    return pieces


def unk_words_of(words):
    def my_unk_words(text, vocab):
        wordpiece = WordPiece(vocab)
        return [w for w in words(text) if wordpiece.tokenize_word(w) == ["[UNK]"]]
    return my_unk_words


def best_path_up_to_three(word, scores):
    return Unigram([(p, s) for p, s in scores.items() if len(p) <= 3])._segment(word)[0]


def viterbi(word, scores):
    return Unigram(list(scores.items()))._segment(word)


# (notebook, exercise, wrong answer, the start of the smallest failing call, words of the hint)
WRONG = [
    ("05", "merge_vocab", paper_merge(before=""), "(('e', 's'), {'ne s </w>': 1})",
     "only the lookahead is left"),
    ("05", "merge_vocab", paper_merge(escape=str), "(('\\\\', 'n'), {'\\\\ n </w>': 1})",
     "re.escape is missing"),
    ("05", "merge_vocab", merge_vocab_putting_the_space_back, "(('e', 's'), {'e s': 1})",
     "puts the space back"),
    ("05", "merge_vocab", paper_merge(count=1), "(('s', 't'), {'s t a s t </w>': 1})",
     "build the pattern from re.escape"),
    ("05", "merge_vocab", merge_vocab_with_a_template, "(('\\\\', 'n'), {'\\\\ n </w>': 1})",
     "build the pattern from re.escape"),
    ("05", "merge_vocab", merge_vocab_as_a_list, "(('e', 's'), {'e s': 1})",
     "return a dict, not a list."),
    ("05", "merge_vocab", merge_vocab_changed_words_only, "(('e', 's'), {'e st </w>': 1})",
     "build the pattern from re.escape"),
    ("05", "word_table", word_table(str.split, lambda item: -item[1]), "('c b b a')",
     "first-seen order (a dict keeps"),
    ("05", "word_table", word_table(str.split, lambda item: item[0]), "('c b b a')",
     "one key per distinct word, in first-seen order"),
    ("05", "word_table", lambda text: {" ".join([*w, "</w>"]): n for w, n in
                                       Counter(text.split()).most_common()},
     "('c b b a')", "most_common() sorts by count"),
    ("05", "word_table", word_table(lambda text: text.lower().split()), "('The end. the end!')",
     "'The' and 'the' are two different words"),
    ("05", "word_table", word_table(lambda text: re.findall(r"\w+", text)),
     "('The end. the end!')", "one key per distinct word"),
    ("04", "encode_chunks", encode_chunks_with_gpt2s_pattern, "('aa aa', {",
     "split_text(text, pattern), encode each chunk"),
    ("04", "merge", merge_matching(lambda a, b, pair: a == pair[0]), "([1, 21], (1, 2), 256)",
     "the left id alone"),
    ("04", "merge", merge_matching(lambda a, b, pair: {a, b} == set(pair)),
     "([2, 1], (1, 2), 256)", "either order"),
    ("04", "merge", lambda ids, pair, new_id: (i for i in merge(ids, pair, new_id)),
     "([], (1, 2), 256)", "returned a generator, which hands out its items only when read"),
    ("04", "merge", lambda ids, pair, new_id: (merge(ids, pair, new_id), len(ids)),
     "([], (1, 2), 256)", "not a pair (answer, extra)"),
    ("04", "merge", lambda ids, pair, new_id: " ".join(map(str, merge(ids, pair, new_id))),
     "([], (1, 2), 256)", "return a list, not one str"),
    ("09", "greedy_pieces", greedy_from_the_right, "('abc', ['ab', '##c', 'a', '##bc', '[UNK]'])",
     "take the LONGEST vocab piece at the start"),
    ("09", "greedy_pieces", greedy_accepting_bare_pieces_inside,
     "('unable', ['un', 'able', '[UNK]'])", "only the '##' form of a piece counts"),
    ("09", "greedy_pieces", lambda word, vocab: " ".join(WordPiece(vocab).tokenize_word(word)),
     "('unable', ['un', 'able', '[UNK]'])", "return a list, not one str: ['[UNK]'] rather"),
    ("09", "greedy_pieces", lambda word, vocab: WordPiece(vocab).tokenize_word(word)[0],
     "('unable', [", "['[UNK]'] rather than '[UNK]'"),
    ("09", "unk_words", unk_words_of(lambda text: list(dict.fromkeys(split_words(text)))),
     "('x un x', [", "a word that comes twice is listed twice"),
    ("09", "unk_words", unk_words_of(lambda text: split_words(text.lower())), "('X a', [",
     "does not lower-case"),
    ("09", "unk_words", lambda text, vocab: len(unk_words_of(split_words)(text, vocab)),
     "('', [", "not a number (0)"),
    ("09", "unk_words", lambda text, vocab: iter(unk_words_of(split_words)(text, vocab)),
     "('', [", "returned a list_iterator"),
    ("09", "best_path", viterbi, "('▁', {", "return only the answer, not a pair (answer, extra)"),
    ("09", "best_path", lambda word, scores: viterbi(word, scores)[1], "('▁', {",
     "not a number (-3.0)"),
]


@pytest.mark.parametrize(("nn", "name", "wrong", "smallest", "hint"), WRONG,
                         ids=[f"{nn}-{name}-{k}" for k, (nn, name, *_) in enumerate(WRONG)])
def test_a_wrong_answer_gets_a_hint_about_what_it_did(nn, name, wrong, smallest, hint, capsys):
    wrong.__name__ = f"my_{name}"
    result = checker(nn, name)(wrong)
    assert result.attempted and not result.passed, result.message
    assert result.message.startswith(f"❌ my_{name}{smallest}"), result.message
    assert hint in result.message.split("hint:")[1], result.message
    assert result.message in capsys.readouterr().out
    assert_smallest(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), wrong, name)


def test_the_best_path_checker_finds_a_viterbi_that_never_tries_long_pieces(capsys):
    best_path_up_to_three.__name__ = "my_best_path"
    result, args, (_, inputs, _) = reported(nb09, best_path_up_to_three, "best_path")
    assert not result.passed and "never longer than 3 characters" in result.message
    assert args not in inputs  # a generated case: the fixed words are cut in pieces of 3 or fewer
    assert_smallest(nb09, best_path_up_to_three, "best_path")  # and shrunk


def test_a_mistake_only_generated_cases_show_is_reported_on_a_shrunk_input():
    def my_merge(ids, pair, new_id):  # right on short lists, which are all the fixed cases test
        return merge(ids, pair, new_id) if len(ids) < 13 else list(ids)

    result, args, (_, inputs, _) = reported(nb04, my_merge, "merge")
    assert not result.passed and args not in inputs, result.message
    assert result.message.startswith(f"❌ my_merge({args[0]!r}, ")
    ids, pair, new_id = args
    assert len(ids) == 13  # shrunk to the shortest length that shows the mistake
    assert merge(ids, pair, new_id) != ids  # and the mistake shows on it: the pair is there
    assert_smallest(nb04, my_merge, "merge")  # smaller than the generated input it came from


@pytest.mark.parametrize("answer", [
    lambda ids: Counter(zip(ids, ids[1:])),
    lambda ids: OrderedDict(Counter(zip(ids, ids[1:]))),
    lambda ids: defaultdict(int, Counter(zip(ids, ids[1:]))),
], ids=["Counter", "OrderedDict", "defaultdict"])
def test_an_honest_dict_of_another_type_passes(answer):
    answer.__name__ = "my_get_stats"
    assert checker("04", "get_stats")(answer).passed


def test_a_word_table_counted_with_a_counter_passes():
    def my_word_table(text):
        return Counter(" ".join([*word, "</w>"]) for word in text.split())

    assert checker("05", "word_table")(my_word_table).passed


def test_a_dict_whose_equality_lies_is_still_refused():
    class Lying(dict):
        def __eq__(self, other):
            return True

        __hash__ = None

    result = checker("04", "get_stats")(lambda ids: Lying())
    assert not result.passed and "return plain Python values" in result.message


def test_an_answer_that_calls_a_stub_is_not_attempted_yet_rather_than_wrong():
    def my_get_stats(ids):
        raise NotImplementedError  # the learner's earlier exercise, not done yet

    def my_encode(text, merges):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(my_get_stats(ids), key=lambda p: merges.get(p, float("inf")))
            if pair not in merges:
                break
            ids = merge(ids, pair, merges[pair])
        return ids

    result = checker("04", "encode")(my_encode)
    assert not result.attempted and result.message.startswith(
        "⏳ my_encode: not attempted yet — it, or a function it calls, is still a stub")


def test_the_values_are_right_only_when_they_are():
    result = checker("09", "greedy_pieces")(
        lambda word, vocab: tuple(WordPiece(vocab).tokenize_word(word)))
    assert "hint: the values are right, but return a list, not a tuple." in result.message
    result = checker("09", "greedy_pieces")(
        lambda word, vocab: (*WordPiece(vocab).tokenize_word(word), "x"))
    assert "hint: return a list, not a tuple." in result.message


@pytest.mark.parametrize("isolate", [True, False], ids=["child", "kernel"])
def test_the_checkers_of_notebook_09_build_their_cases_from_tuples(isolate, monkeypatch):
    monkeypatch.setattr(core, "ISOLATE", isolate and core.ISOLATE)  # kernel: as on Windows
    assert isinstance(nb09.TOY, tuple) and isinstance(nb09.SCORES, tuple)

    def my_greedy_pieces(word, vocab):
        vocab.clear()  # a learner's function that empties the vocabulary it was given
        return ["[UNK]"]

    result = checker("09", "greedy_pieces")(my_greedy_pieces)  # the case shown as it was given
    assert result.message.startswith("❌ my_greedy_pieces('abc', ['ab', '##c', 'a', '##bc', "
                                     "'[UNK]']) gave the wrong answer."), result.message
    assert "##aff" in nb09.TOY and checker("09", "greedy_pieces")(
        lambda word, vocab: WordPiece(vocab).tokenize_word(word)).passed


def test_a_right_answer_passes_when_no_time_is_left_for_generated_cases(monkeypatch):
    monkeypatch.setattr(core, "CHECK_LIMIT", 3.0)  # no room for a whole call after the fixed ones
    result = checker("04", "merge")(merge)
    assert result.passed
    assert "and 0 generated ones, when the check's time ran out" in result.message, result
    monkeypatch.undo()  # the check's own time: every generated case runs
    assert "and 200 generated ones)" in checker("04", "merge")(merge).message
