"""The records lexpy.corpus passes around: a Record read from a WARC file
or an HTML file, and the RecordError that stands in for a record (or a
stretch of input) that could not be read or processed."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple


class Record:
    """One page to process: where it came from (`file`, and `offset`, the
    byte offset of its WARC record or 0 for an HTML file), its `url`, the
    HTTP `status` (None for a file), the HTTP `headers` as (name, value)
    pairs, and the `body` bytes (the HTTP payload)."""

    __slots__ = ("file", "offset", "url", "status", "headers", "body")

    def __init__(self, file: str, offset: int, url: Optional[str],
                 status: Optional[int], headers: List[Tuple[str, str]],
                 body: bytes) -> None:
        self.file = file
        self.offset = offset
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name: str) -> Optional[str]:
        """The first HTTP header called `name` (ASCII case-insensitive), or
        None."""
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Record, (self.file, self.offset, self.url, self.status,
                         self.headers, self.body))

    def __repr__(self) -> str:
        return "<Record %s@%d %s>" % (self.file, self.offset, self.url)


class RecordError:
    """A record, or a stretch of an input, that could not be read or
    processed: `file` and `offset` say where, `message` what went wrong,
    `url` which page (when known), `kind` what kind of failure ('read':
    the input is damaged; 'skipped': the record is not an HTML page;
    'failed': the processing function raised; 'worker': the process that
    ran it died). Results of process() are these or the function's
    results; a RecordError is never raised, it is data."""

    __slots__ = ("file", "offset", "message", "url", "kind")

    def __init__(self, file: str, offset: int, message: str,
                 url: Optional[str] = None, kind: str = "failed") -> None:
        self.file = file
        self.offset = offset
        self.message = message
        self.url = url
        self.kind = kind

    def to_dict(self) -> Dict[str, Any]:
        """The error as a JSON-ready object (what `lexpy extract` writes)."""
        return {"file": self.file, "offset": self.offset, "url": self.url,
                "error": self.message, "kind": self.kind}

    def __reduce__(self) -> Tuple[Any, ...]:
        return (RecordError, (self.file, self.offset, self.message, self.url,
                              self.kind))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RecordError) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.file, self.offset, self.message, self.kind))

    def __repr__(self) -> str:
        return "<RecordError %s@%d %s: %s>" % (self.file, self.offset,
                                               self.kind, self.message)


class NotAPage(ValueError):
    """Raised by an extraction function for a record it does not handle (not
    HTML, an empty body): process() reports it as a RecordError of kind
    'skipped' rather than 'failed'."""
