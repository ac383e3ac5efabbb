# The "after after body" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-body-insertion-mode


cdef ModeResult mode_after_after_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, &tb.document.node)
        return DONE
    if kind == TAG__DOCTYPE or (is_start_tag(token) and kind == TAG_HTML):
        return mode_in_body(tb, token)
    if kind == TAG__TEXT:
        insert_leading_whitespace_in_body(tb)
        if text_is_empty(tb):
            return DONE
    elif kind == TAG__END_OF_FILE:
        stop_parsing(tb)
        return DONE
    parse_error(tb, "content-after-html")
    tb.mode = IN_BODY
    return REPROCESS
