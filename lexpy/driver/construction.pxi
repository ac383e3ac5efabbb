# The Python face of one parse (used by lexpy.parser): an input byte
# stream, a tokenizer and a tree builder over a new Document, fed with the
# GIL released. Python objects are made only before the first token and
# after the tree is done.

NAMESPACES = {
    "html": NS_HTML, "http://www.w3.org/1999/xhtml": NS_HTML,
    "svg": NS_SVG, "http://www.w3.org/2000/svg": NS_SVG,
    "math": NS_MATHML, "mathml": NS_MATHML,
    "http://www.w3.org/1998/Math/MathML": NS_MATHML,
}


# How far into a document (in bytes of its UTF-8) a <meta> may still change
# a tentative encoding. Not in the standard, which re-parses from the first
# byte whatever the position (and, when it cannot re-parse, keeps the
# encoding: "changing the encoding while parsing", step 6): an incremental
# parser would otherwise keep every byte of a document whose encoding stays
# tentative. Past this point the bytes are dropped and the confidence
# becomes certain; parse() of the whole input follows the same rule, so it
# gives the same tree as Parser.feed().
REPARSE_WINDOW = 1 << 20


# The status of tokenizer_feed / tokenizer_finish (tokenizer.pxd: 0 to go
# on, else the code that stopped it): 1 is the tree builder out of memory,
# 2 the tree builder asking for a re-parse, -1 the tokenizer out of memory.
cdef int check_tokenizer_status(int status, TreeBuilder* tb) except -1:
    """Raise MemoryError for any status but 0 (and 2 when the builder asks
    for a re-parse): a stopped tokenizer left the document incomplete."""
    if tb == NULL or tree_builder_failed(tb):
        raise MemoryError()
    if status == 0 or (status == 2 and tree_builder_reparse(tb)):
        return 0
    raise MemoryError()


# The bytes of a parse from bytes, and what the tree builder's encoding
# indications are decided with (encoding_indicated).
cdef struct ByteInput:
    InputByteStream stream
    Tokenizer* tokenizer          # the parse's tokenizer (a new one after a
                                  # re-parse)
    const uint8_t* whole          # parse_bytes: the whole input (the stream
    size_t whole_length           # keeps none of it); else NULL, 0
    size_t reparse_window


# https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing
cdef bint encoding_indicated(void* context, int encoding) noexcept nogil:
    """A <meta> met while the confidence may be tentative indicates
    `encoding` (the tree builder's EncodingIndicator; `context` the parse's
    ByteInput): keep the encoding, switch the decoder on the fly, or --
    returned True -- parse the document again from its first byte. Past the
    re-parse window the bytes before the <meta> are no longer kept, and the
    encoding stays."""
    cdef ByteInput* input = <ByteInput*> context
    if input.stream.confidence != CONFIDENCE_TENTATIVE:
        return False
    if tokenizer_token_offset(input.tokenizer) >= input.reparse_window:
        return False
    return input_byte_stream_change_encoding(&input.stream, encoding, input.whole,
                                             input.whole_length) == CHANGE_REPARSE


class ParserBusyError(RuntimeError):
    """A second thread called into a parse that another thread is running
    (nothing was done: the parse goes on as if the call had not happened)."""


cdef class TreeConstruction:
    """One parse: input in, a Document (or a fragment's nodes) out.

    Internal to lexpy (lexpy.parse, lexpy.parse_fragment and lexpy.Parser
    are the public entry points): it does no argument checking beyond its
    types. feed() takes UTF-8; after set_byte_input(), feed_bytes() and
    parse_bytes() take bytes through the input byte stream (encoding
    sniffing, decoding, changing the encoding on a <meta>).
    """
    cdef Document document
    cdef Tokenizer* c_tokenizer
    cdef TreeBuilder* c_builder
    cdef ErrorList c_errors
    cdef bint scripting
    cdef bint processing_instructions
    cdef bint collect_errors
    cdef bint finished
    cdef object context_owner       # a caller's context element, kept alive
    # The input byte stream (set_byte_input).
    cdef ByteInput c_bytes
    cdef bint byte_input
    cdef bint keep_input            # the stream keeps the bytes (feed_bytes),
                                    # else parse_bytes gives the whole input
    # A method that runs the tokenizer or the tree builder (or reads what
    # they change) holds this while it runs: the GIL is released while they
    # work, and a second thread must not enter the same parse meanwhile.
    cdef bint busy
    # Script execution (scripts.pxi): the callback, the insertion points of
    # the scripts running (innermost last), the parser pause flag, the
    # pending parsing-blocking script, the scripts that run when the parse
    # is over, and the exception a callback raised (the parse is broken).
    cdef object on_script
    cdef bint external_scripts
    cdef list insertion_points
    cdef bint parser_pause
    cdef object pending_script
    cdef list after_parsing
    cdef object failure
    cdef unsigned long script_thread  # the thread running the callbacks
    # Positions: the nodes get source records; the document.write text
    # inserted into the stream, (at, length) in order (the source map
    # leaves it out).
    cdef bint positions
    cdef readonly list insertions

    def __cinit__(self, bint scripting=True, bint processing_instructions=True,
                  bint collect_errors=False, bint positions=False):
        memset(&self.c_errors, 0, sizeof(ErrorList))
        self.positions = positions
        self.insertions = []
        self.scripting = scripting
        self.processing_instructions = processing_instructions
        self.collect_errors = collect_errors
        self.c_bytes.reparse_window = REPARSE_WINDOW
        self._start()

    cdef int _start(self) except -1:
        """A new Document with a tokenizer and a tree builder feeding it."""
        cdef CDocument* c_doc
        cdef ErrorList* errors
        self.document = document_new()
        if self.document is None or self.document.c_doc == NULL:
            raise RuntimeError("lexpy.dom could not create a document")
        c_doc = self.document.c_doc
        # (before the first node)
        c_doc.record_sources = sizeof(SourceRecord) if self.positions else 0
        self.insertions = []
        errors = &self.c_errors if self.collect_errors else NULL
        self.c_tokenizer = tokenizer_create(c_doc.tag_names, c_doc.attr_names,
                                            self.processing_instructions, errors)
        if self.c_tokenizer == NULL:
            raise MemoryError()
        self.c_bytes.tokenizer = self.c_tokenizer
        self.c_builder = tree_builder_create(c_doc, self.c_tokenizer, errors,
                                             self.scripting)
        # The serializer writes <noscript> content as the parse read it; and
        # while the builder holds node pointers, the DOM reclaims nothing.
        c_doc.scripting = self.scripting
        c_doc.building = 1
        if self.c_builder == NULL:
            raise MemoryError()
        tree_builder_set_positions(self.c_builder, self.positions)
        tokenizer_set_callback(self.c_tokenizer, tree_builder_token_with_positions
                               if self.positions else tree_builder_token, self.c_builder)
        if self.byte_input:
            tree_builder_set_encoding_indicator(self.c_builder, encoding_indicated,
                                                &self.c_bytes)
        if self.on_script is not None:
            tree_builder_set_scripts_run(self.c_builder, True)
        return 0

    cdef int _enter(self) except -1:
        """Begin a method that uses the tokenizer or the tree builder (with
        the GIL held: the check and the claim are one step for Python)."""
        if self.failure is not None:
            raise ValueError("the parse is broken: a script callback raised %s: %s"
                             % (type(self.failure).__name__, self.failure)) \
                from self.failure
        if self.insertion_points and self.script_thread == PyThread_get_thread_ident():
            raise ValueError("the parser is running a script: its callback writes "
                             "through the writer it was given, and cannot feed")
        if self.busy:
            raise ParserBusyError("Parser is already parsing in another thread")
        if self.c_tokenizer == NULL or self.c_builder == NULL:
            # (A re-parse whose new tokenizer or tree builder could not be
            # made: nothing is left to go on with.)
            raise ValueError("this parse failed (out of memory) and cannot go on")
        self.busy = True
        return 0

    cdef void _discard(self) noexcept:
        """Drop the tokenizer and the tree builder (and the parse errors)."""
        if self.document is not None and self.document.c_doc != NULL:
            self.document.c_doc.building = 0
        if self.c_tokenizer != NULL:
            tokenizer_destroy(self.c_tokenizer)
            self.c_tokenizer = NULL
        tree_builder_destroy(self.c_builder)
        self.c_builder = NULL
        error_list_clear(&self.c_errors)

    def __dealloc__(self):
        self._discard()
        if self.byte_input:
            input_byte_stream_free(&self.c_bytes.stream)

    def set_byte_input(self, int transport_encoding, int default_encoding,
                       bint keep_input, size_t reparse_window=REPARSE_WINDOW,
                       bint detect_encoding=True):
        """Before the first chunk: the input is bytes, decoded through the
        input byte stream. `transport_encoding` / `default_encoding` are
        Encoding ids or -1 (none); with `keep_input` the stream keeps the
        bytes a re-parse may need (feed_bytes), else the caller passes the
        whole input to parse_bytes; with `detect_encoding` an undeclared
        document may be found to be UTF-8."""
        self._enter()
        try:
            if self.byte_input:
                raise ValueError("the input is bytes already")
            if tree_builder_is_fragment(self.c_builder) and transport_encoding < 0:
                # Only a certain encoding: a re-parse (a <meta> changing a
                # tentative one) would start a new Document without the
                # context element.
                raise ValueError("the fragment case takes bytes in a given encoding only")
            input_byte_stream_init(&self.c_bytes.stream, transport_encoding,
                                   default_encoding, keep_input)
            input_byte_stream_set_autodetect(&self.c_bytes.stream, detect_encoding)
            self.byte_input = True
            self.keep_input = keep_input
            self.c_bytes.reparse_window = reparse_window
            tree_builder_set_encoding_indicator(self.c_builder, encoding_indicated,
                                                &self.c_bytes)
        finally:
            self.busy = False

    cdef int _tokenize(self, const uint8_t* output, size_t length,
                       bint last) except -1:
        """Tokenize UTF-8 from the input byte stream (then the end of the
        input when `last`); when a <meta> changes the encoding so that the
        document must be parsed again, start over with a new Document from
        the first byte (the confidence is certain then: it happens once)."""
        cdef int status
        while True:
            with nogil:
                status = 0
                if length:
                    status = tokenizer_feed(self.c_tokenizer, output, length)
                if status == 0 and last:
                    status = tokenizer_finish(self.c_tokenizer)
            if status == TOKENIZER_PAUSE:
                status = self._settle_pauses(status)
                if status == 0 and last:
                    with nogil:
                        status = tokenizer_finish(self.c_tokenizer)
                    status = self._settle_pauses(status)
            check_tokenizer_status(status, self.c_builder)
            if not tree_builder_reparse(self.c_builder):
                return 0
            self._discard()
            self._start()
            with nogil:
                input_byte_stream_restart(&self.c_bytes.stream, self.c_bytes.whole,
                                          self.c_bytes.whole_length, &output, &length)

    cdef void _settle(self) noexcept:
        """Past the re-parse window the encoding stays: drop the kept bytes
        (and with them the memory a tentative encoding would hold)."""
        if self.c_bytes.stream.confidence == CONFIDENCE_TENTATIVE and self.c_bytes.stream.sniffed \
                and tokenizer_settled_offset(self.c_tokenizer) >= self.c_bytes.reparse_window:
            self.c_bytes.stream.confidence = CONFIDENCE_CERTAIN
            byte_buffer_free(&self.c_bytes.stream.kept)

    def feed_bytes(self, const uint8_t[::1] chunk):
        """Decode and parse a chunk of bytes (set_byte_input with keep_input)."""
        cdef const uint8_t* output = NULL
        cdef size_t length = 0
        cdef size_t n = chunk.shape[0]
        self._enter()
        try:
            if self.finished:
                raise ValueError("the parse is finished")
            if not (self.byte_input and self.keep_input):
                raise ValueError("feed_bytes needs set_byte_input(keep_input=True)")
            if n == 0:
                return
            with nogil:
                input_byte_stream_feed(&self.c_bytes.stream, &chunk[0], n, &output, &length)
            self._tokenize(output, length, False)
            self._settle()
        finally:
            self.busy = False

    def parse_bytes(self, data):
        """The whole input at once (set_byte_input without keep_input):
        decode, parse and finish. Returns the Document. `data`: bytes or
        any contiguous buffer of bytes (read through the buffer protocol;
        bytes directly, without a view object per parse)."""
        cdef Py_buffer view
        cdef CDocument* c_doc
        if PyBytes_CheckExact(data):
            # bytes cannot change: the document keeps them, and the text
            # and attribute values that need no conversion stay where the
            # input has them (CDocument.source_begin).
            c_doc = self.document.c_doc
            if c_doc.source_begin == NULL and not self.finished:
                self.document.source_bytes = data
                c_doc.source_begin = <const uint8_t*> PyBytes_AS_STRING(data)
                c_doc.source_end = c_doc.source_begin + PyBytes_GET_SIZE(data)
            return self._parse_whole(<const uint8_t*> PyBytes_AS_STRING(data),
                                     <size_t> PyBytes_GET_SIZE(data))
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            return self._parse_whole(<const uint8_t*> view.buf, <size_t> view.len)
        finally:
            PyBuffer_Release(&view)

    cdef object _parse_whole(self, const uint8_t* data, size_t n):
        """parse_bytes of the `n` bytes at `data` (the caller keeps them
        alive and unchanged until it returns)."""
        cdef const uint8_t* output = NULL
        cdef size_t length = 0
        cdef int status = 0
        cdef bint stream_finished = False
        self._enter()
        try:
            if self.finished:
                raise ValueError("the parse is finished")
            if not self.byte_input or self.keep_input:
                raise ValueError("parse_bytes needs set_byte_input(keep_input=False)")
            self.c_bytes.whole = data if n else NULL
            self.c_bytes.whole_length = n
            if n and self.on_script is not None:
                # (Scripts pause the tokenizer: the steps of feed_bytes.)
                with nogil:
                    input_byte_stream_feed(&self.c_bytes.stream, self.c_bytes.whole, n,
                                           &output, &length)
                self._tokenize(output, length, False)
            elif n:
                # The usual case in one stretch without the GIL (other
                # threads wait for it least): decode, tokenize and build,
                # end the stream and the input. A re-parse leaves the rest
                # to the steps below.
                with nogil:
                    input_byte_stream_feed(&self.c_bytes.stream, self.c_bytes.whole, n,
                                           &output, &length)
                    if length:
                        status = tokenizer_feed(self.c_tokenizer, output, length)
                    if status == 0 and not tree_builder_reparse(self.c_builder):
                        stream_finished = True
                        input_byte_stream_finish(&self.c_bytes.stream, &output, &length)
                        if length:
                            status = tokenizer_feed(self.c_tokenizer, output, length)
                        if status == 0 and not tree_builder_reparse(self.c_builder):
                            status = tokenizer_finish(self.c_tokenizer)
                check_tokenizer_status(status, self.c_builder)
                if not tree_builder_reparse(self.c_builder) and stream_finished:
                    self._end_of_parse()
                    return self.document
                # (What is left: the re-parse, then the end of the input.)
                self._tokenize(NULL, 0, stream_finished)
                if stream_finished:
                    self._end_of_parse()
                    return self.document
            self._finish()
            return self.document
        finally:
            self.c_bytes.whole = NULL
            self.c_bytes.whole_length = 0
            self.busy = False

    @property
    def encoding(self):
        """The name of the encoding in use ('UTF-8' for UTF-8 input)."""
        if not self.byte_input:
            return u"UTF-8"
        return encoding_name(self.c_bytes.stream.encoding).decode("ascii")

    @property
    def confidence(self):
        """'certain', 'tentative' or 'irrelevant' (str input)."""
        if not self.byte_input:
            return u"irrelevant"
        return u"certain" if self.c_bytes.stream.confidence == CONFIDENCE_CERTAIN \
            else u"tentative"

    def set_fragment_context(self, str local_name, uint32_t namespace,
                             Node element=None):
        """Switch to the fragment case before the first chunk: the context
        element is `element` (of any document), or a new element named
        `local_name` in namespace NS_HTML, NS_SVG or NS_MATHML."""
        self._enter()
        try:
            if self.byte_input:
                raise ValueError("the fragment case takes no byte input")
            self._set_fragment_context(local_name, namespace, element)
        finally:
            self.busy = False

    cdef int _set_fragment_context(self, str local_name, uint32_t namespace,
                                   Node element) except -1:
        cdef CDocument* c_doc = self.document.c_doc
        cdef CElement* context
        cdef CElement* form = NULL
        cdef CNode* ancestor
        cdef bytes name
        if element is not None:
            if element.c_node == NULL or element.c_node.type != ELEMENT_NODE:
                raise TypeError("the context must be an Element")
            context = <CElement*> node_clone_into(element.c_node, c_doc, False)
            c_doc.quirks_mode = element.doc.c_doc.quirks_mode
            ancestor = element.c_node
            while ancestor != NULL:
                if ancestor.type == ELEMENT_NODE and \
                        (<CElement*> ancestor).tag_id == TAG_FORM and \
                        (<CElement*> ancestor).ns == NS_HTML:
                    form = <CElement*> ancestor
                    break
                ancestor = ancestor.parent
            self.context_owner = element
        else:
            name = local_name.encode("utf-8")
            context = element_create(c_doc, tag_id_by_name(
                c_doc.tag_names, name, len(name), True), namespace)
            if context != NULL and context.tag_id == TAG_FORM and context.ns == NS_HTML:
                form = context
        if context == NULL:
            raise MemoryError()
        if tree_builder_set_fragment_context(self.c_builder, context, form) != 0:
            raise MemoryError()
        return 0

    def feed_text(self, str text):
        """Tokenize and build from a chunk of str: its UTF-8 is made here
        without the GIL (ASCII text is read where the str keeps it), lone
        surrogates as U+FFFD."""
        cdef size_t length = <size_t> PyUnicode_GET_LENGTH(text)
        cdef unsigned int kind = PyUnicode_KIND(text)
        cdef const void* data = PyUnicode_DATA(text)
        cdef uint8_t* utf8 = NULL
        cdef int status
        self._enter()
        try:
            if self.finished:
                raise ValueError("the parse is finished")
            if self.byte_input:
                raise ValueError("the input is bytes: feed_bytes")
            if length == 0:
                return
            if PyUnicode_IS_ASCII(text):
                with nogil:
                    status = tokenizer_feed(self.c_tokenizer, <const uint8_t*> data, length)
            else:
                if length > (<size_t> -1) // 4:
                    raise MemoryError()
                utf8 = <uint8_t*> malloc(length * (kind + 1 if kind < 4 else 4))
                if utf8 == NULL:
                    raise MemoryError()
                try:
                    with nogil:
                        status = tokenizer_feed(
                            self.c_tokenizer, utf8,
                            utf8_encode_code_points(kind, data, length, utf8))
                finally:
                    free(utf8)
            check_tokenizer_status(self._settle_pauses(status), self.c_builder)
        finally:
            self.busy = False

    def feed(self, bytes chunk, bint release_gil=True):
        """Tokenize and build from a chunk of UTF-8 (complete sequences).
        Without `release_gil` the GIL stays held: for a caller whose
        token callback takes it for most tokens (lexpy.rewriter with
        handlers), where taking it back each time costs more than the
        parse of a token."""
        cdef const uint8_t* data = chunk
        cdef size_t length = len(chunk)
        cdef int status
        self._enter()
        try:
            if self.finished:
                raise ValueError("the parse is finished")
            if self.byte_input:
                raise ValueError("the input is bytes: feed_bytes")
            if release_gil:
                with nogil:
                    status = tokenizer_feed(self.c_tokenizer, data, length)
            else:
                status = tokenizer_feed(self.c_tokenizer, data, length)
            check_tokenizer_status(self._settle_pauses(status), self.c_builder)
        finally:
            self.busy = False

    def finish(self):
        """End of input: the Document."""
        self._enter()
        try:
            self._finish()
            return self.document
        finally:
            self.busy = False

    cdef int _end_of_parse(self) except -1:
        """The parse is over (the one place that says so): the Document gets
        its parse results."""
        self.finished = True
        self.document.c_doc.building = 0
        # (How much UTF-8 the parse read: the serializer's first guess at
        # its output's size.)
        self.document.c_doc.source_length = tokenizer_input_length(self.c_tokenizer)
        self.document.encoding_name = self.encoding
        if self.collect_errors:
            self._set_parse_errors()
        self._run_after_parsing()
        return 0

    cdef int _finish(self) except -1:
        cdef const uint8_t* output = NULL
        cdef size_t length = 0
        cdef int status
        if self.finished:
            return 0
        # (Once the end of input is given, a failure below ends the parse
        # too: a second finish() returns the incomplete Document.)
        self.finished = True
        if self.byte_input:
            with nogil:
                input_byte_stream_finish(&self.c_bytes.stream, &output, &length)
            self._tokenize(output, length, True)
        else:
            with nogil:
                status = tokenizer_finish(self.c_tokenizer)
            check_tokenizer_status(self._settle_pauses(status), self.c_builder)
        return self._end_of_parse()

    def finish_fragment(self):
        """End of input in the fragment case: a DocumentFragment holding the
        children of the root html element."""
        cdef CDocumentFragment* fragment
        cdef CElement* root
        self._enter()
        try:
            self._finish()
            # (Read after the end of input: the builder is the one that
            # built this Document.)
            root = tree_builder_fragment_root(self.c_builder)
            if root == NULL:
                raise ValueError("not the fragment case")
            fragment = document_fragment_create(self.document.c_doc)
            if fragment == NULL:
                raise MemoryError()
            while root.node.first_child != NULL:
                node_append_child(&fragment.node, root.node.first_child)
            return node_proxy(&fragment.node)
        finally:
            self.busy = False

    cdef int _fragment_text(self, bytes context_name, str text, FragmentHook hook,
                            void* hook_context, int* result, CNode** fragment) except -1:
        """construction_fragment_text (driver.pxd): set_fragment_context,
        feed_text, finish_fragment and the hook, the GIL released once
        (MemoryError when the parse failed: no hook then)."""
        cdef CDocument* c_doc = self.document.c_doc
        cdef CElement* context
        cdef CElement* root
        cdef CDocumentFragment* made = NULL
        cdef size_t length = <size_t> PyUnicode_GET_LENGTH(text)
        cdef unsigned int kind = PyUnicode_KIND(text)
        cdef const void* data = PyUnicode_DATA(text)
        cdef uint8_t* utf8 = NULL
        cdef bint ascii = PyUnicode_IS_ASCII(text)
        cdef int status = 0
        fragment[0] = NULL
        result[0] = 0
        context = element_create(c_doc, tag_id_by_name(
            c_doc.tag_names, context_name, len(context_name), True), NS_HTML)
        if context == NULL or tree_builder_set_fragment_context(
                self.c_builder, context,
                context if context.tag_id == TAG_FORM else NULL) != 0:
            raise MemoryError()
        if not ascii:
            if length > (<size_t> -1) // 4:
                raise MemoryError()
            utf8 = <uint8_t*> malloc(length * (kind + 1 if kind < 4 else 4) + 1)
            if utf8 == NULL:
                raise MemoryError()
        try:
            with nogil:
                if length:
                    if ascii:
                        status = tokenizer_feed(self.c_tokenizer, <const uint8_t*> data, length)
                    else:
                        status = tokenizer_feed(self.c_tokenizer, utf8, utf8_encode_code_points(
                            kind, data, length, utf8))
                if status == 0:
                    status = tokenizer_finish(self.c_tokenizer)
                if status == 0 and not tree_builder_failed(self.c_builder):
                    root = tree_builder_fragment_root(self.c_builder)
                    made = document_fragment_create(c_doc) if root != NULL else NULL
                    if made != NULL:
                        while root.node.first_child != NULL:
                            node_append_child(&made.node, root.node.first_child)
                        c_doc.building = 0
                        c_doc.source_length = tokenizer_input_length(self.c_tokenizer)
                        fragment[0] = &made.node
                        result[0] = hook(hook_context, &made.node)
        finally:
            free(utf8)
        self.finished = True
        if fragment[0] == NULL:
            # (No scripts run in the fragment case, and a str gives no
            # re-parse: what stopped the parse is a lack of memory.)
            self.document.c_doc.building = 0
            check_tokenizer_status(status, self.c_builder)
            raise MemoryError()
        self._end_of_parse()
        return 0

    def buffered(self):
        """(bytes held, bytes allocated) between feeds by the tokenizer's
        incoming buffer and the input byte stream (bytes waiting for the
        sniffing algorithm, bytes kept for a re-parse)."""
        cdef size_t capacity = 0
        cdef size_t held
        self._enter()
        try:
            held = tokenizer_buffered(self.c_tokenizer, &capacity)
            if self.byte_input:
                # (While the encoding is tentative the kept bytes include those
                # waiting for the sniffing algorithm or for autodetection.)
                held += max(self.c_bytes.stream.kept.length, self.c_bytes.stream.undecided.length
                            + (0 if self.c_bytes.stream.sniffed else self.c_bytes.stream.held.length))
                capacity += self.c_bytes.stream.held.capacity + self.c_bytes.stream.kept.capacity \
                    + self.c_bytes.stream.undecided.capacity + self.c_bytes.stream.converted.capacity
            return held, capacity
        finally:
            self.busy = False

    def document_object(self):
        return self.document

    cdef int _set_parse_errors(self) except -1:
        """The Document's errors: the collected parse errors' records, which
        its `errors` makes ParseErrors of when first read (MemoryError when
        some could not be recorded for lack of memory: the list would be
        incomplete)."""
        if self.c_tokenizer != NULL and tokenizer_errors_lost(self.c_tokenizer):
            raise MemoryError("%d parse errors were not recorded: out of memory"
                              % tokenizer_errors_lost(self.c_tokenizer))
        document_take_parse_errors(self.document, &self.c_errors)
        return 0

    # -----------------------------------------------------------------------
    # Script execution (scripts.pxi)
    # -----------------------------------------------------------------------

    def set_script_hook(self, on_script, bint external_scripts=False):
        """Before the first chunk: call `on_script(script, writer)` where the
        standard executes a parser-inserted classic script (inline ones;
        with `external_scripts`, src ones too). Nothing is called without
        the scripting flag, or in the fragment case."""
        self._enter()
        try:
            if not self.scripting or tree_builder_is_fragment(self.c_builder):
                return
            self.on_script = on_script
            self.external_scripts = external_scripts
            self.insertion_points = []
            self.after_parsing = []
            tree_builder_set_scripts_run(self.c_builder, True)
        finally:
            self.busy = False

    cdef int _settle_pauses(self, int status) except? -9:
        """The tokenizer paused at a script end tag: run the script end tag
        steps (and a pending parsing-blocking script), then resume, until
        the tokenizer is done with the input it has. Returns its status."""
        cdef CElement* script
        while status == TOKENIZER_PAUSE:
            script = tree_builder_take_script(self.c_builder)
            if script != NULL:
                self._script_end_tag(script)
            while self.pending_script is not None:
                # The script nesting level is zero: the pending
                # parsing-blocking script runs (when it was fetched: the
                # callback fetches it).
                pending = self.pending_script
                self.pending_script = None
                self._execute(pending)
            self.parser_pause = False
            with nogil:
                status = tokenizer_resume(self.c_tokenizer)
        return status

    cdef int _script_end_tag(self, CElement* element) except -1:
        """https://html.spec.whatwg.org/multipage/parsing.html#scriptEndTag,
        from "let the insertion point be just before the next input
        character" on (the tree builder popped the script)."""
        cdef ScriptPreparation preparation
        cdef object script = node_proxy(&element.node)
        if len(self.insertion_points) >= MAX_SCRIPT_NESTING:
            self.failure = ScriptNestingError(
                "scripts written by document.write nest deeper than %d levels"
                % MAX_SCRIPT_NESTING)
            raise self.failure
        preparation = prepare_script(script, element, self.external_scripts)
        if preparation == RUN_NOW:
            self._execute(script)
        elif preparation == PARSER_BLOCKING:
            self.pending_script = script
        elif preparation == AFTER_PARSING:
            self.after_parsing.append(script)
        if self.pending_script is not None and self.insertion_points:
            # Inside a document.write: the nested tokenizer runs stop, and the
            # script runs when the outermost one is done.
            self.parser_pause = True
        if self.failure is not None:
            # (A callback raised and a script around it went on.)
            raise self.failure
        return 0

    cdef int _execute(self, object script) except -1:
        """Execute a script: the callback runs with the insertion point just
        before the next input character (the script nesting level is the
        number of insertion points)."""
        cdef ScriptWriter writer = ScriptWriter.__new__(ScriptWriter)
        writer.construction = self
        writer.running = True
        self.insertion_points.append(tokenizer_next_offset(self.c_tokenizer))
        self.script_thread = PyThread_get_thread_ident()
        try:
            self.on_script(script, writer)
        except BaseException as error:
            if self.failure is None:
                self.failure = error
                raise
            raise self.failure      # (the first cause, not what wrapped it)
        finally:
            writer.running = False
            self.insertion_points.pop()
            tree_builder_tree_changed(self.c_builder)
        return 0

    cdef int _run_after_parsing(self) except -1:
        """The deferred and async external scripts, in document order, once
        the parse is over (their writes are ignored: no insertion point)."""
        cdef ScriptWriter writer
        if not self.after_parsing:
            return 0
        scripts, self.after_parsing = self.after_parsing, []
        for script in scripts:
            writer = ScriptWriter.__new__(ScriptWriter)
            writer.construction = self
            writer.running = True
            try:
                self.on_script(script, writer)
            finally:
                writer.running = False
        return 0

    def _script_write(self, str text):
        """document.write(text) from a running script: insert its UTF-8 at the
        insertion point and, unless a parsing-blocking script is pending,
        tokenize it up to the insertion point (nested scripts run)."""
        cdef bytes utf8
        cdef const uint8_t* data
        cdef size_t length, i, insertion_point
        cdef int status
        cdef CElement* script
        if self.failure is not None:
            raise ValueError("the parse is broken: a script callback raised %s: %s"
                             % (type(self.failure).__name__, self.failure)) \
                from self.failure
        if not self.insertion_points or self.c_tokenizer == NULL or \
                tree_builder_reparse(self.c_builder) or tree_builder_stopped(self.c_builder):
            return          # the parse is over (or starts again): ignored
        try:
            utf8 = text.encode("utf-8")
        except UnicodeEncodeError:
            # (Lone surrogates as U+FFFD, as feed_text does.)
            utf8 = "".join(["\ufffd" if "\ud800" <= c <= "\udfff" else c
                            for c in text]).encode("utf-8")
        data = utf8
        length = len(utf8)
        if length == 0:
            return
        status = tokenizer_insert(self.c_tokenizer,
                                  self.insertion_points[len(self.insertion_points) - 1],
                                  data, length)
        if status == -2:
            raise RuntimeError("lexpy: the insertion point is not in the input held "
                               "(a bug: please report it)")
        if status != 0:
            check_tokenizer_status(status, self.c_builder)
            return
        if self.positions:
            self.insertions.append(
                (self.insertion_points[len(self.insertion_points) - 1], length))
        for i in range(len(self.insertion_points)):
            self.insertion_points[i] += length
        if self.parser_pause or self.pending_script is not None:
            return          # the text waits for the pending script
        while True:
            insertion_point = self.insertion_points[len(self.insertion_points) - 1]
            with nogil:
                status = tokenizer_run_to(self.c_tokenizer, insertion_point)
            if status != TOKENIZER_PAUSE:
                break
            script = tree_builder_take_script(self.c_builder)
            if script != NULL:
                self._script_end_tag(script)
            if self.parser_pause:
                return
        check_tokenizer_status(status, self.c_builder)
