"""Readers: WARC files (fastwarc, or warcio when fastwarc is not
installed) and folders of HTML files, yielding Records that say where each
came from (file, offset), and RecordErrors for what cannot be read.

With python-isal installed, the fastwarc backend reads a .warc.gz's gzip
members of the plain shape (one record each, as writers make them) itself,
in C and mostly without the GIL (lexpy.corpus.members), and fastwarc reads
on from the first member that is not: the same records (tests compare the
two on the corpus and on generated files), at half the time with the GIL
held, which is what threads share.

A damaged input never ends the run: after a corrupt gzip member or a
broken record the WARC reader looks for the next record (the next gzip
member that starts a WARC record, or the next "WARC/1." line of an
uncompressed file) and goes on from there, reporting the bytes it skipped
as one RecordError.
"""
from __future__ import annotations

import bisect
import gzip
import io
import os
import zlib
from typing import IO, Any, Generator, Iterable, Iterator, List, Optional, Tuple, Union

from lexpy.corpus.records import Record, RecordError

WARC_SUFFIXES = (".warc", ".warc.gz")
HTML_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")
GZIP_MAGIC = b"\x1f\x8b\x08"
WARC_MAGIC = b"WARC/1."

Item = Union[Record, RecordError]


def warc_backend() -> str:
    """The WARC library iter_warc uses by default: 'fastwarc' when it is
    installed, else 'warcio'; ImportError naming the extra when neither is."""
    try:
        import fastwarc.warc  # noqa: F401
        return "fastwarc"
    except ImportError:
        pass
    try:
        import warcio  # noqa: F401
        return "warcio"
    except ImportError:
        raise ImportError("reading WARC files needs fastwarc or warcio: "
                          "pip install 'lexpy[warc]'") from None


def iter_warc(path: Union[str, "os.PathLike[str]"], *,
              backend: Optional[str] = None) -> Iterator[Item]:
    """The response records of a WARC (or gzip-compressed .warc.gz) file, as
    Records (url, HTTP status, headers, body, file, offset); other record
    types (request, metadata, warcinfo...) are skipped. Damaged parts of the
    file become RecordErrors (kind 'read') and reading goes on after them.
    `backend`: 'fastwarc' or 'warcio' (default: warc_backend())."""
    name = os.fspath(path)
    if backend is None:
        backend = warc_backend()
    if backend not in ("fastwarc", "warcio"):
        raise ValueError("backend must be 'fastwarc' or 'warcio', not %r" % (backend,))
    with open(name, "rb") as raw:
        size = os.fstat(raw.fileno()).st_size
        compressed = raw.read(3) == GZIP_MAGIC
        start = 0
        while start < size:
            raw.seek(start)
            # One pass of the library from `start`; state[0] is the offset
            # of the last record it yielded (absolute), state[1] the end of
            # the input it consumed when it stopped cleanly.
            state: List[Optional[int]] = [None, None]
            failure: Optional[str] = None
            # Each record is held back until the next one starts (or the
            # library stops), so a record the file ends inside is reported
            # instead of yielded with a short body: both libraries stop
            # quietly at a truncated end.
            pending: Optional[Item] = None
            try:
                records = _fastwarc_pass(raw, name, start, state, compressed) \
                    if backend == "fastwarc" else _warcio_pass(raw, name, start, state)
                for item in records:
                    if pending is not None:
                        yield pending
                    pending = item
                if pending is not None:
                    position = raw.tell()
                    complete = _record_complete(raw, pending.offset, size, compressed)
                    raw.seek(position)
                    if not complete:
                        pending = RecordError(
                            name, pending.offset, "truncated record: the file "
                            "ends inside it", url=pending.url, kind="read")
                    yield pending
                    pending = None
            except (OSError, EOFError, ValueError, zlib.error, RuntimeError) as exc:
                failure = _describe(exc)
            except Exception as exc:   # a library bug must not end the run
                failure = _describe(exc)
            if failure is None:
                return
            if pending is not None:
                yield pending
            search_from = state[0] + 1 if state[0] is not None else start
            bad = _damaged_record_start(raw, state[0], size, compressed) \
                if state[0] is not None else start
            if bad is None or bad < start:
                bad = search_from
            resume = _next_record_start(raw, bad + 1, size, compressed)
            yield RecordError(name, bad, "damaged WARC data (%s); skipped %s"
                              % (failure, "to offset %d" % resume if resume is not None
                                 else "to the end of the file"), kind="read")
            if resume is None:
                return
            start = resume


def _describe(exc: BaseException) -> str:
    # warcio quotes the bad first line in full: keep messages short
    text = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ""
    return "%s: %s" % (type(exc).__name__, text) if text else type(exc).__name__


def _record_complete(raw: IO[bytes], offset: int, size: int,
                     compressed: bool) -> bool:
    """Whether the WARC record at `offset` ends inside the file: its gzip
    member inflates to its end, or (uncompressed) its header's
    Content-Length fits in the file."""
    raw.seek(offset)
    if compressed:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            while not inflater.eof:
                chunk = raw.read(1 << 16)
                if not chunk:
                    return False
                inflater.decompress(chunk)
        except zlib.error:
            return False
        return True
    head = raw.read(65536)
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return False
    for line in head[:end].split(b"\r\n"):
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            try:
                return offset + end + 4 + int(value.strip()) <= size
            except ValueError:
                return False
    return False


def _damaged_record_start(raw: IO[bytes], position: int, size: int,
                          compressed: bool) -> Optional[int]:
    """Where the damage is, after the last good record (which starts at
    `position`, or the damage is at the first record start after it): in a
    .warc.gz, the first gzip member from there that does not inflate to its
    end, or the end of the last member that does when no record starts
    there (a request record between two responses may come first)."""
    if not compressed:
        return _next_record_start(raw, position + 1, size, compressed)
    candidate: Optional[int] = position
    for _ in range(64):
        if candidate is None:
            break
        end = _member_end(raw, candidate)
        if end is None:
            return candidate
        if end >= size:
            break
        if not _starts_record(raw, end, True):
            return end
        candidate = end
    return _next_record_start(raw, position + 1, size, compressed)


def _member_end(raw: IO[bytes], offset: int) -> Optional[int]:
    """The offset after the gzip member at `offset`, None when it does not
    inflate to its end."""
    raw.seek(offset)
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    consumed = 0
    try:
        while not inflater.eof:
            chunk = raw.read(1 << 16)
            if not chunk:
                return None
            inflater.decompress(chunk)
            consumed += len(chunk)
    except zlib.error:
        return None
    return offset + consumed - len(inflater.unused_data)


def _next_record_start(raw: IO[bytes], position: int, size: int,
                       compressed: bool) -> Optional[int]:
    """The offset at or after `position` where a WARC record starts: a gzip
    member whose first bytes inflate to 'WARC/', or a 'WARC/1.' line."""
    magic = GZIP_MAGIC if compressed else WARC_MAGIC
    block = 1 << 20
    while position < size:
        raw.seek(position)
        data = raw.read(block + len(magic))
        if not data:
            return None
        index = data.find(magic)
        while index >= 0:
            candidate = position + index
            if _starts_record(raw, candidate, compressed):
                return candidate
            index = data.find(magic, index + 1)
        position += block
    return None


def _starts_record(raw: IO[bytes], offset: int, compressed: bool) -> bool:
    raw.seek(offset)
    head = raw.read(4096)
    if not compressed:
        return offset == 0 or _preceded_by_newline(raw, offset)
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16) \
            .startswith(b"WARC/")
    except zlib.error:
        return False


def _preceded_by_newline(raw: IO[bytes], offset: int) -> bool:
    raw.seek(offset - 1)
    return raw.read(1) == b"\n"


def _inflater_module() -> Any:
    """python-isal's igzip_lib (lexpy[warc] installs it), or None: it
    inflates outside the GIL, and faster than fastwarc does while holding
    it."""
    try:
        from isal import igzip_lib
    except ImportError:
        return None
    return igzip_lib


class _InflatedMembers(io.RawIOBase):
    """The uncompressed bytes of a .warc.gz from `start`, gzip member after
    member (lexpy.corpus.members.GzipMembers.inflate: outside the GIL), for
    fastwarc to parse. offset_of() gives the file offset of the member an
    uncompressed position is in (a WARC record is one member). A file that
    ends inside a member ends the stream there, as fastwarc itself stops at
    a truncated end. `members` is the GzipMembers it reads (its sizes of a
    read and of an inflate call can be set)."""

    def __init__(self, raw: IO[bytes], start: int, inflater_module: Any) -> None:
        super().__init__()
        from lexpy.corpus.members import GzipMembers
        self.members = GzipMembers(raw, start, inflater_module)
        self._starting = True           # the next bytes start a member
        self._output = memoryview(b"")  # inflated, not yet read
        self._position = 0
        self._member_positions: List[int] = []
        self._member_offsets: List[int] = []

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True     # (fastwarc asks; it only seeks to where it is)

    def tell(self) -> int:
        return self._position

    def seek(self, position: int, whence: int = io.SEEK_SET) -> int:
        if (whence == io.SEEK_SET and position == self._position) \
                or (whence == io.SEEK_CUR and position == 0):
            return self._position
        raise io.UnsupportedOperation("seek")

    def read(self, size: int = -1) -> bytes:
        # fastwarc reads 64 KiB at a time: one copy out of the inflated
        # member, where RawIOBase.read would make a bytearray, readinto it
        # and copy that into bytes (the copies hold the GIL).
        if size is None or size < 0:
            return self.readall()
        return bytes(self._take(size))

    def readinto(self, buffer: Any) -> int:
        data = self._take(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def _take(self, size: int) -> memoryview:
        """Up to `size` inflated bytes (none at the end), read."""
        if not self._fill():
            return memoryview(b"")
        data = self._output[:size]
        self._output = self._output[len(data):]
        self._position += len(data)
        return data

    def _fill(self) -> bool:
        """Inflate until there is output to read: False at the end."""
        while not self._output:
            output = self.members.inflate()
            if output is None:
                return False
            if self._starting:
                self._member_positions.append(self._position)
                self._member_offsets.append(self.members.member_offset)
            self._starting = self.members.ended
            self._output = memoryview(output)
        return True

    def offset_of(self, position: int) -> int:
        return self._member_offsets[bisect.bisect_right(self._member_positions, position) - 1]


def _fastwarc_pass(raw: IO[bytes], name: str, start: int,
                   state: List[Optional[int]], compressed: bool) -> Iterator[Item]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    inflater_module = _inflater_module() if compressed else None
    stream: Any = raw
    if inflater_module is not None:
        handed_back = yield from _member_records(raw, name, start, state, inflater_module)
        if handed_back is None:
            return
        stream = _InflatedMembers(raw, handed_back, inflater_module)
    iterator = ArchiveIterator(stream, record_types=WarcRecordType.response,
                               parse_http=True, auto_decode="none",
                               fsspec_args=False, stream_detect=stream is raw)
    for warc_record in iterator:
        # absolute: fastwarc starts from tell(), _InflatedMembers maps
        offset = warc_record.stream_pos if stream is raw \
            else stream.offset_of(warc_record.stream_pos)
        state[0] = offset
        url = _target_uri(warc_record.headers.astuples())
        http = warc_record.http_headers
        status = http.status_code if http is not None else None
        headers = [(k, v) for k, v in http.astuples()] if http is not None else []
        yield _http_record(name, offset, url, status, headers,
                           _read_payload(warc_record.reader, warc_record.content_length))


def _member_records(raw: IO[bytes], name: str, start: int, state: List[Optional[int]],
                    inflater_module: Any) -> Generator[Item, None, Optional[int]]:
    """The response records of a .warc.gz from `start` while its members
    are of the plain shape (one record each, as writers make them), read
    in C (lexpy.corpus.members: fastwarc holds the GIL while it parses and
    copies); returns the offset of the first member that is not, for
    fastwarc to read on from, or None at the end of the file."""
    from lexpy.corpus.members import GzipMembers
    members = GzipMembers(raw, start, inflater_module)
    while True:
        got = members.next_record()
        if not isinstance(got, tuple):
            return got
        state[0] = got[0]
        yield _http_record(name, *got)


def _target_uri(warc_headers: Iterable[Tuple[str, str]]) -> Optional[str]:
    """The first WARC-Target-URI of a record's WARC headers (names compared
    ASCII case-insensitively, as HeaderMap.get does). Looked up here rather
    than with fastwarc's HeaderMap.get, which lets the GIL go and takes it
    back four times a call (2.0.1): with another thread running, each of
    those is a wait for it."""
    for key, value in warc_headers:
        if len(key) == 15 and key.lower() == "warc-target-uri":
            return value
    return None


def _read_payload(reader: Any, limit: int) -> bytes:
    """The rest of a fastwarc record's payload. One read of the record's
    Content-Length (at least what is left after the HTTP headers) makes the
    bytes at once; a read() of unknown size grows its buffer as it goes
    (20-30 ms of the corpus WARC's 100, with the GIL held). A short read
    is followed up to the end."""
    body = reader.read(limit) if limit > 0 else b""
    more = reader.read()
    if not more:
        return body
    parts = [body, more]
    while more:
        more = reader.read()
        parts.append(more)
    return b"".join(parts)


def _warcio_pass(raw: IO[bytes], name: str, start: int,
                 state: List[Optional[int]]) -> Iterator[Item]:
    from warcio.archiveiterator import ArchiveIterator
    iterator = ArchiveIterator(raw, no_record_parse=False)
    for warc_record in iterator:
        if warc_record.rec_type != "response":
            continue
        url = warc_record.rec_headers.get_header("WARC-Target-URI")
        http = warc_record.http_headers
        status = None
        headers: List[Tuple[str, str]] = []
        if http is not None:
            try:
                status = int(http.get_statuscode())
            except (TypeError, ValueError):
                status = None
            headers = list(http.headers)
        body = warc_record.raw_stream.read()
        # (after the read: get_record_offset reads the record to its end)
        offset = iterator.get_record_offset()  # absolute, as fastwarc's
        state[0] = offset
        yield _http_record(name, offset, url, status, headers, body)


def _http_record(name: str, offset: int, url: Optional[str], status: Optional[int],
                 headers: List[Tuple[str, str]], body: bytes) -> Item:
    record = Record(name, offset, url, status, headers, body)
    encoding = (record.header("Content-Encoding") or "").strip().lower()
    if encoding in ("gzip", "x-gzip", "deflate"):
        try:
            if encoding == "deflate":
                try:
                    record.body = zlib.decompress(body)
                except zlib.error:
                    record.body = zlib.decompress(body, -zlib.MAX_WBITS)
            else:
                record.body = gzip.decompress(body)
        except (OSError, EOFError, zlib.error) as exc:
            return RecordError(name, offset, "bad %s Content-Encoding: %s"
                               % (encoding, exc), url=url, kind="read")
    return record


def iter_files(path: Union[str, "os.PathLike[str]"]) -> Iterator[Item]:
    """Records of the .html/.htm/.html.gz files of a directory tree (sorted
    by path), or of one such file: url is the file's file:// URL, status
    None, offset 0. An unreadable file or folder becomes a RecordError."""
    name = os.fspath(path)
    if os.path.isfile(name):
        yield _file_record(name)
        return
    problems: List[RecordError] = []

    def report(error: OSError) -> None:
        problems.append(RecordError(error.filename or name, 0,
                                    error.strerror or str(error), kind="read"))

    for root, dirs, names in os.walk(name, onerror=report):
        dirs.sort()
        yield from problems
        problems.clear()
        for entry in sorted(names):
            if entry.lower().endswith(HTML_SUFFIXES):
                yield _file_record(os.path.join(root, entry))
    yield from problems


def _file_record(name: str) -> Item:
    from pathlib import Path
    url = Path(os.path.abspath(name)).as_uri()
    try:
        with open(name, "rb") as f:
            body = f.read()
        if name.lower().endswith(".gz"):
            body = gzip.decompress(body)
    except (OSError, EOFError, zlib.error) as exc:
        return RecordError(name, 0, "%s: %s" % (type(exc).__name__, exc), url=url,
                           kind="read")
    return Record(name, 0, url, None, [], body)


def is_warc(path: str) -> bool:
    """Whether a path names a WARC file (.warc or .warc.gz)."""
    return path.lower().endswith(WARC_SUFFIXES)


def iter_inputs(inputs: Iterable[Any]) -> Iterator[Item]:
    """Records of a mix of inputs: WARC files, HTML files, directories (of
    HTML files and WARC files), Records. Paths are checked before anything
    is read: a missing one raises FileNotFoundError naming it."""
    items = list(inputs) if not isinstance(inputs, (str, bytes, os.PathLike)) \
        else [inputs]
    for item in items:
        if isinstance(item, (str, os.PathLike)) and not os.path.exists(item):
            raise FileNotFoundError("no such file or directory: %r" % os.fspath(item))
        if not isinstance(item, (str, os.PathLike, Record, RecordError)):
            raise TypeError("inputs must be paths or Records, not %s"
                            % type(item).__name__)
    for item in items:
        if isinstance(item, (Record, RecordError)):
            yield item
            continue
        name = str(os.fspath(item))
        if os.path.isdir(name):
            for root, dirs, names in os.walk(name):
                dirs.sort()
                for entry in sorted(names):
                    full = os.path.join(root, entry)
                    if is_warc(entry):
                        yield from iter_warc(full)
                    elif entry.lower().endswith(HTML_SUFFIXES):
                        yield _file_record(full)
        elif is_warc(name):
            yield from iter_warc(name)
        else:
            yield _file_record(name)
