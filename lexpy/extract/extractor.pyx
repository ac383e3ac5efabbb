# cython: language_level=3
"""The C pass of lexpy.extract's records: the items a compiled selector
matches and, for each, the values of fields ending in ::text or
::attr(name), matched and collected as pointers into the tree without the
GIL; only the strings returned are made (no proxies, unless a field asks
for the item element). records.Extractor drives it."""
from libc.stdint cimport uint8_t, uint32_t
from libc.stdlib cimport malloc, realloc, free
from lexpy.core.core cimport attr_id_by_name
from lexpy.core.names cimport NS__UNDEF, lxp_attr_id_t
from lexpy.dom.dom cimport (Node, CNode, CDocument, CElement, CAttr, CCharacterData,
                            ELEMENT_NODE, TEXT_NODE, DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE,
                            element_find_attribute, next_in_tree, node_proxy,
                            utf8_measure, measured_utf8_str)
from lexpy.selectors.selectors cimport Selector, Program, select_nodes

DEF FIELD_TEXT = 1
DEF FIELD_ATTRIBUTE = 2


cdef struct Value:
    const uint8_t* data
    size_t length


cdef struct Values:
    Value* items
    size_t count
    size_t capacity


cdef int values_push(Values* values, const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t capacity
    cdef Value* items
    if values.count == values.capacity:
        capacity = values.capacity * 2 if values.capacity else 256
        items = <Value*> realloc(values.items, capacity * sizeof(Value))
        if items == NULL:
            return -1
        values.items = items
        values.capacity = capacity
    values.items[values.count].data = data
    values.items[values.count].length = length
    values.count += 1
    return 0


cdef struct FieldSpec:
    void* program                 # the Program of the field's selector, or NULL
    int kind                      # FIELD_TEXT / FIELD_ATTRIBUTE
    const uint8_t* name           # the attribute's name (lowercase UTF-8)
    size_t name_length
    bint descendants              # "a ::text": the element and its descendants
    bint all_values               # [selector]: every value, else the first


cdef class CompiledFields:
    """Fields for the C pass: each (selector or None, kind, attribute name,
    descendants, all values)."""
    cdef list selectors           # keeps the Selectors (and their programs) alive
    cdef list names
    cdef FieldSpec* specs
    cdef Py_ssize_t count

    def __cinit__(self, list fields):
        cdef Py_ssize_t i
        self.count = len(fields)
        self.specs = <FieldSpec*> malloc((self.count + 1) * sizeof(FieldSpec))
        if self.specs == NULL:
            raise MemoryError()
        self.selectors = []
        self.names = []
        for i, (selector, kind, name, descendants, all_values) in enumerate(fields):
            self.selectors.append(selector)
            encoded = (name or "").lower().encode("utf-8")
            self.names.append(encoded)
            self.specs[i].program = (<Selector> selector).program if selector is not None \
                else NULL
            self.specs[i].kind = kind
            self.specs[i].name = <const uint8_t*> (<bytes> encoded)
            self.specs[i].name_length = len(encoded)
            self.specs[i].descendants = descendants
            self.specs[i].all_values = all_values

    def __init__(self, list fields):
        pass                      # (made by __cinit__)

    def __dealloc__(self):
        free(self.specs)


cdef bint inside(CNode* node, CNode* root) noexcept nogil:
    while node != NULL:
        if node == root:
            return True
        node = node.parent
    return False


cdef int target_values(FieldSpec* spec, lxp_attr_id_t attribute, CNode* target,
                       Values* out) noexcept nogil:
    cdef CNode* node
    cdef CAttr* attr
    cdef CCharacterData* text
    if spec.kind == FIELD_TEXT:
        if spec.descendants:
            node = next_in_tree(target, target)
        else:
            node = target.first_child
        while node != NULL:
            if node.type == TEXT_NODE:
                text = <CCharacterData*> node
                if values_push(out, text.data, text.length) != 0:
                    return -1
            node = next_in_tree(node, target) if spec.descendants else node.next
        return 0
    if spec.descendants:
        node = target
        while node != NULL:
            if node.type == ELEMENT_NODE and attribute != 0:
                attr = element_find_attribute(<CElement*> node, attribute, NS__UNDEF)
                if attr != NULL and values_push(out, attr.value, attr.value_length) != 0:
                    return -1
            node = next_in_tree(node, target)
        return 0
    if target.type == ELEMENT_NODE and attribute != 0:
        attr = element_find_attribute(<CElement*> target, attribute, NS__UNDEF)
        if attr != NULL:
            return values_push(out, attr.value, attr.value_length)
    return 0


cdef int field_values(FieldSpec* spec, lxp_attr_id_t attribute, CDocument* doc, CNode* item,
                      Values* out) noexcept nogil:
    """The values of one field of one item, appended to `out`. A field
    that wants its first value tries the first match alone, and selects
    every match only when that one has no value."""
    cdef CNode** targets = NULL
    cdef CNode* single[1]
    cdef size_t count = 0
    cdef size_t i
    cdef size_t start = out.count
    cdef CNode* last_root = NULL
    cdef int status = 0
    if spec.program == NULL:
        single[0] = item
        targets = single
        count = 1
    elif not spec.all_values:
        if select_nodes(<Program*> spec.program, doc, item, True, &targets, &count) != 0:
            return -1
        if count:
            status = target_values(spec, attribute, targets[0], out)
            free(targets)
            if status != 0 or out.count > start:
                if out.count > start:
                    out.count = start + 1
                return status
        else:
            free(targets)
        targets = NULL
        count = 0
        if select_nodes(<Program*> spec.program, doc, item, False, &targets, &count) != 0:
            return -1
    elif select_nodes(<Program*> spec.program, doc, item, False, &targets, &count) != 0:
        return -1
    for i in range(count):
        if spec.descendants:
            if last_root != NULL and inside(targets[i], last_root):
                continue
            last_root = targets[i]
        if target_values(spec, attribute, targets[i], out) != 0:
            status = -1
            break
        if not spec.all_values and out.count > start:
            out.count = start + 1
            break
    if spec.program != NULL:
        free(targets)
    return status


cdef str value_str(Value* value):
    cdef size_t code_points
    cdef uint32_t max_char
    utf8_measure(value.data, value.length, &code_points, &max_char)
    return measured_utf8_str(value.data, value.length, code_points, max_char, False)


def extract_values(Node root not None, Selector items not None, CompiledFields fields not None,
                   bint want_items):
    """(the item elements or None, one list per item of one entry per
    field: the first value or None, or the list of values)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef CNode** item_nodes = NULL
    cdef size_t item_count = 0
    cdef size_t* bounds = NULL          # per (item, field): end of its values
    cdef Values values
    cdef size_t i, start, end, k
    cdef Py_ssize_t f
    cdef int status = 0
    cdef FieldSpec* spec
    cdef list rows, row, found
    cdef list proxies = None
    # The fields' attribute ids in this document (0: no element has it), per
    # call: a compiled extractor is shared by threads over other documents.
    cdef lxp_attr_id_t* attribute_ids = NULL
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    if c_root.type != ELEMENT_NODE and c_root.type != DOCUMENT_NODE \
            and c_root.type != DOCUMENT_FRAGMENT_NODE:
        raise TypeError("node must be a Document, DocumentFragment or Element")
    doc = c_root.owner
    values.items = NULL
    values.count = 0
    values.capacity = 0
    attribute_ids = <lxp_attr_id_t*> malloc((fields.count + 1) * sizeof(lxp_attr_id_t))
    if attribute_ids == NULL:
        raise MemoryError()
    doc.readers += 1
    with nogil:
        for f in range(fields.count):
            spec = &fields.specs[f]
            attribute_ids[f] = 0
            if spec.kind == FIELD_ATTRIBUTE:
                attribute_ids[f] = attr_id_by_name(doc.attr_names, spec.name,
                                                   spec.name_length, False)
        status = select_nodes(items.program, doc, c_root, False, &item_nodes, &item_count)
        if status == 0 and item_count:
            bounds = <size_t*> malloc(item_count * fields.count * sizeof(size_t) + 1)
            if bounds == NULL:
                status = -1
        if status == 0:
            for i in range(item_count):
                for f in range(fields.count):
                    if field_values(&fields.specs[f], attribute_ids[f], doc, item_nodes[i],
                                    &values) != 0:
                        status = -1
                        break
                    bounds[i * fields.count + f] = values.count
                if status != 0:
                    break
    try:
        if status != 0:
            raise MemoryError()
        rows = []
        start = 0
        for i in range(item_count):
            row = []
            for f in range(fields.count):
                end = bounds[i * fields.count + f]
                if fields.specs[f].all_values:
                    found = [value_str(&values.items[k]) for k in range(start, end)]
                    row.append(found)
                else:
                    row.append(value_str(&values.items[start]) if end > start else None)
                start = end
            rows.append(row)
        if want_items:
            proxies = [node_proxy(item_nodes[i]) for i in range(item_count)]
        return proxies, rows
    finally:
        doc.readers -= 1
        free(item_nodes)
        free(attribute_ids)
        free(bounds)
        free(values.items)
