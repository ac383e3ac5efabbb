# The "before html" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode


cdef void insert_root_element(TreeBuilder* tb, Token* token) noexcept nogil:
    """The html element, appended to the Document (with the token's
    attributes, or none)."""
    cdef CElement* html
    cdef Token implied
    if token == NULL:
        memset(&implied, 0, sizeof(Token))
        implied.tag_id = TAG_HTML
        token = &implied
    html = create_element_for_token(tb, token, NS_HTML)
    if html == NULL:
        return
    node_append_child(&tb.document.node, &html.node)
    open_elements_push(tb, html)


cdef ModeResult mode_before_html(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, &tb.document.node)
        return DONE
    if kind == TAG__TEXT:
        take_leading_whitespace(tb)            # ignored
        if text_is_empty(tb):
            return DONE
    elif is_start_tag(token) and kind == TAG_HTML:
        insert_root_element(tb, token)
        tb.mode = BEFORE_HEAD
        return DONE
    elif is_end_tag(token) and not (kind == TAG_HEAD or kind == TAG_BODY
                                    or kind == TAG_HTML or kind == TAG_BR):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    # Anything else
    insert_root_element(tb, NULL)
    tb.mode = BEFORE_HEAD
    return REPROCESS
