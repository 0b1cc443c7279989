"""bpe_workshop: the helper package of an interactive teaching series on Byte Pair Encoding."""

from bpe_workshop.offline import get_encoding

__all__ = ["get_encoding"]
