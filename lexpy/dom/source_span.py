"""SourceSpan: where a node came from in the input (lexpy.parse(positions=True))."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["SourceSpan"]


class SourceSpan(NamedTuple):
    """A range of the input as given: `start`/`end` are offsets into the
    original bytes (in their own encoding) for bytes input, code point
    offsets for str input; `line`/`column` of the first character and
    `end_line`/`end_column` of the position just after the last (1-based;
    columns count code points; CR, LF and CRLF each end a line)."""

    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int
