# The "in caption" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption


cdef bint close_caption(TreeBuilder* tb) noexcept nogil:
    """Close the caption (False when none is in table scope: the token is
    ignored)."""
    if not has_in_scope(tb, TAG_CAPTION, CAT_SCOPE_TABLE):
        parse_error(tb, "unexpected-end-tag")
        return False
    generate_implied_end_tags(tb, 0)
    if not current_node_is(tb, TAG_CAPTION):
        parse_error(tb, "unclosed-elements-in-caption")
    pop_until_tag(tb, TAG_CAPTION)
    clear_active_formatting_to_last_marker(tb)
    tb.mode = IN_TABLE
    return True


cdef ModeResult mode_in_caption(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if is_end_tag(token):
        if kind == TAG_CAPTION:
            close_caption(tb)
            return DONE
        if kind == TAG_TABLE:
            return REPROCESS if close_caption(tb) else DONE
        if kind == TAG_BODY or kind == TAG_COL or kind == TAG_COLGROUP \
                or kind == TAG_HTML or kind == TAG_TBODY or kind == TAG_TD \
                or kind == TAG_TFOOT or kind == TAG_TH or kind == TAG_THEAD \
                or kind == TAG_TR:
            parse_error(tb, "unexpected-end-tag")
            return DONE
    elif is_start_tag(token):
        if kind == TAG_CAPTION or kind == TAG_COL or kind == TAG_COLGROUP \
                or kind == TAG_TBODY or kind == TAG_TD or kind == TAG_TFOOT \
                or kind == TAG_TH or kind == TAG_THEAD or kind == TAG_TR:
            return REPROCESS if close_caption(tb) else DONE
    return mode_in_body(tb, token)
