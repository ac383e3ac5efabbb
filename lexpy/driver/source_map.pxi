# Positions (lexpy.parse(positions=True)): the parse's source map, the
# Document's _source_info. Not in the standard.
#
# The tree builder records stream offsets (bytes of the UTF-8 the tokenizer
# read); this turns them into SourceSpans of the input as given. It keeps
# the input and, made on first use: the UTF-8 the tokenizer read (the
# input's own bytes for str input's UTF-8; decoded again for bytes, with
# the OffsetMap of lexpy.encoding recording where each character came
# from), the stream offsets at which lines start, and the number of code
# points before every 64-byte block of the stream (columns, and offsets for
# str input, without walking a long line once per node).

from lexpy.dom.source_span import SourceSpan

cdef enum:
    CP_BLOCK_SHIFT = 6


cdef class SourceMap:
    """Where the stream offsets of one parse are in its input (internal:
    the Document's _source_info)."""
    cdef readonly object original       # the input as given: bytes or str
    cdef readonly object encoding       # the encoding's name (bytes input), or None
    cdef list insertions                # (at, length) of document.write text
    cdef bint built
    cdef bytes stream
    cdef OffsetMap offsets
    cdef bint has_offsets
    cdef size_t* line_starts
    cdef size_t line_count
    cdef size_t* code_points            # before each block of the stream
    cdef public object reparse          # text -> the tree parse() (or
                                        # parse_fragment()) makes of it with
                                        # this parse's options, or None

    def __cinit__(self, object original, object encoding, list insertions):
        self.original = original
        self.encoding = encoding
        self.insertions = insertions

    def __dealloc__(self):
        if self.has_offsets:
            offset_map_free(&self.offsets)
        free(self.line_starts)
        free(self.code_points)

    cdef int _build(self) except -1:
        cdef ByteBuffer buffer
        cdef const uint8_t* data
        cdef size_t n, i, lines, blocks, count
        cdef bytes label
        cdef int encoding
        if self.built:
            return 0
        if isinstance(self.original, str):
            self.stream = (<str> self.original).encode("utf-8", "surrogatepass")
        else:
            label = (<str> self.encoding).encode("ascii")
            encoding = encoding_for_label(label, len(label))
            offset_map_init(&self.offsets, encoding)
            self.has_offsets = True
            byte_buffer_init(&buffer)
            try:
                data = <const uint8_t*> (<bytes> self.original)
                n = len(<bytes> self.original)
                with nogil:
                    offset_map_feed(&self.offsets, data, n, True, &buffer)
                self.stream = (<char*> buffer.data)[:buffer.length] if buffer.length else b""
            finally:
                byte_buffer_free(&buffer)
        data = <const uint8_t*> self.stream
        n = len(self.stream)
        # Line starts: after LF, after CR not followed by LF.
        lines = 1
        for i in range(n):
            if data[i] == 0x0A or (data[i] == 0x0D and (i + 1 >= n or data[i + 1] != 0x0A)):
                lines += 1
        self.line_starts = <size_t*> malloc(lines * sizeof(size_t))
        blocks = (n >> CP_BLOCK_SHIFT) + 1
        self.code_points = <size_t*> malloc(blocks * sizeof(size_t))
        if self.line_starts == NULL or self.code_points == NULL:
            raise MemoryError()
        with nogil:
            self.line_starts[0] = 0
            lines = 1
            count = 0
            for i in range(n):
                if (i & ((1 << CP_BLOCK_SHIFT) - 1)) == 0:
                    self.code_points[i >> CP_BLOCK_SHIFT] = count
                if (data[i] & 0xC0) != 0x80:
                    count += 1
                if data[i] == 0x0A or (data[i] == 0x0D and (i + 1 >= n or data[i + 1] != 0x0A)):
                    self.line_starts[lines] = i + 1
                    lines += 1
            if (n & ((1 << CP_BLOCK_SHIFT) - 1)) == 0:
                self.code_points[n >> CP_BLOCK_SHIFT] = count
        self.line_count = lines
        self.built = True
        return 0

    cdef size_t _code_points_before(self, size_t offset) noexcept:
        cdef const uint8_t* data = <const uint8_t*> self.stream
        cdef size_t i = offset & ~(<size_t> ((1 << CP_BLOCK_SHIFT) - 1))
        cdef size_t count = self.code_points[offset >> CP_BLOCK_SHIFT]
        while i < offset:
            if (data[i] & 0xC0) != 0x80:
                count += 1
            i += 1
        return count

    cdef void _locate(self, size_t offset, size_t* original, size_t* line,
                      size_t* column) noexcept:
        cdef size_t low = 0, high = self.line_count, middle, points
        if offset > <size_t> len(self.stream):
            offset = len(self.stream)
        while low < high:
            middle = (low + high) // 2
            if self.line_starts[middle] <= offset:
                low = middle + 1
            else:
                high = middle
        points = self._code_points_before(offset)
        line[0] = low
        column[0] = points - self._code_points_before(self.line_starts[low - 1]) + 1
        if self.has_offsets:
            original[0] = offset_map_original(&self.offsets, offset)
        else:
            original[0] = points

    cdef bint _stream_range(self, size_t* start, size_t* end) except -1:
        """Tokenizer offsets to offsets of the input's own stream: text a
        script wrote (document.write) is not in the input (False)."""
        cdef size_t at, length
        cdef Py_ssize_t k
        for k in range(len(self.insertions) - 1, -1, -1):
            at, length = self.insertions[k]
            if start[0] >= at + length:
                start[0] -= length
                end[0] -= length
            elif end[0] > at:
                return False
        return True

    def span(self, size_t start, size_t end):
        """The SourceSpan of the tokenizer's stream offsets [start, end), or
        None (text a script wrote)."""
        cdef size_t s, e, line, column, end_line, end_column
        if not self._stream_range(&start, &end):
            return None
        self._build()
        self._locate(start, &s, &line, &column)
        self._locate(end, &e, &end_line, &end_column)
        return SourceSpan(s, e, line, column, end_line, end_column)

    def stream_bytes(self, size_t start, size_t end):
        """The UTF-8 the tokenizer read at [start, end), or None."""
        if not self._stream_range(&start, &end):
            return None
        self._build()
        return self.stream[start:end]

    def original_offset(self, size_t offset):
        """The offset into the input of a tokenizer stream offset (at or
        after the text any script wrote there)."""
        cdef size_t end = offset, original, line, column
        if not self._stream_range(&offset, &end):
            return None
        self._build()
        self._locate(offset, &original, &line, &column)
        return original

    # -- for to_source() (lexpy/dom/lossless.pxi) ----------------------------

    def insertions_made(self):
        """Whether a script wrote text into the stream (document.write)."""
        return bool(self.insertions)

    def stream_text(self):
        """The input's text (the stream decoded)."""
        self._build()
        return self.stream.decode("utf-8", "surrogatepass")

    def assemble(self, list pieces, bint text_output, object encoding,
                 object unencodable=None):
        """The output of to_source(): pieces are str (serialized) or
        (start, end) tokenizer stream offsets (input); str with
        `text_output`, else bytes in `encoding` (the input's own bytes
        where it is the input's encoding). Characters the encoding has not:
        unencodable(text, offsets, codec) gives their bytes (the output as
        str, the offsets of those characters in it), or raises; without it
        character references."""
        cdef size_t start, end, a, b, line, column
        cdef list out = []
        cdef list texts = []
        cdef list failed = []
        cdef bint own_bytes = False
        self._build()
        codec = None
        if not text_output:
            import codecs
            codec = codecs.lookup(encoding).name
            own_bytes = isinstance(self.original, bytes) and \
                codecs.lookup(self.encoding).name == codec
        for piece in pieces:
            if isinstance(piece, str):
                text = piece
            else:
                start, end = piece
                if not self._stream_range(&start, &end):
                    continue        # (text a script wrote)
                if own_bytes:
                    self._locate(start, &a, &line, &column)
                    self._locate(end, &b, &line, &column)
                    out.append(self.original[a:b])
                    if unencodable is not None:
                        texts.append(self.stream[start:end].decode("utf-8", "surrogatepass"))
                    continue
                text = self.stream[start:end].decode("utf-8", "surrogatepass")
            if text_output:
                out.append(text)
                continue
            if unencodable is not None:
                texts.append(text)
            try:
                out.append((<str> text).encode(codec))
            except UnicodeEncodeError:
                if unencodable is None:
                    out.append((<str> text).encode(codec, "xmlcharrefreplace"))
                else:
                    failed.append(len(out))
                    out.append(None)
        if failed:
            out = self._encode_failed(out, texts, failed, codec, unencodable)
        return ("" if text_output else b"").join(out)

    cdef list _encode_failed(self, list out, list texts, list failed, str codec,
                             object unencodable):
        """The pieces `failed` (None in out) encoded with the bytes
        unencodable() gives the characters the codec has not."""
        cdef Py_ssize_t i, base
        cdef list bases = []
        cdef list offsets = []
        base = 0
        for text in texts:
            bases.append(base)
            base += len(text)
        for i in failed:
            text = texts[i]
            for position in range(len(text)):
                try:
                    text[position].encode(codec)
                except UnicodeEncodeError:
                    offsets.append(bases[i] + position)
        replacements = dict(zip(offsets, unencodable("".join(texts), offsets, codec)))
        for i in failed:
            text = texts[i]
            parts = []
            run = 0
            for position in range(len(text)):
                replacement = replacements.get(bases[i] + position)
                if replacement is not None:
                    parts.append(text[run:position].encode(codec))
                    parts.append(replacement)
                    run = position + 1
            parts.append(text[run:].encode(codec))
            out[i] = b"".join(parts)
        return out
