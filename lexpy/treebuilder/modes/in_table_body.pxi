# The "in table body" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody


cdef ModeResult leave_table_body(TreeBuilder* tb) noexcept nogil:
    """Close the open tbody, thead or tfoot and reprocess "in table" (the
    token is ignored when none is in table scope)."""
    if not has_one_of_in_scope(tb, TAG_TBODY, TAG_THEAD, TAG_TFOOT, CAT_SCOPE_TABLE):
        parse_error(tb, "unexpected-token-in-table-body")
        return DONE
    clear_stack_back_to_table_body_context(tb)
    open_elements_pop(tb)
    tb.mode = IN_TABLE
    return REPROCESS


cdef ModeResult mode_in_table_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_start_tag(token):
        if kind == TAG_TR:
            clear_stack_back_to_table_body_context(tb)
            insert_html_element(tb, token)
            tb.mode = IN_ROW
            return DONE
        if kind == TAG_TH or kind == TAG_TD:
            parse_error(tb, "cell-outside-row")
            clear_stack_back_to_table_body_context(tb)
            insert_html_element_named(tb, TAG_TR)
            tb.mode = IN_ROW
            return REPROCESS
        if kind == TAG_CAPTION or kind == TAG_COL or kind == TAG_COLGROUP \
                or kind == TAG_TBODY or kind == TAG_TFOOT or kind == TAG_THEAD:
            return leave_table_body(tb)
    elif is_end_tag(token):
        if kind == TAG_TBODY or kind == TAG_TFOOT or kind == TAG_THEAD:
            if not has_in_scope(tb, kind, CAT_SCOPE_TABLE):
                parse_error(tb, "unexpected-end-tag")
                return DONE
            clear_stack_back_to_table_body_context(tb)
            open_elements_pop(tb)
            tb.mode = IN_TABLE
            return DONE
        if kind == TAG_TABLE:
            return leave_table_body(tb)
        if kind == TAG_BODY or kind == TAG_CAPTION or kind == TAG_COL \
                or kind == TAG_COLGROUP or kind == TAG_HTML or kind == TAG_TD \
                or kind == TAG_TH or kind == TAG_TR:
            parse_error(tb, "unexpected-end-tag")
            return DONE
    return mode_in_table(tb, token)
