"""The wheel's manifest of the series: ``bpe_workshop/series.sha256``, written at build time.

hatchling runs this hook when it builds the wheel (``[tool.hatch.build.targets.wheel.hooks.custom]``
in pyproject.toml). It hashes every file the wheel maps from the top-level ``data/`` and
``notebooks/`` folders and writes one line per file, ``<sha256 hex>  <path>``, the format
``sha256sum`` reads, with the path relative to the series root
(``notebooks/04_byte_level_bpe.ipynb``, ``data/english.txt``). The course compares the
installed files with it, so a damaged install is named. An editable install (a clone) gets no
manifest: the files there are the repository's own, and an edit to them is not damage.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SERIES_FOLDERS = ("data/", "notebooks/")  # mapped into bpe_workshop/ by the wheel's `sources`


class SeriesManifest(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        lines = []  # what the wheel carries under bpe_workshop/data and bpe_workshop/notebooks
        for included in self.build_config.builder.recurse_included_files():
            series_path = included.distribution_path.replace("\\", "/")
            series_path = series_path.removeprefix("bpe_workshop/")
            if series_path.startswith(SERIES_FOLDERS):
                digest = hashlib.sha256(Path(included.path).read_bytes()).hexdigest()
                lines.append(f"{digest}  {series_path}\n")
        lines.sort(key=lambda line: line[66:])
        self._folder = tempfile.TemporaryDirectory(prefix="bpe-workshop-build-")
        manifest = Path(self._folder.name) / "series.sha256"
        manifest.write_text("".join(lines), encoding="utf-8", newline="\n")
        build_data["force_include"][str(manifest)] = "bpe_workshop/series.sha256"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if getattr(self, "_folder", None) is not None:
            self._folder.cleanup()
