# The "in table text" insertion mode
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext


cdef void flush_pending_table_text(TreeBuilder* tb) noexcept nogil:
    """Insert the pending table character tokens: foster-parented (by the
    "in body" rules, as "anything else" in "in table") when one of them is
    not whitespace, else at the current node."""
    cdef TextRun run
    run.data = tb.pending_table_text.data
    run.begin = 0
    run.end = tb.pending_table_text.length
    run.flags = 0
    tb.pending_table_text.length = 0
    if run.end == 0:
        return
    if tb.pending_table_text.has_non_whitespace:
        parse_error(tb, "foster-parented-text")
        tb.foster_parenting = True
        reconstruct_active_formatting_elements(tb)
        tb.frameset_ok = False
        insert_characters(tb, &run, NUL_KEEP)
        tb.foster_parenting = False
    else:
        insert_characters(tb, &run, NUL_KEEP)
    tb.pending_table_text.has_non_whitespace = False


cdef ModeResult mode_in_table_text(TreeBuilder* tb, Token* token) noexcept nogil:
    if token.tag_id == TAG__TEXT:
        append_pending_table_text(tb, &tb.text)
        tb.text.begin = tb.text.end
        return DONE
    flush_pending_table_text(tb)
    tb.mode = tb.original_mode
    return REPROCESS
