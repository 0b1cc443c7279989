"""A shared model file cannot exhaust memory: a huge pattern or a huge file is refused first."""

from memory_limit import load_under_a_memory_limit

from bpe_workshop import ByteLevelBPE


def test_a_model_file_with_a_huge_fixed_repeat_is_refused_under_a_memory_limit(tmp_path):
    model, _ = ByteLevelBPE({(97, 97): 256}, pattern=r"\w+|\s+").save(tmp_path / "shared")
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace(r'"\\w+|\\s+"', '"a{100000000}"'), encoding="utf-8")
    assert '\npattern "a{100000000}"\n' in model.read_text(encoding="utf-8")
    said = load_under_a_memory_limit(model)
    assert "repeats fixed counts to 100,000,000 elements" in said


def test_a_huge_junk_file_is_refused_before_it_is_read(tmp_path):
    junk = tmp_path / "junk.model"
    with open(junk, "wb") as file:
        file.truncate(500 * 2**20)  # 500 MB of zeros, sparse: nothing is really written
    said = load_under_a_memory_limit(junk)
    assert "is 524,288,000 bytes, more than a model file may be (67,108,864)" in said
