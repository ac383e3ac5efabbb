# The "in head" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead


# https://html.spec.whatwg.org/multipage/parsing.html#generic-raw-text-element-parsing-algorithm
# https://html.spec.whatwg.org/multipage/parsing.html#generic-rcdata-element-parsing-algorithm
cdef void insert_text_element(TreeBuilder* tb, Token* token,
                              TokenizerState state) noexcept nogil:
    """The generic raw text (RAWTEXT, script data) and RCDATA element
    parsing algorithms."""
    if insert_html_element(tb, token) == NULL:
        return
    switch_tokenizer_state(tb, state)
    tb.original_mode = tb.mode
    tb.mode = TEXT


cdef ModeResult start_tag_template(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef InsertionLocation location = appropriate_place(tb, NULL)
    cdef bint at_current_node = location.parent == <CNode*> current_node(tb)
    cdef CElement* template = create_element_for_token(tb, token, NS_HTML)
    cdef CNode* scope
    if template == NULL:
        return DONE
    # A template with a for attribute (and no shadowrootmode in a state
    # other than None: lexpy makes no declarative shadow roots) is only
    # pushed on the stack when it finds its markers (<template for>,
    # content_patching.pxi); else it is inserted where it would go.
    if open_elements_push(tb, template) != 0:
        return DONE
    if element_find_attribute(template, ATTR_FOR, NS__UNDEF) == NULL \
            or has_valid_shadowrootmode(template):
        insert_at(location, &template.node)
    else:
        scope = patching_scope(tb, location.parent)
        if not prepare_content_patching(tb, scope, at_current_node and scope == location.parent,
                                        template):
            insert_at(location, &template.node)
    insert_marker(tb)
    tb.frameset_ok = False
    tb.mode = IN_TEMPLATE
    push_template_mode(tb, IN_TEMPLATE)
    return DONE


cdef ModeResult end_tag_template(TreeBuilder* tb) noexcept nogil:
    cdef CElement* template
    if not has_template_on_stack(tb):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_all_implied_end_tags_thoroughly(tb)
    if not current_node_is(tb, TAG_TEMPLATE):
        parse_error(tb, "unclosed-elements-in-template")
    template = tb.open.elements[topmost_html_element(tb, TAG_TEMPLATE) - 1]
    if template.node.flags & ELEMENT_PATCHING:
        end_content_patching(tb, template)
    pop_until_tag(tb, TAG_TEMPLATE)
    clear_active_formatting_to_last_marker(tb)
    pop_template_mode(tb)
    reset_insertion_mode_appropriately(tb)
    return DONE


cdef ModeResult start_tag_meta_in_head(TreeBuilder* tb, Token* token) noexcept nogil:
    """A meta start tag: a void element that may change the encoding."""
    cdef CElement* meta = insert_html_element(tb, token)
    tb.self_closing_acknowledged = True
    if meta == NULL:
        return DONE
    open_elements_pop(tb)
    indicate_encoding_for_meta(tb, meta)
    return DONE


cdef ModeResult start_tag_in_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG_HTML:
        return mode_in_body(tb, token)
    if kind == TAG_BASE or kind == TAG_BASEFONT or kind == TAG_BGSOUND \
            or kind == TAG_LINK:
        insert_void_html_element(tb, token)
        return DONE
    if kind == TAG_META:
        return start_tag_meta_in_head(tb, token)
    if kind == TAG_TITLE:
        insert_text_element(tb, token, RCDATA_STATE)
        return DONE
    if (kind == TAG_NOSCRIPT and tb.scripting) or kind == TAG_NOFRAMES \
            or kind == TAG_STYLE:
        insert_text_element(tb, token, RAWTEXT_STATE)
        return DONE
    if kind == TAG_NOSCRIPT:
        insert_html_element(tb, token)
        tb.mode = IN_HEAD_NOSCRIPT
        return DONE
    if kind == TAG_SCRIPT:
        insert_text_element(tb, token, SCRIPT_DATA_STATE)
        return DONE
    if kind == TAG_TEMPLATE:
        return start_tag_template(tb, token)
    if kind == TAG_HEAD:
        parse_error(tb, "unexpected-start-tag")
        return DONE
    return anything_else_in_head(tb)


cdef ModeResult end_tag_in_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG_HEAD:
        open_elements_pop(tb)
        tb.mode = AFTER_HEAD
        return DONE
    if kind == TAG_BODY or kind == TAG_HTML or kind == TAG_BR:
        return anything_else_in_head(tb)
    if kind == TAG_TEMPLATE:
        return end_tag_template(tb)
    parse_error(tb, "unexpected-end-tag")
    return DONE


cdef inline ModeResult anything_else_in_head(TreeBuilder* tb) noexcept nogil:
    open_elements_pop(tb)                      # the head element
    tb.mode = AFTER_HEAD
    return REPROCESS


cdef ModeResult mode_in_head(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef TextRun whitespace
    if kind == TAG__TEXT:
        whitespace = take_leading_whitespace(tb)
        insert_characters(tb, &whitespace, NUL_KEEP)
        if text_is_empty(tb):
            return DONE
        return anything_else_in_head(tb)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        return anything_else_in_head(tb)
    if token.type & TOKEN_END_TAG:
        return end_tag_in_head(tb, token)
    return start_tag_in_head(tb, token)
