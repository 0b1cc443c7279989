"""One record per merge learned in training.

Trainers (``textbook``, ``train_fast``) return a list of these; viewers, plots and
progress bars only read them. Nothing here computes anything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MergeRecord:
    """What happened at one training step (``log_line`` shows one)."""

    step: int  # 1-based
    pair: tuple[int, int]  # (left id, right id) that was merged
    new_id: int  # the id minted for the pair
    count: int  # occurrences when chosen, counted as get_stats does (overlaps included)
    token: bytes  # the bytes the new id stands for

    def log_line(self, total: int) -> str:
        """One line for a verbose training log (train with ``progress=`` to print these).

        >>> MergeRecord(step=1, pair=(101, 32), new_id=256, count=812, token=b"e ").log_line(256)
        "merge 1/256: (101, 32) -> 256 (b'e ') had 812 occurrences"
        """
        return (f"merge {self.step}/{total}: {self.pair} -> {self.new_id} ({self.token!r}) "
                f"had {self.count} occurrences")
