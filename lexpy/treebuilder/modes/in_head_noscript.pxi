# The "in head noscript" insertion mode (the scripting flag is off)
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript


cdef inline ModeResult anything_else_in_head_noscript(TreeBuilder* tb) noexcept nogil:
    parse_error(tb, "unexpected-token-in-noscript")
    open_elements_pop(tb)                      # the noscript element
    tb.mode = IN_HEAD
    return REPROCESS


cdef ModeResult mode_in_head_noscript(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef TextRun whitespace
    if kind == TAG__TEXT:
        whitespace = take_leading_whitespace(tb)
        insert_characters(tb, &whitespace, NUL_KEEP)   # by the "in head" rules
        if text_is_empty(tb):
            return DONE
        return anything_else_in_head_noscript(tb)
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if is_comment_or_processing_instruction(token):
        return mode_in_head(tb, token)
    if kind == TAG__END_OF_FILE:
        return anything_else_in_head_noscript(tb)
    if token.type & TOKEN_END_TAG:
        if kind == TAG_NOSCRIPT:
            open_elements_pop(tb)
            tb.mode = IN_HEAD
            return DONE
        if kind == TAG_BR:
            return anything_else_in_head_noscript(tb)
        parse_error(tb, "unexpected-end-tag")
        return DONE
    if kind == TAG_HTML:
        return mode_in_body(tb, token)
    if kind == TAG_BASEFONT or kind == TAG_BGSOUND or kind == TAG_LINK \
            or kind == TAG_META or kind == TAG_NOFRAMES or kind == TAG_STYLE:
        return mode_in_head(tb, token)
    if kind == TAG_HEAD or kind == TAG_NOSCRIPT:
        parse_error(tb, "unexpected-start-tag")
        return DONE
    return anything_else_in_head_noscript(tb)
