# The "after frameset" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterframeset


cdef ModeResult mode_after_frameset(TreeBuilder* tb, Token* token) noexcept nogil:
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
        stop_parsing(tb)
        return DONE
    if is_start_tag(token):
        if kind == TAG_HTML:
            return mode_in_body(tb, token)
        if kind == TAG_NOFRAMES:
            return mode_in_head(tb, token)
    elif kind == TAG_HTML:
        tb.mode = AFTER_AFTER_FRAMESET
        return DONE
    parse_error(tb, "unexpected-token-after-frameset")
    return DONE
