# The common call (Sanitizer.sanitize of a str in an "in body" context)
# with the GIL released once: the fragment parse, the walk, the reparse
# check (stable.pxi) and the serialization run in one stretch of C (the
# driver's construction_fragment_text calls pipeline_hook there); the
# GIL is held only to make the parse's objects and the result's str.

cdef enum:
    PIPE_DONE = 0                 # the output is in Pipeline.output
    PIPE_URL_PASS = 1             # walked; a URL needs the Python pass
    PIPE_MAY_DIFFER = 2           # walked; the reparse check must run
    PIPE_NO_MEMORY = -1


cdef struct Pipeline:
    Tables* shared                # the Program's (read only: threads share it)
    bint has_shared
    DynName** dyn
    size_t* dyn_count
    uint8_t* output               # PIPE_DONE: the serialization (malloc'ed)
    size_t output_length
    size_t code_points
    uint32_t max_char


cdef int pipeline_hook(void* context, CNode* fragment) noexcept nogil:
    cdef Pipeline* p = <Pipeline*> context
    cdef Tables t
    cdef Counts counts
    cdef int status
    memset(&counts, 0, sizeof(Counts))
    if resolve_tables(p.shared, p.has_shared, p.dyn, p.dyn_count, fragment.owner, &t) != 0:
        return PIPE_NO_MEMORY
    t.context_kind = PARENT_HTML
    t.keep_removed = True         # (the document is thrown away after)
    status = sanitize_children(&t, fragment, &counts, NULL)
    tables_free(&t)
    if status != 0:
        return PIPE_NO_MEMORY
    if counts.url_pass:
        return PIPE_URL_PASS
    status = reparse_may_differ(fragment)
    if status < 0:
        return PIPE_NO_MEMORY
    if status:
        return PIPE_MAY_DIFFER
    if serialize_children_utf8(fragment, &p.output, &p.output_length, &p.code_points,
                               &p.max_char) != 0:
        return PIPE_NO_MEMORY
    return PIPE_DONE


def sanitize_text(bytes context_name, str text, Program program not None):
    """The fragment parse of `text` in the context of an HTML element named
    `context_name` (one of the "in body" contexts of stable.pxi; scripting
    on), walked with `program` (a safe one), checked and serialized: the
    output str; or, when the rest needs Python, (the walked
    DocumentFragment, url_pass): the URL pass is owed when url_pass, the
    reparse check in any case."""
    cdef Pipeline p
    cdef int result = PIPE_NO_MEMORY
    cdef CNode* fragment = NULL
    if not program.safe:
        raise ValueError("sanitize_text takes a safe Program")
    memset(&p, 0, sizeof(Pipeline))
    p.shared = &program.shared
    p.has_shared = program.has_shared
    p.dyn = &program.dyn[0]
    p.dyn_count = &program.dyn_count[0]
    try:
        construction = construction_fragment_text(context_name, text, pipeline_hook, &p,
                                                  &result, &fragment)
    except BaseException:
        free(p.output)              # (the hook's output, when it got that far)
        raise
    if result == PIPE_DONE:
        return serialized_str(p.output, p.output_length, p.code_points, p.max_char)
    if result == PIPE_NO_MEMORY or fragment == NULL:
        raise MemoryError()
    return node_proxy(fragment), result == PIPE_URL_PASS
