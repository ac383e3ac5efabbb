# The "after body" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterbody


cdef ModeResult mode_after_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        insert_leading_whitespace_in_body(tb)
        if text_is_empty(tb):
            return DONE
    elif is_comment_or_processing_instruction(token):
        # As the last child of the first element on the stack (html).
        if tb.open.count > 0:
            insert_comment(tb, token, &tb.open.elements[0].node)
        return DONE
    elif kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    elif kind == TAG__END_OF_FILE:
        stop_parsing(tb)
        return DONE
    elif is_start_tag(token) and kind == TAG_HTML:
        return mode_in_body(tb, token)
    elif is_end_tag(token) and kind == TAG_HTML:
        if tb.context_element != NULL:
            parse_error(tb, "unexpected-end-tag")          # the fragment case
            return DONE
        tb.mode = AFTER_AFTER_BODY
        return DONE
    parse_error(tb, "content-after-body")
    tb.mode = IN_BODY
    return REPROCESS
