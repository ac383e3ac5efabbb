# The "in frameset" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inframeset


cdef ModeResult mode_in_frameset(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef TextRun run
    if kind == TAG__TEXT:
        decode_text_run(tb)
        run = tb.text
        tb.text.begin = tb.text.end
        insert_whitespace_characters(tb, &run)
        return DONE
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        if tb.open.count > 1:
            parse_error(tb, "end-of-file-in-frameset")
        stop_parsing(tb)
        return DONE
    if is_start_tag(token):
        if kind == TAG_HTML:
            return mode_in_body(tb, token)
        if kind == TAG_FRAMESET:
            insert_html_element(tb, token)
            return DONE
        if kind == TAG_FRAME:
            insert_void_html_element(tb, token)
            return DONE
        if kind == TAG_NOFRAMES:
            return mode_in_head(tb, token)
    elif kind == TAG_FRAMESET:
        if tb.open.count <= 1:
            parse_error(tb, "unexpected-end-tag")          # the fragment case
            return DONE
        open_elements_pop(tb)
        if tb.context_element == NULL and not current_node_is(tb, TAG_FRAMESET):
            tb.mode = AFTER_FRAMESET
        return DONE
    parse_error(tb, "unexpected-token-in-frameset")
    return DONE
