# The parse-error list (DESIGN.md decision 10): records of a static code
# string and a position, appended by the tokenizer and the tree builder only
# when the caller asked for errors.

from libc.stdlib cimport realloc, free


cdef int error_list_append(ErrorList* errors, const char* code,
                           uint32_t line, uint32_t column) noexcept nogil:
    """Append a record; -1 (nothing appended) when memory runs out."""
    cdef size_t capacity
    cdef ParseErrorRecord* items
    if errors.count == errors.capacity:
        capacity = errors.capacity * 2 if errors.capacity else 16
        items = <ParseErrorRecord*> realloc(
            errors.items, capacity * sizeof(ParseErrorRecord))
        if items == NULL:
            return -1
        errors.items = items
        errors.capacity = capacity
    errors.items[errors.count].code = code
    errors.items[errors.count].line = line
    errors.items[errors.count].column = column
    errors.count += 1
    return 0


cdef int error_list_add(ErrorList* errors, const char* code,
                        uint32_t line, uint32_t column) except -1 nogil:
    if error_list_append(errors, code, line, column) != 0:
        with gil:
            raise MemoryError()
    return 0


cdef void error_list_clear(ErrorList* errors) noexcept nogil:
    free(errors.items)
    errors.items = NULL
    errors.count = 0
    errors.capacity = 0
