"""Wikipedia stepper: aaabdaaabac, one replacement per step."""
from bpe_workshop.widgets import wikipedia_stepper


def test_widget_wikipedia_stepper_runs_wikipedias_example():
    stepper = wikipedia_stepper()
    assert stepper.slider.max == 3
    assert stepper.current == "aaabdaaabac"
    assert "Next: replace <b>aa</b> (count 4) by <b>Z</b>" in stepper.value
    stepper.slider.value = 1
    assert stepper.current == "ZabdZabac"
    # after Z = aa, Za and ab tie at 2: the smallest-pair rule picks ab
    assert "tied with Za at 2" in stepper.value and "picks ab" in stepper.value
    stepper.slider.value = 3
    assert stepper.current == "XdXac"
    assert "11 symbols became 5" in stepper.value
    assert "X→ZY, Y→ab, Z→aa" in stepper.value  # decompression order
    assert "alphabet of 7 symbols" in stepper.value


def test_widget_wikipedia_stepper_buttons_and_table():
    stepper = wikipedia_stepper()
    stepper.next_button.click()
    stepper.next_button.click()
    assert stepper.slider.value == 2 and stepper.current == "ZYdZYac"
    assert stepper.value.count('<td class="bpe-num">2</td><td><span class="bpe-tok ') >= 1
    assert ">ab</span></td></tr>" in stepper.value  # Y stands for ab in the table
    stepper.back_button.click()
    stepper.back_button.click()
    stepper.back_button.click()
    assert stepper.slider.value == 0 and "No replacements yet" in stepper.value


def test_widget_wikipedia_stepper_first_seen_rule():
    stepper = wikipedia_stepper(tie_rule="first_seen")
    stepper.slider.value = 2
    assert stepper.current == "YbdYbac"
    stepper.tie_rule.value = "smallest"
    # switching the rule keeps the step, so step 2 can be compared under both rules
    assert stepper.slider.value == 2 and stepper.current == "ZYdZYac"
    assert [s.after for s in stepper.steps] == ["ZabdZabac", "ZYdZYac", "XdXac"]
    stepper.text.value = "aaabcdaadab"
    assert stepper.slider.value == 0  # a new string starts at step 0


def test_widget_wikipedia_stepper_rule_switch_clamps_to_last_step():
    stepper = wikipedia_stepper("abaaab")  # 2 steps under the smallest-pair rule, 1 first-seen
    stepper.slider.value = 2
    stepper.tie_rule.value = "first_seen"
    assert len(stepper.steps) == 1 and stepper.slider.value == stepper.slider.max == 1


def test_widget_wikipedia_stepper_shows_spaces_and_singulars():
    stepper = wikipedia_stepper("e e e")  # the pair 'e ' holds a space the learner must see
    assert "Next: replace <b>⋅e</b>" in stepper.value and "tied with e⋅ at 2" in stepper.value
    stepper.text.value = "aaa"
    stepper.slider.value = 1
    assert "counted 2 times" in stepper.value
    assert "2 symbols (started with 3) · alphabet of 2 symbols" in stepper.value
    stepper.text.value = "a"
    assert "1 symbol (started with 1) · alphabet of 1 symbol<" in stepper.value


def test_widget_wikipedia_stepper_edge_cases():
    stepper = wikipedia_stepper("abc")
    assert "No pair occurs more than once" in stepper.value
    stepper.text.value = ""
    assert "The string is empty" in stepper.value
    stepper.text.value = "ab" * 400
    assert "at most 300 characters" in stepper.value
    stepper.text.value = "aaabcdaadab"
    assert stepper.steps[0].after == "ZabcdZdab"
