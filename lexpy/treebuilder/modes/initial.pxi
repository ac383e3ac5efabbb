# The "initial" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode


cdef ModeResult doctype_in_initial(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef CDocumentType* doctype = insert_doctype(tb, token)
    if doctype == NULL:
        return DONE
    if not doctype_is_conforming(tb, token, doctype):
        parse_error(tb, "non-conforming-doctype")
    tb.document.quirks_mode = doctype_quirks_mode(
        doctype, (token.type & TOKEN_FORCE_QUIRKS) != 0)
    tb.mode = BEFORE_HTML
    return DONE


cdef ModeResult mode_initial(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef lxp_tag_id_t kind = token.tag_id
    if kind == TAG__TEXT:
        take_leading_whitespace(tb)            # ignored
        if text_is_empty(tb):
            return DONE
    elif is_comment_or_processing_instruction(token):
        insert_comment(tb, token, &tb.document.node)
        return DONE
    elif kind == TAG__DOCTYPE:
        return doctype_in_initial(tb, token)
    # Anything else
    parse_error(tb, "missing-doctype")
    tb.document.quirks_mode = QUIRKS
    tb.mode = BEFORE_HTML
    return REPROCESS
