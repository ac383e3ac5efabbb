# The stack of template insertion modes
# https://html.spec.whatwg.org/multipage/parsing.html#stack-of-template-insertion-modes


cdef struct StackOfTemplateInsertionModes:
    uint32_t* modes               # InsertionMode values, the current one last
    size_t count
    size_t capacity


cdef int push_template_mode(TreeBuilder* tb, uint32_t mode) noexcept nogil:
    cdef size_t capacity
    cdef uint32_t* items
    if tb.template_modes.count == tb.template_modes.capacity:
        capacity = grown_capacity(tb.template_modes.capacity, tb.template_modes.count + 1, 16,
                                  sizeof(uint32_t))
        items = <uint32_t*> realloc(tb.template_modes.modes, capacity * sizeof(uint32_t)) \
            if capacity != 0 else NULL
        if items == NULL:
            tb.halt.failed = True
            return -1
        tb.template_modes.modes = items
        tb.template_modes.capacity = capacity
    tb.template_modes.modes[tb.template_modes.count] = mode
    tb.template_modes.count += 1
    return 0


cdef inline void pop_template_mode(TreeBuilder* tb) noexcept nogil:
    if tb.template_modes.count > 0:
        tb.template_modes.count -= 1


cdef inline uint32_t current_template_mode(TreeBuilder* tb) noexcept nogil:
    return tb.template_modes.modes[tb.template_modes.count - 1]
