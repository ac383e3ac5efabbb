# The "after head" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode


cdef inline ModeResult anything_else_after_head(TreeBuilder* tb) noexcept nogil:
    insert_html_element_named(tb, TAG_BODY)
    # Nothing before an implied body was body content: a template in the
    # head does not keep a later <frameset> out (whatwg/html#12908).
    tb.frameset_ok = True
    tb.mode = IN_BODY
    return REPROCESS


cdef ModeResult start_tag_after_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef ModeResult result
    if kind == TAG_HTML:
        return mode_in_body(tb, token)
    if kind == TAG_BODY:
        insert_html_element(tb, token)
        tb.frameset_ok = False
        tb.mode = IN_BODY
        return DONE
    if kind == TAG_FRAMESET:
        insert_html_element(tb, token)
        tb.mode = IN_FRAMESET
        return DONE
    if kind == TAG_BASE or kind == TAG_BASEFONT or kind == TAG_BGSOUND \
            or kind == TAG_LINK or kind == TAG_META or kind == TAG_NOFRAMES \
            or kind == TAG_SCRIPT or kind == TAG_STYLE or kind == TAG_TEMPLATE \
            or kind == TAG_TITLE:
        parse_error(tb, "head-element-after-head")
        if tb.head_element == NULL or open_elements_push(tb, tb.head_element) != 0:
            return DONE
        result = mode_in_head(tb, token)
        open_elements_remove(tb, tb.head_element)
        return result
    if kind == TAG_HEAD:
        parse_error(tb, "unexpected-start-tag")
        return DONE
    return anything_else_after_head(tb)


cdef ModeResult mode_after_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef TextRun whitespace
    if kind == TAG__TEXT:
        whitespace = take_leading_whitespace(tb)
        insert_characters(tb, &whitespace, NUL_KEEP)
        if text_is_empty(tb):
            return DONE
        return anything_else_after_head(tb)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        return anything_else_after_head(tb)
    if token.type & TOKEN_END_TAG:
        if kind == TAG_TEMPLATE:
            return mode_in_head(tb, token)
        if kind == TAG_BODY or kind == TAG_HTML or kind == TAG_BR:
            return anything_else_after_head(tb)
        parse_error(tb, "unexpected-end-tag")
        return DONE
    return start_tag_after_head(tb, token)
