"""A shared model file's split pattern cannot exhaust memory: refused before regex compiles it."""

import subprocess
import sys
import textwrap

from bpe_workshop import ByteLevelBPE

LIMIT = 1536 * 2**20  # bytes of address space for the child: 1.5 GB


def test_a_model_file_with_a_huge_fixed_repeat_is_refused_under_a_memory_limit(tmp_path):
    model, _ = ByteLevelBPE({(97, 97): 256}, pattern=r"\w+|\s+").save(tmp_path / "shared")
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace(r'"\\w+|\\s+"', '"a{100000000}"'), encoding="utf-8")
    assert '\npattern "a{100000000}"\n' in model.read_text(encoding="utf-8")
    child = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
        from bpe_workshop import ByteLevelBPE
        try:
            ByteLevelBPE.load({str(model)!r})
        except ValueError as err:
            print(err)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "repeats fixed counts to 100,000,000 elements" in done.stdout
