# The predicates scrapers write most, recognised in the compiled ops and
# evaluated in C over the arena, without a Python value (the general
# machine gives the same answers, more slowly: tests/xpath compares both
# through the cases and the differential test). Each is O(attribute value)
# or O(text of the node).

cdef enum PredicateShape:
    SHAPE_NONE = 0
    SHAPE_HAS_ATTRIBUTE = 1       # [@a]
    SHAPE_ATTRIBUTE_EQUALS        # [@a = 'x'] / ['x' = @a]
    SHAPE_ATTRIBUTE_CONTAINS      # [contains(@a, 'x')]
    SHAPE_ATTRIBUTE_STARTS_WITH   # [starts-with(@a, 'x')]
    SHAPE_CLASS_TOKEN             # [contains(concat(' ', normalize-space(@a), ' '), ' x ')]
    SHAPE_HAS_TEXT                # [normalize-space()] / [normalize-space(.)]


cdef tuple predicate_shape(Compiler compiler, list ops):
    """(shape, attribute step, literal) of a predicate's ops, or SHAPE_NONE."""
    cdef list kinds = [op[0] for op in ops]
    cdef int step = -1
    cdef str literal

    def attribute_step(list op):
        # An attribute step by name, without predicates, from the context.
        if op[0] != OP_STEP:
            return -1
        found = compiler.steps[op[1]]
        if found[0] != AXIS_ATTRIBUTE or found[1] != TEST_NAME or found[5]:
            return -1
        return op[1]

    if kinds == [OP_CONTEXT, OP_STEP]:
        step = attribute_step(ops[1])
        if step >= 0:
            return (SHAPE_HAS_ATTRIBUTE, step, -1)
    if kinds == [OP_CONTEXT, OP_STEP, OP_LITERAL, OP_EQUAL]:
        step = attribute_step(ops[1])
        if step >= 0:
            return (SHAPE_ATTRIBUTE_EQUALS, step, ops[2][1])
    if kinds == [OP_LITERAL, OP_CONTEXT, OP_STEP, OP_EQUAL]:
        step = attribute_step(ops[2])
        if step >= 0:
            return (SHAPE_ATTRIBUTE_EQUALS, step, ops[0][1])
    if kinds == [OP_CONTEXT, OP_STEP, OP_LITERAL, OP_CALL] and ops[3][2] == 2 \
            and ops[3][1] in (FN_CONTAINS, FN_STARTS_WITH):
        step = attribute_step(ops[1])
        if step >= 0:
            return (SHAPE_ATTRIBUTE_CONTAINS if ops[3][1] == FN_CONTAINS
                    else SHAPE_ATTRIBUTE_STARTS_WITH, step, ops[2][1])
    if kinds == [OP_LITERAL, OP_CONTEXT, OP_STEP, OP_CALL, OP_LITERAL, OP_CALL, OP_LITERAL,
                 OP_CALL] and ops[3][1] == FN_NORMALIZE_SPACE and ops[3][2] == 1 \
            and ops[5][1] == FN_CONCAT and ops[5][2] == 3 and ops[7][1] == FN_CONTAINS \
            and ops[7][2] == 2 and compiler.strings[ops[0][1]] == u" " \
            and compiler.strings[ops[4][1]] == u" ":
        literal = compiler.strings[ops[6][1]]
        step = attribute_step(ops[2])
        if step >= 0 and len(literal) > 2 and literal[0] == u" " and literal[-1] == u" " \
                and not any(c in XML_SPACE for c in literal[1:-1]):
            return (SHAPE_CLASS_TOKEN, step, compiler.intern_string(literal[1:-1]))
    if kinds == [OP_CALL] and ops[0][1] == FN_NORMALIZE_SPACE and ops[0][2] == 0:
        return (SHAPE_HAS_TEXT, -1, -1)
    if kinds == [OP_CONTEXT, OP_STEP, OP_CALL] and ops[2][1] == FN_NORMALIZE_SPACE \
            and ops[2][2] == 1:
        found = compiler.steps[ops[1][1]]
        if found[0] == AXIS_SELF and found[1] == TEST_NODE and not found[5]:
            return (SHAPE_HAS_TEXT, -1, -1)
    return (SHAPE_NONE, -1, -1)


cdef inline bint is_xml_space(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0D


cdef CAttr* named_attribute(Binding* binding, Step* step, NodeRef node) noexcept nogil:
    """The attribute the step names on the context element, or NULL."""
    cdef CElement* element
    cdef NodeRef attribute
    cdef uint32_t i
    if node.attr or node.node.type != ELEMENT_NODE:
        return NULL
    element = <CElement*> node.node
    attribute.node = node.node
    for i in range(element.attr_count):
        if is_namespace_declaration(&element.attrs[i]):
            continue
        attribute.attr = i + 1
        if node_test(binding, step, attribute, True):
            return &element.attrs[i]
    return NULL


cdef bint has_non_space_text(NodeRef node) noexcept nogil:
    """Whether the string-value has a character normalize-space() keeps."""
    cdef CNode* root = node.node
    cdef CNode* current
    cdef CAttr* attr
    cdef CCharacterData* data
    cdef size_t i
    if node.attr:
        attr = &(<CElement*> root).attrs[node.attr - 1]
        for i in range(attr.value_length):
            if not is_xml_space(attr.value[i]):
                return True
        return False
    current = root
    while current != NULL:
        if current.type == TEXT_NODE or current.type == CDATA_SECTION_NODE \
                or (current == root and (current.type == COMMENT_NODE
                                         or current.type == PROCESSING_INSTRUCTION_NODE)):
            data = <CCharacterData*> current
            for i in range(data.length):
                if not is_xml_space(data.data[i]):
                    return True
        current = next_in_tree(current, root)
    return False


cdef bint shape_true(Binding* binding, XPath program, Predicate* predicate,
                     NodeRef node) noexcept nogil:
    cdef uint32_t shape = predicate.shape
    cdef CAttr* attr
    cdef const uint8_t* text
    cdef size_t length, i, start
    if shape == SHAPE_HAS_TEXT:
        return has_non_space_text(node)
    attr = named_attribute(binding, &program.steps[predicate.shape_step], node)
    if shape == SHAPE_HAS_ATTRIBUTE:
        return attr != NULL
    text = binding.string_data[predicate.shape_string]
    length = binding.string_length[predicate.shape_string]
    if attr == NULL:
        # An empty node-set: = compares nothing; as a string it is ''.
        return (shape == SHAPE_ATTRIBUTE_CONTAINS or shape == SHAPE_ATTRIBUTE_STARTS_WITH) \
            and length == 0
    if shape == SHAPE_ATTRIBUTE_EQUALS:
        return attr.value_length == length and (
            length == 0 or memcmp(attr.value, text, length) == 0)
    if shape == SHAPE_ATTRIBUTE_STARTS_WITH:
        return attr.value_length >= length and (
            length == 0 or memcmp(attr.value, text, length) == 0)
    if shape == SHAPE_ATTRIBUTE_CONTAINS:
        return length == 0 or (attr.value_length >= length and memmem(
            attr.value, attr.value_length, text, length) != NULL)
    # SHAPE_CLASS_TOKEN: one of the value's tokens split on XML whitespace.
    i = 0
    while i < attr.value_length:
        while i < attr.value_length and is_xml_space(attr.value[i]):
            i += 1
        start = i
        while i < attr.value_length and not is_xml_space(attr.value[i]):
            i += 1
        if i - start == length and memcmp(attr.value + start, text, length) == 0:
            return True
    return False
