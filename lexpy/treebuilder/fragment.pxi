# The HTML fragment parsing algorithm
# https://html.spec.whatwg.org/multipage/parsing.html#html-fragment-parsing-algorithm
#
# The caller creates the context element in the builder's document (so its
# tag and attribute ids are this document's) and finds the form element
# pointer; the rest is here.


cdef TokenizerState context_tokenizer_state(TreeBuilder* tb, CElement* context) noexcept nogil:
    """The tokenizer state the context element implies."""
    cdef lxp_tag_id_t tag = context.tag_id
    if context.ns != NS_HTML:
        return DATA_STATE
    if tag == TAG_TITLE or tag == TAG_TEXTAREA:
        return RCDATA_STATE
    if tag == TAG_STYLE or tag == TAG_XMP or tag == TAG_IFRAME \
            or tag == TAG_NOEMBED or tag == TAG_NOFRAMES \
            or (tag == TAG_NOSCRIPT and tb.scripting):
        return RAWTEXT_STATE
    if tag == TAG_SCRIPT:
        return SCRIPT_DATA_STATE
    if tag == TAG_PLAINTEXT:
        return PLAINTEXT_STATE
    return DATA_STATE


cdef int tree_builder_set_fragment_context(TreeBuilder* tb, CElement* context,
                                           CElement* form) noexcept nogil:
    cdef CElement* root
    cdef TokenizerState state = context_tokenizer_state(tb, context)
    tb.context_element = context
    if state != DATA_STATE:
        switch_tokenizer_state(tb, state)
    root = element_create(tb.document, TAG_HTML, NS_HTML)
    if root == NULL:
        tb.halt.failed = True
        return -1
    node_append_child(&tb.document.node, &root.node)
    if open_elements_push(tb, root) != 0:
        return -1
    tb.fragment_root = root
    if is_html_element(context, TAG_TEMPLATE):
        if push_template_mode(tb, IN_TEMPLATE) != 0:
            return -1
    reset_insertion_mode_appropriately(tb)
    tb.form_element = form
    update_cdata_allowed(tb)
    return 0
