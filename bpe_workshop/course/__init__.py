"""Layer 7, the course: the series as something you install, copy, open and serve.

``series`` copies the notebooks this release carries into a learner's folder and never
overwrites one the learner changed; ``cli`` is the ``bpe-workshop`` command (``start``, ``check``,
``wheelhouse``, ``hub``, ``site``); ``wheelhouse`` gathers every wheel a room needs into one
folder, ``hub`` serves a room from one machine with JupyterHub, and ``site`` builds the reading
copy, a static site of the series run.
May import: every layer below, and ``check``.
"""
