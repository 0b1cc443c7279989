"""Renderers: escaping, whitespace markers, partial UTF-8 marking, UTF-8 bits, tables, figures."""
import io
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.text import Text

from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.files.offline import get_encoding
from bpe_workshop.render import (
    bytes_label,
    chunks_html,
    compression_figure,
    encoding_lengths,
    encoding_lengths_figure,
    figure_to_html,
    merge_table_html,
    pair_counts_html,
    replacement_table_html,
    speed_figure,
    tokens_html,
    tokens_per_byte_figure,
    top_pairs_figure,
    utf8_table_html,
    word_table_html,
)


class _TokenTexts(HTMLParser):
    """Collects the visible text of every token (the .bpe-text spans), in order."""

    def __init__(self):
        super().__init__()
        self.texts, self.depth = [], 0

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += 1
        elif tag == "span" and ("class", "bpe-text") in attrs:
            self.depth = 1
            self.texts.append("")

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.texts[-1] += data


def token_spans(out: str) -> list[str]:
    """What each token shows, in order (HTML entities decoded)."""
    parser = _TokenTexts()
    parser.feed(out)
    return parser.texts


def gpt2_tokens(text: str) -> tuple[list[bytes], list[int]]:
    enc = get_encoding("gpt2")
    ids = enc.encode(text)
    return [enc.decode_single_token_bytes(i) for i in ids], ids


# ----- coloured tokens ---------------------------------------------------------------------

def test_tokens_html_escapes_markup_in_text_and_titles():
    out = tokens_html([b"<script>", b"&", b'"q"'], ids=[1, 2, 3])
    assert "<script>" not in out
    assert "&lt;script&gt;" in out
    assert "&amp;" in out
    # the hover title holds the bytes repr; quotes in it must not end the attribute
    assert 'title="id 3&#10;bytes b&#x27;&quot;q&quot;&#x27;&#10;hex 22 71 22' in out


def test_tokens_html_makes_whitespace_visible_and_breaks_lines():
    out = tokens_html([b"a b", b"\t", b"\n", b"x"])
    assert token_spans(out) == ["a⋅b", "→", "\\n", "x"]
    # the newline token is followed by a real line break
    assert re.search(r"\\n</span></span></span><br>", out)


def test_tokens_html_escapes_control_and_invisible_characters():
    out = tokens_html(["\x07bell\u200b".encode()])
    assert "\\x07" in out
    assert "&lt;U+200B&gt;" in out
    assert "\x07" not in out and "\u200b" not in out


def test_partial_utf8_tokens_of_nihao_under_gpt2_are_marked_and_grouped():
    token_bytes, ids = gpt2_tokens("你好")
    assert token_bytes == [b"\xe4\xbd", b"\xa0", b"\xe5\xa5", b"\xbd"]  # the fact being shown
    out = tokens_html(token_bytes, ids, show_ids=True, include_css=False)
    assert token_spans(out) == ["<e4 bd>", "<a0>", "<e5 a5>", "<bd>"]
    assert '<span class="bpe-hex">&lt;e4 bd&gt;</span>' in out
    assert out.count("bpe-partial") == 4  # every token holds part of a character
    assert out.count('class="bpe-group"') == 2  # one outline per completed character
    assert '<span class="bpe-group-char">= 你</span>' in out
    assert '<span class="bpe-group-char">= 好</span>' in out
    assert "part of a UTF-8 character" in out  # the legend explains the marking
    for token_id in ids:
        assert f'<span class="bpe-id">{token_id}</span>' in out


def test_whole_characters_are_not_marked_partial():
    out = tokens_html([b"hi", " 你好".encode()], include_css=False)
    assert "bpe-partial" not in out and "bpe-group" not in out
    assert "你好" in out


def test_token_with_whole_and_partial_character_shows_both():
    out = tokens_html([b"a\xe4", b"\xbd\xa0b"])
    assert token_spans(out) == ["a<e4>", "<bd a0>b"]
    assert "= 你" in out


def test_invalid_byte_is_shown_as_hex():
    out = tokens_html([b"\x80", b"ok"])
    assert token_spans(out) == ["<80>", "ok"]
    assert '<span class="bpe-hex">&lt;80&gt;</span>' in out


def test_long_input_renders_a_window_and_says_so():
    out = tokens_html([b"a"] * 5000, max_tokens=100)
    assert out.count('class="bpe-tok ') == 100
    assert "Showing the first 100 of 5,000 tokens" in out
    assert "5,000 tokens · 5,000 bytes" in out


def test_empty_input_gives_a_message():
    out = tokens_html([], include_css=False)
    assert "the text is empty" in out
    assert "bpe-tok" not in out


def test_css_is_included_once_and_can_be_left_out():
    assert tokens_html([b"a", b"b"]).count("<style>") == 1
    assert "<style>" not in tokens_html([b"a"], include_css=False)


def test_tokens_html_rejects_bad_input_with_the_fix():
    with pytest.raises(TypeError, match="list of bytes"):
        tokens_html(b"abc")
    with pytest.raises(TypeError, match="encode strings first"):
        tokens_html(["abc"])
    with pytest.raises(ValueError, match="one id per token"):
        tokens_html([b"a"], ids=[1, 2])


def test_chunks_html_counts_chunks():
    out = chunks_html(["Hello", ",", " world"])
    assert "3 chunks" in out and "⋅" in out


def test_bytes_label():
    assert bytes_label(b"e ") == "e⋅"
    assert bytes_label(b"\xe4\xbd") == "<e4 bd>"


# ----- tables ---------------------------------------------------------------------------

def test_utf8_table_highlights_prefix_bits_for_each_length():
    out = utf8_table_html("aé你👋")
    assert '<span class="bpe-prefix">0</span>1100001' in out  # a = 0x61
    assert ('<span class="bpe-prefix">110</span>00011</span> <span class="bpe-byte">'
            '<span class="bpe-prefix">10</span>101001') in out  # é = c3 a9
    assert '<span class="bpe-prefix">1110</span>0100' in out  # 你 = e4 bd a0
    assert '<span class="bpe-prefix">11110</span>000' in out  # 👋 = f0 9f 91 8b
    for code_point in ("U+0061", "U+00E9", "U+4F60", "U+1F44B"):
        assert code_point in out
    assert "f0 9f 91 8b" in out
    assert "4 characters · 10 UTF-8 bytes" in out


def test_utf8_table_escapes_and_handles_empty_and_long():
    assert "&lt;" in utf8_table_html("<")
    assert "Type some text" in utf8_table_html("")
    assert "Showing the first 10 of 50 characters" in utf8_table_html("x" * 50, max_chars=10)


def test_pair_counts_table_orders_by_the_tie_rule():
    out = pair_counts_html({(97, 98): 2, (256, 97): 2, (97, 97): 4}, vocab={256: b"aa"})
    order = [out.index(s) for s in ("(97, 97)", "(97, 98)", "(256, 97)")]
    assert order == sorted(order)
    assert ">aa<" in out  # id 256 rendered as its bytes


def test_pair_counts_table_of_symbols_and_empty():
    out = pair_counts_html({("Z", "a"): 2, ("a", "b"): 2}, highlight=[("a", "b")])
    assert out.index(">Z<") < out.index(">b<")
    assert 'class="bpe-current"' in out
    assert "No pairs" in pair_counts_html({})


def test_merge_table_renders_pairs_as_bytes():
    records = [MergeRecord(1, (101, 32), 256, 9, b"e "), MergeRecord(2, (116, 256), 257, 3, b"te ")]
    out = merge_table_html(records, highlight_step=2)
    assert "(116, 256)" in out and "te⋅" in out and ">9<" in out
    assert out.count('class="bpe-current"') == 1
    assert "No merges" in merge_table_html([])


def test_replacement_and_word_tables():
    out = replacement_table_html({"Z": "aa", "Y": "ab", "X": "ZY"}, highlight="X")
    assert out.count("<tr") == 4 and ">ZY<" in out
    words = word_table_html([("lower", 2, ["low", "e", "r", "</w>"])], merged="low",
                            changed=["lower"])
    assert "&lt;/w&gt;" in words and ">2<" in words


# ----- figures ----------------------------------------------------------------------------

def _labelled(fig):
    ax = fig.axes[0]
    return bool(ax.get_title()) and bool(ax.get_xlabel()) and bool(ax.get_ylabel())


def test_figures_have_titles_and_labels_with_units():
    figs = [
        top_pairs_figure({(101, 32): 7, (116, 104): 5}),
        compression_figure({"en": ([0, 1], [1.0, 1.2]), "zh": ([0, 1], [1.0, 1.1])}),
        encoding_lengths_figure("hi 👋"),
        speed_figure({"naive": 1.5, "fast": 0.02}, log=True),
        tokens_per_byte_figure({"english": {"gpt2": 0.25}}),
    ]
    for fig in figs:
        assert _labelled(fig)
    assert "bytes" in figs[2].axes[0].get_ylabel()
    assert "seconds" in figs[3].axes[0].get_xlabel()


def test_figures_are_not_left_open_in_pyplot():
    import matplotlib.pyplot as plt

    before = len(plt.get_fignums())
    top_pairs_figure({(1, 2): 3})
    assert len(plt.get_fignums()) == before


def test_encoding_lengths_include_the_byte_order_mark():
    assert encoding_lengths("a") == {"utf-8": 1, "utf-16": 4, "utf-32": 8}


TEX_LIKE = r"my $notes$ \frac{.txt"  # a file name matplotlib would read as (broken) maths


@pytest.mark.parametrize("make", [
    lambda: top_pairs_figure({(36, 36): 2}, title=TEX_LIKE),
    lambda: compression_figure({TEX_LIKE: ([1, 2], [1.0, 2.0])}, title=TEX_LIKE),
    lambda: encoding_lengths_figure("a", title=TEX_LIKE),
    lambda: speed_figure({TEX_LIKE: 0.5}, title=TEX_LIKE),
    lambda: tokens_per_byte_figure({TEX_LIKE: {"gpt2": 0.3}}, title=TEX_LIKE),
], ids=["top pairs", "compression", "encoding lengths", "speed", "tokens per byte"])
def test_figures_draw_dollar_signs_as_typed(make):
    fig = make()
    fig.savefig(io.BytesIO(), format="png")  # maths parsing would fail on \frac{
    texts = [t for t in fig.findobj(Text) if "$" in t.get_text()]
    assert texts and all(t.get_text().count("\\$") == 0 and not t.get_parse_math()
                         for t in texts)


def test_figure_to_html_inlines_an_image():
    out = figure_to_html(speed_figure({"x": 0.5}), fmt="svg")
    assert out.startswith('<div class="bpe-chart"><img alt="Time per run')
    assert "data:image/svg+xml;base64," in out
    with pytest.raises(ValueError):
        figure_to_html(speed_figure({"x": 0.5}), fmt="gif")


def test_invalid_sequences_each_byte_shown_as_hex():
    # overlong "/", an encoded surrogate, a 4-byte sequence cut short
    out = tokens_html([b"\xc0\xaf", b"\xed\xa0\x80", b"\xf0\x9f\x91"], include_css=False)
    assert token_spans(out) == ["<c0 af>", "<ed a0 80>", "<f0 9f 91>"]
    assert "bpe-group-char" not in out  # nothing completes a character


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="aé你👋 \n", min_size=1, max_size=12), st.data())
def test_group_labels_are_exactly_the_characters_cut_by_token_boundaries(text, data):
    text_bytes = text.encode("utf-8")
    cuts = sorted(data.draw(st.sets(st.integers(1, len(text_bytes) - 1))) if len(text_bytes) > 1
                  else [])
    edges = [0, *cuts, len(text_bytes)]
    tokens = [text_bytes[a:b] for a, b in zip(edges, edges[1:])]
    expected, offset = [], 0
    for char in text:
        size = len(char.encode("utf-8"))
        if any(offset < cut < offset + size for cut in cuts):
            expected.append(char)
        offset += size
    out = tokens_html(tokens, include_css=False)
    labels = re.findall(r'<span class="bpe-group-char">= (.*?)</span>', out)
    assert "".join(labels) == "".join(expected)
    assert out.count('class="bpe-group"') <= len(expected)


def test_tokens_html_total_for_a_window_cut_by_the_caller():
    # the summary describes the whole sequence, never the window's bytes with the whole count
    out = tokens_html([b"ab", b"c"], max_tokens=2, total=50, total_bytes=120)
    assert "Showing the first 2 of 50 tokens" in out
    assert "50 tokens · 120 bytes · 2.40 bytes per token" in out
    assert "3 bytes" not in out
    with pytest.raises(ValueError, match="total and total_bytes together"):
        tokens_html([b"a"], total=50)
    with pytest.raises(ValueError, match="total must be at least 2"):
        tokens_html([b"a", b"b"], total=1, total_bytes=2)
