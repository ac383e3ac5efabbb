# cython: language_level=3
"""The gzip members of a .warc.gz, inflated by python-isal (outside the
GIL), and the WARC records read out of them in C.

A .warc.gz holds each record in a gzip member of its own (as the WARC
standard, ISO 28500, recommends and writers do), so a member, inflated
whole, is one record: GzipMembers.next_record() reads its WARC headers and,
for an application/http block, the HTTP status line and headers, and cuts
the body out of it, holding the GIL only to make the Python objects of the
result (the body is the member's own bytes, moved to their start). A
member of another record type is inflated without being kept. fastwarc,
given the inflated stream, holds the GIL while it parses the headers and
copies the payload: with two threads that was about half of what a
record's processing did holding it, and what kept two threads from the
machine's two cores.

Only the plain shape is read here; a member that is anything else (more or
less than one record, a header line that continues another or has no ':',
a bare CR or LF in a header block, a repeated WARC-Type, Content-Length or
Content-Type, a Content-Length that is not digits, a block whose HTTP
headers do not end, a file that ends inside the member) is given back as
its offset, and the caller (readers._fastwarc_pass) has fastwarc read the
file from that member on. What is read here is what fastwarc reads from
the same bytes (tests check it on the corpus and on generated records):
the WARC-Type compared ASCII case-insensitively, the first
WARC-Target-URI, header names and values stripped of C whitespace, HTTP
headers decoded as ISO-8859-1 and WARC headers as UTF-8 (an undecodable
byte an U+FFFD), the status code the second space-separated field of an
'HTTP/' status line when it is digits.

inflate() is the members' bytes as a stream (readers._InflatedMembers
gives them to fastwarc that way).
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeLatin1, PyUnicode_DecodeUTF8
from libc.stdint cimport uint8_t
from libc.string cimport memcmp, memmove

cdef extern from "Python.h":
    Py_ssize_t refcount "Py_REFCNT"(PyObject* o)
    char* bytes_data "PyBytes_AS_STRING"(PyObject* o)
    void decref "Py_DECREF"(PyObject* o)
    int _PyBytes_Resize(PyObject** b, Py_ssize_t size) except -1

from lexpy.dom.dom cimport bytes_equal

# The outcome of reading a member as a record, besides a record.
cdef object SKIPPED = object()      # a record of another type than response
cdef object UNHANDLED = object()    # not of the plain shape: fastwarc reads it

# Bodies up to this size are moved with the GIL held (letting it go and
# taking it back costs more than moving a page's body, and may wait for
# another thread).
cdef enum:
    MOVE_WITHOUT_GIL = 1 << 20


cdef class GzipMembers:
    """The gzip members of a file from `start`, inflated with `module`'s
    IgzipDecompressor (python-isal's igzip_lib, or a stand-in with its API).
    read_size, input_size and output_limit are the sizes of a read of the
    file, of the input given to one inflate call and of the output asked of
    one."""

    # A MiB of the file a read: each read lets the GIL go, and each time a
    # thread that waits for it may take it; the reader then waits for it in
    # turn.
    cdef public Py_ssize_t read_size
    # 64 KiB of input an inflate call (about a record's member: what is left
    # after the member's end is given back, with the GIL held).
    cdef public Py_ssize_t input_size
    # One inflate call a member, for most: given a limit, the decompressor
    # makes its output buffer that size at once (without one it starts at
    # 16 KiB and doubles, letting the GIL go and taking it back at every
    # step). 256 KiB: most pages fit.
    cdef public Py_ssize_t output_limit
    # The file offset of the member whose bytes inflate() gave last, whether
    # that ended it, and (after inflate() gave None) whether the file ended
    # inside a member.
    cdef public long long member_offset
    cdef public bint ended
    cdef public bint truncated
    cdef object _raw, _module, _flag
    cdef object _input           # bytes read from the file
    cdef object _view            # a memoryview of _input
    cdef Py_ssize_t _given       # how much of _input the inflaters have had
    cdef long long _input_offset  # the file offset of _input[0]
    cdef object _inflater        # of the member being inflated, or None

    def __init__(self, raw, long long start, module):
        raw.seek(start)
        self._raw = raw
        self._module = module
        self._flag = module.DECOMP_GZIP
        self.read_size = 1 << 20
        self.input_size = 1 << 16
        self.output_limit = 1 << 18
        self._input = b""
        self._view = memoryview(b"")
        self._given = 0
        self._input_offset = start
        self._inflater = None
        self.member_offset = start
        self.ended = True
        self.truncated = False

    cpdef object inflate(self):
        """The next inflated bytes of the member at member_offset (b"" only
        for a member that inflates to nothing), `ended` telling whether they
        end it; None when the file ends (`truncated` when it ends inside a
        member)."""
        cdef object given, output
        while True:
            inflater = self._inflater
            if inflater is None or inflater.needs_input:
                if self._given == PyBytes_GET_SIZE(self._input):
                    self._input_offset += self._given
                    self._input = self._raw.read(self.read_size)
                    if not isinstance(self._input, bytes):
                        self._input = bytes(self._input)
                    self._view = memoryview(self._input)
                    self._given = 0
                    if not self._input:
                        self.truncated = inflater is not None
                        return None
                given = self._view[self._given:self._given + self.input_size]
            else:
                given = b""     # (it holds input it has not inflated)
            if inflater is None:
                self.member_offset = self._input_offset + self._given
                inflater = self._inflater = self._module.IgzipDecompressor(flag=self._flag)
            self._given += len(given)
            output = inflater.decompress(given, self.output_limit)
            self.ended = inflater.eof
            if self.ended:
                self._unread(inflater.unused_data)
                self._inflater = None
            if output or self.ended:
                return output

    cdef _unread(self, bytes data):
        """Give back what followed a member's end: the last len(data) bytes
        given to the inflaters."""
        cdef Py_ssize_t size = len(data)
        if size <= self._given:
            self._given -= size
        else:   # (they began in the previous read of the file)
            self._input_offset += self._given - size
            self._input = data + self._input[self._given:]
            self._view = memoryview(self._input)
            self._given = 0

    def next_record(self):
        """The next response record, as (offset, url, status, headers, body);
        None at the end of the file; or the offset (an int) of a member this
        does not read (module docstring), the records before it read. Other
        members are passed over."""
        cdef object chunk, member, result
        cdef list parts
        cdef long long offset
        cdef PyObject* owned
        while True:
            chunk = self.inflate()
            if chunk is None:
                return self.member_offset if self.truncated else None
            offset = self.member_offset
            member = chunk
            if not self.ended:
                if passed_over(chunk):
                    if self._pass_over(chunk):
                        continue
                    return offset
                parts = [chunk]
                while not self.ended:
                    chunk = self.inflate()
                    if chunk is None:
                        return offset
                    parts.append(chunk)
                member = b"".join(parts)
            result = read_record(member)
            if result is SKIPPED:
                continue
            if result is UNHANDLED:
                return offset
            # the body is the member itself, cut: its only reference goes
            # to cut()
            chunk = None
            owned = <PyObject*>member
            Py_INCREF(member)
            member = None
            url, status, headers, start, end = result
            return (offset, url, status, headers, cut(owned, start, end))

    cdef bint _pass_over(self, bytes first):
        """Inflate the rest of a member that passed_over(first) without
        keeping it: whether it holds one record (of the length its head
        says, and the CR LF CR LF after it)."""
        cdef const uint8_t* s = <const uint8_t*>PyBytes_AS_STRING(first)
        cdef WarcHead head
        read_warc_head(s, PyBytes_GET_SIZE(first), &head)
        cdef long long size = PyBytes_GET_SIZE(first)
        cdef bytes tail = first[max(size - 4, 0):]
        while not self.ended:
            chunk = self.inflate()
            if chunk is None:
                return False
            size += len(chunk)
            tail = tail + chunk
            tail = tail[max(len(tail) - 4, 0):]
        return size == head.block + head.length + 4 and tail == b"\r\n\r\n"


cdef bint passed_over(bytes first):
    """Whether the first inflated bytes of a member that has more are the
    head of a record of another type than response (one that need not be
    kept whole: a resource or a conversion can be gigabytes)."""
    cdef WarcHead head
    return read_warc_head(<const uint8_t*>PyBytes_AS_STRING(first), PyBytes_GET_SIZE(first),
                          &head) and not head.response


cdef inline bint is_c_space(uint8_t c) noexcept nogil:
    # C isspace in the C locale: what fastwarc strips header fields of
    return c == 32 or 9 <= c <= 13


cdef struct Field:
    Py_ssize_t start, end


cdef inline Field stripped(const uint8_t* s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    while start < end and is_c_space(s[start]):
        start += 1
    while end > start and is_c_space(s[end - 1]):
        end -= 1
    return Field(start, end)


cdef Py_ssize_t line_end(const uint8_t* s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """Where the line at `start` ends (the index of its CR LF), or -1: no
    CR LF before `end`, or a bare CR or LF before it."""
    cdef Py_ssize_t i = start
    while i < end:
        if s[i] == 13:
            return i if i + 1 < end and s[i + 1] == 10 else -1
        if s[i] == 10:
            return -1
        i += 1
    return -1


# What header_line() gives for a line that is not a header line.
cdef enum:
    NOT_PLAIN = -1
    HEADERS_END = -2


cdef Py_ssize_t header_line(const uint8_t* s, Py_ssize_t start, Py_ssize_t end,
                            Field* name, Field* value) noexcept nogil:
    """The header line at `start`: where it ends (the index of its CR LF),
    its name and value stripped; HEADERS_END for the empty line that ends
    the headers; NOT_PLAIN for a line that continues the one before, has no
    ':', or no CR LF before `end` (or a bare CR or LF)."""
    cdef Py_ssize_t line = line_end(s, start, end), colon = start
    if line < 0:
        return NOT_PLAIN
    if line == start:
        return HEADERS_END
    if is_c_space(s[start]):
        return NOT_PLAIN
    while colon < line and s[colon] != 58:
        colon += 1
    if colon == line:
        return NOT_PLAIN
    name[0] = stripped(s, start, colon)
    value[0] = stripped(s, colon + 1, line)
    return line


cdef inline bint is_name(const uint8_t* s, Field f, const char* lower_name,
                         Py_ssize_t size) noexcept nogil:
    return f.end - f.start == size and bytes_equal(s + f.start, <const uint8_t*>lower_name, size, True)


cdef inline object latin1(const uint8_t* s, Field f):
    return PyUnicode_DecodeLatin1(<const char*>s + f.start, f.end - f.start, NULL)


cdef struct WarcHead:
    Py_ssize_t block            # where the block starts
    Py_ssize_t length           # its Content-Length
    bint response, http         # WARC-Type response; Content-Type application/http
    Field url                   # the first WARC-Target-URI (start -1: none)


cdef bint read_warc_head(const uint8_t* s, Py_ssize_t n, WarcHead* head) noexcept nogil:
    """The WARC version line and header lines at the start of `s`: False when
    they are not of the plain shape (or do not end within `n` bytes)."""
    cdef Py_ssize_t i = 10, k, end
    cdef Field name, value
    cdef int seen_type = 0, seen_length = 0, seen_content_type = 0
    cdef uint8_t c
    if n < 10 or (memcmp(s, b"WARC/1.0\r\n", 10) != 0 and memcmp(s, b"WARC/1.1\r\n", 10) != 0):
        return False
    head.length = 0
    head.response = head.http = False
    head.url.start = head.url.end = -1
    while True:
        end = header_line(s, i, n, &name, &value)
        if end == NOT_PLAIN:
            return False
        if end == HEADERS_END:
            break
        if is_name(s, name, "warc-type", 9):
            seen_type += 1
            head.response = is_name(s, value, "response", 8)
        elif is_name(s, name, "content-length", 14):
            seen_length += 1
            if value.end == value.start or value.end - value.start > 18:
                return False
            for k in range(value.start, value.end):
                c = s[k]
                if not 48 <= c <= 57:
                    return False
                head.length = head.length * 10 + (c - 48)
        elif is_name(s, name, "content-type", 12):
            seen_content_type += 1
            head.http = value.end - value.start >= 16 and memcmp(
                s + value.start, b"application/http", 16) == 0
        elif head.url.start < 0 and is_name(s, name, "warc-target-uri", 15):
            head.url = value
        i = end + 2
    head.block = i + 2
    return seen_type <= 1 and seen_length == 1 and seen_content_type <= 1


cdef object read_record(bytes member):
    """A member's record as (url, status, headers, body start, body end),
    SKIPPED or UNHANDLED."""
    cdef const uint8_t* s = <const uint8_t*>PyBytes_AS_STRING(member)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(member)
    cdef Py_ssize_t i, end, block, block_end
    cdef Field name, value
    cdef WarcHead head
    if not read_warc_head(s, n, &head):
        return UNHANDLED
    block = head.block
    block_end = block + head.length
    if block_end + 4 != n or memcmp(s + block_end, b"\r\n\r\n", 4) != 0:
        return UNHANDLED
    if not head.response:
        return SKIPPED
    cdef object target = PyUnicode_DecodeUTF8(
        <const char*>s + head.url.start, head.url.end - head.url.start,
        "replace") if head.url.start >= 0 else None
    if not head.http:
        return (target, None, [], block, block_end)
    # the HTTP status line, headers and body
    end = line_end(s, block, block_end)
    if end <= block or is_c_space(s[block]):
        return UNHANDLED
    cdef object status = status_code(s, stripped(s, block, end))
    cdef list headers = []
    i = end + 2
    while True:
        end = header_line(s, i, block_end, &name, &value)
        if end == NOT_PLAIN:
            return UNHANDLED
        if end == HEADERS_END:
            break
        headers.append((latin1(s, name), latin1(s, value)))
        i = end + 2
    return (target, status, headers, i + 2, block_end)


cdef object status_code(const uint8_t* s, Field line):
    """fastwarc's status_code of a status line: for an 'HTTP/' line, the
    text between its first and second space (or its end) when that is
    ASCII digits."""
    cdef Py_ssize_t i, start, end
    if line.end - line.start < 5 or memcmp(s + line.start, b"HTTP/", 5) != 0:
        return None
    start = line.start
    while start < line.end and s[start] != 32:
        start += 1
    if start == line.end:
        return None
    start += 1
    end = start
    while end < line.end and s[end] != 32:
        end += 1
    if end == start:
        return None
    for i in range(start, end):
        if not 48 <= s[i] <= 57:
            return None
    return int(PyBytes_FromStringAndSize(<const char*>s + start, end - start))


cdef object cut(PyObject* member, Py_ssize_t start, Py_ssize_t end):
    """member[start:end], made of the member itself (moved to its start and
    shortened: no second buffer, no copy into memory not yet touched) when
    nothing else holds it. Takes over the reference to `member`."""
    cdef char* data = bytes_data(member)
    cdef Py_ssize_t size = end - start
    cdef object result
    if refcount(member) != 1:
        try:
            return PyBytes_FromStringAndSize(data + start, size)
        finally:
            decref(member)
    if start:
        if size > MOVE_WITHOUT_GIL:
            with nogil:
                memmove(data, data + start, size)
        else:
            memmove(data, data + start, size)
    _PyBytes_Resize(&member, size)      # (it frees the member if it fails)
    result = <object>member
    decref(member)
    return result
