# A <meta> start tag's encoding indication (the "in head" rules for a meta
# start tag, steps 1-2):
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
# The tree builder finds the encoding the element declares and reports it;
# the parse driver, which owns the input byte stream, decides what it
# changes (keep the encoding, switch the decoder on the fly, or parse the
# document again from its first byte: TreeBuilder.reparse, and the token
# callback stops the tokenizer).


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


cdef void indicate_encoding_for_meta(TreeBuilder* tb, CElement* meta) noexcept nogil:
    cdef int encoding
    if tb.encoding_indicator == NULL:
        return              # str input: no encoding to change
    encoding = meta_declared_encoding(meta)
    if encoding != ENCODING__NONE and tb.encoding_indicator(tb.encoding_context, encoding):
        tb.halt.reparse = True
