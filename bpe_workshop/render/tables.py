"""Tables as HTML strings: code points and UTF-8 bytes, pair counts, merges, word splits.

The tables a lecturer draws on the board (Unicode, Gage's replacement table, Sennrich's word
table, Kudo's lattice, a token's merge tree), drawn from what the algorithms return. Left out:
paging.
"""
from __future__ import annotations

import functools
import html
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from bpe_workshop.algorithm.unigram import normalize
from bpe_workshop.render.labels import id_text, sorted_pairs, symbol_label, symbol_token
from bpe_workshop.render.style import bar_class, color_class, view
from bpe_workshop.token_text import counted, visible_text
from bpe_workshop.validation import require_str


def message_html(message: str, include_css: bool = True) -> str:
    """A clear on-screen message (empty input, nothing to show, invalid setting).

    >>> "nothing &lt;here&gt;" in message_html("nothing <here>")
    True
    """
    return view(f'<div class="bpe-message">{html.escape(message)}</div>', include_css)


def token_chip(token: bytes | str, color_index: int = 0, title: str | None = None,
               *, bold: bool = False) -> str:
    """One token as a small bordered, coloured box (bytes shown readably, hex where partial).

    >>> token_chip(b"\\xe4\\xbd")
    '<span class="bpe-tok bpe-c0" title="b&#x27;\\\\xe4\\\\xbd&#x27;">&lt;e4 bd&gt;</span>'
    """
    label = html.escape(symbol_label(token))
    if title is None:
        title = repr(bytes(token)) if isinstance(token, (bytes, bytearray)) else repr(token)
    return (f'<span class="bpe-tok {color_class(color_index)}" '
            f'title="{html.escape(title, quote=True)}">'
            f'{f"<b>{label}</b>" if bold else label}</span>')


# ----- code points and UTF-8 ---------------------------------------------------------------

def _prefix_len(byte: int, position: int) -> int:
    """How many leading bits of a UTF-8 byte are structure, not payload."""
    if position > 0:
        return 2  # continuation byte: 10xxxxxx
    if byte < 0x80:
        return 1  # 0xxxxxxx
    if byte >= 0xF0:
        return 5  # 11110xxx
    if byte >= 0xE0:
        return 4  # 1110xxxx
    return 3  # 110xxxxx


def utf8_rows(text: str) -> list[dict]:
    """One row per character: the data behind :func:`utf8_table_html`.

    >>> row = utf8_rows("é")[0]
    >>> row["code_point"], row["hex"], row["bits"], row["prefix_lengths"]
    ('U+00E9', 'c3 a9', ['11000011', '10101001'], [3, 2])
    """
    require_str(text, "text")
    rows = []  # one dict per character, in text order
    for char in text:
        data = char.encode("utf-8", errors="surrogatepass")
        rows.append({
            "char": char,
            "shown": visible_text(char),
            "code_point": f"U+{ord(char):04X}",
            "name": unicodedata.name(char, "") or f"<{unicodedata.category(char)}>",
            "hex": data.hex(" "),
            "bits": [f"{b:08b}" for b in data],
            "prefix_lengths": [_prefix_len(b, i) for i, b in enumerate(data)],
        })
    return rows


def utf8_table_html(text: str, max_chars: int = 200, include_css: bool = True) -> str:
    """Character, code point, name, UTF-8 bytes in hex and bits, the structure bits highlighted.

    >>> out = utf8_table_html("é")
    >>> '<span class="bpe-prefix">110</span>00011' in out, "U+00E9" in out
    (True, True)
    """
    require_str(text, "text")
    rows = utf8_rows(text[:max_chars])  # only the rows shown; the totals cover all the text
    if not rows:
        return message_html("Type some text to see its characters and their UTF-8 bytes.",
                            include_css)
    header = ("<tr><th>#</th><th>character</th><th>code point</th><th>name</th>"
              "<th>UTF-8 bytes (hex)</th><th>UTF-8 bits (prefix bits highlighted)</th>"
              "<th>bytes</th></tr>")
    body = []
    for i, row in enumerate(rows):
        bits = " ".join(
            f'<span class="bpe-byte"><span class="bpe-prefix">{b[:n]}</span>{b[n:]}</span>'
            for b, n in zip(row["bits"], row["prefix_lengths"]))
        body.append(
            f'<tr><td class="bpe-num">{i}</td>'
            f'<td>{token_chip(row["char"], i, title=row["code_point"])}</td>'
            f'<td class="bpe-mono">{row["code_point"]}</td>'
            f'<td>{html.escape(row["name"].lower())}</td>'
            f'<td class="bpe-mono">{row["hex"]}</td>'
            f'<td class="bpe-bits">{bits}</td>'
            f'<td class="bpe-num">{len(row["bits"])}</td></tr>')
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    notes = [f'<div class="bpe-summary">{counted(len(text), "character")} · '
             f'{counted(n_bytes, "UTF-8 byte")}</div>']
    if len(text) > max_chars:
        notes.append(f'<div class="bpe-note">Showing the first {max_chars:,} of {len(text):,} '
                     "characters (the text is long).</div>")
    legend = ('<div class="bpe-legend">Bit layouts: <span class="bpe-bits">'
              '<span class="bpe-prefix">0</span>xxxxxxx · '
              '<span class="bpe-prefix">110</span>xxxxx <span class="bpe-prefix">10</span>xxxxxx · '
              '<span class="bpe-prefix">1110</span>xxxx <span class="bpe-prefix">10</span>xxxxxx '
              '<span class="bpe-prefix">10</span>xxxxxx · <span class="bpe-prefix">11110</span>xxx '
              '<span class="bpe-prefix">10</span>xxxxxx ×3</span></div>')
    table = f'<table class="bpe-table">{header}{"".join(body)}</table>'
    return view("".join(notes) + legend + table, include_css)


def encoded_bytes_html(text: str, encodings: Sequence[str] = ("utf-8", "utf-16", "utf-32"),
                       max_bytes: int = 48, include_css: bool = True) -> str:
    """The same text in several codecs: length and first bytes in hex, zeros and marks shown.

    >>> out = encoded_bytes_html("hi")
    >>> '<span class="bpe-prefix">ff</span>' in out, "byte order mark" in out, ">12<" in out
    (True, True, True)
    """
    require_str(text, "text")
    boms = {"utf-16": 2, "utf-32": 4}
    rows = []
    for name in encodings:
        data = text.encode(name, errors="surrogatepass")
        shown = data[:max_bytes]
        cells = []
        for i, b in enumerate(shown):
            css = ' class="bpe-prefix"' if (i < boms.get(name, 0)) else (
                ' class="bpe-zero"' if b == 0 else "")
            cells.append(f"<span{css}>{b:02x}</span>")
        more = f" … (+{len(data) - len(shown):,})" if len(data) > len(shown) else ""
        bom = f"{boms[name]}-byte byte order mark first" if name in boms and data else ""
        rows.append(f'<tr><td class="bpe-mono">{html.escape(name)}</td>'
                    f'<td class="bpe-num">{len(data):,}</td>'
                    f'<td class="bpe-bits">{" ".join(cells)}{more}</td><td>{bom}</td></tr>')
    head = "<tr><th>codec</th><th>bytes</th><th>the bytes (hex)</th><th>note</th></tr>"
    legend = ('<div class="bpe-legend">Highlighted: the byte order mark; faded: zero bytes.</div>')
    return view(f'<table class="bpe-table">{head}{"".join(rows)}</table>{legend}', include_css)


# ----- pairs and merges ------------------------------------------------------------------

def _pair_cells(pair, vocab) -> str:
    left, right = (symbol_token(s, vocab) for s in pair)
    return f'<span class="bpe-pair">{token_chip(left, 0)} + {token_chip(right, 2)}</span>'


def pair_counts_html(counts: Mapping[tuple, int], vocab: Mapping[int, bytes] | None = None,
                     top: int = 10, *, highlight: Iterable[tuple] = (), title: str | None = None,
                     id_column: bool = True, include_css: bool = True) -> str:
    """The most frequent pairs as a table with a bar per count (a fast HTML bar chart).

    ``counts`` maps pairs of ids (shown through ``vocab``, default: single bytes; ordered by
    ``textbook.pair_order``) or of str symbols (by count, first seen first) to counts. Pairs in
    ``highlight`` are marked; ``id_column=False`` moves the ids into the hover text.

    >>> out = pair_counts_html({(97, 97): 4, (97, 98): 2})
    >>> out.index("(97, 97)") < out.index("(97, 98)"), "4</td>" in out
    (True, True)
    """
    highlight = set(highlight)
    items = sorted_pairs(counts)
    of_ids = bool(items) and bool(id_text(items[0][0]))
    id_column = id_column and of_ids
    if not items:
        return message_html("No pairs to count: fewer than two tokens in every chunk.",
                            include_css)
    shown = items[:top]
    biggest = max(n for _, n in shown)
    rows = []
    for rank, (pair, n) in enumerate(shown, 1):
        mark = ' class="bpe-current"' if pair in highlight else ""
        mark += f' title="ids {id_text(pair)}"' if of_ids else ""
        ids = f'<td class="bpe-mono">{id_text(pair)}</td>' if id_column else ""
        rows.append(
            f'<tr{mark}><td class="bpe-num">{rank}</td><td>{_pair_cells(pair, vocab)}</td>'
            f'{ids}<td class="bpe-num">{n:,}</td>'
            f'<td><span class="bpe-bar {bar_class(n, biggest)}"></span></td></tr>')
    caption = f"<caption>{html.escape(title)}</caption>" if title else ""
    head = ("<tr><th>#</th><th>pair</th>" + ("<th>ids</th>" if id_column else "")
            + "<th>count</th><th></th></tr>")
    more = (f'<div class="bpe-note">Top {len(shown)} of {len(items):,} distinct pairs.</div>'
            if len(items) > len(shown) else "")
    return view(f'<table class="bpe-table">{caption}{head}{"".join(rows)}</table>{more}',
                 include_css)


def merge_table_html(records: Sequence, vocab: Mapping[int, bytes] | None = None, *,
                     highlight_step: int | None = None, max_rows: int = 50, last: bool = False,
                     include_css: bool = True) -> str:
    """Merges as a table: step, pair (as bytes), new id, token, count.

    ``records``: ``tok.records`` (their own tokens make the vocabulary when ``vocab`` is None).
    ``last=True`` shows the last ``max_rows`` records instead of the first.

    >>> from bpe_workshop.algorithm.records import MergeRecord
    >>> recs = [MergeRecord(1, (97, 97), 256, 4, b"aa"), MergeRecord(2, (256, 98), 257, 2, b"aab")]
    >>> out = merge_table_html(recs)
    >>> "&gt; aab" in out or "aab" in out, "257" in out
    (True, True)
    """
    if not records:
        return message_html("No merges yet: train first, or no pair occurred twice.",
                            include_css)
    if vocab is None:
        vocab = {i: bytes([i]) for i in range(256)}  # id -> bytes, grown by the records
        for record in records:
            vocab[record.new_id] = record.token
    chosen = list(records[-max_rows:] if last else records[:max_rows])
    rows = []
    for record in chosen:
        mark = ' class="bpe-current"' if record.step == highlight_step else ""
        count = "" if record.count is None else f"{record.count:,}"
        rows.append(
            f'<tr{mark}><td class="bpe-num">{record.step}</td>'
            f'<td>{_pair_cells(record.pair, vocab)}</td>'
            f'<td class="bpe-mono">{id_text(record.pair)}</td>'
            f'<td class="bpe-num">{record.new_id}</td>'
            f'<td>{token_chip(record.token, 5)}</td>'
            f'<td class="bpe-num">{count}</td></tr>')
    head = ("<tr><th>step</th><th>pair</th><th>pair ids</th><th>new id</th><th>token</th>"
            "<th>count</th></tr>")
    more = ""
    if len(records) > len(chosen):
        which = "last" if last else "first"
        more = (f'<div class="bpe-note">Showing the {which} {len(chosen)} of {len(records):,} '
                "merges.</div>")
    return view(f'<table class="bpe-table">{head}{"".join(rows)}</table>{more}', include_css)


def replacement_table_html(table: Mapping[str, str], *, highlight: str | None = None,
                           include_css: bool = True) -> str:
    """Gage's replacement table (fresh symbol -> the pair it stands for), in replacement order.

    >>> out = replacement_table_html({"Z": "aa", "Y": "ab"}, highlight="Y")
    >>> out.count("<tr"), 'class="bpe-current"' in out
    (3, True)
    """
    if not table:
        return message_html("No replacements yet.", include_css)
    rows = []
    for i, (symbol, pair) in enumerate(table.items(), 1):
        mark = ' class="bpe-current"' if symbol == highlight else ""
        rows.append(f'<tr{mark}><td class="bpe-num">{i}</td><td>{token_chip(symbol, 5)}</td>'
                    f'<td>{token_chip(pair, 1)}</td></tr>')
    head = "<tr><th>step</th><th>symbol</th><th>stands for</th></tr>"
    return view(f'<table class="bpe-table">{head}{"".join(rows)}</table>', include_css)


def word_table_html(rows: Iterable, *, max_rows: int = 30, merged: str | None = None,
                    changed: Iterable[str] = (), include_css: bool = True) -> str:
    """Word-level BPE's table: word, frequency, current split into symbols.

    ``rows``: ``(word, frequency, symbols)`` (``WordLevelBPE.word_table_at(step)``), in order.
    Words in ``changed`` are highlighted, symbols equal to ``merged`` drawn in bold.

    >>> out = word_table_html([("low", 5, ["lo", "w", "</w>"])], merged="lo", changed=["low"])
    >>> out.count('class="bpe-tok '), 'class="bpe-current"' in out, "<b>lo</b>" in out
    (3, True, True)
    """
    rows = [(word, freq, list(symbols)) for word, freq, symbols in rows]
    if not rows:
        return message_html("No words: the text is empty.", include_css)
    changed = set(changed)
    body = []
    for word, freq, symbols in rows[:max_rows]:
        chips = [token_chip(symbol, i, bold=symbol == merged) for i, symbol in enumerate(symbols)]
        mark = ' class="bpe-current"' if word in changed else ""
        body.append(f'<tr{mark}><td>{html.escape(visible_text(word))}</td>'
                    f'<td class="bpe-num">{freq:,}</td><td>{" ".join(chips)}</td>'
                    f'<td class="bpe-num">{len(symbols)}</td></tr>')
    head = "<tr><th>word</th><th>frequency</th><th>current split</th><th>symbols</th></tr>"
    more = (f'<div class="bpe-note">Showing {max_rows} of {len(rows):,} distinct words.</div>'
            if len(rows) > max_rows else "")
    return view(f'<table class="bpe-table">{head}{"".join(body)}</table>{more}', include_css)


# ----- Unigram's lattice: every piece over the characters it covers, the best path marked ---

def lattice_html(unigram, text: str, include_css: bool = True) -> str:
    """The lattice of ``text`` under ``unigram`` (after Kudo 2018's figures): a row per piece, under
    the characters it covers (``▁`` for a space); the best path's pieces coloured and bold, the
    rest grey; under the grid, the best path and its score.

    >>> from bpe_workshop.algorithm.unigram import Unigram
    >>> out = lattice_html(Unigram([("▁a", -1.0), ("a", -2.0), ("▁", -3.0)]), "a")
    >>> "best path: ▁a = -1.00" in out, out.count("<tr>")
    (True, 4)
    """
    chars = normalize(text)
    best, score = unigram.viterbi(text)
    on_path, start = set(), 0
    for piece in best:
        on_path.add((start, start + len(piece)))
        start += len(piece)
    rows = ["<tr>" + "".join(f'<th class="bpe-mono">{html.escape(visible_text(c))}</th>'
                             for c in chars) + "</tr>"]
    for begin, end, piece, piece_score in unigram.lattice(text):
        chosen = (begin, end) in on_path
        chip = token_chip(piece, 5 if chosen else 0, title=f"{piece!r}: log p = {piece_score:.2f}",
                          bold=chosen)
        cell = (f'<td colspan="{end - begin}">{chip} '
                f'<span class="bpe-note">{piece_score:.2f}</span></td>')
        rows.append(f"<tr>{'<td></td>' * begin}{cell}{'<td></td>' * (len(chars) - end)}</tr>")
    summary = (f'<div class="bpe-summary">{counted(len(rows) - 1, "piece")} in the lattice · '
               f"best path: {html.escape(' + '.join(best))} = {score:.2f}</div>")
    return view(f'<table class="bpe-lattice">{"".join(rows)}</table>{summary}', include_css)


# ----- why is this a token: a byte-level token is one merge of two tokens of lower rank -------
# (notebook 06's recover-pair rule); applied all the way down, it draws a tree of merges.

@functools.lru_cache(maxsize=8)
def _made_of(tok) -> dict[int, tuple[int, int]]:
    return {new_id: pair for pair, new_id in tok.merges.items()}  # new id -> (left id, right id)


def merge_tree(tok, token_id: int) -> tuple:
    """``(rank, token bytes, subtrees)`` of a ``ByteLevelBPE``'s token: the two trees it joins,
    or none for a single byte. In these tokenizers a token's id is its rank.

    >>> from bpe_workshop import ByteLevelBPE
    >>> merge_tree(ByteLevelBPE({(104, 105): 256, (256, 33): 257}), 257)[2][0]
    (256, b'hi', ((104, b'h', ()), (105, b'i', ())))
    """
    pair = _made_of(tok).get(token_id, ())
    return token_id, tok.vocab[token_id], tuple(merge_tree(tok, i) for i in pair)


def merge_tree_html(tree: tuple, include_css: bool = True) -> str:
    """A :func:`merge_tree` drawn top down: each token over the two it joins, its rank under it.

    >>> merge_tree_html((256, b"hi", ((104, b"h", ()), (105, b"i", ()))), False).count("rank")
    6
    """
    def node(tree: tuple, depth: int) -> str:
        rank, token, subtrees = tree
        below = "".join(node(subtree, depth + 1) for subtree in subtrees)
        below = below and f'<div class="bpe-below">{below}</div>'
        return (f'<div class="bpe-node">{token_chip(token, depth, f"rank {rank}: {token!r}")}'
                f'<span class="bpe-id">rank {rank}</span>{below}</div>')
    return view(f'<div class="bpe-tree">{node(tree, 0)}</div>', include_css)
