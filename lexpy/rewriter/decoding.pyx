# cython: language_level=3
"""The rewriter's input: bytes in any encoding of the Encoding Standard,
sniffed exactly as lexpy.parse sniffs, decoded to the UTF-8 the tokenizer
reads, with a bounded map back to the input's own bytes (issue 39 point 5).

The tokenizer counts offsets in the UTF-8 it reads; the rewriter writes
the input's own bytes for everything no handler touched. InputDecoder:

- decides the encoding with lexpy.encoding's input byte stream (the
  encoding sniffing algorithm: BOM, the transport label, the <meta>
  prescan, the default; then lexpy's UTF-8 autodetection when the sniffing
  ended at the default) -- the same C code as lexpy.parse, fed the same
  bytes. While it waits, the bytes are held (the ASCII that autodetection
  passes on is handed to the tokenizer at once: it reads the same in both
  candidates);
- then decodes with its own StreamDecoder of that encoding, a character at
  a time where the bytes differ from their UTF-8, and records checkpoints
  (stream offset, input offset) where the delta between the two changes;
- keeps the input bytes and the checkpoints only from the point the
  output has reached on (release()), so memory is bounded by what the
  rewriter holds anyway (the unfinished token).

Valid UTF-8 is its own UTF-8: no checkpoint, no copy (`mapped_from` stays
past the stream's end and the rewriter copies from the stream itself).
From the first invalid sequence on the UTF-8 path keeps the input bytes
too, so invalid bytes pass through unchanged (the tokenizer reads U+FFFD).

A character's input extent is from the first byte after the character
before it (in ISO-2022-JP: the escape sequences before it included) to
the start of the next one. Bytes that make no character at the end of
the input (a trailing escape sequence) come after the last extent
(rest()). In ISO-2022-JP the output's state is tracked: inserted content
(which starts and ends in ASCII) gets an escape to ASCII first where the
output is in another state, and loses its final escape to ASCII (two
escape sequences in a row read as U+FFFD); the input's bytes after it
get an escape to the state they are read in unless they start with one.
"""

from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memmove

from lexpy.tokenizer.tokenizer cimport Tokenizer
from lexpy.treebuilder.treebuilder cimport TreeBuilder, tree_builder_set_encoding_indicator
from lexpy.driver.driver cimport construction_enter, construction_leave
from lexpy.encoding.encoding cimport (
    InputByteStream, input_byte_stream_init, input_byte_stream_free,
    input_byte_stream_feed, input_byte_stream_finish, input_byte_stream_set_autodetect,
    StreamDecoder, decoder_init, decoder_decode, BOM_IGNORE, ByteBuffer,
    byte_buffer_init, byte_buffer_free, bom_sniff, utf8_validate, encoding_name,
    SniffOutcome, sniff_encoding)
from lexpy.encoding.encoding cimport change_the_encoding
from lexpy.encoding.encoding_ids cimport *


# The ISO-2022-JP decoder's states (lexpy/encoding/japanese.pxi's
# Iso2022JpState, in its order): those an escape sequence ends in.
cdef enum:
    ISO2022JP_ASCII = 0
    ISO2022JP_ROMAN = 1
    ISO2022JP_KATAKANA = 2
    ISO2022JP_LEADING_BYTE = 3

cdef size_t NO_MAP = <size_t> -1
NO_MAP_OFFSET = NO_MAP     # mapped_from when nothing is mapped


# (The tokenizer and tree builder one construction_enter claims; a struct
# that names the opaque types has C declare them before their uses.)
cdef struct Claimed:
    Tokenizer* tokenizer
    TreeBuilder* builder


cdef struct Point:
    size_t stream               # a character's stream offset
    size_t original             # and its input offset
    uint8_t state               # ISO-2022-JP: the decoder's state there
    uint8_t in_step             # the run's shape: each character in_step
    uint8_t out_step            # input bytes, out_step stream bytes (0, 0:
                                # one character, its shape not known yet)


cdef struct Output:
    uint8_t* data
    size_t length
    size_t capacity


cdef int output_append(Output* out, const uint8_t* data, size_t length) except -1:
    cdef size_t capacity
    cdef uint8_t* grown
    if out.length + length > out.capacity:
        capacity = out.capacity * 2 if out.capacity else 4096
        while capacity < out.length + length:
            capacity *= 2
        grown = <uint8_t*> realloc(out.data, capacity)
        if grown == NULL:
            raise MemoryError()
        out.data = grown
        out.capacity = capacity
    memcpy(out.data + out.length, data, length)
    out.length += length
    return 0


cdef bint ascii_transparent(int encoding) noexcept nogil:
    """Whether bytes below 0x80 decode to themselves while no sequence is
    open (all but ISO-2022-JP, UTF-16 and replacement)."""
    return not (encoding == ENCODING_ISO_2022_JP or encoding == ENCODING_UTF_16BE
                or encoding == ENCODING_UTF_16LE or encoding == ENCODING_REPLACEMENT)


cdef inline bint decoder_idle(StreamDecoder* d) noexcept nogil:
    return (d.started and d.replay_count == 0 and d.leading == 0
            and d.gb18030_second == 0 and d.gb18030_third == 0
            and d.utf8_bytes_needed == 0)


cdef bint meta_indicated(void* context, int encoding) noexcept nogil:
    """The tree builder met a <meta> declaring `encoding` (its
    EncodingIndicator): the first one is kept for the decoder to act on
    after the feed; the tree builder never stops (no re-parse)."""
    cdef int* slot = <int*> context
    if slot[0] == ENCODING__NONE:
        slot[0] = encoding
    return False


cdef class InputDecoder:
    """One rewrite's input: feed() bytes, get the UTF-8 to tokenize;
    original() gives back the input's bytes of a stream range."""
    cdef InputByteStream judge       # the sniffing (until `decided`)
    cdef bint judging
    cdef StreamDecoder decoder
    cdef ByteBuffer scratch
    cdef Output out
    cdef bytes whole_out             # output that is one bytes object as it came
                                     # (before anything in `out`): taken as is
    cdef readonly int encoding_id
    cdef readonly size_t bom_length
    cdef readonly bint ascii_undeclared   # decided at the end: every byte
                                          # ASCII, nothing declared an encoding
    cdef bytearray held              # bytes the sniffing waits on
    cdef bint passed_any             # autodetection passed ASCII on
    cdef bint utf8_identity          # UTF-8, every sequence valid so far
    cdef bytes utf8_tail             # (identity) an incomplete sequence at the end
    cdef bint finished
    cdef size_t produced             # stream bytes out
    cdef size_t consumed             # input bytes decoded (BOM included)
    cdef size_t pending              # input offset of the next character
    # The map (from mapped_from on): checkpoints [first, count), and the
    # input bytes from kept_base.
    cdef readonly size_t mapped_from
    cdef Point* points
    cdef size_t first
    cdef size_t count
    cdef size_t capacity
    cdef bytearray kept
    cdef size_t kept_base
    cdef size_t last_stream          # the end of the last original() range
    cdef size_t last_original
    cdef int out_state               # ISO-2022-JP: the output's state
    cdef int indicated               # the first <meta>'s encoding, or none
    cdef bint autodetecting          # the sniffing ended at the default
    cdef bint deferred               # autodetection decided; the ASCII before
                                     # is being tokenized first
    cdef bint indication_seen

    def __cinit__(self, int transport=-1, int default=-1):
        input_byte_stream_init(&self.judge, transport, default, False)
        input_byte_stream_set_autodetect(&self.judge, True)
        self.judging = True
        byte_buffer_init(&self.scratch)
        self.held = bytearray()
        self.kept = bytearray()
        self.utf8_tail = b""
        self.encoding_id = -1
        self.mapped_from = NO_MAP
        self.last_stream = NO_MAP
        self.indicated = ENCODING__NONE

    def __dealloc__(self):
        if self.judging:
            input_byte_stream_free(&self.judge)
        byte_buffer_free(&self.scratch)
        free(self.out.data)
        free(self.points)

    @property
    def decided(self):
        return not self.judging

    @property
    def encoding(self):
        """The encoding's name once decided, else None."""
        if self.judging:
            return None
        return (<bytes> encoding_name(self.encoding_id)).decode("ascii")

    @property
    def held_bytes(self):
        """Input bytes held while the sniffing (or autodetection) waits,
        and the checkpoints' memory (the bytes kept for the map mirror the
        stream the rewriter holds)."""
        return len(self.held) + (self.count - self.first) * sizeof(Point)

    @property
    def kept_bytes(self):
        """Input bytes kept for the map (the part the output has not
        passed, and up to what the rewriter releases in one go)."""
        return len(self.kept)

    @property
    def checkpoints(self):
        """Checkpoints kept."""
        return self.count - self.first

    # -- checkpoints -------------------------------------------------------
    cdef int record(self, size_t stream, size_t original, bint run=False) except -1:
        """The character (or, with `run`, the run of bytes that are their
        own UTF-8) at `stream` starts at input offset `original`: a new
        checkpoint unless the last one predicts it. A checkpoint covers a
        run of characters of one shape (in_step input bytes to out_step
        stream bytes each: 2 to 3 for most CJK, 1 to 1 for ASCII), so
        text in one script costs one checkpoint, not one a character."""
        cdef Point* last
        cdef Point* grown
        cdef size_t ds, do, capacity
        cdef uint8_t state = self.decoder.iso2022jp_state \
            if self.encoding_id == ENCODING_ISO_2022_JP else 0
        if self.count > self.first:
            last = &self.points[self.count - 1]
            if last.state == state and stream > last.stream and original >= last.original:
                ds = stream - last.stream
                do = original - last.original
                if last.out_step == 0:
                    if (run and ds == do) or (not run and 0 < do <= 8 and ds <= 8):
                        # (the last checkpoint's first character gives the
                        # shape of its run)
                        last.in_step = <uint8_t> (1 if run else do)
                        last.out_step = <uint8_t> (1 if run else ds)
                        return 0
                elif last.in_step == 1 and last.out_step == 1:
                    if do == ds:
                        return 0
                elif not run and ds % last.out_step == 0 and \
                        do == ds // last.out_step * last.in_step:
                    return 0
            if last.stream == stream:
                last.original = original
                last.state = state
                last.in_step = last.out_step = 1 if run else 0
                return 0
        if self.count == self.capacity:
            if self.first > self.capacity // 2:
                memmove(self.points, self.points + self.first,
                        (self.count - self.first) * sizeof(Point))
                self.count -= self.first
                self.first = 0
            else:
                capacity = self.capacity * 2 if self.capacity else 256
                grown = <Point*> realloc(self.points, capacity * sizeof(Point))
                if grown == NULL:
                    raise MemoryError()
                self.points = grown
                self.capacity = capacity
        last = &self.points[self.count]
        last.stream = stream
        last.original = original
        last.state = state
        last.in_step = last.out_step = 1 if run else 0
        self.count += 1
        return 0

    cdef size_t find(self, size_t stream) noexcept:
        """The index of the last checkpoint at or before `stream`."""
        cdef size_t low = self.first, high = self.count, middle
        while low < high:
            middle = (low + high) // 2
            if self.points[middle].stream <= stream:
                low = middle + 1
            else:
                high = middle
        return low - 1 if low > self.first else self.first

    cdef size_t original_offset(self, size_t stream) noexcept:
        cdef Point* p
        cdef size_t ds, k, original
        if stream >= self.produced:
            # (After the last character: where the next one starts. A
            # checkpoint's run holds up to its last character's start.)
            return self.pending
        p = &self.points[self.find(stream)]
        ds = stream - p.stream
        if p.out_step == 0:
            original = p.original + ds
        else:
            k = ds // p.out_step
            original = p.original + k * p.in_step + (ds - k * p.out_step)
        return original if original < self.consumed else self.consumed

    # -- decoding ----------------------------------------------------------
    cdef int start_map(self, size_t stream, size_t original) except -1:
        self.mapped_from = stream
        self.kept_base = original
        self.record(stream, original)
        return 0

    cdef int decode_mapped(self, const uint8_t* data, size_t n, bint last) except -1:
        """Decode data[0:n] (the end of the input when `last`) a character
        at a time where it must, recording checkpoints, into self.out."""
        cdef size_t i = 0, j, valid, k
        cdef const uint8_t* output
        cdef size_t output_length
        cdef bint started, first
        cdef StreamDecoder* d = &self.decoder
        cdef int encoding = self.encoding_id
        cdef bint utf8 = encoding == ENCODING_UTF_8
        cdef bint transparent = ascii_transparent(encoding)
        while i < n:
            if transparent and decoder_idle(d):
                # A run the decoder would copy: valid UTF-8, or ASCII.
                if utf8:
                    valid = utf8_validate(data + i, n - i)
                else:
                    valid = 0
                    while i + valid < n and data[i + valid] < 0x80:
                        valid += 1
                if valid:
                    self.record(self.produced, self.consumed + i, True)
                    self.put(data + i, valid)
                    self.produced += valid
                    i += valid
                    self.pending = self.consumed + i
                    continue
            started = d.started
            decoder_decode(d, data + i, 1, last and i + 1 == n, &self.scratch,
                           &output, &output_length)
            if output_length:
                # The first character from the bytes since `pending`, any
                # later one (bytes the decoder restored) from this byte.
                first = True
                for j in range(output_length):
                    if (output[j] & 0xC0) != 0x80:
                        self.record(self.produced + j,
                                    self.pending if first else self.consumed + i)
                        first = False
                self.put(output, output_length)
                self.produced += output_length
                self.pending = self.consumed + i + 1
            elif d.started and not started:
                self.pending = self.consumed + i + 1        # a byte order mark
            i += 1
        self.consumed += n
        if last and not d.finished:
            decoder_decode(d, NULL, 0, True, &self.scratch, &output, &output_length)
            if output_length:
                first = True
                for j in range(output_length):
                    if (output[j] & 0xC0) != 0x80:
                        self.record(self.produced + j, self.pending)
                        first = False
                self.put(output, output_length)
                self.produced += output_length
                self.pending = self.consumed
        return 0

    cdef int decode(self, bytes data, bint last) except -1:
        """The decided encoding's decoding of the next bytes into self.out."""
        cdef const uint8_t* p = data
        cdef size_t n = len(data), valid
        cdef bytes whole
        if self.utf8_identity:
            whole = self.utf8_tail + data if self.utf8_tail else data
            p = whole
            n = len(whole)
            valid = utf8_validate(p, n)
            if valid == n:
                self.utf8_tail = b""
                if self.out.length == 0 and self.whole_out is None:
                    self.whole_out = whole      # (no copy: taken as it is)
                else:
                    self.put(p, n)
                self.produced += n
                self.consumed += len(data)
                return 0
            if not last and n - valid < 4 and self.incomplete(p + valid, n - valid):
                self.utf8_tail = whole[valid:]
                self.put(p, valid)
                self.produced += valid
                self.consumed += len(data)
                return 0
            # An invalid sequence: from the start of these bytes on, map.
            self.utf8_identity = False
            self.utf8_tail = b""
            self.consumed -= n - len(data)
            self.pending = self.consumed
            self.start_map(self.produced, self.consumed)
            decoder_init(&self.decoder, ENCODING_UTF_8, BOM_IGNORE)
            self.kept += whole
            return self.decode_mapped(p, n, last)
        if n:
            self.kept += data
        return self.decode_mapped(p, n, last)

    cdef bint incomplete(self, const uint8_t* p, size_t n) noexcept:
        """Whether p[0:n] (n < 4) is the start of a valid UTF-8 sequence."""
        cdef StreamDecoder d
        cdef const uint8_t* output
        cdef size_t output_length
        decoder_init(&d, ENCODING_UTF_8, BOM_IGNORE)
        decoder_decode(&d, p, n, False, &self.scratch, &output, &output_length)
        return output_length == 0

    cdef int decide(self, bint last, bytes data=None) except -1:
        """The sniffing has decided: set up the decoder and decode what
        was held (data: the same bytes, when the caller has them)."""
        if data is None:
            data = bytes(self.held)
        cdef size_t bom = 0
        cdef int found = ENCODING__NONE
        self.encoding_id = self.judge.encoding
        # (Autodetection is still on only when the input ended before any
        # non-ASCII byte, with no BOM, transport label or <meta>.)
        self.ascii_undeclared = last and self.judge.detecting
        input_byte_stream_free(&self.judge)
        self.judging = False
        self.held = bytearray()
        if not self.passed_any:
            found = bom_sniff(<const uint8_t*> data, len(data), &bom)
            if found != self.encoding_id:
                bom = 0
        self.bom_length = bom
        self.consumed += bom
        self.pending = self.consumed
        decoder_init(&self.decoder, self.encoding_id, BOM_IGNORE)
        if self.encoding_id == ENCODING_UTF_8:
            self.utf8_identity = True
        else:
            self.start_map(self.produced, self.consumed)
        return self.decode(data[bom:], last)

    cdef int put(self, const uint8_t* data, size_t n) except -1:
        """Append data[0:n] to the output (after whole_out)."""
        cdef bytes whole = self.whole_out
        if whole is not None:
            self.whole_out = None
            output_append(&self.out, <const uint8_t*> whole, len(whole))
        output_append(&self.out, data, n)
        return 0

    cdef bytes take(self):
        cdef bytes result = self.whole_out
        if result is not None and self.out.length == 0:
            self.whole_out = None
            return result
        if result is not None:          # (put() moves it into `out` first)
            raise AssertionError("whole_out beside out")
        result = (<char*> self.out.data)[:self.out.length] if self.out.length \
            else b""
        self.out.length = 0
        return result

    def feed(self, data):
        """The UTF-8 to tokenize for the next input bytes (b"" while the
        sniffing waits)."""
        cdef bytes chunk = bytes(data)
        cdef const uint8_t* output
        cdef size_t output_length = 0
        cdef bytes passed
        cdef Py_ssize_t held_before
        if self.finished:
            raise ValueError("the input has ended")
        if not chunk:
            return b""
        if not self.judging:
            if self.utf8_identity and not self.utf8_tail:
                # (The common case: valid UTF-8 is its own stream.)
                if utf8_validate(<const uint8_t*> chunk, len(chunk)) == <size_t> len(chunk):
                    self.produced += len(chunk)
                    self.consumed += len(chunk)
                    return chunk
            self.decode(chunk, False)
            return self.take()
        held_before = len(self.held)
        self.held += chunk
        if self.deferred:
            return b""          # (take_indication decides first)
        was_sniffed = self.judge.sniffed
        input_byte_stream_feed(&self.judge, <const uint8_t*> chunk, len(chunk),
                               &output, &output_length)
        if not self.judge.sniffed:
            return b""
        if not was_sniffed:
            self.note_autodetection(chunk if held_before == 0 else None)
        if self.judge.detecting:
            # ASCII before the first non-ASCII byte: the same in UTF-8 and
            # in the default, passed on as autodetection does.
            if output_length:
                self.pass_ascii(output_length)
            return self.take()
        if self.autodetecting:
            return self.defer()
        # (held: this chunk alone when nothing was held before it)
        self.decide(False, chunk if held_before == 0 else None)
        return self.take()

    cdef int note_autodetection(self, bytes data=None) except -1:
        """The sniffing has just decided (over every byte so far, all
        held): whether autodetection decides after it (lexpy.encoding's
        autodetection_applies: not for the encodings whose ASCII bytes may
        mean something else, nor x-user-defined; data: the held bytes,
        when the caller has them)."""
        if data is None:
            data = bytes(self.held)
        cdef SniffOutcome outcome = sniff_encoding(
            <const uint8_t*> data, len(data), self.judge.transport_encoding,
            self.judge.default_encoding, 1024)
        cdef int e = outcome.encoding
        self.autodetecting = outcome.from_default and not (
            e == ENCODING_UTF_8 or e == ENCODING_UTF_16BE or e == ENCODING_UTF_16LE
            or e == ENCODING_ISO_2022_JP or e == ENCODING_REPLACEMENT
            or e == ENCODING_X_USER_DEFINED)
        return 0

    cdef int pass_ascii(self, size_t n) except -1:
        cdef bytes passed = bytes(self.held[:n])
        self.passed_any = True
        self.put(<const uint8_t*> passed, n)
        del self.held[:n]
        self.produced += n
        self.consumed += n
        return 0

    cdef bytes defer(self):
        """Autodetection has decided: pass the ASCII before the first
        non-ASCII byte on first, so that a <meta> in it is met before the
        decision is taken (take_indication), however the input was cut."""
        cdef Py_ssize_t n = 0, length = len(self.held)
        while n < length and self.held[n] < 0x80:
            n += 1
        if n == length and self.finished:
            # (The input ended with every byte ASCII: the prescan saw all of
            # it, no <meta> can come. Decided now: content inserted at the
            # end may take UTF-8, ascii_undeclared.)
            self.decide(True)
            return self.take()
        if n:
            self.pass_ascii(n)
        self.deferred = True
        return self.take()

    def finish(self):
        """The end of the input: the rest of the UTF-8."""
        cdef const uint8_t* output
        cdef size_t output_length = 0
        if self.finished:
            return b""
        self.finished = True
        if self.judging:
            if self.deferred:
                return b""
            was_sniffed = self.judge.sniffed
            input_byte_stream_finish(&self.judge, &output, &output_length)
            if not was_sniffed:
                self.note_autodetection()
            if self.autodetecting:
                return self.defer()
            self.decide(True)
        else:
            self.decode(b"", True)
        return self.take()

    # -- a <meta> the tree builder meets -----------------------------------
    def watch(self, construction):
        """Have the construction's tree builder report the encodings its
        <meta> elements declare (as the parse driver's does)."""
        cdef Claimed claimed
        construction_enter(construction, &claimed.tokenizer, &claimed.builder)
        try:
            tree_builder_set_encoding_indicator(claimed.builder, meta_indicated,
                                                &self.indicated)
        finally:
            construction_leave(construction)

    def take_indication(self):
        """After a feed: the first <meta> with an encoding, met while
        autodetection still waited (every byte so far ASCII, nothing
        declared), decides the encoding as lexpy.parse's "changing the
        encoding while parsing" does: the bytes so far read the same, so
        the decoder switches on the fly (to UTF-8 for a UTF-16 label; the
        default when it names that). Returns the UTF-8 of the bytes that
        waited (b"" otherwise). Later, or once decided: nothing changes
        (the rewriter cannot re-read what it has written)."""
        cdef int target
        cdef bint waiting = self.judging and (self.deferred or (
            self.judge.sniffed and self.judge.detecting))
        if self.indicated != ENCODING__NONE and not self.indication_seen:
            self.indication_seen = True
            if waiting:
                target = change_the_encoding(self.judge.encoding, self.indicated)
                if target != ENCODING__NONE:
                    self.judge.encoding = target
                self.judge.detecting = False
                self.deferred = False
                self.decide(self.finished)
                return self.take()
        if self.judging and self.deferred:
            self.deferred = False
            self.decide(self.finished)
            return self.take()
        return b""

    # -- the input's bytes -------------------------------------------------
    cdef int state_at(self, size_t stream) noexcept:
        return <int> self.points[self.find(stream)].state

    def original(self, raw, size_t raw_base, size_t begin, size_t end):
        """The input's bytes of the stream range [begin, end) (character
        boundaries); `raw` holds the stream from `raw_base` (the part
        before mapped_from is copied from it)."""
        cdef size_t a, b
        cdef bytes prefix = b"", data
        cdef int state
        if begin < self.mapped_from:
            prefix = bytes(raw[begin - raw_base:min(end, self.mapped_from) - raw_base])
            if end <= self.mapped_from:
                return prefix
            begin = self.mapped_from
        if begin == self.last_stream:
            a = self.last_original
        else:
            a = self.original_offset(begin)
        b = self.original_offset(end)
        self.last_stream = end
        self.last_original = b if b > a else a
        if b <= a:
            return prefix
        data = bytes(self.kept[a - self.kept_base:b - self.kept_base])
        if self.encoding_id == ENCODING_ISO_2022_JP:
            # The input's bytes run in the input's state: switch the output
            # to it first (after an insertion or a dropped range) unless
            # they start with an escape sequence of their own.
            state = self.state_at(begin)
            if state != self.out_state and data[0] != 0x1B:
                data = _ESCAPES[state] + data
            self.out_state = self.state_at(end - 1)
        return prefix + data

    def inserted(self, bytes data):
        """Inserted content (encode_inserted's bytes, which start and end
        in the ASCII state) as written at the output's end: in ISO-2022-JP
        switched to ASCII first where the output is not, and without its
        final return to ASCII (what follows switches as it needs: two
        escape sequences in a row would read as U+FFFD)."""
        cdef Py_ssize_t at
        if self.encoding_id != ENCODING_ISO_2022_JP or not data:
            return data
        if data[0] != 0x1B and self.out_state != ISO2022JP_ASCII:
            data = _ESCAPES[ISO2022JP_ASCII] + data
        if len(data) > 3 and data.endswith(_ESCAPES[ISO2022JP_ASCII]):
            data = data[:len(data) - 3]
        self.out_state = ISO2022JP_ASCII
        at = data.rfind(b"\x1b")
        if at >= 0:
            for state, escape in enumerate(_ESCAPES):
                if data.startswith(escape, at):
                    self.out_state = state
        return data

    def offset(self, size_t stream):
        """The input offset (the BOM counted) of a stream offset not yet
        released."""
        if stream < self.mapped_from:
            return stream + self.bom_length
        return self.original_offset(stream)

    def rest(self, size_t stream_end):
        """At the end, after original() up to the stream's end: the input
        bytes after the last character (bytes that made none)."""
        if self.mapped_from == NO_MAP or self.last_stream != stream_end:
            return b""
        return bytes(self.kept[self.last_original - self.kept_base:])

    def unwritten(self, raw, size_t raw_base, size_t begin, size_t stream_end):
        """max_memory_pass_through: every input byte received from the
        stream offset `begin` on, as received: the stream's range as
        original() gives it, the bytes that made no character yet, and the
        bytes the sniffing or an incomplete UTF-8 sequence holds back."""
        cdef bytes data = self.original(raw, raw_base, begin, stream_end)
        data += self.rest(stream_end)
        if self.utf8_identity and self.utf8_tail:
            data += self.utf8_tail
        return data + bytes(self.held)

    def release(self, size_t stream):
        """The output has passed `stream`: drop the input bytes and the
        checkpoints before it."""
        cdef size_t original
        if self.mapped_from == NO_MAP or stream <= self.mapped_from:
            return
        self.first = self.find(stream)
        original = self.original_offset(stream)
        if self.last_stream == stream and self.last_original < original:
            original = self.last_original
        if original > self.kept_base:
            del self.kept[:original - self.kept_base]
            self.kept_base = original


# The escape sequences to the ISO-2022-JP states (in their order).
_ESCAPES = (b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B")
