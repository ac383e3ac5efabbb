# The "before head" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode


cdef ModeResult mode_before_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        take_leading_whitespace(tb)            # ignored
        if text_is_empty(tb):
            return DONE
    elif is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    elif kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    elif is_start_tag(token):
        if kind == TAG_HTML:
            return mode_in_body(tb, token)
        if kind == TAG_HEAD:
            tb.head_element = insert_html_element(tb, token)
            tb.mode = IN_HEAD
            return DONE
    elif is_end_tag(token) and not (kind == TAG_HEAD or kind == TAG_BODY
                                    or kind == TAG_HTML or kind == TAG_BR):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    # Anything else
    tb.head_element = insert_html_element_named(tb, TAG_HEAD)
    tb.mode = IN_HEAD
    return REPROCESS
