# Tree-construction parse errors (DESIGN.md decision 10)
# https://html.spec.whatwg.org/multipage/parsing.html#parse-errors
#
# The standard names the tokenizer's errors but not the tree builder's; these
# get descriptive kebab-case codes of our own, static strings, recorded at
# the position of the token being processed in the ErrorList the tokenizer
# writes to -- only when the caller collects errors.


cdef void parse_error(TreeBuilder* tb, const char* code) noexcept nogil:
    if tb.errors == NULL:
        return
    if error_list_add(tb.errors, code, tb.line, tb.column) != 0:
        tb.halt.failed = True
