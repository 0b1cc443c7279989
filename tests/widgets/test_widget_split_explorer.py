"""Split explorer: pattern dropdown, custom regex, clear messages."""
from bpe_workshop.algorithm.patterns import GPT4_PATTERN
from bpe_workshop.widgets import split_explorer
from bpe_workshop.widgets.split_explorer import CUSTOM


def test_widget_split_explorer_gpt2_default():
    explorer = split_explorer("Any text that you want to be split.")
    assert explorer.chunks == ["Any", " text", " that", " you", " want", " to", " be", " split",
                               "."]
    assert "9 chunks" in explorer.value
    assert "⋅</span>text" in explorer.value  # leading spaces are visible


def test_widget_split_explorer_dropdown_changes_the_chunks():
    explorer = split_explorer("x 3221 y")
    assert " 3221" in explorer.chunks
    explorer.dropdown.value = GPT4_PATTERN
    assert "322" in explorer.chunks and "1" in explorer.chunks  # digits in groups of 1-3
    explorer.dropdown.value = dict(explorer.dropdown.options)["whitespace"]
    assert explorer.chunks == ["x", " ", "3221", " ", "y"]


def test_widget_split_explorer_custom_regex_and_invalid_regex():
    explorer = split_explorer("abc 123", pattern=r"\d+|\w+|\s")
    assert explorer.dropdown.value == CUSTOM
    assert explorer.chunks == ["abc", " ", "123"]
    explorer.custom.value = "("
    assert "Invalid regular expression" in explorer.value
    assert explorer.chunks == []
    explorer.custom.value = ""
    assert "Type a regular expression" in explorer.value


def test_widget_split_explorer_pattern_that_matches_nothing_or_part():
    explorer = split_explorer("no digits here", pattern=r"\d+")
    assert "matches nothing" in explorer.value
    explorer.text.value = "a1b22"
    assert explorer.chunks == ["1", "22"]
    assert "Text in no match, which BPE would drop (2 characters)" in explorer.value
    explorer.custom.value = r"x*"
    assert "matches nothing" in explorer.value


def test_widget_split_explorer_empty_text_and_long_text():
    explorer = split_explorer("")
    assert "The text is empty" in explorer.value
    explorer2 = split_explorer("w " * 3000, max_tokens=100)  # 'w', ' w' x 2999, ' '
    assert len(explorer2.chunks) == 3001
    assert "Showing the first 100 of 3,001 chunks" in explorer2.value


def test_widget_split_explorer_stuck_pattern_is_a_message_within_seconds():
    # (\w|[a-z])+$ tries every way to cut a long word: minutes without the time limit
    explorer = split_explorer("short words.", pattern=r"(\w|[a-z])+$")
    explorer.text.value = "antidisestablishmentarianism!"  # 28 letters
    assert "is stuck" in explorer.value and "(\\w|[a-z])+$" in explorer.value
    assert explorer.chunks == []
    explorer.custom.value = r"\w++"  # a fixed pattern works again
    assert explorer.chunks == ["antidisestablishmentarianism"]


def test_widget_split_explorer_messages_show_backslashes_as_typed():
    explorer = split_explorer("a\\b c")
    explorer.dropdown.value = CUSTOM
    explorer.custom.value = r"\w+("  # invalid: the message quotes it as typed, one backslash
    assert r"r&#x27;\w+(&#x27;: missing )" in explorer.value and r"\\w" not in explorer.value
    explorer.custom.value = r"[a-z]+"  # drops the backslash and the space: shown, not escaped
    assert "‘\\’" in explorer.value and "\\\\" not in explorer.value


def test_widget_split_explorer_refuses_a_pattern_that_would_exhaust_memory():
    explorer = split_explorer("aaaa")
    explorer.dropdown.value = CUSTOM
    explorer.custom.value = "a{100000000}"  # regex would spell out 10**8 copies of "a"
    assert "repeats fixed counts to 100,000,000 elements" in explorer.value
    assert explorer.chunks == []
