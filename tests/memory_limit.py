"""Load a model file in a child Python whose memory is capped, as on a small laptop."""

import subprocess
import sys
import textwrap

LIMIT = 1536 * 2**20  # bytes of address space for the child: 1.5 GB


def load_under_a_memory_limit(path) -> str:
    """What ``ByteLevelBPE.load(path)`` says (its ValueError) in a child capped at ``LIMIT``;
    a child that runs out of memory or crashes fails the calling test with its stderr."""
    child = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
        from bpe_workshop import ByteLevelBPE
        try:
            ByteLevelBPE.load({str(path)!r})
        except ValueError as err:
            print(err)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout
