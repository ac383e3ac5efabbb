# Foreign content: SVG and MathML
#
# Which rules a token goes to (the tree construction dispatcher), the
# integration points, and the rules for parsing tokens in foreign content.
# Tag-name and attribute adjustments happen in create_element_for_token
# (insertion.pxi) from the tables of names.h.


# https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point
cdef inline bint is_mathml_text_integration_point(CElement* element) noexcept nogil:
    return (element_category(element) & CAT_MATHML_TEXT_INTEGRATION) != 0


# https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point
cdef bint is_html_integration_point(CElement* element) noexcept nogil:
    """SVG foreignObject, desc and title, and a MathML annotation-xml whose
    start tag had encoding "text/html" or "application/xhtml+xml" (the
    element keeps the token's attributes, so it is asked directly)."""
    cdef CAttr* encoding
    if element_category(element) & CAT_HTML_INTEGRATION:
        return True
    if element.tag_id == TAG_ANNOTATION_XML and element.ns == NS_MATHML:
        encoding = element_find_attribute(element, ATTR_ENCODING, NS__UNDEF)
        return attribute_value_equals(encoding, "text/html") or \
            attribute_value_equals(encoding, "application/xhtml+xml")
    return False


cdef inline bint is_start_tag(Token* token) noexcept nogil:
    return token.tag_id >= LXP_TAG_FIRST_ELEMENT and not (token.type & TOKEN_END_TAG)


cdef inline bint is_end_tag(Token* token) noexcept nogil:
    return token.tag_id >= LXP_TAG_FIRST_ELEMENT and (token.type & TOKEN_END_TAG) != 0


cdef inline bint is_comment_or_processing_instruction(Token* token) noexcept nogil:
    return token.tag_id == TAG__COMMENT or token.tag_id == TAG__PROCESSING_INSTRUCTION


# https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher
cdef bint uses_html_rules(TreeBuilder* tb, Token* token) noexcept nogil:
    """Whether the token is processed by the current insertion mode (else by
    the rules for parsing tokens in foreign content)."""
    cdef CElement* node = adjusted_current_node(tb)
    cdef bint start_tag, text
    if node == NULL or node.ns == NS_HTML or token.tag_id == TAG__END_OF_FILE:
        return True
    start_tag = is_start_tag(token)
    text = token.tag_id == TAG__TEXT
    if is_mathml_text_integration_point(node):
        if text or (start_tag and token.tag_id != TAG_MGLYPH
                    and token.tag_id != TAG_MALIGNMARK):
            return True
    if start_tag and token.tag_id == TAG_SVG and node.tag_id == TAG_ANNOTATION_XML \
            and node.ns == NS_MATHML:
        return True
    if (start_tag or text) and is_html_integration_point(node):
        return True
    return False


cdef inline void update_cdata_allowed(TreeBuilder* tb) noexcept nogil:
    """Tell the tokenizer whether <![CDATA[ opens a CDATA section: when the
    adjusted current node is not an element in the HTML namespace."""
    cdef CElement* node = adjusted_current_node(tb)
    cdef bint allowed = node != NULL and node.ns != NS_HTML
    if allowed != tb.cdata_allowed:
        set_cdata_allowed(tb, allowed)


cdef void set_cdata_allowed(TreeBuilder* tb, bint allowed) noexcept nogil:
    tb.cdata_allowed = allowed
    if tb.tokenizer != NULL:
        tokenizer_set_cdata_allowed(tb.tokenizer, allowed)


# ---------------------------------------------------------------------------
# The rules for parsing tokens in foreign content
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign
# ---------------------------------------------------------------------------

cdef bint breaks_out_of_foreign_content(Token* token) noexcept nogil:
    """A start tag that leaves foreign content: the listed HTML names, and a
    font with a color, face or size attribute."""
    if token.tag_id < TAG__LAST_STATIC and \
            lxp_tag_token_flags[token.tag_id] & TOKEN_NAME_FOREIGN_BREAKOUT:
        return True
    return token.tag_id == TAG_FONT and (
        token_attribute_index(token, ATTR_COLOR) >= 0
        or token_attribute_index(token, ATTR_FACE) >= 0
        or token_attribute_index(token, ATTR_SIZE) >= 0)


cdef ModeResult leave_foreign_content(TreeBuilder* tb) noexcept nogil:
    """Parse error; pop until the current node is a MathML text integration
    point, an HTML integration point or an HTML element; the token is then
    reprocessed by the current insertion mode in HTML content."""
    cdef CElement* node
    parse_error(tb, "html-start-tag-in-foreign-content")
    while tb.open.count > 1:
        node = current_node(tb)
        if node.ns == NS_HTML or is_mathml_text_integration_point(node) \
                or is_html_integration_point(node):
            break
        open_elements_pop(tb)
    return REPROCESS_AS_HTML


cdef ModeResult characters_in_foreign_content(TreeBuilder* tb) noexcept nogil:
    cdef TextRun run
    if tb.frameset_ok and text_has_non_whitespace(tb):
        tb.frameset_ok = False
    run = tb.text
    report_nul_characters(tb, &run)
    insert_characters(tb, &run, NUL_REPLACE)
    tb.text.begin = tb.text.end
    return DONE


cdef ModeResult start_tag_in_foreign_content(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef CElement* adjusted
    if breaks_out_of_foreign_content(token):
        return leave_foreign_content(tb)
    adjusted = adjusted_current_node(tb)
    if insert_foreign_element(tb, token, adjusted.ns) == NULL:
        return DONE
    if token.type & TOKEN_SELF_CLOSING:
        # (A self-closing SVG script acts as its end tag.)
        tb.self_closing_acknowledged = True
        svg_script_popped(tb, token)
        open_elements_pop(tb)
    return DONE


cdef inline void svg_script_popped(TreeBuilder* tb, Token* token) noexcept nogil:
    """An SVG script is popped ("process the SVG script element"): when
    scripts run, the driver does it at the pause tree_builder_token asks
    for, as for an HTML script."""
    cdef CElement* node = current_node(tb)
    if tb.scripts_run and token.tag_id == TAG_SCRIPT and node.tag_id == TAG_SCRIPT \
            and node.ns == NS_SVG:
        tb.script_to_prepare = node


cdef ModeResult end_tag_in_foreign_content(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef CElement* node = current_node(tb)
    cdef ssize_t index = <ssize_t> tb.open.count - 1
    cdef uint32_t matching
    if token.tag_id == TAG_BR or token.tag_id == TAG_P:
        return leave_foreign_content(tb)
    if token.tag_id == TAG_SCRIPT and node.tag_id == TAG_SCRIPT and node.ns == NS_SVG:
        svg_script_popped(tb, token)
        open_elements_pop(tb)
        return DONE
    # Any other end tag
    if lowercase_tag(node.tag_id) != token.tag_id:
        parse_error(tb, "unexpected-end-tag-in-foreign-content")
    if index == 0:
        return DONE                  # the fragment case
    # Walking down from the current node, the loop meets either a node
    # (not in the HTML namespace) whose lowercased name is the token's,
    # or first an HTML element: whichever is higher on the stack. (Position
    # 1, the html element, is HTML: the walk never gets past it.)
    matching = topmost_of(tb, foreign_tag_key(token.tag_id))
    if matching > tb.open.topmost_html:
        pop_until_element(tb, tb.open.elements[matching - 1])
        return DONE
    return REPROCESS_AS_HTML


cdef ModeResult foreign_content(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        return characters_in_foreign_content(tb)
    if is_comment_or_processing_instruction(token):
        insert_comment(tb, token, NULL)
        return DONE
    if kind == TAG__DOCTYPE:
        parse_error(tb, "unexpected-doctype")
        return DONE
    if token.type & TOKEN_END_TAG:
        return end_tag_in_foreign_content(tb, token)
    return start_tag_in_foreign_content(tb, token)
