"""Byte-level BPE: the tokenizer the GPT models use, trained or loaded from tiktoken.

Lineage: GPT-2's byte-level BPE (Radford et al. 2019) as tiktoken runs it: text is split into
chunks by a regex (optional here), each chunk's UTF-8 bytes start as ids 0-255, and learned
merges combine adjacent ids into new ones. Encoding merges the present pair with the lowest
rank first; special tokens follow tiktoken's ``allowed_special`` / ``disallowed_special`` rules.
Trainers live in ``train_naive`` / ``train_fast``, the model file in ``model_file``, the merge
recovery from tiktoken's ranks in ``tiktoken_bridge``.
Left out: Unicode normalization, byte fallback tricks of other tokenizers, dropout.

Lone surrogates (``"\\ud800"``, which Python allows in a str but UTF-8 cannot hold) are handled
as tiktoken handles them: the text goes through UTF-16 with ``surrogatepass`` and back with
``errors="replace"``, so a surrogate pair written as two code points becomes the one character
it stands for, and each lone surrogate becomes U+FFFD (the replacement character).
"""

from __future__ import annotations

import heapq
import warnings
from collections.abc import Callable, Collection, Iterable
from itertools import chain
from pathlib import Path

import regex

from bpe_workshop import model_file
from bpe_workshop.patterns import compile_pattern
from bpe_workshop.records import MergeRecord

Pair = tuple[int, int]

_CACHE_MAX_ENTRIES = 100_000  # chunk cache size before it is emptied and starts again
_CACHE_MAX_CHUNK = 256  # longer chunks are not cached (with pattern=None the chunk is the text)
_HEAP_MIN_LEN = 64  # chunks at least this long use the heap merge loop (same result)
_NOT_A_MERGE = 1 << 62  # the rank of a pair never learned: "infinity", above every id


def replace_lone_surrogates(text: str) -> str:
    """Make ``text`` encodable as UTF-8 the way tiktoken does.

    >>> replace_lone_surrogates("a\\ud800b")
    'a�b'
    >>> replace_lone_surrogates("\\ud83d\\ude00") == "😀"  # a pair written as two code points
    True
    """
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _check_text(text: object, what: str = "text") -> None:
    if not isinstance(text, str):
        hint = " (decode bytes first, e.g. data.decode('utf-8'))" if isinstance(
            text, (bytes, bytearray)) else ""
        raise TypeError(f"{what} must be a str, got {type(text).__name__}{hint}")


def _encodable(text: str) -> str:
    """``text`` itself when it is valid UTF-8 material, else with lone surrogates replaced."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return replace_lone_surrogates(text)
    return text


def _check_special_tokens(special_tokens: object, first_free_id: int) -> None:
    """Special tokens must be ``{text: id}`` with ids of their own, from ``first_free_id`` up."""
    if not isinstance(special_tokens, dict):
        raise TypeError(f"special_tokens must be a dict from token text to id, e.g. "
                        f"{{'<|endoftext|>': {first_free_id}}}, got {type(special_tokens).__name__}")
    owner = {}  # id -> special token text
    for text, i in special_tokens.items():
        if not isinstance(text, str) or not text:
            raise TypeError(f"special token texts must be non-empty str, got {text!r}")
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"the id of special token {text!r} must be an int, got {i!r}")
        if i < first_free_id:
            raise ValueError(
                f"special token {text!r} has id {i}, which collides with the byte and merge ids "
                f"0..{first_free_id - 1}; give it an id of its own, e.g. {{{text!r}: {first_free_id}}}"
            )
        if i in owner:
            raise ValueError(f"special tokens {owner[i]!r} and {text!r} both have id {i}; "
                             f"give each one its own id")
        owner[i] = text


def _special_regex(tokens: Iterable[str]) -> regex.Pattern:
    # longest first, so that a special token that contains another one wins
    return regex.compile("|".join(regex.escape(t) for t in sorted(tokens, key=len, reverse=True)))



def _training_chunks(text: str, pattern: str | None,
                     special_tokens: dict[str, int] | None) -> list[bytes]:
    """The text between special tokens, split by the pattern, as UTF-8 bytes, in text order.

    A corpus repeats the same few chunks over and over (8 MB of Python source: about 2 million
    chunks, 38 thousand distinct), so each distinct chunk is encoded once and every repeat
    refers to that one bytes object.

    >>> from bpe_workshop.patterns import WHITESPACE_PATTERN
    >>> _training_chunks("ab ab<|end|>ab", WHITESPACE_PATTERN, {"<|end|>": 300})
    [b'ab', b' ', b'ab', b'ab']
    """
    pieces = _special_regex(special_tokens).split(text) if special_tokens else [text]
    as_bytes = {}  # chunk text -> its UTF-8 bytes, one object per distinct chunk
    chunks = []
    for piece in pieces:
        if pattern is None:
            texts = [piece]
        else:  # matches one at a time, so only the distinct chunk texts are kept
            texts = (match.group() for match in compile_pattern(pattern).finditer(piece))
        for chunk in texts:
            text_bytes = as_bytes.get(chunk)
            if text_bytes is None:
                text_bytes = as_bytes[chunk] = chunk.encode("utf-8")
            chunks.append(text_bytes)
    return chunks

class ByteLevelBPE:
    """A byte-level BPE tokenizer: merges, an optional split pattern and special tokens.

    Build one with :meth:`train`, :meth:`load` or :meth:`from_tiktoken`.

    >>> tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    >>> tok.merges
    {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> tok.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    >>> tok.decode([258, 100])
    'aaabd'
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
        self.merges = dict(merges or {})  # (left id, right id) -> new id, in merge order
        self.pattern = pattern
        # byte value -> id of its one-byte token; identity unless loaded from GPT-2's order
        self.byte_ids = list(range(256)) if byte_ids is None else list(byte_ids)
        self.records = list(records or [])  # one MergeRecord per merge, from training only
        self.stop_message = stop_message
        if pattern is not None:
            compile_pattern(pattern)  # fail now, with a clear message, if the regex is invalid
        self._check_byte_ids()
        self.vocab = self._build_vocab()  # id -> bytes
        self.special_tokens = {}  # special token text -> id
        self._register_special_tokens(special_tokens or {})
        self._cache = {}  # chunk text -> ids
        # token bytes -> id, to encode a chunk that is one whole token at once
        self._token_id = {token: i for i, token in self.vocab.items()
                          if i not in self.inverse_special}

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
    ) -> ByteLevelBPE:
        """Learn ``vocab_size - 256`` merges from ``text``.

        ``pattern`` splits the text into chunks first (merges never cross chunks); ``None``
        trains on the whole text as one sequence. Text equal to a special token is left out of
        training. ``algorithm="naive"`` runs the readable textbook loop, ``"fast"`` the
        incremental trainer; both learn the same merges. ``progress(step, total, record)`` is
        called after every merge. If no pair occurs twice before the vocabulary is full,
        training stops early: ``stop_message`` says so and a warning is issued.

        >>> tok = ByteLevelBPE.train("hello hello", 258, algorithm="naive")
        >>> [r.token for r in tok.records]
        [b'el', b'hel']
        >>> ByteLevelBPE.train("hello", 100)
        Traceback (most recent call last):
        ...
        ValueError: vocab_size must be at least 256 (the 256 byte tokens; each merge adds one), got 100; pass e.g. vocab_size=512
        """
        _check_text(text)
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
            raise TypeError(
                f"vocab_size must be an int, got {type(vocab_size).__name__} {vocab_size!r}; "
                f"pass e.g. vocab_size=512"
            )
        if vocab_size < 256:
            raise ValueError(
                f"vocab_size must be at least 256 (the 256 byte tokens; each merge adds one), "
                f"got {vocab_size}; pass e.g. vocab_size=512"
            )
        if algorithm == "fast":
            from bpe_workshop.train_fast import learn_merges
        elif algorithm == "naive":
            from bpe_workshop.train_naive import learn_merges
        else:
            raise ValueError(f"algorithm must be 'fast' or 'naive', got {algorithm!r}")
        if pattern is not None:
            compile_pattern(pattern)
        if special_tokens is not None:
            _check_special_tokens(special_tokens, first_free_id=vocab_size)
        chunks = _training_chunks(_encodable(text), pattern, special_tokens)
        num_merges = vocab_size - 256
        records = learn_merges(chunks, num_merges, progress=progress)
        stop_message = None
        if len(records) < num_merges:
            stop_message = (
                f"training stopped after {len(records)} of {num_merges} merges: no pair of "
                f"adjacent tokens occurs twice any more, so the vocabulary has "
                f"{256 + len(records)} tokens instead of {vocab_size}; train on more text "
                f"or ask for a smaller vocab_size"
            )
            warnings.warn(stop_message, stacklevel=2)
        merges = {r.pair: r.new_id for r in records}
        return cls(merges, pattern, special_tokens, records=records, stop_message=stop_message)

    @classmethod
    def load(cls, path: str | Path) -> ByteLevelBPE:
        """Read a tokenizer written by :meth:`save`: the ``.model`` file, suffix optional.

        A damaged file raises ValueError naming the file (and the line, where it is one line).
        """
        kwargs = model_file.load_byte_level(path)
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{path}: {err}") from None

    @classmethod
    def from_tiktoken(cls, name: str) -> ByteLevelBPE:
        """The tokenizer of tiktoken's ``"gpt2"`` or ``"cl100k_base"``, giving its exact ids.

        Works offline (see ``bpe_workshop.offline``); the merges are recovered from the ranks.
        """
        from bpe_workshop.tiktoken_bridge import from_tiktoken

        return from_tiktoken(name)

    def save(self, prefix: str | Path) -> tuple[Path, Path]:
        """Write ``prefix.model`` (to load back) and ``prefix.vocab`` (to read).

        ``prefix`` may end in ``.model``. Files saved before are replaced only once both new
        ones are complete, so a failed save leaves them as they were.
        """
        return model_file.save_byte_level(prefix, merges=self.merges, pattern=self.pattern,
                                          special_tokens=self.special_tokens,
                                          byte_ids=self.byte_ids, vocab=self.vocab)

    def _check_byte_ids(self) -> None:
        if sorted(self.byte_ids) != list(range(256)):
            raise ValueError("byte_ids must list the ids 0..255, each once (one per byte value)")

    def _build_vocab(self) -> dict[int, bytes]:
        vocab = {i: bytes([b]) for b, i in enumerate(self.byte_ids)}  # id -> bytes
        for (left, right), new_id in self.merges.items():
            if left not in vocab or right not in vocab or new_id in vocab:
                raise ValueError(
                    f"merge ({left}, {right}) -> {new_id} does not fit: each merge must combine "
                    f"ids that exist already and mint a new id, in merge order"
                )
            vocab[new_id] = vocab[left] + vocab[right]
        return vocab

    def _register_special_tokens(self, special_tokens: dict[str, int]) -> None:
        _check_special_tokens(special_tokens, first_free_id=max(self.vocab) + 1)
        for text, i in special_tokens.items():
            self.special_tokens[text] = i
            self.vocab[i] = text.encode("utf-8")

    # ----- views ------------------------------------------------------------------------

    @property
    def inverse_special(self) -> dict[int, str]:
        """id -> special token text."""
        return {i: text for text, i in self.special_tokens.items()}

    @property
    def next_free_id(self) -> int:
        """The smallest id above every id in use."""
        return max(self.vocab) + 1

    @property
    def vocab_size(self) -> int:
        """Number of tokens: bytes, merges and special tokens."""
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"ByteLevelBPE(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
                f"pattern={'None' if self.pattern is None else 'set'}, "
                f"special_tokens={len(self.special_tokens)})")

    # ----- encoding ---------------------------------------------------------------------

    def encode(
        self,
        text: str,
        allowed_special: str | Collection[str] = frozenset(),
        disallowed_special: str | Collection[str] = "all",
    ) -> list[int]:
        """Encode ``text`` to ids, with tiktoken's rules for special tokens.

        Special tokens are safe by default: text that happens to look like one (say, a web
        page quoting ``<|endoftext|>``) must not silently become the control token, so it raises.
        ``allowed_special`` lists the special tokens to encode as such (``"all"`` for every one);
        ``disallowed_special`` lists those whose appearance raises ValueError (``"all"``, the
        default, means every special token not allowed); special tokens in neither are encoded
        as ordinary text.

        >>> tok = ByteLevelBPE.train("ab ab ab", 257, special_tokens={"<|end|>": 300})
        >>> tok.encode("ab<|end|>", allowed_special="all")
        [256, 300]
        >>> tok.encode("ab<|end|>", disallowed_special=())[:3]
        [256, 60, 124]
        >>> tok.encode("ab<|end|>")
        Traceback (most recent call last):
        ...
        ValueError: the text contains '<|end|>', which is a special token; pass allowed_special={'<|end|>'} (or "all") to encode it as the special token, or disallowed_special=() to encode it as plain text
        """
        _check_text(text)
        for name, value in (("allowed_special", allowed_special),
                            ("disallowed_special", disallowed_special)):
            if isinstance(value, str) and value != "all":
                raise TypeError(f'{name} must be "all" or a set of special token texts, '
                                f"e.g. {name}={{{value!r}}}, got the str {value!r}")
        if allowed_special == "all":
            allowed_special = set(self.special_tokens)
        if disallowed_special == "all":
            disallowed_special = set(self.special_tokens) - set(allowed_special)
        if disallowed_special:
            match = _special_regex(disallowed_special).search(text)
            if match:
                token = match.group()
                raise ValueError(
                    f"the text contains {token!r}, which is a special token; pass "
                    f"allowed_special={{{token!r}}} (or \"all\") to encode it as the special "
                    f"token, or disallowed_special=() to encode it as plain text"
                )
        allowed = [t for t in allowed_special if t in self.special_tokens]
        if not allowed:
            return self.encode_ordinary(text)
        # ordinary text between allowed special tokens, each special token as its own id
        ids = []
        start = 0
        for match in _special_regex(allowed).finditer(text):
            ids += self.encode_ordinary(text[start:match.start()])
            ids.append(self.special_tokens[match.group()])
            start = match.end()
        ids += self.encode_ordinary(text[start:])
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode ``text`` treating special tokens as plain text.

        The text is split into chunks with the pattern; each distinct chunk is encoded once and
        kept in a cache. As in tiktoken, a chunk that is itself a token becomes that token
        directly. That never changes the ids of a trained or ``from_tiktoken`` tokenizer: the
        merges that built a token, replayed on its bytes alone, build it again. (A merge table
        made up by hand, where a token cannot be reached by its own merges, could differ.)

        >>> ByteLevelBPE().encode_ordinary("hi")
        [104, 105]
        """
        _check_text(text)
        text = _encodable(text)
        chunks = compile_pattern(self.pattern).findall(text) if self.pattern else [text]
        cache, token_id = self._cache, self._token_id
        # each distinct chunk once: text repeats the same chunks ("self", " =", "\n    ")
        distinct = dict.fromkeys(chunks)  # chunk text -> its ids, filled below
        for chunk in distinct:
            chunk_ids = cache.get(chunk)
            if chunk_ids is None:
                text_bytes = chunk.encode("utf-8")
                whole = token_id.get(text_bytes)
                chunk_ids = [whole] if whole is not None else self.encode_chunk(text_bytes)
                if len(chunk) <= _CACHE_MAX_CHUNK:
                    if len(cache) >= _CACHE_MAX_ENTRIES:
                        cache.clear()
                    cache[chunk] = chunk_ids
            distinct[chunk] = chunk_ids
        # ids = the ids of every chunk, in text order
        return list(chain.from_iterable(map(distinct.__getitem__, chunks)))

    def encode_chunk(self, text_bytes: bytes) -> list[int]:
        """Encode one chunk's bytes: merge the present pair with the lowest rank, repeatedly.

        A merge's rank is its new id (ids are minted in merge order), so the earliest learned
        merge goes first. This gives the same ids as replaying every merge in training order
        (a merge can only create pairs of higher rank than its own), while looking only at
        pairs that are present. Merging one occurrence at a time, leftmost first, is the same
        as merging all occurrences of the pair left to right, as ``pairs.merge`` does.

        >>> tok = ByteLevelBPE.train("aaabdaaabac", 259)
        >>> tok.encode_chunk(b"aaab")
        [258]
        """
        ids = [self.byte_ids[b] for b in text_bytes]  # ids = [97, 97, 97, 98]
        if len(ids) >= _HEAP_MIN_LEN:
            return self._merge_with_heap(ids)
        merges = self.merges
        none = _NOT_A_MERGE
        # ranks[i] = rank of the pair (ids[i], ids[i + 1]); pairs never learned rank "infinity"
        ranks = [merges.get(pair, none) for pair in zip(ids, ids[1:])]
        while ranks:
            # the present pair that was learned first (the leftmost one on a tie)
            rank = min(ranks)
            # subtle: when no present pair is in `merges`, every rank is infinity: stop
            if rank == none:
                break
            i = ranks.index(rank)
            # merge it: one id replaces two, and only the two neighbouring pairs change
            ids[i:i + 2] = [rank]
            del ranks[i]
            if i > 0:
                ranks[i - 1] = merges.get((ids[i - 1], rank), none)
            if i < len(ranks):
                ranks[i] = merges.get((rank, ids[i + 1]), none)
        return ids

    def _merge_with_heap(self, ids: list[int]) -> list[int]:
        """``encode_chunk``'s loop for long chunks: the same merges, in O(n log n).

        A heap holds (rank, position) of every mergeable pair; positions are linked so a merge
        is O(log n). A merge can only create pairs of higher rank than its own (their new id is
        minted later), so popping by (rank, position) merges exactly as the simple loop does.
        """
        merges = self.merges
        n = len(ids)
        nxt = list(range(1, n + 1))  # position -> next live position (n means none)
        prev = list(range(-1, n - 1))  # position -> previous live position (-1 means none)
        heap = [(merges[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in merges]
        heapq.heapify(heap)
        while heap:
            rank, i = heapq.heappop(heap)
            j = nxt[i]
            # skip entries made stale by an earlier merge
            if ids[i] is None or j >= n or merges.get((ids[i], ids[j])) != rank:
                continue
            # merge position j into position i
            ids[i], ids[j] = rank, None
            nxt[i] = nxt[j]
            if nxt[j] < n:
                prev[nxt[j]] = i
            # the two pairs the merge created
            p, k = prev[i], nxt[i]
            if p >= 0 and (ids[p], rank) in merges:
                heapq.heappush(heap, (merges[ids[p], rank], p))
            if k < n and (rank, ids[k]) in merges:
                heapq.heappush(heap, (merges[rank, ids[k]], i))
        return [i for i in ids if i is not None]

    # ----- decoding ---------------------------------------------------------------------

    def token_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """The bytes of each id, one bytes object per id (not always valid UTF-8).

        >>> ByteLevelBPE.train("aaabdaaabac", 259).token_bytes([258, 100])
        [b'aaab', b'd']
        """
        vocab = self.vocab
        if isinstance(ids, (int, str, bytes)) or not isinstance(ids, Iterable):
            example = f"[{ids}]" if isinstance(ids, int) else "[104, 105]"
            raise TypeError(f"ids must be a list of ints, got {type(ids).__name__}; "
                            f"pass e.g. {example}")
        ids = list(ids)
        try:
            return [vocab[i] for i in ids]
        except (KeyError, TypeError):
            pass
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or i not in vocab:
                raise ValueError(f"unknown token id {i!r}: {self._valid_ids()}")
        raise AssertionError("unreachable: every id was found on the second pass")

    def _valid_ids(self) -> str:
        top = 255 + len(self.merges)
        special = sorted(self.special_tokens.values())
        extra = f" and the special token ids {special}" if special else ""
        return f"valid ids are the ints 0..{top}{extra}"

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The bytes the ids stand for, joined.

        >>> ByteLevelBPE().decode_bytes([104, 105])
        b'hi'
        """
        return b"".join(self.token_bytes(ids))

    def decode(self, ids: Iterable[int]) -> str:
        """Text for ``ids``; bytes that are not valid UTF-8 become U+FFFD.

        A single token need not be valid UTF-8: byte 128 alone is half of a character.

        >>> ByteLevelBPE().decode([104, 105, 128])
        'hi�'
        >>> ByteLevelBPE().decode([999])
        Traceback (most recent call last):
        ...
        ValueError: unknown token id 999: valid ids are the ints 0..255
        """
        return self.decode_bytes(ids).decode("utf-8", errors="replace")
