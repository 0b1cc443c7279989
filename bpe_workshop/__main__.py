"""``python -m bpe_workshop``: the ``bpe-workshop`` command (see ``course.cli``)."""

import sys

from bpe_workshop.course.cli import main

sys.exit(main())
