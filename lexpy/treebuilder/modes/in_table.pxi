# The "in table" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable


cdef ModeResult anything_else_in_table(TreeBuilder* tb, Token* token) noexcept nogil:
    """Parse error; process the token by the "in body" rules with foster
    parenting enabled."""
    cdef ModeResult result
    parse_error(tb, "foster-parented-content")
    tb.foster_parenting = True
    result = mode_in_body(tb, token)
    tb.foster_parenting = False
    return result


cdef inline bint current_node_takes_table_text(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node = current_node(tb)
    return node != NULL and node.ns == NS_HTML and (
        node.tag_id == TAG_TABLE or node.tag_id == TAG_TBODY
        or node.tag_id == TAG_TEMPLATE or node.tag_id == TAG_TFOOT
        or node.tag_id == TAG_THEAD or node.tag_id == TAG_TR)


cdef ModeResult start_tag_in_table(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef CElement* form
    if kind == TAG_CAPTION:
        clear_stack_back_to_table_context(tb)
        insert_marker(tb)
        insert_html_element(tb, token)
        tb.mode = IN_CAPTION
        return DONE
    if kind == TAG_COLGROUP:
        clear_stack_back_to_table_context(tb)
        insert_html_element(tb, token)
        tb.mode = IN_COLUMN_GROUP
        return DONE
    if kind == TAG_COL:
        clear_stack_back_to_table_context(tb)
        insert_html_element_named(tb, TAG_COLGROUP)
        tb.mode = IN_COLUMN_GROUP
        return REPROCESS
    if kind == TAG_TBODY or kind == TAG_TFOOT or kind == TAG_THEAD:
        clear_stack_back_to_table_context(tb)
        insert_html_element(tb, token)
        tb.mode = IN_TABLE_BODY
        return DONE
    if kind == TAG_TD or kind == TAG_TH or kind == TAG_TR:
        clear_stack_back_to_table_context(tb)
        insert_html_element_named(tb, TAG_TBODY)
        tb.mode = IN_TABLE_BODY
        return REPROCESS
    if kind == TAG_TABLE:
        parse_error(tb, "nested-table")
        if not has_in_scope(tb, TAG_TABLE, CAT_SCOPE_TABLE):
            return DONE
        pop_until_tag(tb, TAG_TABLE)
        reset_insertion_mode_appropriately(tb)
        return REPROCESS
    if kind == TAG_STYLE or kind == TAG_SCRIPT or kind == TAG_TEMPLATE:
        return mode_in_head(tb, token)
    if kind == TAG_INPUT and token_attribute_equals(token, ATTR_TYPE, "hidden"):
        parse_error(tb, "hidden-input-in-table")
        insert_void_html_element(tb, token)
        return DONE
    if kind == TAG_FORM:
        # Inside template contents the element is kept and only the form
        # element pointer is left alone (whatwg/html#12911).
        parse_error(tb, "form-in-table")
        if parsing_template_contents(tb):
            if insert_html_element(tb, token) != NULL:
                open_elements_pop(tb)
            return DONE
        if tb.form_element != NULL:
            return DONE
        form = insert_html_element(tb, token)
        if form != NULL:
            tb.form_element = form
            open_elements_pop(tb)
        return DONE
    return anything_else_in_table(tb, token)


cdef ModeResult end_tag_in_table(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG_TABLE:
        if not has_in_scope(tb, TAG_TABLE, CAT_SCOPE_TABLE):
            parse_error(tb, "unexpected-end-tag")
            return DONE
        pop_until_tag(tb, TAG_TABLE)
        reset_insertion_mode_appropriately(tb)
        return DONE
    if kind == TAG_BODY or kind == TAG_CAPTION or kind == TAG_COL \
            or kind == TAG_COLGROUP or kind == TAG_HTML or kind == TAG_TBODY \
            or kind == TAG_TD or kind == TAG_TFOOT or kind == TAG_TH \
            or kind == TAG_THEAD or kind == TAG_TR:
        parse_error(tb, "unexpected-end-tag")
        return DONE
    if kind == TAG_TEMPLATE:
        return mode_in_head(tb, token)
    return anything_else_in_table(tb, token)


cdef ModeResult mode_in_table(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        if current_node_takes_table_text(tb):
            tb.pending_table_text.length = 0
            tb.pending_table_text.has_non_whitespace = False
            tb.original_mode = tb.mode
            tb.mode = IN_TABLE_TEXT
            return REPROCESS
        return anything_else_in_table(tb, token)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        return mode_in_body(tb, token)
    if token.type & TOKEN_END_TAG:
        return end_tag_in_table(tb, token)
    return start_tag_in_table(tb, token)
