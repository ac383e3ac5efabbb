# The "after after frameset" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-frameset-insertion-mode


cdef ModeResult mode_after_after_frameset(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, &tb.document.node)
        return DONE
    if kind == TAG__DOCTYPE or (is_start_tag(token) and kind == TAG_HTML):
        return mode_in_body(tb, token)
    if kind == TAG__TEXT:
        insert_leading_whitespace_in_body(tb)
        # Any other character: a parse error, ignored; whitespace after it
        # is inserted again.
        if not text_is_empty(tb):
            skip_non_whitespace_characters(tb, "content-after-frameset")
            return REPROCESS
        return DONE
    if kind == TAG__END_OF_FILE:
        stop_parsing(tb)
        return DONE
    if is_start_tag(token) and kind == TAG_NOFRAMES:
        return mode_in_head(tb, token)
    parse_error(tb, "content-after-frameset")
    return DONE
