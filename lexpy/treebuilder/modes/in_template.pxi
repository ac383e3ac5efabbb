# The "in template" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate


cdef inline ModeResult switch_template_mode(TreeBuilder* tb, uint32_t mode) noexcept nogil:
    pop_template_mode(tb)
    push_template_mode(tb, mode)
    tb.mode = mode
    return REPROCESS


cdef ModeResult mode_in_template(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT or kind == TAG__DOCTYPE or \
            is_comment_or_processing_instruction(token):
        return mode_in_body(tb, token)
    if kind == TAG__END_OF_FILE:
        if not has_template_on_stack(tb):
            stop_parsing(tb)                   # the fragment case
            return DONE
        parse_error(tb, "end-of-file-in-template")
        pop_until_tag(tb, TAG_TEMPLATE)
        clear_active_formatting_to_last_marker(tb)
        pop_template_mode(tb)
        reset_insertion_mode_appropriately(tb)
        return REPROCESS
    if token.type & TOKEN_END_TAG:
        if kind == TAG_TEMPLATE:
            return mode_in_head(tb, token)
        parse_error(tb, "unexpected-end-tag")
        return DONE
    if kind == TAG_BASE or kind == TAG_BASEFONT or kind == TAG_BGSOUND \
            or kind == TAG_LINK or kind == TAG_META or kind == TAG_NOFRAMES \
            or kind == TAG_SCRIPT or kind == TAG_STYLE or kind == TAG_TEMPLATE \
            or kind == TAG_TITLE:
        return mode_in_head(tb, token)
    if kind == TAG_CAPTION or kind == TAG_COLGROUP or kind == TAG_TBODY \
            or kind == TAG_TFOOT or kind == TAG_THEAD:
        return switch_template_mode(tb, IN_TABLE)
    if kind == TAG_COL:
        return switch_template_mode(tb, IN_COLUMN_GROUP)
    if kind == TAG_TR:
        return switch_template_mode(tb, IN_TABLE_BODY)
    if kind == TAG_TD or kind == TAG_TH:
        return switch_template_mode(tb, IN_ROW)
    return switch_template_mode(tb, IN_BODY)
