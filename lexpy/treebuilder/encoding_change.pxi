# Changing the encoding on a <meta> met while the confidence is tentative
# (the "in head" rules for a meta start tag, steps 1-2):
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
# The input byte stream decides how: keep the encoding, switch the decoder on
# the fly, or ask for the document to be parsed again from its first byte
# (TreeBuilder.reparse: the token callback then stops the tokenizer and the
# driver restarts with a new tokenizer and tree builder).


cdef int meta_declared_encoding(CElement* meta) noexcept nogil:
    """The encoding the meta element declares: its charset attribute's
    (getting an encoding from the value), else its content attribute's when
    http-equiv is Content-Type; ENCODING__NONE when neither gives one."""
    cdef CAttr* charset = element_find_attribute(meta, ATTR_CHARSET, NS__UNDEF)
    cdef CAttr* http_equiv
    cdef CAttr* content
    cdef int encoding = ENCODING__NONE
    if charset != NULL:
        encoding = encoding_for_label(charset.value, charset.value_length)
        if encoding != ENCODING__NONE:
            return encoding
    http_equiv = element_find_attribute(meta, ATTR_HTTP_EQUIV, NS__UNDEF)
    content = element_find_attribute(meta, ATTR_CONTENT, NS__UNDEF)
    if http_equiv != NULL and content != NULL and is_content_type_pragma(
            http_equiv.value, http_equiv.value_length):
        encoding = extract_encoding_from_meta(content.value, content.value_length)
    return encoding


# https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing
cdef void change_the_encoding_for_meta(TreeBuilder* tb, CElement* meta) noexcept nogil:
    cdef InputByteStream* stream = tb.input
    cdef int encoding
    if stream == NULL or stream.confidence != CONFIDENCE_TENTATIVE:
        return
    if tb.tokenizer != NULL and \
            tokenizer_token_offset(tb.tokenizer) >= tb.reparse_window:
        return              # the bytes before it are no longer kept (api.pxi)
    encoding = meta_declared_encoding(meta)
    if encoding == ENCODING__NONE:
        return
    if input_byte_stream_change_encoding(stream, encoding, tb.input_bytes,
                                         tb.input_length) == CHANGE_REPARSE:
        tb.reparse = True
