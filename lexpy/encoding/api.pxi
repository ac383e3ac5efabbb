# The Python API: Encoding objects, lookup(), sniff(), decode(), Decoder,
# and the prescan helpers, over the C functions above. Used by tests, tools
# and users; the parser driver uses the C API of encoding.pxd.

import collections


cdef class Encoding:
    """An encoding of the WHATWG Encoding Standard.

    There is one instance per encoding (``lookup("latin1") is
    lookup("windows-1252")``); ``name`` is the standard's name, spelled as
    the standard spells it ("UTF-8", "windows-1252", "Shift_JIS").
    """
    cdef readonly int id
    cdef readonly str name
    cdef readonly tuple labels

    def __repr__(self):
        return "<Encoding %s>" % self.name

    def __reduce__(self):
        return (lookup, (self.name,))


cdef list _ENCODINGS = []


def _build_encodings():
    cdef Encoding encoding
    labels = [[] for _ in range(LXP_ENCODING_COUNT)]
    for i in range(LXP_LABEL_COUNT):
        labels[lxp_label_encodings[i]].append(lxp_labels[i].decode("ascii"))
    for i in range(LXP_ENCODING_COUNT):
        encoding = Encoding.__new__(Encoding)
        encoding.id = i
        encoding.name = lxp_encoding_names[i].decode("ascii")
        encoding.labels = tuple(labels[i])
        _ENCODINGS.append(encoding)


_build_encodings()

#: Every encoding of the standard, in the order of its encodings.json.
ENCODINGS = tuple(_ENCODINGS)

CERTAIN = "certain"
TENTATIVE = "tentative"

SniffResult = collections.namedtuple("SniffResult", "encoding confidence bom_length")
SniffResult.__doc__ = """The outcome of the encoding sniffing algorithm.

encoding: the Encoding; confidence: "certain" or "tentative"; bom_length:
the number of bytes of byte order mark to skip (0, 2 or 3)."""


cdef bytes _label_bytes(label):
    if isinstance(label, str):
        return (<str>label).encode("utf-8", "surrogatepass")
    if isinstance(label, (bytes, bytearray, memoryview)):
        return bytes(label)
    raise TypeError("an encoding label must be str or bytes, not %s"
                    % type(label).__name__)


def lookup(label):
    """The Encoding a label names ("get an encoding": ASCII whitespace
    trimmed, ASCII case-insensitive). An Encoding is returned as it is.

    Raises LookupError naming the label when it is not a label of the
    Encoding Standard, TypeError when it is not a str, bytes or Encoding.
    """
    cdef bytes raw
    cdef int found
    if isinstance(label, Encoding):
        return label
    raw = _label_bytes(label)
    found = encoding_for_label(<const uint8_t*><const char*>raw, len(raw))
    if found == ENCODING__NONE:
        raise LookupError("unknown encoding label: %r" % (label,))
    return _ENCODINGS[found]


cdef int _encoding_id(encoding) except -2:
    """The id of an Encoding or label; ENCODING__NONE for None."""
    if encoding is None:
        return ENCODING__NONE
    return (<Encoding>lookup(encoding)).id


cdef inline object _encoding_or_none(int encoding):
    return None if encoding == ENCODING__NONE else _ENCODINGS[encoding]


def sniff(data, transport_encoding=None, default=None, *, prescan_limit=1024,
          detect_encoding=False):
    """Determine the character encoding of an HTML byte stream.

    The HTML standard's encoding sniffing algorithm: a byte order mark wins
    (confidence "certain"); then ``transport_encoding`` (a label or Encoding,
    e.g. from Content-Type: "certain"); then the <meta> prescan of the first
    ``prescan_limit`` bytes (None: all of them) ("tentative"); then
    ``default``, else windows-1252 ("tentative").

    With ``detect_encoding`` true, the autodetection step that the standard
    leaves to the user agent comes before the default, as lexpy.parse()
    does it by default: when ``data`` (the whole input) has a byte 0x80 or
    above and the bytes from the first such byte are valid UTF-8 (the first
    1024 of them, or all up to the end), the result is UTF-8 ("tentative"). It does not replace a ``default`` of
    UTF-8, UTF-16BE/LE, ISO-2022-JP, replacement or x-user-defined.

    Returns SniffResult(encoding, confidence, bom_length). Unknown labels
    raise LookupError.
    """
    cdef const uint8_t[::1] view = _byte_view(data)
    cdef SniffOutcome outcome = _sniff_outcome(view, transport_encoding, default,
                                               prescan_limit)
    cdef size_t length = view.shape[0], first
    cdef AutodetectResult detected = AUTODETECT_DEFAULT
    if (detect_encoding and outcome.from_default and length
            and autodetection_applies(outcome.encoding)):
        with nogil:
            detected = autodetect_utf8_from_start(&view[0], length, True, &first)
        if detected == AUTODETECT_UTF_8:
            outcome.encoding = ENCODING_UTF_8
    return _sniff_result(outcome)


def _sniff(data, transport_encoding=None, default=None, prescan_limit=1024):
    """sniff(), and whether more input could change its result (what a
    streaming caller waits on)."""
    cdef SniffOutcome outcome = _sniff_outcome(_byte_view(data), transport_encoding,
                                               default, prescan_limit)
    return _sniff_result(outcome), outcome.decided


cdef SniffOutcome _sniff_outcome(const uint8_t[::1] view, transport_encoding,
                                 default, prescan_limit) except *:
    cdef int transport = _encoding_id(transport_encoding)
    cdef int fallback = _encoding_id(default)
    cdef size_t limit
    cdef SniffOutcome outcome
    if prescan_limit is None:
        limit = <size_t>-1
    else:
        if prescan_limit < 0:
            raise ValueError("prescan_limit must not be negative")
        limit = prescan_limit
    with nogil:
        outcome = sniff_encoding(&view[0] if view.shape[0] else NULL, view.shape[0],
                                 transport, fallback, limit)
    return outcome


cdef object _sniff_result(SniffOutcome outcome):
    return SniffResult(_ENCODINGS[outcome.encoding],
                       CERTAIN if outcome.confidence == CONFIDENCE_CERTAIN else TENTATIVE,
                       outcome.bom_length)


cdef const uint8_t[::1] _byte_view(data) except *:
    if isinstance(data, str):
        raise TypeError("expected bytes, not str (str input is already decoded)")
    try:
        view = memoryview(data)
    except TypeError:
        raise TypeError("expected a bytes-like object, not %s" % type(data).__name__)
    if not view.c_contiguous:
        view = memoryview(view.tobytes())
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    return view


def prescan(data):
    """The encoding that "prescan a byte stream to determine its encoding"
    finds in exactly these bytes (a <meta> charset or http-equiv
    Content-Type, or an XML declaration's encoding), or None."""
    cdef const uint8_t[::1] view = _byte_view(data)
    cdef int found
    with nogil:
        found = prescan_byte_stream(&view[0] if view.shape[0] else NULL, view.shape[0])
    return _encoding_or_none(found)


def meta_content_encoding(content):
    """The encoding named by a <meta http-equiv=Content-Type> content value
    (str or bytes), with the HTML standard's "algorithm for extracting a
    character encoding from a meta element", or None."""
    cdef bytes raw = _label_bytes(content)
    return _encoding_or_none(extract_encoding_from_meta(
        <const uint8_t*><const char*>raw, len(raw)))


def change_encoding(current, new):
    """Changing the encoding while parsing: given the encoding in use and the
    one a <meta> declares (Encodings or labels), the encoding to re-parse
    with, or None when the parser keeps its encoding and only the confidence
    becomes certain."""
    return _encoding_or_none(change_the_encoding(_encoding_id(current),
                                                 _encoding_id(new)))


def can_switch_on_the_fly(current, new, converted):
    """Whether the bytes converted so far decode the same in both encodings
    (the on-the-fly switch of "changing the encoding while parsing")."""
    cdef const uint8_t[::1] view = _byte_view(converted)
    return same_interpretation(_encoding_id(current), _encoding_id(new),
                               &view[0] if view.shape[0] else NULL, view.shape[0])


def utf8_valid_prefix(data):
    """The length of the longest prefix of ``data`` made of complete, valid
    UTF-8 sequences."""
    cdef const uint8_t[::1] view = _byte_view(data)
    cdef size_t valid
    with nogil:
        valid = utf8_validate(&view[0] if view.shape[0] else NULL, view.shape[0])
    return valid


def _ascii_scan_with_avx2(allowed):
    """Test hook: scan long ASCII runs with AVX2 when ``allowed`` and the
    CPU has it, else with SSE2 alone; returns whether AVX2 is used."""
    return bool(lxp_ascii_scan_init(1 if allowed else 0))


cdef class Decoder:
    """A streaming decoder from an encoding to UTF-8.

    ``Decoder(encoding, bom=True)``: with ``bom`` true the stream is decoded
    with the standard's "decode", where a byte order mark at its start wins
    over ``encoding`` (and is dropped); with ``bom`` false, "decode without
    BOM". ``decode(chunk, final=False)`` returns the UTF-8 bytes of what the
    chunk completes; a multi-byte sequence (or BOM) split between chunks is
    held back until the next chunk, and ``final=True`` ends the stream
    (an unfinished sequence becomes U+FFFD).
    """
    cdef StreamDecoder c_decoder
    cdef ByteBuffer c_buffer
    # Whether the last chunk's output was the chunk itself (no copy): for
    # the tests of in-place UTF-8 validation.
    cdef readonly bint _in_place

    def __cinit__(self, encoding, *, bom=True):
        byte_buffer_init(&self.c_buffer)
        decoder_init(&self.c_decoder, (<Encoding>lookup(encoding)).id,
                     BOM_SNIFF if bom else BOM_IGNORE)

    def __dealloc__(self):
        byte_buffer_free(&self.c_buffer)

    @property
    def encoding(self):
        """The encoding in use (a byte order mark may have changed it)."""
        return _ENCODINGS[self.c_decoder.encoding]

    def decode(self, data, final=False):
        cdef const uint8_t[::1] view = _byte_view(data)
        cdef const uint8_t* output
        cdef size_t output_length
        cdef bint last = bool(final)
        cdef const uint8_t* start = &view[0] if view.shape[0] else NULL
        if self.c_decoder.finished:
            raise ValueError("the decoder has finished (final=True was given)")
        with nogil:
            decoder_decode(&self.c_decoder, start, view.shape[0], last,
                           &self.c_buffer, &output, &output_length)
        self._in_place = output_length != 0 and output == start
        return output[:output_length] if output_length else b""


def decode(data, encoding, *, bom=True):
    """Decode bytes to str with a WHATWG encoding (an Encoding or a label).

    With ``bom`` true this is the Encoding Standard's "decode": a byte order
    mark wins over ``encoding`` and is dropped. With ``bom`` false it is
    "decode without BOM". Errors become U+FFFD as the standard's decoders
    say; this never raises for any input bytes.
    """
    cdef Decoder decoder = Decoder(encoding, bom=bom)
    return decoder.decode(data, True).decode("utf-8")


cdef class _InputByteStream:
    """The input byte stream of encoding.pxd, for tests: feed(chunk) and
    finish() return the UTF-8 to tokenize; change_encoding(label) returns
    "kept", "switched" or "reparse"; restart() the UTF-8 of a re-parse.
    With ``autodetect`` the stream autodetects UTF-8 as the parser does."""
    cdef InputByteStream c_stream

    def __cinit__(self, transport_encoding=None, default=None, *, keep_input=True,
                  autodetect=False):
        input_byte_stream_init(&self.c_stream, _encoding_id(transport_encoding),
                               _encoding_id(default), keep_input)
        input_byte_stream_set_autodetect(&self.c_stream, autodetect)

    def __dealloc__(self):
        input_byte_stream_free(&self.c_stream)

    @property
    def encoding(self):
        return _ENCODINGS[self.c_stream.encoding]

    @property
    def confidence(self):
        return CERTAIN if self.c_stream.confidence == CONFIDENCE_CERTAIN else TENTATIVE

    @property
    def detecting(self):
        """Whether autodetection waits for bytes before it decides."""
        return bool(self.c_stream.detecting)

    @property
    def undecided(self):
        """How many bytes wait for autodetection."""
        return self.c_stream.undecided.length

    @property
    def sniff_runs(self):
        """How many times the encoding sniffing algorithm ran (once per
        chunk fed while it waits for bytes; the end of the input takes the
        last outcome without running it again)."""
        return self.c_stream.sniff_runs

    def feed(self, data):
        cdef const uint8_t[::1] view = _byte_view(data)
        cdef const uint8_t* output
        cdef size_t output_length
        input_byte_stream_feed(&self.c_stream, &view[0] if view.shape[0] else NULL,
                               view.shape[0], &output, &output_length)
        return output[:output_length] if output_length else b""

    def finish(self):
        cdef const uint8_t* output
        cdef size_t output_length
        input_byte_stream_finish(&self.c_stream, &output, &output_length)
        return output[:output_length] if output_length else b""

    def feed_whole(self, data):
        """feed(data) then finish(), as the parser driver does for a whole
        input, without the GIL: the number of UTF-8 bytes out (not copied
        into Python objects, so that tools can time the stage alone)."""
        cdef const uint8_t[::1] view = _byte_view(data)
        cdef const uint8_t* output
        cdef size_t output_length, total = 0
        with nogil:
            input_byte_stream_feed(&self.c_stream, &view[0] if view.shape[0] else NULL,
                                   view.shape[0], &output, &output_length)
            total = output_length
            input_byte_stream_finish(&self.c_stream, &output, &output_length)
            total += output_length
        return total

    def change_encoding(self, new, input=None):
        cdef const uint8_t[::1] view
        cdef EncodingChange change
        if input is None:
            change = input_byte_stream_change_encoding(
                &self.c_stream, _encoding_id(new), NULL, 0)
        else:
            view = _byte_view(input)
            change = input_byte_stream_change_encoding(
                &self.c_stream, _encoding_id(new),
                &view[0] if view.shape[0] else NULL, view.shape[0])
        return {CHANGE_KEPT: "kept", CHANGE_SWITCHED: "switched",
                CHANGE_REPARSE: "reparse"}[change]

    def restart(self, input=None):
        cdef const uint8_t[::1] view
        cdef const uint8_t* output
        cdef size_t output_length
        if input is None:
            input_byte_stream_restart(&self.c_stream, NULL, 0, &output, &output_length)
        else:
            view = _byte_view(input)
            input_byte_stream_restart(&self.c_stream, &view[0] if view.shape[0] else NULL,
                                      view.shape[0], &output, &output_length)
        return output[:output_length] if output_length else b""
