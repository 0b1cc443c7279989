"""Byte-level BPE: the tokenizer the GPT models use, trained or loaded from tiktoken.

Lineage: GPT-2's byte-level BPE (Radford et al. 2019) as tiktoken runs it: a regex splits text
into chunks, each chunk's UTF-8 bytes start as ids 0-255, and the present pair with the lowest
rank merges first; special tokens follow tiktoken's ``allowed_special`` rules. This class checks
its input, once, and hands the work to ``algorithm`` (``textbook`` and its fast twins) and to
``files.model_file``. Left out: Unicode normalization, byte fallback, dropout.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path

from bpe_workshop.algorithm import encode_fast, textbook, train_fast
from bpe_workshop.algorithm.chunking import encodable, training_chunks
from bpe_workshop.algorithm.patterns import (
    Deadline,
    DroppedTextWarning,
    left_out,
    left_out_message,
    pattern_label,
    resolve_pattern,
    split_text,
)
from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.algorithm.special_tokens import (
    MAX_ID,
    allowed_in,
    check_special_tokens,
    special_regex,
)
from bpe_workshop.files import model_file
from bpe_workshop.tokenizers import tiktoken_bridge
from bpe_workshop.validation import (
    ReadOnlyDict,
    describe,
    read_only,
    require_callable,
    require_choice,
    require_ids,
    require_int,
    require_str,
)

Pair = tuple[int, int]

_TRAINERS = {"fast": train_fast, "naive": textbook}  # the same merges, at different speeds
MAX_VOCAB_BYTES = 2**26  # all tokens' bytes together; real models hold a few MB (o200k: 1.4)
REMAKE = "make the tokenizer you want with tok.with_merges(new_merges)"


class ByteLevelBPE:
    """A byte-level BPE tokenizer: merges, an optional split pattern and special tokens.

    Build one with :meth:`train`, :meth:`load` or :meth:`from_tiktoken`. Its tables are
    read-only: :meth:`with_merges` makes a changed tokenizer, checked like a new one.

    >>> tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    >>> tok.merges
    {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> tok.encode("aaabdaaabac"), tok.decode([258, 100])
    ([258, 100, 258, 97, 99], 'aaabd')
    """

    def __init__(
        self,
        merges: dict[Pair, int] | None = None,
        pattern: str | None = None,
        special_tokens: dict[str, int] | None = None,
        *,
        byte_ids: list[int] | None = None,
        records: list[MergeRecord] | None = None,
        stop_message: str | None = None,
    ):
        if merges is not None and not isinstance(merges, Mapping):
            raise TypeError(f"merges must be a dict from (left id, right id) to new id, e.g. "
                            f"{{(97, 98): 256}}, got {describe(merges)}")
        # (left id, right id) -> new id, in merge order
        self._merges = ReadOnlyDict(merges or {}, REMAKE)
        # a name from patterns.PATTERN_NAMES ("gpt4") becomes its regex
        self._pattern = resolve_pattern(pattern)
        if self.pattern is not None:
            split_text("", self.pattern)  # fail now, with a clear message, if the regex is invalid
        # byte value -> id of its one-byte token; identity unless loaded from GPT-2's order
        byte_ids = range(256) if byte_ids is None else byte_ids
        if isinstance(byte_ids, (str, bytes)) or not isinstance(byte_ids, Iterable):
            raise TypeError(f"byte_ids must be a list of 256 ints, got {describe(byte_ids)}")
        self._byte_ids = tuple(require_int(i, "each of byte_ids") for i in byte_ids)
        if sorted(self.byte_ids) != list(range(256)):
            raise ValueError("byte_ids must list the ids 0..255, each once (one per byte value)")
        self._records = tuple(records or ())  # one MergeRecord per merge, from training only
        self.stop_message = stop_message
        vocab = self._build_vocab()  # id -> bytes
        if isinstance(special_tokens, Mapping) or special_tokens is None:
            special_tokens = dict(special_tokens or {})
        check_special_tokens(special_tokens, first_free_id=max(vocab) + 1)
        self._special_tokens = ReadOnlyDict(special_tokens, REMAKE)  # special token text -> id
        vocab |= {i: text.encode("utf-8") for text, i in special_tokens.items()}
        self._vocab = ReadOnlyDict(vocab, REMAKE)  # id -> bytes
        self._cache = {}  # chunk text -> ids, for encode_fast

    merges = read_only("merges", REMAKE)
    pattern = read_only("pattern", "make a tokenizer with it: ByteLevelBPE(tok.merges, pattern)")
    special_tokens = read_only("special_tokens", REMAKE)
    byte_ids = read_only("byte_ids", REMAKE)
    vocab = read_only("vocab", REMAKE)
    records = read_only("records", "they are what training did; train again to change them")

    # ----- construction -------------------------------------------------------------------

    @classmethod
    def train(
        cls,
        text: str,
        vocab_size: int,
        pattern: str | None = None,
        special_tokens: dict[str, int] | None = None,
        algorithm: str = "fast",
        progress: Callable[[int, int, MergeRecord], None] | None = None,
        tie_rule: str = "smallest_ids",
    ) -> ByteLevelBPE:
        """Learn ``vocab_size - 256`` merges from ``text``.

        ``pattern`` splits the text into chunks (merges never cross them; ``None``: one chunk);
        special tokens' text is left out. ``algorithm="naive"`` runs ``textbook``, ``"fast"``
        its twin: the same merges. ``progress(step, total, record)`` is called after each merge.
        Among equally frequent pairs ``tie_rule="smallest_ids"`` merges the smallest pair of ids,
        ``"greatest_bytes"`` the pair whose bytes compare greatest (Stanford CS336's rule).
        When no pair occurs twice any more, training stops early and warns (``stop_message``).

        >>> tok = ByteLevelBPE.train("hello hello", 258, algorithm="naive")
        >>> [r.token for r in tok.records]
        [b'el', b'hel']
        >>> ByteLevelBPE.train("hello", 100)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: vocab_size must be at least 256 (the 256 byte tokens; each merge adds one), ...
        """
        require_str(text, "text")
        vocab_size = require_int(vocab_size, "vocab_size", minimum=256, maximum=MAX_ID,
                                 example=512, why="the 256 byte tokens; each merge adds one")
        require_choice(algorithm, "algorithm", tuple(_TRAINERS))
        require_choice(tie_rule, "tie_rule", textbook.TIE_RULES)
        pattern = resolve_pattern(pattern)
        if progress is not None:
            require_callable(progress, "progress",
                             example="lambda step, total, record: print(record.log_line(total))")
        if special_tokens is not None:
            check_special_tokens(special_tokens, first_free_id=vocab_size)
        chunks, dropped = training_chunks(encodable(text), pattern, special_tokens)
        if dropped:
            warnings.warn(left_out_message(pattern, dropped), DroppedTextWarning, stacklevel=2)
        num_merges = vocab_size - 256
        records = _TRAINERS[algorithm].learn_merges(chunks, num_merges, progress=progress,
                                                    tie_rule=tie_rule)
        stop_message = None
        if len(records) < num_merges:
            stop_message = (f"training stopped after {len(records)} of {num_merges} merges: no "
                            f"pair of adjacent tokens occurs twice any more, so the vocabulary "
                            f"has {256 + len(records)} tokens instead of {vocab_size}; train on "
                            f"more text or ask for a smaller vocab_size")
            warnings.warn(stop_message, stacklevel=2)
        merges = {r.pair: r.new_id for r in records}
        return cls(merges, pattern, special_tokens, records=records, stop_message=stop_message)

    @classmethod
    def load(cls, path: str | Path) -> ByteLevelBPE:
        """Read a tokenizer written by :meth:`save`: the ``.model`` file, suffix optional. Its
        memory is about 45 bytes per byte of file at the peak (``bench_long_chunk_and_load.py``)."""
        kwargs = model_file.load_byte_level(path)
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{path}: {err}") from None

    @classmethod
    def from_tiktoken(cls, name: str) -> ByteLevelBPE:
        """tiktoken's ``"gpt2"``, ``"cl100k_base"`` or ``"o200k_base"`` (offline), its exact ids."""
        return cls(**tiktoken_bridge.load_tiktoken(name))

    def save(self, prefix: str | Path) -> tuple[Path, Path]:
        """Write ``prefix.model`` (to load back) and ``prefix.vocab`` (to read); all or nothing,
        and only what loads back as this tokenizer (checked before any file is replaced)."""
        return model_file.save_byte_level(prefix, merges=self.merges, pattern=self.pattern,
                                          special_tokens=self.special_tokens,
                                          byte_ids=self.byte_ids, vocab=self.vocab)

    def with_merges(self, merges: Mapping[Pair, int]) -> ByteLevelBPE:
        """A new tokenizer with these merges, this one's pattern, special tokens and byte order,
        checked like any new one (training records are not carried over).

        >>> tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
        >>> tok.with_merges({**tok.merges, (258, 100): 259}).encode("aaabdaaabac")
        [259, 258, 97, 99]
        >>> tok.with_merges({**tok.merges, (999, 100): 259})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: merge (999, 100) -> 259 does not fit: each merge must combine ids that ...
        """
        return ByteLevelBPE(merges, self.pattern, self.special_tokens, byte_ids=self.byte_ids)

    def renumbered(self) -> ByteLevelBPE:
        """The same tokenizer with merge ids 256, 257, ... in rank order (the file format's);
        the ranks keep their order, so it cuts every text into the same tokens.

        >>> ByteLevelBPE({(104, 105): 300, (300, 33): 310}).renumbered().merges
        {(104, 105): 256, (256, 33): 257}
        """
        ranked = sorted(self.merges.items(), key=lambda item: item[1])  # a rank is its new id
        new = {old: 256 + k for k, (_, old) in enumerate(ranked)}  # old id -> new id
        return self.with_merges({(new.get(a, a), new.get(b, b)): new[i] for (a, b), i in ranked})

    def _build_vocab(self) -> dict[int, bytes]:
        """Check every merge (ids, order, size), then let the textbook build the vocabulary."""
        length = dict.fromkeys(self.byte_ids, 1)  # id -> token length in bytes
        total = 256
        for number, (pair, new_id) in enumerate(self.merges.items(), start=1):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise TypeError(f"each key of merges must be a pair of ids such as (97, 98), "
                                f"got {describe(pair)}")
            left, right = pair
            for what, i in (("left id", left), ("right id", right), ("new id", new_id)):
                if type(i) is not int or not 0 <= i <= MAX_ID:  # build the message only if needed
                    require_int(i, f"the {what} of merge {pair!r} -> {new_id!r}", minimum=0,
                                maximum=MAX_ID)
            if left not in length or right not in length or new_id in length:
                raise ValueError(f"merge ({left}, {right}) -> {new_id} does not fit: each merge "
                                 f"must combine ids that exist already and mint a new id, in "
                                 f"merge order")
            # subtle: the rank of a merge is its new id, so a merge may only create pairs that
            # rank after it; that is what makes encode_fast's one-at-a-time merging textbook
            if new_id < left or new_id < right:
                raise ValueError(f"merge ({left}, {right}) -> {new_id} does not fit: its new id "
                                 f"must be above both ids it joins (a merge's id is its rank, so "
                                 f"later merges get larger ids); renumber it, e.g. ({left}, "
                                 f"{right}) -> {max(length) + 1}")
            length[new_id] = length[left] + length[right]
            total += length[new_id]
            if total > MAX_VOCAB_BYTES:  # merges that double a token each line: 2**45 bytes
                raise ValueError(
                    f"merge {number}, ({left}, {right}) -> {new_id}, makes a token of "
                    f"{length[new_id]:,} bytes and the vocabulary more than {MAX_VOCAB_BYTES:,} "
                    f"bytes: these merges keep doubling a token, which no trained model does")
        return textbook.build_vocab(self.merges, self.byte_ids)

    # ----- views ------------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        """Number of tokens: bytes, merges and special tokens."""
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"ByteLevelBPE(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
                f"pattern={pattern_label(self.pattern)}, "
                f"special_tokens={len(self.special_tokens)})")

    # ----- encoding ---------------------------------------------------------------------

    def encode(
        self,
        text: str,
        allowed_special: str | Collection[str] = frozenset(),
        disallowed_special: str | Collection[str] = "all",
    ) -> list[int]:
        """Encode ``text`` to ids, with tiktoken's rules for special tokens.

        Safe by default: text that merely looks like a special token (a web page quoting
        ``<|endoftext|>``) raises rather than silently becoming the control token.
        ``allowed_special`` lists those to encode as such (``"all"``: every one);
        ``disallowed_special`` those that raise (``"all"``, the default: every one not allowed);
        the others are encoded as ordinary text.

        >>> tok = ByteLevelBPE.train("ab ab ab", 257, special_tokens={"<|end|>": 300})
        >>> tok.encode("ab<|end|>", allowed_special="all")
        [256, 300]
        >>> tok.encode("<|end|>", disallowed_special=())[:2]  # as plain text: '<', '|', ...
        [60, 124]
        >>> tok.encode("ab<|end|>")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: the text contains '<|end|>', which is a special token; pass ...
        """
        require_str(text, "text")
        allowed = allowed_in(text, self.special_tokens, allowed_special, disallowed_special)
        # ordinary text between allowed special tokens, each special token as its own id
        ids, start, dropped = [], 0, {}  # dropped: text the pattern leaves out, once each
        for match in special_regex(allowed).finditer(text) if allowed else ():
            ids += self._ordinary_ids(text[start:match.start()], dropped)
            ids.append(self.special_tokens[match.group()])
            start = match.end()
        ids += self._ordinary_ids(text[start:], dropped)
        return self._warn_dropped(ids, dropped)

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode ``text`` treating special tokens as plain text (tiktoken's name for this).

        ``encode_fast`` merges each chunk's bytes: ``textbook.encode_chunks``'s ids (a property
        test checks it). A pattern that leaves text out of the chunks warns, on every call.

        >>> ByteLevelBPE({(97, 98): 256, (98, 99): 257, (97, 257): 258}).encode_ordinary("abc")
        [256, 99]
        """
        require_str(text, "text")
        dropped = {}  # the text the pattern leaves out, once each
        return self._warn_dropped(self._ordinary_ids(text, dropped), dropped)

    def _ordinary_ids(self, text: str, dropped: dict[str, None]) -> list[int]:
        text = encodable(text)
        deadline = Deadline.for_text(text)  # the split and the check for dropped text share it
        chunks = split_text(text, self.pattern, deadline)
        dropped.update(dict.fromkeys(left_out(text, chunks, self.pattern, deadline)))
        return encode_fast.encode_chunks(chunks, self.merges, self.byte_ids, self._cache)

    def _warn_dropped(self, ids: list[int], dropped: dict[str, None]) -> list[int]:
        if dropped:  # every call that drops text warns, whatever the warnings registry recalls
            caller = sys._getframe(2)  # the learner's line, as stacklevel=3 would give
            warnings.warn_explicit(left_out_message(self.pattern, list(dropped)),
                                   DroppedTextWarning, caller.f_code.co_filename, caller.f_lineno)
        return ids

    def encode_chunk(self, text_bytes: bytes) -> list[int]:
        """Encode one chunk's bytes: merge the present pair with the lowest rank (its new id).

        >>> ByteLevelBPE.train("aaabdaaabac", 259).encode_chunk(b"aaab")
        [258]
        """
        if not isinstance(text_bytes, (bytes, bytearray)):
            raise TypeError(f"text_bytes must be bytes, got {describe(text_bytes)}; pass e.g. "
                            f"text.encode('utf-8')")
        return encode_fast.encode_chunk(text_bytes, self.merges, self.byte_ids)

    # ----- decoding ---------------------------------------------------------------------

    def _checked_ids(self, ids: object) -> list[int]:
        special = sorted(self.special_tokens.values())
        extra = f" and the special token ids {special}" if special else ""
        return require_ids(ids, self.vocab, f"0..{255 + len(self.merges)}{extra}")

    def token_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """The bytes of each id, one bytes object per id (not always valid UTF-8).

        >>> ByteLevelBPE.train("aaabdaaabac", 259).token_bytes([258, 100])
        [b'aaab', b'd']
        """
        return [self.vocab[i] for i in self._checked_ids(ids)]

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The bytes the ids stand for, joined.

        >>> ByteLevelBPE().decode_bytes([104, 105])
        b'hi'
        """
        return b"".join(self.token_bytes(ids))

    def decode(self, ids: Iterable[int]) -> str:
        """Text for ``ids`` (``textbook.decode``); bytes that are not valid UTF-8 become U+FFFD.

        >>> ByteLevelBPE().decode([104, 105, 128])
        'hi�'
        >>> ByteLevelBPE().decode([999])
        Traceback (most recent call last):
        ...
        ValueError: unknown token id 999: valid ids are the ints 0..255
        """
        return textbook.decode(self._checked_ids(ids), self.vocab)
