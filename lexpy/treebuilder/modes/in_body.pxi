# The "in body" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody
#
# With the relaxed <select> parser of the current standard: select, option,
# optgroup, hr, input and a nested select are handled here (there is no "in
# select" mode).


cdef ModeResult characters_in_body(TreeBuilder* tb) noexcept nogil:
    """U+0000 is a parse error and is ignored; any other character
    reconstructs the active formatting elements and is inserted, and turns
    frameset-ok off unless it is whitespace."""
    cdef TextRun run
    cdef bint non_whitespace = tb.frameset_ok and text_has_non_whitespace(tb)
    run = tb.text
    tb.text.begin = tb.text.end
    if run_has_real_nul(&run):
        report_nul_characters(tb, &run)
        if not run_has_non_nul(&run):
            return DONE                        # nothing but ignored U+0000
    reconstruct_active_formatting_elements(tb)
    if non_whitespace:
        tb.frameset_ok = False
    insert_characters(tb, &run, NUL_DROP)
    return DONE


cdef void insert_leading_whitespace_in_body(TreeBuilder* tb) noexcept nogil:
    """The text's leading whitespace, processed by the "in body" rules (the
    modes after the body and after the frameset)."""
    cdef TextRun whitespace = take_leading_whitespace(tb)
    if whitespace.end > whitespace.begin:
        reconstruct_active_formatting_elements(tb)
        insert_characters(tb, &whitespace, NUL_KEEP)


cdef bint run_has_non_nul(TextRun* run) noexcept nogil:
    cdef size_t i
    for i in range(run.begin, run.end):
        if run.data[i] != 0:
            return True
    return False


cdef inline bint has_unclosed_element_at_end(TreeBuilder* tb) noexcept nogil:
    """Whether an element other than dd, dt, li, optgroup, option, p, rb,
    rp, rt, rtc, tbody, td, tfoot, th, thead, tr, body or html is open (a
    parse error at the end of the body or the file; the stack's index
    counts them)."""
    index_sync(tb)
    return tb.open.unclosed != 0


cdef ModeResult end_of_file_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if tb.template_modes.count > 0:
        return mode_in_template(tb, token)
    if has_unclosed_element_at_end(tb):
        parse_error(tb, "unclosed-elements-at-end-of-file")
    stop_parsing(tb)
    return DONE


# ---------------------------------------------------------------------------
# Start tags
# ---------------------------------------------------------------------------

cdef ModeResult start_tag_html_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    parse_error(tb, "unexpected-html-start-tag")
    if has_template_on_stack(tb) or tb.open.count == 0:
        return DONE
    add_missing_attributes(tb, tb.open.elements[0], token)
    return DONE


cdef ModeResult start_tag_body_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    parse_error(tb, "unexpected-body-start-tag")
    if tb.open.count < 2 or not is_html_element(tb.open.elements[1], TAG_BODY) \
            or has_template_on_stack(tb):
        return DONE                                # the fragment case
    tb.frameset_ok = False
    add_missing_attributes(tb, tb.open.elements[1], token)
    return DONE


cdef ModeResult start_tag_frameset_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef CElement* body
    parse_error(tb, "unexpected-frameset-start-tag")
    if tb.open.count < 2 or not is_html_element(tb.open.elements[1], TAG_BODY):
        return DONE                                # the fragment case
    if not tb.frameset_ok:
        return DONE
    body = tb.open.elements[1]
    if body.node.parent != NULL:
        parser_removed(tb, &body.node)
    while tb.open.count > 1:
        open_elements_pop(tb)
    insert_html_element(tb, token)
    tb.mode = IN_FRAMESET
    return DONE


cdef ModeResult start_tag_closes_p(TreeBuilder* tb, Token* token) noexcept nogil:
    """address, article, aside, blockquote, center, details, dialog, dir,
    div, dl, fieldset, figcaption, figure, footer, header, hgroup, main,
    menu, nav, ol, p, search, section, summary, ul."""
    close_p_element_in_button_scope(tb)
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_heading(TreeBuilder* tb, Token* token) noexcept nogil:
    close_p_element_in_button_scope(tb)
    if element_category(current_node(tb)) & CAT_HEADING:
        parse_error(tb, "nested-heading")
        open_elements_pop(tb)
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_pre_listing(TreeBuilder* tb, Token* token) noexcept nogil:
    close_p_element_in_button_scope(tb)
    insert_html_element(tb, token)
    tb.skip_newline = True
    tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_form_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef bint in_template = parsing_template_contents(tb)
    cdef CElement* form
    if tb.form_element != NULL and not in_template:
        parse_error(tb, "nested-form")
        return DONE
    close_p_element_in_button_scope(tb)
    form = insert_html_element(tb, token)
    if not in_template:
        tb.form_element = form
    return DONE


cdef ModeResult start_tag_list_item(TreeBuilder* tb, Token* token) noexcept nogil:
    """li, and dd/dt: close the open item of the same kind, unless a special
    element (other than address, div and p) comes first."""
    cdef lxp_tag_id_t kind = token.tag_id
    cdef uint32_t item, other
    cdef CElement* node
    tb.frameset_ok = False
    # The walk down the stack stops at the topmost item of the kind or at
    # the topmost special element other than address, div and p, whichever
    # is higher (an li is such an element itself).
    if kind == TAG_DD or kind == TAG_DT:
        item = topmost_html_element(tb, TAG_DD)
        other = topmost_html_element(tb, TAG_DT)
        if other > item:
            item = other
    else:
        item = topmost_html_element(tb, TAG_LI) if tb.open.open_li != 0 else 0
    if item != 0 and item >= tb.open.topmost_list_stop:
        node = tb.open.elements[item - 1]
        generate_implied_end_tags(tb, node.tag_id)
        if not current_node_is(tb, node.tag_id):
            parse_error(tb, "unclosed-elements-before-list-item")
        pop_until_tag(tb, node.tag_id)
    close_p_element_in_button_scope(tb)
    insert_html_element_at_current_node(tb, token)
    return DONE


cdef ModeResult start_tag_plaintext(TreeBuilder* tb, Token* token) noexcept nogil:
    close_p_element_in_button_scope(tb)
    if insert_html_element(tb, token) != NULL:
        switch_tokenizer_state(tb, PLAINTEXT_STATE)
    return DONE


cdef ModeResult start_tag_button(TreeBuilder* tb, Token* token) noexcept nogil:
    if has_in_scope(tb, TAG_BUTTON, CAT_SCOPE):
        parse_error(tb, "nested-button")
        generate_implied_end_tags(tb, 0)
        pop_until_tag(tb, TAG_BUTTON)
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_a(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef CElement* open_a = formatting_last_after_marker(tb, TAG_A)
    cdef CElement* element
    if open_a != NULL:
        parse_error(tb, "nested-a")
        adoption_agency(tb, TAG_A)
        formatting_remove(tb, open_a)
        open_elements_remove(tb, open_a)
    reconstruct_active_formatting_elements(tb)
    element = insert_html_element_at_current_node(tb, token)
    if element != NULL:
        push_active_formatting_a(tb, element)
    return DONE


cdef ModeResult start_tag_formatting(TreeBuilder* tb, Token* token) noexcept nogil:
    """b, big, code, em, font, i, s, small, strike, strong, tt, u; and nobr."""
    cdef CElement* element
    reconstruct_active_formatting_elements(tb)
    if token.tag_id == TAG_NOBR and has_in_scope(tb, TAG_NOBR, CAT_SCOPE):
        parse_error(tb, "nested-nobr")
        if not adoption_agency(tb, TAG_NOBR):
            end_tag_other_in_body(tb, token)   # no nobr after the last marker
        reconstruct_active_formatting_elements(tb)
    element = insert_html_element_at_current_node(tb, token)
    if element != NULL:
        push_active_formatting_element(tb, element)
    return DONE


cdef ModeResult start_tag_applet_marquee_object(TreeBuilder* tb, Token* token) noexcept nogil:
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    insert_marker(tb)
    tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_table_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if tb.document.quirks_mode != QUIRKS:
        close_p_element_in_button_scope(tb)
    insert_html_element(tb, token)
    tb.frameset_ok = False
    tb.mode = IN_TABLE
    return DONE


cdef ModeResult start_tag_void_phrasing(TreeBuilder* tb, Token* token) noexcept nogil:
    """area, br, embed, img, keygen, wbr."""
    reconstruct_active_formatting_elements(tb)
    insert_void_html_element(tb, token)
    tb.frameset_ok = False
    return DONE


cdef inline bint is_fragment_case_in_select(TreeBuilder* tb) noexcept nogil:
    return tb.context_element != NULL and is_html_element(tb.context_element, TAG_SELECT)


cdef ModeResult start_tag_input_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if is_fragment_case_in_select(tb):
        parse_error(tb, "input-in-select")
        return DONE
    if has_in_scope(tb, TAG_SELECT, CAT_SCOPE):
        parse_error(tb, "input-in-select")
        pop_until_tag(tb, TAG_SELECT)
    reconstruct_active_formatting_elements(tb)
    insert_void_html_element(tb, token)
    if not token_attribute_equals(token, ATTR_TYPE, "hidden"):
        tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_hr_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    close_p_element_in_button_scope(tb)
    if has_in_scope(tb, TAG_SELECT, CAT_SCOPE):
        generate_implied_end_tags(tb, 0)
        if has_in_scope(tb, TAG_OPTION, CAT_SCOPE) or \
                has_in_scope(tb, TAG_OPTGROUP, CAT_SCOPE):
            parse_error(tb, "hr-in-option")
    insert_void_html_element(tb, token)
    tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_select_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if is_fragment_case_in_select(tb):
        parse_error(tb, "nested-select")
        return DONE
    if has_in_scope(tb, TAG_SELECT, CAT_SCOPE):
        parse_error(tb, "nested-select")
        pop_until_tag(tb, TAG_SELECT)
        return DONE
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    tb.frameset_ok = False
    return DONE


cdef ModeResult start_tag_option_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if has_in_scope(tb, TAG_SELECT, CAT_SCOPE):
        generate_implied_end_tags(tb, TAG_OPTGROUP)
        if has_in_scope(tb, TAG_OPTION, CAT_SCOPE):
            parse_error(tb, "nested-option")
    elif current_node_is(tb, TAG_OPTION):
        open_elements_pop(tb)
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_optgroup_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    if has_in_scope(tb, TAG_SELECT, CAT_SCOPE):
        generate_implied_end_tags(tb, 0)
        if has_in_scope(tb, TAG_OPTION, CAT_SCOPE) or \
                has_in_scope(tb, TAG_OPTGROUP, CAT_SCOPE):
            parse_error(tb, "nested-optgroup")
    elif current_node_is(tb, TAG_OPTION):
        open_elements_pop(tb)
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_ruby_base(TreeBuilder* tb, Token* token) noexcept nogil:
    """rb, rtc."""
    if has_in_scope(tb, TAG_RUBY, CAT_SCOPE):
        generate_implied_end_tags(tb, 0)
        if not current_node_is(tb, TAG_RUBY):
            parse_error(tb, "ruby-element-not-open")
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_ruby_text(TreeBuilder* tb, Token* token) noexcept nogil:
    """rp, rt."""
    if has_in_scope(tb, TAG_RUBY, CAT_SCOPE):
        generate_implied_end_tags(tb, TAG_RTC)
        if not (current_node_is(tb, TAG_RUBY) or current_node_is(tb, TAG_RTC)):
            parse_error(tb, "ruby-element-not-open")
    insert_html_element(tb, token)
    return DONE


cdef ModeResult start_tag_foreign_root(TreeBuilder* tb, Token* token,
                                lxp_ns_id_t ns) noexcept nogil:
    """math, svg: the adjusted element in its namespace."""
    reconstruct_active_formatting_elements(tb)
    if insert_foreign_element(tb, token, ns) == NULL:
        return DONE
    if token.type & TOKEN_SELF_CLOSING:
        open_elements_pop(tb)
        tb.self_closing_acknowledged = True
    return DONE


cdef ModeResult start_tag_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef uint32_t category = lxp_tag_category_of(kind, NS_HTML)
    cdef Token renamed
    # The sets the standard names, from the generated categories; then one
    # C switch over the tags it lists one by one.
    if category & CAT_CLOSES_P:
        return start_tag_closes_p(tb, token)
    if category & CAT_HEADING:
        return start_tag_heading(tb, token)
    if category & CAT_FORMATTING and kind != TAG_A:
        return start_tag_formatting(tb, token)
    if kind == TAG_HTML:
        return start_tag_html_in_body(tb, token)
    elif kind == TAG_BASE or kind == TAG_BASEFONT or kind == TAG_BGSOUND \
            or kind == TAG_LINK or kind == TAG_META or kind == TAG_NOFRAMES \
            or kind == TAG_SCRIPT or kind == TAG_STYLE or kind == TAG_TEMPLATE \
            or kind == TAG_TITLE:
        return mode_in_head(tb, token)
    elif kind == TAG_BODY:
        return start_tag_body_in_body(tb, token)
    elif kind == TAG_FRAMESET:
        return start_tag_frameset_in_body(tb, token)
    elif kind == TAG_PRE or kind == TAG_LISTING:
        return start_tag_pre_listing(tb, token)
    elif kind == TAG_FORM:
        return start_tag_form_in_body(tb, token)
    elif kind == TAG_LI or kind == TAG_DD or kind == TAG_DT:
        return start_tag_list_item(tb, token)
    elif kind == TAG_PLAINTEXT:
        return start_tag_plaintext(tb, token)
    elif kind == TAG_BUTTON:
        return start_tag_button(tb, token)
    elif kind == TAG_A:
        return start_tag_a(tb, token)
    elif kind == TAG_APPLET or kind == TAG_MARQUEE or kind == TAG_OBJECT:
        return start_tag_applet_marquee_object(tb, token)
    elif kind == TAG_TABLE:
        return start_tag_table_in_body(tb, token)
    elif kind == TAG_AREA or kind == TAG_BR or kind == TAG_EMBED or kind == TAG_IMG \
            or kind == TAG_KEYGEN or kind == TAG_WBR:
        return start_tag_void_phrasing(tb, token)
    elif kind == TAG_INPUT:
        return start_tag_input_in_body(tb, token)
    elif kind == TAG_PARAM or kind == TAG_SOURCE or kind == TAG_TRACK:
        insert_void_html_element(tb, token)
        return DONE
    elif kind == TAG_HR:
        return start_tag_hr_in_body(tb, token)
    elif kind == TAG_IMAGE:
        parse_error(tb, "image-start-tag")
        renamed = token[0]
        renamed.tag_id = TAG_IMG
        return start_tag_void_phrasing(tb, &renamed)
    elif kind == TAG_TEXTAREA:
        if insert_html_element(tb, token) != NULL:
            tb.skip_newline = True
            switch_tokenizer_state(tb, RCDATA_STATE)
            tb.original_mode = tb.mode
            tb.frameset_ok = False
            tb.mode = TEXT
        return DONE
    elif kind == TAG_XMP:
        close_p_element_in_button_scope(tb)
        reconstruct_active_formatting_elements(tb)
        tb.frameset_ok = False
        insert_text_element(tb, token, RAWTEXT_STATE)
        return DONE
    elif kind == TAG_IFRAME:
        tb.frameset_ok = False
        insert_text_element(tb, token, RAWTEXT_STATE)
        return DONE
    elif kind == TAG_NOEMBED:
        insert_text_element(tb, token, RAWTEXT_STATE)
        return DONE
    elif kind == TAG_NOSCRIPT:
        if tb.scripting:
            insert_text_element(tb, token, RAWTEXT_STATE)
            return DONE
    elif kind == TAG_SELECT:
        return start_tag_select_in_body(tb, token)
    elif kind == TAG_OPTION:
        return start_tag_option_in_body(tb, token)
    elif kind == TAG_OPTGROUP:
        return start_tag_optgroup_in_body(tb, token)
    elif kind == TAG_RB or kind == TAG_RTC:
        return start_tag_ruby_base(tb, token)
    elif kind == TAG_RP or kind == TAG_RT:
        return start_tag_ruby_text(tb, token)
    elif kind == TAG_MATH:
        return start_tag_foreign_root(tb, token, NS_MATHML)
    elif kind == TAG_SVG:
        return start_tag_foreign_root(tb, token, NS_SVG)
    elif kind == TAG_CAPTION or kind == TAG_COL or kind == TAG_COLGROUP \
            or kind == TAG_FRAME or kind == TAG_HEAD or kind == TAG_TBODY \
            or kind == TAG_TD or kind == TAG_TFOOT or kind == TAG_TH \
            or kind == TAG_THEAD or kind == TAG_TR:
        parse_error(tb, "unexpected-start-tag")
        return DONE
    # Any other start tag
    reconstruct_active_formatting_elements(tb)
    insert_html_element(tb, token)
    return DONE


# ---------------------------------------------------------------------------
# End tags
# ---------------------------------------------------------------------------

cdef ModeResult end_tag_body_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    """</body>, and </html> (which is then reprocessed "after body")."""
    if not has_in_scope(tb, TAG_BODY, CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    if has_unclosed_element_at_end(tb):
        parse_error(tb, "unclosed-elements-at-end-of-body")
    tb.mode = AFTER_BODY
    return REPROCESS if token.tag_id == TAG_HTML else DONE


cdef ModeResult end_tag_block(TreeBuilder* tb, Token* token) noexcept nogil:
    """address, article, aside, blockquote, button, center, details, dialog,
    dir, div, dl, fieldset, figcaption, figure, footer, header, hgroup,
    listing, main, menu, nav, ol, pre, search, section, select, summary,
    ul."""
    cdef lxp_tag_id_t kind = token.tag_id
    if not has_in_scope(tb, kind, CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_implied_end_tags(tb, 0)
    if not current_node_is(tb, kind):
        parse_error(tb, "unclosed-elements-before-end-tag")
    pop_until_tag(tb, kind)
    return DONE


cdef ModeResult end_tag_form_in_body(TreeBuilder* tb) noexcept nogil:
    cdef CElement* node
    if not parsing_template_contents(tb):
        node = tb.form_element
        tb.form_element = NULL
        if node == NULL or not has_element_in_scope(tb, node, CAT_SCOPE):
            parse_error(tb, "unexpected-end-tag")
            return DONE
        generate_implied_end_tags(tb, 0)
        if current_node(tb) != node:
            parse_error(tb, "unclosed-elements-before-end-tag")
        open_elements_remove(tb, node)
        return DONE
    if not has_in_scope(tb, TAG_FORM, CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_implied_end_tags(tb, 0)
    if not current_node_is(tb, TAG_FORM):
        parse_error(tb, "unclosed-elements-before-end-tag")
    pop_until_tag(tb, TAG_FORM)
    return DONE


cdef ModeResult end_tag_p_in_body(TreeBuilder* tb) noexcept nogil:
    if tb.open.open_p == 0 or not has_in_scope(tb, TAG_P, CAT_SCOPE_BUTTON):
        parse_error(tb, "unexpected-end-tag")
        insert_html_element_named(tb, TAG_P)
    close_p_element(tb)
    return DONE


cdef ModeResult end_tag_list_item(TreeBuilder* tb, Token* token) noexcept nogil:
    """li (in list item scope), dd, dt (in scope)."""
    cdef lxp_tag_id_t kind = token.tag_id
    if not has_in_scope(tb, kind, CAT_SCOPE_LIST_ITEM if kind == TAG_LI else CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_implied_end_tags(tb, kind)
    if not current_node_is(tb, kind):
        parse_error(tb, "unclosed-elements-before-end-tag")
    pop_until_tag(tb, kind)
    return DONE


cdef ModeResult end_tag_heading(TreeBuilder* tb, Token* token) noexcept nogil:
    if not has_heading_in_scope(tb, CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_implied_end_tags(tb, 0)
    if not current_node_is(tb, token.tag_id):
        parse_error(tb, "unclosed-elements-before-end-tag")
    pop_until_category(tb, CAT_HEADING)
    return DONE


cdef ModeResult end_tag_applet_marquee_object(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if not has_in_scope(tb, kind, CAT_SCOPE):
        parse_error(tb, "unexpected-end-tag")
        return DONE
    generate_implied_end_tags(tb, 0)
    if not current_node_is(tb, kind):
        parse_error(tb, "unclosed-elements-before-end-tag")
    pop_until_tag(tb, kind)
    clear_active_formatting_to_last_marker(tb)
    return DONE


cdef ModeResult end_tag_other_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    """Any other end tag: close the nearest open element with that name,
    unless a special element comes first."""
    cdef lxp_tag_id_t kind = token.tag_id
    cdef uint32_t matching = topmost_html_element(tb, kind)
    cdef CElement* node
    # The walk down the stack meets the topmost HTML element `kind` or the
    # topmost special element, whichever is higher (a match comes first).
    if matching != 0 and matching >= tb.open.topmost_special:
        node = tb.open.elements[matching - 1]
        generate_implied_end_tags(tb, kind)
        if current_node(tb) != node:
            parse_error(tb, "unclosed-elements-before-end-tag")
        pop_until_element(tb, node)
    elif tb.open.topmost_special != 0:
        parse_error(tb, "unexpected-end-tag")
    return DONE


cdef ModeResult end_tag_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    cdef uint32_t category = lxp_tag_category_of(kind, NS_HTML)
    cdef Token br
    if category & CAT_BLOCK_END:
        return end_tag_block(tb, token)
    if category & CAT_HEADING:
        return end_tag_heading(tb, token)
    if category & CAT_FORMATTING:
        if not adoption_agency(tb, kind):
            return end_tag_other_in_body(tb, token)
        return DONE
    if kind == TAG_TEMPLATE:
        return mode_in_head(tb, token)
    elif kind == TAG_BODY or kind == TAG_HTML:
        return end_tag_body_in_body(tb, token)
    elif kind == TAG_FORM:
        return end_tag_form_in_body(tb)
    elif kind == TAG_P:
        return end_tag_p_in_body(tb)
    elif kind == TAG_LI or kind == TAG_DD or kind == TAG_DT:
        return end_tag_list_item(tb, token)
    elif kind == TAG_APPLET or kind == TAG_MARQUEE or kind == TAG_OBJECT:
        return end_tag_applet_marquee_object(tb, token)
    elif kind == TAG_BR:
        parse_error(tb, "unexpected-br-end-tag")
        br = token[0]
        br.type = 0
        br.attr_count = 0
        return start_tag_void_phrasing(tb, &br)
    return end_tag_other_in_body(tb, token)


cdef ModeResult mode_in_body(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        return characters_in_body(tb)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if kind == TAG__END_OF_FILE:
        return end_of_file_in_body(tb, token)
    if token.type & TOKEN_END_TAG:
        return end_tag_in_body(tb, token)
    return start_tag_in_body(tb, token)
