# The "in row" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr


cdef bint close_row(TreeBuilder* tb) noexcept nogil:
    """Close the open tr (False when none is in table scope: the token is
    ignored)."""
    if not has_in_scope(tb, TAG_TR, CAT_SCOPE_TABLE):
        parse_error(tb, "unexpected-token-in-row")
        return False
    clear_stack_back_to_table_row_context(tb)
    open_elements_pop(tb)
    tb.mode = IN_TABLE_BODY
    return True


cdef ModeResult mode_in_row(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_start_tag(token):
        if kind == TAG_TH or kind == TAG_TD:
            clear_stack_back_to_table_row_context(tb)
            insert_html_element(tb, token)
            tb.mode = IN_CELL
            insert_marker(tb)
            return DONE
        if kind == TAG_CAPTION or kind == TAG_COL or kind == TAG_COLGROUP \
                or kind == TAG_TBODY or kind == TAG_TFOOT or kind == TAG_THEAD \
                or kind == TAG_TR:
            return REPROCESS if close_row(tb) else DONE
    elif is_end_tag(token):
        if kind == TAG_TR:
            close_row(tb)
            return DONE
        if kind == TAG_TABLE:
            return REPROCESS if close_row(tb) else DONE
        if kind == TAG_TBODY or kind == TAG_TFOOT or kind == TAG_THEAD:
            if not has_in_scope(tb, kind, CAT_SCOPE_TABLE):
                parse_error(tb, "unexpected-end-tag")
                return DONE
            if not has_in_scope(tb, TAG_TR, CAT_SCOPE_TABLE):
                return DONE                     # ignored (not a parse error)
            return REPROCESS if close_row(tb) else DONE
        if kind == TAG_BODY or kind == TAG_CAPTION or kind == TAG_COL \
                or kind == TAG_COLGROUP or kind == TAG_HTML or kind == TAG_TD \
                or kind == TAG_TH:
            parse_error(tb, "unexpected-end-tag")
            return DONE
    return mode_in_table(tb, token)
