# The "in column group" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup


cdef inline ModeResult anything_else_in_column_group(TreeBuilder* tb) noexcept nogil:
    if not current_node_is(tb, TAG_COLGROUP):
        parse_error(tb, "unexpected-token-in-column-group")
        return DONE
    open_elements_pop(tb)
    tb.mode = IN_TABLE
    return REPROCESS


cdef ModeResult mode_in_column_group(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef TextRun whitespace
    if kind == TAG__TEXT:
        whitespace = take_leading_whitespace(tb)
        insert_characters(tb, &whitespace, NUL_KEEP)
        if text_is_empty(tb):
            return DONE
        if not current_node_is(tb, TAG_COLGROUP):
            # Each character other than whitespace is a parse error and
            # ignored; the whitespace after them is looked at again.
            skip_non_whitespace_characters(tb, "unexpected-character-in-column-group")
            return REPROCESS
        return anything_else_in_column_group(tb)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        return mode_in_body(tb, token)
    if token.type & TOKEN_END_TAG:
        if kind == TAG_COLGROUP:
            if not current_node_is(tb, TAG_COLGROUP):
                parse_error(tb, "unexpected-end-tag")
                return DONE
            open_elements_pop(tb)
            tb.mode = IN_TABLE
            return DONE
        if kind == TAG_COL:
            parse_error(tb, "unexpected-end-tag")
            return DONE
        if kind == TAG_TEMPLATE:
            return mode_in_head(tb, token)
        return anything_else_in_column_group(tb)
    if kind == TAG_HTML:
        return mode_in_body(tb, token)
    if kind == TAG_COL:
        insert_void_html_element(tb, token)
        return DONE
    if kind == TAG_TEMPLATE:
        return mode_in_head(tb, token)
    return anything_else_in_column_group(tb)
