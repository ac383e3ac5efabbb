# Positions (lexpy.parse(positions=True)): the Python face of the source
# records (nodes.pxi). The record holds stream offsets; the Document's
# _source_info (the parse's source map, made by lexpy.driver) turns them into
# SourceSpans of the original input, and gives the input itself for
# to_source() (serializer modes: lossless.pxi).


cdef object source_span_of(Node node, bint end_tag):
    """node.source (or element.end_source with `end_tag`)."""
    cdef CNode* c_node = live(node)
    cdef SourceRecord* record = node_source(c_node)
    cdef object info
    if record == NULL:
        return None
    info = document_of(node)._source_info
    if info is None:
        return None
    if end_tag:
        if record.end_tag_start == SOURCE_NONE:
            return None
        return info.span(record.end_tag_start, record.end_tag_end)
    return info.span(record.start, record.end)


cdef inline bint tag_space(int c) noexcept:
    return c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D or c == 0x20


cdef list scan_start_tag_attributes(bytes tag):
    """The attributes of a start tag's raw UTF-8 ("<name ...>") as the
    tokenizer's attribute states read them: [(lowercased name, name start,
    name end, value start, value end)], offsets into `tag`, value -1 when
    the attribute has none; the first of duplicate names only."""
    cdef const unsigned char* s = tag
    cdef Py_ssize_t n = len(tag)
    cdef Py_ssize_t i = 1, name_start, name_end, value_start, value_end
    cdef int quote
    cdef list found = []
    cdef set seen = set()
    while i < n and not tag_space(s[i]) and s[i] != 0x2F and s[i] != 0x3E:
        i += 1                                      # the tag name
    while i < n:
        # before attribute name
        while i < n and (tag_space(s[i]) or s[i] == 0x2F):
            i += 1
        if i >= n or s[i] == 0x3E:
            break
        name_start = i
        i += 1                                      # ('=' may start a name)
        while i < n and not tag_space(s[i]) and s[i] != 0x2F and s[i] != 0x3E \
                and s[i] != 0x3D:
            i += 1
        name_end = i
        value_start = value_end = -1
        while i < n and tag_space(s[i]):            # after attribute name
            i += 1
        if i < n and s[i] == 0x3D:
            i += 1
            while i < n and tag_space(s[i]):
                i += 1
            if i < n and (s[i] == 0x22 or s[i] == 0x27):
                quote = s[i]
                i += 1
                value_start = i
                while i < n and s[i] != quote:
                    i += 1
                value_end = i
                i += 1
            else:
                value_start = i
                while i < n and not tag_space(s[i]) and s[i] != 0x3E:
                    i += 1
                value_end = i
        name = tag[name_start:name_end].lower()
        if name not in seen:
            seen.add(name)
            found.append((name, name_start, name_end, value_start, value_end))
    return found


cdef object attribute_source_of(Node element, object name):
    cdef CNode* c_node = live(element)
    cdef SourceRecord* record = node_source(c_node)
    cdef object info
    cdef bytes tag
    cdef bytes wanted
    if not isinstance(name, str):
        raise TypeError("the attribute name must be a str, not %s" % type(name).__name__)
    if record == NULL:
        return None
    info = document_of(element)._source_info
    if info is None:
        return None
    tag = info.stream_bytes(record.start, record.end)
    if tag is None:
        return None
    wanted = (<str> name).encode("utf-8", "surrogatepass").lower()
    for found, name_start, name_end, value_start, value_end in scan_start_tag_attributes(tag):
        if found == wanted:
            return (info.span(record.start + name_start, record.start + name_end),
                    None if value_start < 0 else
                    info.span(record.start + value_start, record.start + value_end))
    return None
