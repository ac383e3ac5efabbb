# The "text" insertion mode (RCDATA, RAWTEXT, script data, PLAINTEXT
# content; U+0000 was already replaced by the tokenizer)
# https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incdata


cdef ModeResult mode_text(TreeBuilder* tb, Token* token) noexcept nogil:
    cdef TextRun run
    if token.tag_id == TAG__TEXT:
        run = tb.text
        tb.text.begin = tb.text.end
        insert_characters(tb, &run, NUL_REPLACE)
        return DONE
    if token.tag_id == TAG__END_OF_FILE:
        parse_error(tb, "end-of-file-in-text")
        open_elements_pop(tb)
        tb.mode = tb.original_mode
        return REPROCESS
    if token.type & TOKEN_END_TAG:
        # An end tag "script": the driver, told by the pause that
        # tree_builder_token asks for, prepares the script popped here (the
        # insertion point, the script nesting level, executing it). Any
        # other end tag: pop.
        if token.tag_id == TAG_SCRIPT and tb.scripts_run:
            tb.script_to_prepare = current_node(tb)
        open_elements_pop(tb)
        tb.mode = tb.original_mode
    return DONE
