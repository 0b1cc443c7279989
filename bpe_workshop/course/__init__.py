"""Layer 7, the course: the series as something you install, copy, open and serve.

``series`` copies the notebooks this release carries into a learner's folder and never
overwrites one the learner changed; ``cli`` is the ``bpe-workshop`` command (``start``, ``check``,
``wheelhouse``, ``hub``); ``wheelhouse`` gathers every wheel a room needs into one folder, and
``hub`` serves a room from one machine with JupyterHub.
May import: every layer below, and ``check``.
"""
