# The "in cell" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd


# https://html.spec.whatwg.org/multipage/parsing.html#close-the-cell
cdef void close_the_cell(TreeBuilder* tb) noexcept nogil:
    generate_implied_end_tags(tb, 0)
    if not (current_node_is(tb, TAG_TD) or current_node_is(tb, TAG_TH)):
        parse_error(tb, "unclosed-elements-in-cell")
    pop_until_one_of(tb, TAG_TD, TAG_TH)
    clear_active_formatting_to_last_marker(tb)
    tb.mode = IN_ROW


cdef ModeResult mode_in_cell(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_end_tag(token):
        if kind == TAG_TD or kind == TAG_TH:
            if not has_in_scope(tb, kind, CAT_SCOPE_TABLE):
                parse_error(tb, "unexpected-end-tag")
                return DONE
            generate_implied_end_tags(tb, 0)
            if not current_node_is(tb, kind):
                parse_error(tb, "unclosed-elements-in-cell")
            pop_until_tag(tb, kind)
            clear_active_formatting_to_last_marker(tb)
            tb.mode = IN_ROW
            return DONE
        if kind == TAG_BODY or kind == TAG_CAPTION or kind == TAG_COL \
                or kind == TAG_COLGROUP or kind == TAG_HTML:
            parse_error(tb, "unexpected-end-tag")
            return DONE
        if kind == TAG_TABLE or kind == TAG_TBODY or kind == TAG_TFOOT \
                or kind == TAG_THEAD or kind == TAG_TR:
            if not has_in_scope(tb, kind, CAT_SCOPE_TABLE):
                parse_error(tb, "unexpected-end-tag")
                return DONE
            close_the_cell(tb)
            return REPROCESS
    elif is_start_tag(token):
        if kind == TAG_CAPTION or kind == TAG_COL or kind == TAG_COLGROUP \
                or kind == TAG_TBODY or kind == TAG_TD or kind == TAG_TFOOT \
                or kind == TAG_TH or kind == TAG_THEAD or kind == TAG_TR:
            if not has_one_of_in_scope(tb, TAG_TD, TAG_TH, 0, CAT_SCOPE_TABLE):
                parse_error(tb, "unexpected-start-tag")
                return DONE
            close_the_cell(tb)
            return REPROCESS
    return mode_in_body(tb, token)
