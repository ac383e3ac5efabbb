# The walk: the Sanitizer API's "sanitize core" over a node's children
# (https://wicg.github.io/sanitizer-api/#sanitize-core), iteratively: the
# recursion of the Standard becomes a walk in tree order with a stack of
# template contents still to walk.

cdef struct Counts:
    size_t elements_removed
    size_t elements_unwrapped
    size_t attributes_removed
    size_t others_removed        # comments and processing instructions
    bint url_pass                # a URL the Python pass must judge (urls.pxi)


# What the report records (Sanitizer.sanitize(..., report=True)).
cdef enum RecordKind:
    REC_ELEMENT_REMOVED = 1
    REC_ELEMENT_UNWRAPPED = 2
    REC_ELEMENT_ESCAPED = 3
    REC_ATTRIBUTE_REMOVED = 4
    REC_COMMENT_REMOVED = 5
    REC_PI_REMOVED = 6

cdef enum RecordReason:
    WHY_CONFIG = 1               # the configuration does not allow it
    WHY_BASELINE = 2             # lexpy's safe baseline forbids it
    WHY_DEPTH = 3                # deeper than max_depth
    WHY_NAMESPACE = 4            # its namespace does not fit its parent
    WHY_URL = 5                  # url_schemes or url_relative="drop"

cdef struct Record:
    uint32_t kind
    uint32_t reason
    lxp_ns_id_t ns               # the element's namespace
    lxp_tag_id_t tag             # the element's local name id
    lxp_ns_id_t attr_ns
    lxp_attr_id_t attr           # an attribute's local name id (or 0)

cdef struct Report:
    Record* records
    size_t count
    size_t capacity
    bint failed                  # out of memory


cdef void report_add(Report* report, uint32_t kind, uint32_t reason, CElement* element,
                     CAttr* attr) noexcept nogil:
    cdef Record* grown
    cdef Record* record
    if report == NULL or report.failed:
        return
    if report.count == report.capacity:
        report.capacity = report.capacity * 2 + 16
        grown = <Record*> realloc(report.records, report.capacity * sizeof(Record))
        if grown == NULL:
            report.failed = True
            return
        report.records = grown
    record = &report.records[report.count]
    report.count += 1
    record.kind = kind
    record.reason = reason
    record.ns = element.ns if element != NULL else 0
    record.tag = element.tag_id if element != NULL else 0
    record.attr_ns = attr.ns if attr != NULL else 0
    record.attr = attr.local_name if attr != NULL else 0


cdef int parent_kind(CNode* parent, Tables* t) noexcept nogil:
    """The ParentKind of an element's parent: an element's own; a template's
    contents are HTML; the root of a fragment or document is the context's."""
    if parent.type == ELEMENT_NODE:
        return parent_kind_of(<CElement*> parent)
    if parent.type == DOCUMENT_FRAGMENT_NODE and (<CDocumentFragment*> parent).host != NULL:
        return PARENT_HTML
    if parent.type == DOCUMENT_NODE:
        return PARENT_HTML
    return t.context_kind


cdef inline CNode* following(CNode* node, CNode* root, uint32_t* depth) noexcept nogil:
    """The node after `node`'s subtree in tree order within `root`;
    `depth` (of `node`) becomes that node's."""
    while node != NULL and node != root:
        if node.next != NULL:
            return node.next
        node = node.parent
        depth[0] -= 1
    return NULL


cdef inline void discard(Tables* t, CNode* node) noexcept nogil:
    node_remove(node)
    if not t.keep_removed:
        node_try_reclaim(node)


cdef bint is_data_attribute(CDocument* doc, CAttr* attr) noexcept nogil:
    cdef size_t n
    cdef const uint8_t* name
    if attr.ns != NS__UNDEF:
        return False
    name = attr_name_of(doc.attr_names, attr.local_name, &n)
    return name != NULL and n >= 5 and memcmp(name, b"data-", 5) == 0


cdef bint has_allowed_prefix(Tables* t, CDocument* doc, CAttr* attr) noexcept nogil:
    cdef size_t n, i
    cdef const uint8_t* name
    if t.prefix_count == 0 or attr.ns != NS__UNDEF:
        return False
    name = attr_name_of(doc.attr_names, attr.local_name, &n)
    if name == NULL:
        return False
    for i in range(t.prefix_count):
        if n >= t.prefix_lengths[i] and memcmp(name, t.prefixes[i], t.prefix_lengths[i]) == 0:
            return True
    return False


# Whether the configuration removes an attribute of a kept element with
# rule `rule` (-1: none). The attribute steps of sanitize core (and the
# attribute_prefixes option).
cdef bint config_removes_attribute(Tables* t, CDocument* doc, int32_t rule,
                                   CAttr* attr) noexcept nogil:
    if config_removes_attribute_core(t, doc, rule, attr):
        return not has_allowed_prefix(t, doc, attr)
    return False


cdef bint config_removes_attribute_core(Tables* t, CDocument* doc, int32_t rule,
                                        CAttr* attr) noexcept nogil:
    cdef uint64_t key
    if attr.ns >= MAX_NS:
        return t.attributes_allow
    key = (<uint64_t> attr.ns << KEY_NS_SHIFT) | attr.local_name
    if rule >= 0 and has_key(t.local_remove, t.local_remove_count,
                             key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT)):
        return True
    if t.attributes_allow:
        if has_key(t.attributes, t.attribute_count, key):
            return False
        if rule >= 0 and t.rule_has_allow[rule] and has_key(
                t.local_allow, t.local_allow_count,
                key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT)):
            return False
        if t.data_attributes and is_data_attribute(doc, attr):
            return False
        return True
    if rule >= 0 and t.rule_has_allow[rule]:
        return not has_key(t.local_allow, t.local_allow_count,
                           key | ((<uint64_t> rule + 1) << KEY_RULE_SHIFT))
    return has_key(t.attributes, t.attribute_count, key)


cdef bint pi_listed(Tables* t, CProcessingInstruction* pi) noexcept nogil:
    cdef size_t i
    for i in range(t.pi_count):
        if t.pi_lengths[i] == pi.target_length and (
                pi.target_length == 0 or memcmp(t.pi_targets[i], pi.target,
                                                pi.target_length) == 0):
            return True
    return False


cdef inline int32_t element_value(Tables* t, CElement* element) noexcept nogil:
    if element.ns == NS_HTML and element.tag_id < TAG__LAST_STATIC:
        return t.html_values[element.tag_id]
    if element.ns >= MAX_NS:
        return t.default_value
    return find_entry(t.elements, t.element_count,
                      (<uint64_t> element.ns << KEY_NS_SHIFT) | element.tag_id,
                      t.default_value)


cdef CCharacterData* new_text(CDocument* doc, const uint8_t* data, size_t length) noexcept nogil:
    cdef CCharacterData* text = text_create(doc)
    cdef uint8_t* room
    if text == NULL:
        return NULL
    if length:
        room = character_data_reserve(text, length)
        if room == NULL:
            return NULL
        memcpy(room, data, length)
        character_data_commit(text, length)
    return text


cdef int append_bytes(uint8_t** buffer, size_t* length, size_t* capacity,
                      const uint8_t* data, size_t n) noexcept nogil:
    cdef uint8_t* grown
    if length[0] + n > capacity[0]:
        capacity[0] = (length[0] + n) * 2 + 32
        grown = <uint8_t*> realloc(buffer[0], capacity[0])
        if grown == NULL:
            return -1
        buffer[0] = grown
    if n:
        memcpy(buffer[0] + length[0], data, n)
    length[0] += n
    return 0


# The element's start and end tags as Text nodes around its children, which
# take its place (on_disallowed="escape": disallowed markup shown as text).
# The tags are written as the serializer writes them (attribute values
# quoted); the Text nodes are escaped when serialized. -1 when out of memory.
cdef int escape_element(Tables* t, CElement* element) noexcept nogil:
    cdef CNode* node = &element.node
    cdef CDocument* doc = node.owner
    cdef uint8_t* buffer = NULL
    cdef size_t length = 0, capacity = 0, n
    cdef const uint8_t* name
    cdef CAttr* attr
    cdef uint32_t i
    cdef CCharacterData* start
    cdef CCharacterData* end = NULL
    cdef CNode* child
    cdef CNode* after_child
    cdef int status = 0
    name = element_local_name(element, &n)
    status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b"<", 1)
    status |= append_bytes(&buffer, &length, &capacity, name, n)
    for i in range(element.attr_count):
        attr = &element.attrs[i]
        status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b" ", 1)
        if attr.prefix:
            name = attr_name_of(doc.attr_names, attr.prefix, &n)
            if name != NULL:
                status |= append_bytes(&buffer, &length, &capacity, name, n)
                status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b":", 1)
        name = attr_name_of(doc.attr_names, attr.local_name, &n)
        if name != NULL:
            status |= append_bytes(&buffer, &length, &capacity, name, n)
        status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b"=\"", 2)
        status |= append_bytes(&buffer, &length, &capacity, attr.value, attr.value_length)
        status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b"\"", 1)
    status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b">", 1)
    if status != 0:
        free(buffer)
        return -1
    start = new_text(doc, buffer, length)
    if start == NULL:
        free(buffer)
        return -1
    if not (element.ns == NS_HTML and lxp_tag_category_of(element.tag_id, NS_HTML) & CAT_VOID):
        length = 0
        name = element_local_name(element, &n)
        status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b"</", 2)
        status |= append_bytes(&buffer, &length, &capacity, name, n)
        status |= append_bytes(&buffer, &length, &capacity, <const uint8_t*> b">", 1)
        if status == 0:
            end = new_text(doc, buffer, length)
        if end == NULL:
            free(buffer)
            node_try_reclaim(&start.node)
            return -1
    free(buffer)
    node_insert_before(node.parent, &start.node, node)
    child = node.first_child
    while child != NULL:
        after_child = child.next
        node_insert_before(node.parent, child, node)
        child = after_child
    if end != NULL:
        node_insert_before(node.parent, &end.node, node)
    discard(t, node)
    return 0


cdef int push_pending(CNode*** pending, uint32_t** depths, size_t* count, size_t* capacity,
                      CNode* root, uint32_t depth) noexcept nogil:
    cdef CNode** grown
    cdef uint32_t* grown_depths
    if count[0] == capacity[0]:
        capacity[0] = capacity[0] * 2 + 8
        grown = <CNode**> realloc(pending[0], capacity[0] * sizeof(CNode*))
        if grown == NULL:
            return -1
        pending[0] = grown
        grown_depths = <uint32_t*> realloc(depths[0], capacity[0] * sizeof(uint32_t))
        if grown_depths == NULL:
            return -1
        depths[0] = grown_depths
    pending[0][count[0]] = root
    depths[0][count[0]] = depth
    count[0] += 1
    return 0


# Sanitize the children of `root` (and the contents of every kept template
# below it). -1 when out of memory.
cdef int sanitize_children(Tables* t, CNode* start_root, Counts* counts,
                           Report* report) noexcept nogil:
    cdef CNode** pending = NULL
    cdef uint32_t* pending_depths = NULL
    cdef size_t pending_count = 0, pending_capacity = 0
    cdef CNode* root = start_root
    cdef CNode* node
    cdef CNode* next_node
    cdef CNode* child
    cdef CNode* after_child
    cdef CElement* element
    cdef CDocument* doc = start_root.owner
    cdef int32_t value, action, rule, configured
    cdef int verdict
    cdef uint32_t i, reason, kept
    cdef uint32_t depth, base_depth = 0
    cdef bint remove, baseline
    cdef int status = 0
    while root != NULL:
        node = root.first_child
        depth = base_depth + 1
        while node != NULL:
            if node.type == TEXT_NODE:
                node = following(node, root, &depth)
                continue
            if node.type == COMMENT_NODE:
                next_node = following(node, root, &depth)
                if not t.comments or (t.safe and comment_is_unsafe(<CCharacterData*> node)):
                    report_add(report, REC_COMMENT_REMOVED,
                               WHY_CONFIG if not t.comments else WHY_BASELINE, NULL, NULL)
                    discard(t, node)
                    counts.others_removed += 1
                node = next_node
                continue
            if node.type == PROCESSING_INSTRUCTION_NODE:
                next_node = following(node, root, &depth)
                remove = pi_listed(t, <CProcessingInstruction*> node)
                if t.pi_allow:
                    remove = not remove
                baseline = t.safe and processing_instruction_is_unsafe(
                    <CProcessingInstruction*> node)
                if remove or baseline:
                    report_add(report, REC_PI_REMOVED, WHY_CONFIG if remove else WHY_BASELINE,
                               NULL, NULL)
                    discard(t, node)
                    counts.others_removed += 1
                node = next_node
                continue
            if node.type != ELEMENT_NODE:
                node = following(node, root, &depth)    # a doctype
                continue
            element = <CElement*> node
            reason = WHY_CONFIG
            configured = element_value(t, element)
            if configured & 3 == ACT_REMOVE and t.baseline_action == ACT_REMOVE \
                    and report == NULL and not (t.max_depth and depth > t.max_depth):
                # The configuration removes it with its subtree: so would
                # every check below that could apply (nothing to record).
                next_node = following(node, root, &depth)
                discard(t, node)
                counts.elements_removed += 1
                node = next_node
                continue
            if t.safe and element.tag_id == TAG_STYLE and (element.ns == NS_HTML
                                                           or element.ns == NS_SVG):
                # A style sheet is its element's text: anything else in a
                # style element (SVG's can hold elements) goes.
                child = node.first_child
                while child != NULL:
                    after_child = child.next
                    if child.type != TEXT_NODE:
                        if child.type == ELEMENT_NODE:
                            report_add(report, REC_ELEMENT_REMOVED, WHY_BASELINE,
                                       <CElement*> child, NULL)
                        discard(t, child)
                    child = after_child
            if t.safe and (baseline_removes_element(element)
                           or style_element_is_dangerous(element)
                           or raw_text_is_unsafe(element)):
                value = t.baseline_action
                reason = WHY_BASELINE
            elif t.safe and not namespace_fits(element, parent_kind(node.parent, t)):
                # Not where a parse could have put it: removed with its
                # subtree (unwrapped, its children would be just as lost).
                value = ACT_REMOVE
                reason = WHY_NAMESPACE
            elif t.max_depth and depth > t.max_depth:
                value = ACT_UNWRAP
                reason = WHY_DEPTH
            else:
                value = configured
            action = value & 3
            rule = (value >> RULE_SHIFT) - 1
            if action == ACT_UNWRAP or action == ACT_ESCAPE:
                # Its children take its place and are walked next.
                child = node.first_child
                next_node = node.prev
                after_child = node.parent
                if action == ACT_ESCAPE:
                    report_add(report, REC_ELEMENT_ESCAPED, reason, element, NULL)
                    if escape_element(t, element) != 0:
                        status = -1
                        break
                else:
                    report_add(report, REC_ELEMENT_UNWRAPPED, reason, element, NULL)
                    next_node = child if child != NULL else following(node, root, &depth)
                    while child != NULL:
                        after_child = child.next
                        node_insert_before(node.parent, child, node)
                        child = after_child
                    discard(t, node)
                    counts.elements_unwrapped += 1
                    node = next_node
                    continue
                # Escaped: the start tag's Text node is where its element was.
                node = next_node.next if next_node != NULL else after_child.first_child
                counts.elements_unwrapped += 1
                continue
            if action == ACT_REMOVE:
                report_add(report, REC_ELEMENT_REMOVED, reason, element, NULL)
                next_node = following(node, root, &depth)
                discard(t, node)
                counts.elements_removed += 1
                node = next_node
                continue
            # The kept attributes move down over the removed ones (one pass).
            kept = 0
            for i in range(element.attr_count):
                remove = config_removes_attribute(t, doc, rule, &element.attrs[i])
                if remove or (t.safe and baseline_removes_attribute(element, &element.attrs[i])):
                    report_add(report, REC_ATTRIBUTE_REMOVED,
                               WHY_CONFIG if remove else WHY_BASELINE, element,
                               &element.attrs[i])
                    counts.attributes_removed += 1
                else:
                    if t.url_active:
                        verdict = url_option_verdict(t, doc, &element.attrs[i])
                        if verdict == URL_REMOVE:
                            report_add(report, REC_ATTRIBUTE_REMOVED, WHY_URL, element,
                                       &element.attrs[i])
                            counts.attributes_removed += 1
                            continue
                        if verdict == URL_TO_PYTHON:
                            counts.url_pass = True
                    if kept != i:
                        element.attrs[kept] = element.attrs[i]
                    kept += 1
            element.attr_count = kept
            if element.template_content != NULL:
                if push_pending(&pending, &pending_depths, &pending_count, &pending_capacity,
                                element.template_content, depth) != 0:
                    status = -1
                    break
            if node.first_child != NULL:
                node = node.first_child
                depth += 1
            else:
                node = following(node, root, &depth)
        if status != 0 or pending_count == 0:
            break
        pending_count -= 1
        root = pending[pending_count]
        base_depth = pending_depths[pending_count]
    free(pending)
    free(pending_depths)
    return status


cdef class Walk:
    """The result of sanitize_node: the counts, and the report's records
    when asked for (kind, reason, element namespace id, element local name,
    attribute namespace id, attribute local name) resolved to text."""
    cdef readonly tuple counts
    cdef readonly list records
    cdef readonly bint url_pass   # a URL attribute needs the Python pass


cdef str namespace_text(CDocument* doc, lxp_ns_id_t ns):
    cdef size_t n
    cdef const uint8_t* uri
    if ns == NS__UNDEF:
        return None
    uri = namespace_uri_of(doc, ns, &n)
    return uri[:n].decode("utf-8", "surrogatepass")


cdef str tag_text(CDocument* doc, lxp_tag_id_t tag):
    cdef size_t n
    cdef const uint8_t* name
    cdef CElement probe
    if tag == 0:
        return None
    probe.tag_id = tag
    probe.node.owner = doc
    name = element_local_name(&probe, &n)
    return name[:n].decode("utf-8", "surrogatepass")


cdef str attr_text(CDocument* doc, lxp_attr_id_t attr):
    cdef size_t n
    cdef const uint8_t* name
    if attr == 0:
        return None
    name = attr_name_of(doc.attr_names, attr, &n)
    if name == NULL:
        return None
    return name[:n].decode("utf-8", "surrogatepass")


def sanitize_node(Node root not None, Program program not None, bint report=False,
                  int context_kind=PARENT_HTML, bint keep_removed=False):
    """Run the walk on `root`'s children (and template contents) in place.
    Returns a Walk: counts = (elements removed, elements unwrapped or
    escaped, attributes removed, comments and processing instructions
    removed), and with `report` the records of what was removed, each
    (kind, reason, element namespace, element name, attribute namespace,
    attribute name) with kind 1-6 (element removed, unwrapped, escaped,
    attribute, comment, processing instruction removed) and reason 1-4
    (configuration, baseline, depth, namespace). `context_kind` says what
    the parent of a fragment's top-level elements is (0: HTML, 1: SVG,
    2: an SVG HTML integration point, 3: MathML, 4: a MathML text
    integration point, 5: annotation-xml, 6: annotation-xml with an HTML
    encoding). `keep_removed`: the removed nodes are left in the arena
    (for a document thrown away after its serialization)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef Tables t
    cdef Counts counts
    cdef Report records
    cdef int status
    cdef size_t i
    cdef Record* r
    cdef Walk result = Walk.__new__(Walk)
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    doc = c_root.owner
    if doc.readers != 0:
        raise RuntimeError("the tree is being read by another thread")
    memset(&counts, 0, sizeof(Counts))
    memset(&records, 0, sizeof(Report))
    program.resolve(doc, &t, report)
    t.context_kind = context_kind
    t.keep_removed = keep_removed
    with nogil:
        status = 0
        if c_root.type == ELEMENT_NODE and (<CElement*> c_root).template_content != NULL:
            status = sanitize_children(&t, (<CElement*> c_root).template_content, &counts,
                                       &records if report else NULL)
        if status == 0:
            status = sanitize_children(&t, c_root, &counts, &records if report else NULL)
    tables_free(&t)
    try:
        if status != 0 or records.failed:
            raise MemoryError()
        result.url_pass = counts.url_pass
        result.counts = (counts.elements_removed, counts.elements_unwrapped,
                         counts.attributes_removed, counts.others_removed)
        result.records = []
        for i in range(records.count):
            r = &records.records[i]
            result.records.append((r.kind, r.reason, namespace_text(doc, r.ns),
                                    tag_text(doc, r.tag), namespace_text(doc, r.attr_ns),
                                    attr_text(doc, r.attr)))
    finally:
        free(records.records)
    return result
