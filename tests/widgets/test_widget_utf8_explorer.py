"""UTF-8 explorer: code point table, codec bytes, length chart."""
from bpe_workshop.widgets import utf8_explorer


def test_widget_utf8_explorer_table_and_chart():
    explorer = utf8_explorer("Aé你👋")
    for code_point in ("U+0041", "U+00E9", "U+4F60", "U+1F44B"):
        assert code_point in explorer.table.value
    assert '<span class="bpe-prefix">11110</span>000' in explorer.table.value
    assert "4 characters · 10 UTF-8 bytes" in explorer.table.value
    assert "data:image/png;base64," in explorer.chart.value
    assert 'alt="4 characters in bytes"' in explorer.chart.value


def test_widget_utf8_explorer_follows_the_text():
    explorer = utf8_explorer("a")
    first_chart = explorer.chart.value
    explorer.text.value = "hi"
    assert "U+0068" in explorer.value and "U+0061" not in explorer.value
    assert explorer.chart.value != first_chart
    # UTF-16 with its byte order mark: ff fe, then two bytes per character
    assert '<td class="bpe-num">6</td>' in explorer.table.value


def test_widget_utf8_explorer_empty_and_long_text():
    explorer = utf8_explorer("")
    assert "The text is empty" in explorer.value
    assert explorer.chart.value == ""
    explorer.text.value = "x" * 500
    assert "Showing the first 200 of 500 characters" in explorer.table.value


def test_widget_utf8_explorer_lone_surrogate_does_not_break_it():
    explorer = utf8_explorer("a\ud800b")
    assert "U+D800" in explorer.table.value
    assert "Something went wrong" not in explorer.value
