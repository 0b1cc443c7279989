"""``python -m bpe_workshop``: the ``bpe-workshop`` command (see ``course.cli``)."""

from bpe_workshop.course.cli import main

raise SystemExit(main())
