# Lossless output (node.to_source(), positions=True). Not in the standard.
#
# What the API did not change since the parse is written as the input had
# it; what it changed (the marks of nodes.pxi: attributes set, data set,
# children inserted or removed) is serialized by the standard's algorithm
# (write_start / write_end of serializer.pxi), inside the original tags of
# the nearest unchanged elements around it. A subtree the API did not touch
# is copied as the stretch of input it came from when that stretch holds
# exactly its nodes (no node was foster-parented or moved by the adoption
# agency into or out of it); else its nodes are written one by one, with
# the input between them (ignored tags, dropped whitespace) kept where no
# other node came from it.


cdef inline CNode* ls_first_child(CNode* node) noexcept nogil:
    cdef CNode* content = template_content_of(node)
    return content.first_child if content != NULL else node.first_child


cdef bint is_implied_root(CNode* node) noexcept nogil:
    """An html, head or body element the parser implied, which the API did
    not change, nor its children, nor the first of them (what implied it):
    to_source() writes no tags for it (the parser implies it again)."""
    cdef CElement* element = <CElement*> node
    if node.parent != NULL and node.parent.type == ELEMENT_NODE \
            and node.parent.flags & (NODE_SELF_CHANGED | NODE_CHILDREN_CHANGED):
        return False            # (a head or body in a changed html element)
    return node_source(node) == NULL \
        and not node.flags & (NODE_SELF_CHANGED | NODE_CHILDREN_CHANGED) \
        and (node.first_child == NULL or not node.first_child.flags & NODE_SELF_CHANGED) \
        and element.ns == NS_HTML and (element.tag_id == TAG_HTML
                                       or element.tag_id == TAG_HEAD
                                       or element.tag_id == TAG_BODY)


cdef bint has_implied_end(CElement* element) noexcept nogil:
    """An element of the standard's "generate implied end tags" list (but
    the template elements'): an end of one the parser implied is implied
    again by what implied it (other implied ends, of formatting elements or
    in tables, depend on the elements around)."""
    cdef int tag = element.tag_id
    return element.ns == NS_HTML and (
        tag == TAG_DD or tag == TAG_DT or tag == TAG_LI or tag == TAG_OPTGROUP
        or tag == TAG_OPTION or tag == TAG_P or tag == TAG_RB or tag == TAG_RP
        or tag == TAG_RT or tag == TAG_RTC)


cdef bint implies_body(CNode* node) noexcept nogil:
    """Whether node, written first after the head, opens the body on the
    reparse (the "after head" insertion mode: a comment, whitespace or a
    head element's start tag does not)."""
    cdef CElement* element
    if node == NULL:
        return False
    if node.type == ELEMENT_NODE:
        element = <CElement*> node
        if element.ns != NS_HTML:
            return True
        return not (element.tag_id == TAG_BASE or element.tag_id == TAG_BASEFONT
                    or element.tag_id == TAG_BGSOUND or element.tag_id == TAG_LINK
                    or element.tag_id == TAG_META or element.tag_id == TAG_NOFRAMES
                    or element.tag_id == TAG_SCRIPT or element.tag_id == TAG_STYLE
                    or element.tag_id == TAG_TEMPLATE or element.tag_id == TAG_TITLE
                    or element.tag_id == TAG_HEAD or element.tag_id == TAG_HTML
                    or element.tag_id == TAG_BODY or element.tag_id == TAG_FRAMESET)
    return node.type == TEXT_NODE and starts_with_non_space(node)


cdef bint starts_with_non_space(CNode* text) noexcept nogil:
    cdef CCharacterData* data = <CCharacterData*> text
    if data.length == 0:
        return False
    return not (data.data[0] == 0x20 or data.data[0] == 0x09 or data.data[0] == 0x0A
                or data.data[0] == 0x0C or data.data[0] == 0x0D)


cdef int resolve_implied_ends(list pieces) except -1:
    """The pending end tags ([tag, offset] pieces) of elements whose end
    the parser implied: dropped where the next piece kept is the input
    right after the element's (which implied the end in the input and
    implies it again), else written."""
    cdef Py_ssize_t index = len(pieces) - 1
    following = None
    while index >= 0:
        piece = pieces[index]
        if type(piece) is list:
            if type(following) is tuple and following[0] == piece[1]:
                pieces[index] = ""
                index -= 1
                continue
            pieces[index] = piece[0]
            piece = piece[0]
        following = piece
        index -= 1
    return 0


cdef str ls_tag(CNode* node, bint end):
    """The standard's serialization of a node's start (or end) alone."""
    cdef Buffer out
    memset(&out, 0, sizeof(Buffer))
    if end:
        write_end(&out, node)
    else:
        write_start(&out, node)
    return buffer_finish(&out)


cdef class _SourceWriter:
    """One to_source() call: the extents of the nodes, then the pieces."""
    cdef object info
    cdef dict extents               # node address -> (start, end) stream offsets
    cdef dict counts                # node address -> sourced nodes in its subtree
    cdef dict ordered               # node address -> its subtree is in input order
    cdef list starts                # every sourced node's start, sorted
    cdef list pieces                # str, or (start, end) of the stream
    cdef bint gaps                  # the children being written are the
                                    # input's (none inserted or removed)

    cdef int measure(self, CNode* root) except -1:
        """Post-order over root's subtree: each node's extent (from its
        source, else its children's), how many sourced nodes it holds, and
        whether they come in input order."""
        cdef list stack = [(<size_t> root, False)]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        cdef size_t address, start, end, count, last
        cdef bint ordered
        self.extents = {}
        self.counts = {}
        self.ordered = {}
        self.starts = []
        while stack:
            address, done = stack.pop()
            node = <CNode*> address
            if not done:
                stack.append((address, True))
                child = ls_first_child(node)
                children = []
                while child != NULL:
                    children.append((<size_t> child, False))
                    child = child.next
                stack.extend(reversed(children))
                continue
            record = node_source(node)
            count = 0
            # (an element the parser made -- a clone of a formatting
            # element, an implied one -- depends on what is around it: its
            # ancestors are written node by node)
            ordered = not node.flags & NODE_SOURCE_GATHERED and not (
                record == NULL and node.type == ELEMENT_NODE)
            if record != NULL and not self.terminated(node):
                ordered = False
            if record != NULL and node.type == ELEMENT_NODE and not self.ended(node):
                # (an end the parser implied: a formatting element left
                # open is reconstructed further on)
                ordered = False
            start = end = 0
            has = False
            if record != NULL:
                start = record.start
                end = record.end
                has = True
                count = 1
                self.starts.append(start)
            last = start
            child = ls_first_child(node)
            while child != NULL:
                extent = self.extents.get(<size_t> child)
                count += self.counts[<size_t> child]
                if not self.ordered[<size_t> child]:
                    ordered = False
                if extent is not None:
                    if has and extent[0] < last:
                        ordered = False
                    if not has:
                        start, end, has = extent[0], extent[1], True
                    elif extent[1] > end:
                        end = extent[1]
                    last = extent[1]
                child = child.next
            if record != NULL and record.end_tag_start != SOURCE_NONE:
                if record.end_tag_start < last:
                    ordered = False
                if record.end_tag_end > end:
                    end = record.end_tag_end
            self.extents[address] = (start, end) if has else None
            self.counts[address] = count
            self.ordered[address] = ordered
        self.starts.sort()
        return 0

    cdef bint terminated(self, CNode* node) except -1:
        """Whether a comment's, DOCTYPE's or processing instruction's input
        ends it (not the end of the input: more would go into it)."""
        cdef SourceRecord* record = node_source(node)
        if node.type == ELEMENT_NODE or record == NULL:
            return True
        if node.type == TEXT_NODE:
            # A literal "<" in markup text (not in raw text) may start a tag
            # when other output follows it ("</" at the end of the input).
            return text_is_raw(node) or b"<" not in self.info.stream_bytes(
                record.start, record.end)
        if record.end == record.start:
            return False
        return self.info.stream_bytes(record.end - 1, record.end) == b">"

    cdef bint ended(self, CNode* node) except -1:
        """Whether an element's input ends it: an end tag, a void element,
        or a self-closing tag in SVG or MathML."""
        cdef SourceRecord* record = node_source(node)
        if record.end_tag_start != SOURCE_NONE or serializes_as_void(<CElement*> node):
            return True
        return (<CElement*> node).ns != NS_HTML and record.end - record.start >= 2 \
            and self.info.stream_bytes(record.end - 2, record.end) == b"/>"

    cdef bint gained_attributes(self, CNode* node) except -1:
        """Whether an html or body element has attributes its start tag
        has not (a later <html> or <body> tag added them)."""
        cdef CElement* element = <CElement*> node
        cdef SourceRecord* record = node_source(node)
        if element.ns != NS_HTML or not (element.tag_id == TAG_HTML
                                         or element.tag_id == TAG_BODY):
            return False
        tag = self.info.stream_bytes(record.start, record.end)
        return tag is not None and len(scan_start_tag_attributes(tag)) != element.attr_count

    cdef bint holds_only_its_nodes(self, CNode* node) except -1:
        """Whether the stretch of input of node's extent made exactly the
        nodes of its subtree, in order."""
        cdef SourceRecord* record = node_source(node)
        extent = self.extents.get(<size_t> node)
        if extent is None or not self.ordered[<size_t> node]:
            return False
        if node.type == ELEMENT_NODE and record != NULL and self.gained_attributes(node):
            return False
        if node.type == ELEMENT_NODE and (record == NULL or not self.ended(node)):
            # Its end was implied, by what came after it: the standard's
            # end tag is written instead.
            return False
        inside = bisect_left(self.starts, extent[1]) - bisect_left(self.starts, extent[0])
        return inside == self.counts[<size_t> node]

    cdef int gap(self, object previous_end, object next_start) except -1:
        """The input between two pieces of input, when it is whitespace no
        node of the tree came from (dropped by the parser: the newline after
        <pre>, whitespace between the head and the body, ...); other input
        there (ignored tags, or a node the API removed) is left out."""
        if previous_end is None or next_start is None or next_start <= previous_end \
                or not self.gaps:
            return 0
        if bisect_left(self.starts, next_start) - bisect_left(self.starts, previous_end) != 0:
            return 0
        text = self.info.stream_bytes(previous_end, next_start)
        if text is not None and not text.strip(b" \t\n\r\x0c"):
            self.pieces.append((previous_end, next_start))
        return 0

    cdef object write(self, CNode* node, object before):
        """Write node (after input ending at stream offset `before`, or
        None); returns the stream offset its input ends at, or None."""
        cdef SourceRecord* record = node_source(node)
        cdef CNode* child
        cdef bint changed = (node.flags & NODE_SUBTREE_CHANGED) != 0
        cdef bint tags = True
        extent = self.extents.get(<size_t> node)
        if not changed and self.holds_only_its_nodes(node):
            self.gap(before, extent[0])
            self.pieces.append(extent)
            return extent[1]
        if node.type != ELEMENT_NODE and node.type != DOCUMENT_NODE \
                and node.type != DOCUMENT_FRAGMENT_NODE:
            if record != NULL and not node.flags & (NODE_SELF_CHANGED | NODE_SOURCE_GATHERED) \
                    and self.terminated(node):
                self.gap(before, record.start)
                self.pieces.append((record.start, record.end))
                return record.end
            self.pieces.append(serialize_html(node, True))
            return None
        # The tags: the input's where the element came from the input and
        # the API did not change it; none for an html, head or body element
        # the parser implied (it implies them again); else the standard's
        # (an element the API made or moved, a clone the parser made, or an
        # end the parser implied, written out).
        if node.type == ELEMENT_NODE and is_implied_root(node):
            tags = False
        if node.type == ELEMENT_NODE and record != NULL and self.gained_attributes(node):
            node.flags |= NODE_SELF_CHANGED
        if not tags and (<CElement*> node).tag_id == TAG_BODY and node.first_child != NULL \
                and not implies_body(ls_first_child(node)):
            # An implied body whose first child would go into the head (or
            # the html element) on the reparse: the input that implied the
            # body ("</body>" before "<title>" in "after head" mode) is kept
            # where it is the only input between, else "<body>" is written.
            first = self.extents.get(<size_t> ls_first_child(node))
            if before is not None and first is not None and first[0] > before \
                    and bisect_left(self.starts, first[0]) \
                    == bisect_left(self.starts, before):
                self.pieces.append((before, first[0]))
                before = first[0]
            else:
                self.pieces.append(ls_tag(node, False))
                before = None
        if node.type == ELEMENT_NODE:
            if record != NULL and not node.flags & NODE_SELF_CHANGED:
                self.gap(before, record.start)
                self.pieces.append((record.start, record.end))
                before = record.end
            elif tags:
                self.pieces.append(ls_tag(node, False))
                before = None
        child = ls_first_child(node)
        outer = self.gaps
        # (whitespace between children the API removed some of may be one
        # of them: no gaps there)
        self.gaps = not node.flags & NODE_CHILDREN_CHANGED
        while child != NULL:
            before = self.write(child, before)
            child = child.next
        self.gaps = outer
        if node.type == ELEMENT_NODE:
            if record != NULL and record.end_tag_start != SOURCE_NONE \
                    and not node.flags & NODE_SELF_CHANGED:
                self.gap(before, record.end_tag_start)
                self.pieces.append((record.end_tag_start, record.end_tag_end))
                return record.end_tag_end
            if tags:
                if record != NULL and before is not None \
                        and not node.flags & NODE_SELF_CHANGED \
                        and has_implied_end(<CElement*> node):
                    # An end the parser implied (no end tag in the input)
                    # after the element's input: written only where the
                    # next piece is not the input that followed it (which
                    # implies it again; see resolve_implied_ends).
                    self.pieces.append([ls_tag(node, True), before])
                else:
                    self.pieces.append(ls_tag(node, True))
                return None
            if node.next != NULL and (<CElement*> node).tag_id != TAG_HEAD:
                # An implied body or html written without its tags, with
                # nodes after it (comments after </body> or </html>): its
                # end tag keeps them out of it on the reparse.
                self.pieces.append(ls_tag(node, True))
                return None
        return before


cdef object node_to_source(Node node, object encoding):
    """Node.to_source()."""
    cdef CNode* c_node = live(node)
    cdef Document doc = document_of(node)
    cdef object info = doc._source_info
    cdef _SourceWriter writer
    cdef bint text_output
    if info is None or not c_node.owner.record_sources:
        raise ValueError("to_source() needs the document's input: parse it with "
                         "positions=True (lexpy.parse(..., positions=True))")
    original = info.original
    if encoding is None:
        text_output = isinstance(original, str)
        encoding = None if text_output else info.encoding
    elif not isinstance(encoding, str):
        raise TypeError("encoding must be a str (an encoding label, or 'unicode' "
                        "for str) or None, not %s" % type(encoding).__name__)
    else:
        text_output = encoding.lower() == "unicode"
    writer = _SourceWriter.__new__(_SourceWriter)
    writer.info = info
    writer.pieces = []
    writer.gaps = True
    if c_node.type == DOCUMENT_NODE and not c_node.flags & NODE_SUBTREE_CHANGED \
            and not info.insertions_made():
        # Untouched: the input, byte for byte.
        if text_output:
            return original if isinstance(original, str) else info.stream_text()
        if isinstance(original, bytes) and same_encoding(encoding, info.encoding):
            return original
        return (original if isinstance(original, str) else info.stream_text()).encode(
            python_codec(encoding), "xmlcharrefreplace")
    writer.measure(c_node)
    writer.write(c_node, None)
    resolve_implied_ends(writer.pieces)
    return info.assemble(writer.pieces, text_output, encoding)


cdef str python_codec(object label):
    import codecs
    try:
        return codecs.lookup(label).name
    except LookupError:
        raise LookupError("unknown encoding: %s" % label) from None


cdef bint same_encoding(object a, object b) except -1:
    if a is None or b is None:
        return False
    return python_codec(a) == python_codec(b)
