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
# other node came from it. A whole document (or parsed fragment) is first
# written as its input with only the edited nodes' spans replaced (patch:
# an element's start tag for its attributes, a text's input for its data,
# an element's content for its children; implied ends stay implied) and
# checks its output by parsing it (checked_pieces): where the reparse
# differs, the whole tree walked (implied ends implied), then the walk
# writing implied ends and html/body start tags with attributes later tags
# added, then regions around the edits written by the standard's algorithm,
# each checked. to_source_edits() reports the input ranges rewritten.


class _Rewritten(tuple):
    """(start, end) of input a rewritten region copies from outside it
    (see rewritten_content): output, but not input kept in place."""


cdef list running_reach(list spans):
    """For spans sorted by start: the furthest end among the first k+1 of
    them, for each k (where the spans up to one reach)."""
    cdef list reach = []
    furthest = 0
    for span in spans:
        furthest = max(furthest, span[1])
        reach.append(furthest)
    return reach


cdef inline CNode* ls_first_child(CNode* node) noexcept nogil:
    cdef CNode* content = template_content_of(node)
    return content.first_child if content != NULL else node.first_child


cdef bint is_implied_root(CNode* node) noexcept nogil:
    """An html, head or body element the parser implied, which the API did
    not change, nor its children, nor the first of them (what implied it;
    but an element's attributes, which imply it as well):
    to_source() writes no tags for it (the parser implies it again)."""
    cdef CElement* element = <CElement*> node
    if node.parent != NULL and node.parent.type == ELEMENT_NODE \
            and node.parent.flags & (NODE_SELF_CHANGED | NODE_CHILDREN_CHANGED):
        return False            # (a head or body in a changed html element)
    return node_source(node) == NULL \
        and not node.flags & (NODE_SELF_CHANGED | NODE_CHILDREN_CHANGED) \
        and (node.first_child == NULL or node.first_child.type == ELEMENT_NODE
             or not node.first_child.flags & NODE_SELF_CHANGED) \
        and element.ns == NS_HTML and (element.tag_id == TAG_HTML
                                       or element.tag_id == TAG_HEAD
                                       or element.tag_id == TAG_BODY
                                       or is_implied_table_section(node))


cdef bint is_implied_table_section(CNode* node) noexcept nogil:
    """A tbody the parser implied for its first child, a tr ("in table"
    insertion mode: a tr, td or th start tag inserts a tbody first), which
    implies it again."""
    cdef CNode* first = node.first_child
    return (<CElement*> node).tag_id == TAG_TBODY and first != NULL \
        and first.type == ELEMENT_NODE and (<CElement*> first).ns == NS_HTML \
        and (<CElement*> first).tag_id == TAG_TR and node_source(first) != NULL


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


cdef int resolve_implied_ends(list pieces, bint keep_implied, object tail=None) except -1:
    """The pending end tags ([tag, offset] pieces) of elements whose end
    the parser implied: dropped where the next piece kept is the input
    right after the element's (which implied the end in the input and
    implies it again), or where none follows and the element's input
    reached `tail`, the end of the input (a document's: the end of the
    input implies it again), else written; all dropped in the first
    writing (`keep_implied`: the reparse check decides)."""
    cdef Py_ssize_t index = len(pieces) - 1
    following = None if tail is None else (tail, tail)
    while index >= 0:
        piece = pieces[index]
        if type(piece) is list:
            if keep_implied or type(following) is tuple and following[0] == piece[1]:
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


_STRAY_ROOT_TAG = None
_END_P = None
_ROOT_TAG = None
_TEMPLATE_TAG = None
_ROOT_TAG_AT_END = None
# (an end tag at the end of a stretch, for without_patching_templates)
_END_TAG_AT_END = __import__("re").compile(rb"</([A-Za-z][^\t\n\x0c\r />]*)[^>]*>\Z")


cdef class _SourceWriter:
    """One to_source() call: the extents of the nodes, then the pieces."""
    cdef object info
    cdef dict extents               # node address -> (start, end) stream offsets
    cdef dict counts                # node address -> sourced nodes in its subtree
    cdef dict lows                  # node address -> the first input offset
                                    # in its subtree (None: no input)
    cdef dict ordered               # node address -> its subtree is in input order
    cdef list starts                # every sourced node's start, sorted
    cdef list gathered              # starts of the nodes whose input has
                                    # other input between its pieces, sorted
    cdef list gathered_reach        # the furthest end of those up to each
    cdef list pieces                # str, or (start, end) of the stream
    cdef bint gaps                  # the children being written are the
                                    # input's (none inserted or removed)
    cdef CNode* document            # the Document written, or NULL
    cdef size_t consumed            # input written up to here with a text
                                    # that holds its ancestors' end tags
    cdef set forced                 # addresses of nodes written by the
                                    # standard's algorithm as a whole
    cdef bint keep_implied          # the first writing: implied ends stay
                                    # implied, an html or body start tag a
                                    # later tag gave attributes is kept
    cdef list all_starts            # patch(): the starts of every input piece
    cdef list all_ends              # ... and their ends, sorted
    cdef size_t stream_end
    cdef object input_end           # run(): the end of a Document's input
                                    # (the end of the input implies the
                                    # ends pending there), else None
    cdef set rewritten_starts       # ... those in the content of an element
                                    # whose children the API changed
    cdef bint regions_standard      # patch(): rewritten regions hold their
                                    # nodes by the standard's serialization
    cdef bint ends_written          # patch(): the ends the parser implied
                                    # in a rewritten region are written but
                                    # where the input that implied them
                                    # follows (the second try)
    cdef dict parsed_extents        # patch(): node address -> the extent of
                                    # its subtree's input as parsed (nodes
                                    # the API moved in left out, the input
                                    # of children taken out of an element the
                                    # parser made kept; see measure_parsed)
    cdef dict parsed_lows           # ... the first offset of it
    cdef set moved_starts           # ... the starts of the input of the
                                    # subtrees the API moved (NODE_MOVED)
    cdef bint clones_written        # patch(): a clone of a formatting
                                    # element the API changed the content
                                    # of is written with its tags (the
                                    # fourth try; see checked_pieces)
    cdef set marked                 # addresses of elements whose tags are
                                    # written by the standard's algorithm
                                    # though the API did not change them
    cdef bint end_tags_kept         # patch(): the end tags no node came
                                    # from after the input of an element
                                    # whose end the parser implied (the
                                    # "</tr>" after a th's content) are
                                    # kept after its content region (a
                                    # try of checked_pieces)
    cdef size_t region_owner        # rewritten_content(): the node whose
                                    # content region it wrote
    cdef bint templates_whole       # patch(): a <template for> whose nodes
                                    # the rewritten regions write is left
                                    # out with the end tags at the end of
                                    # its content (see
                                    # without_patching_templates)
    cdef bint past_end_tag          # patch(): an html, head or body element
                                    # whose children the API changed, or an
                                    # element with input of its subtree
                                    # after its end tag, has in its content
                                    # region the input after its end tag of
                                    # its subtree and of no node (the
                                    # children the parser put after it, a
                                    # head's after </head>, a body's after
                                    # </html>, kept, moved or taken out),
                                    # but for html, head and body tags and
                                    # whitespace at its end (see
                                    # content_region; a try of
                                    # checked_pieces)

    cdef bint self_changed(self, CNode* node) except -1:
        return (node.flags & NODE_SELF_CHANGED) != 0 or <size_t> node in self.marked

    cdef int measure(self, CNode* root) except -1:
        """Post-order over root's subtree: each node's extent (from its
        source, else its children's), how many sourced nodes it holds, and
        whether they come in input order."""
        cdef list stack = [(<size_t> root, False)]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        cdef SourceRecord* removed
        cdef size_t address, start, end, count, last
        cdef bint ordered
        self.extents = {}
        self.lows = {}
        self.counts = {}
        self.ordered = {}
        self.starts = []
        self.gathered = []
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
                record == NULL and node.type == ELEMENT_NODE
                and not (is_implied_root(node) and is_implied_table_section(node)))
            if record != NULL and not self.terminated(node):
                ordered = False
            if record != NULL and node.type == ELEMENT_NODE and not self.keep_implied \
                    and not self.ended(node):
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
                if node.flags & NODE_SOURCE_GATHERED:
                    self.gathered.append((start, end))
            last = start
            low = start if has else None
            child = ls_first_child(node)
            while child != NULL:
                extent = self.extents.get(<size_t> child)
                below = self.lows.get(<size_t> child)
                if below is not None and (low is None or below < low):
                    low = below
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
            if record == NULL and node.flags & NODE_REMOVED_INPUT:
                # (an element the parser made: the input of the children
                # the API took out of it is in its extent, the region its
                # content is written over)
                removed = record_of(node)
                ordered = False
                if not has or removed.start < start:
                    start = removed.start
                if not has or removed.end > end:
                    end = removed.end
                has = True
                if low is None or removed.start < low:
                    low = removed.start
            self.extents[address] = (start, end) if has else None
            self.lows[address] = low
            self.counts[address] = count
            self.ordered[address] = ordered
        self.starts.sort()
        self.gathered.sort()
        self.gathered_reach = running_reach(self.gathered)
        self.gathered = [piece[0] for piece in self.gathered]
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
        return self.self_closing(node)

    cdef bint self_closing(self, CNode* node) except -1:
        """Whether a foreign element's start tag closes it ("<x/>")."""
        cdef SourceRecord* record = node_source(node)
        return (<CElement*> node).ns != NS_HTML and record.end_tag_start == SOURCE_NONE \
            and record.end - record.start >= 2 \
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
        if node.type == ELEMENT_NODE and record != NULL and not self.keep_implied \
                and self.gained_attributes(node):
            return False
        if node.type == ELEMENT_NODE and (record == NULL or (
                not self.ended(node) and (not self.keep_implied or self.ends_written))):
            # Its end was implied, by what came after it: the standard's
            # end tag is written instead.
            return False
        inside = bisect_left(self.starts, extent[1]) - bisect_left(self.starts, extent[0])
        if inside != self.counts[<size_t> node]:
            return False
        # (a node begun before the stretch with input in it: text
        # foster-parented out of a table)
        index = bisect_left(self.gathered, extent[0])
        return index == 0 or self.gathered_reach[index - 1] <= extent[0]

    cdef int gap(self, object previous_end, object next_start) except -1:
        """The input between two pieces of input, when it is whitespace (or
        U+0000) no node of the tree came from (dropped by the parser: the newline after
        <pre>, whitespace between the head and the body, ...); other input
        there (ignored tags, or a node the API removed) is left out."""
        if previous_end is None or next_start is None or next_start <= previous_end \
                or not self.gaps:
            return 0
        if bisect_left(self.starts, next_start) - bisect_left(self.starts, previous_end) != 0:
            return 0
        index = bisect_right(self.gathered, previous_end)
        if index > 0 and self.gathered_reach[index - 1] > previous_end:
            # (input of a node begun before it: whitespace after </body>
            # goes into the body's last text)
            return 0
        text = self.info.stream_bytes(previous_end, next_start)
        # (a U+0000 no node came from was ignored: it is again)
        if text is not None and (not text.strip(b" \t\n\r\x0c\x00")
                                 or self.harmless_tags(text)):
            self.pieces.append((previous_end, next_start))
        return 0

    cdef bint gathered_whitespace(self, CNode* node) except -1:
        """Whether a text node whose input has other input between its
        pieces is whitespace around tags of html, head and body the parser
        ignored (harmless_tags; "\\n<head>\\n" after an implied head's first
        child), which its input writes again as it was."""
        global _ROOT_TAG
        cdef SourceRecord* record = node_source(node)
        cdef CCharacterData* data = <CCharacterData*> node
        cdef SourceRecord* record_above
        cdef CNode* ancestor
        if node.type != TEXT_NODE:
            return False
        if bisect_left(self.starts, record.end) - bisect_right(self.starts, record.start) != 0:
            return False
        text = self.info.stream_bytes(record.start, record.end)
        if text is None or not self.harmless_tags(text):
            return False
        if _ROOT_TAG is None:
            import re
            _ROOT_TAG = re.compile(rb"<(/?)(html|head|body)(?=[ \t\n\r\x0c/>])"
                                   rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.IGNORECASE)
        if _ROOT_TAG.sub(b"", text).replace(b"\r\n", b"\n").replace(b"\r", b"\n") \
                != (<char*> data.data)[:data.length]:
            return False
        # End tags in it: those of the elements it ends (whitespace after
        # </body> and </html> goes into the body's last text), written
        # with it (see consumed).
        ends = text.count(b"</")
        ancestor = node
        while ends and ancestor.next == NULL and ancestor.parent != NULL:
            ancestor = ancestor.parent
            record_above = node_source(ancestor)
            if ancestor.type == ELEMENT_NODE and record_above != NULL \
                    and record_above.end_tag_start != SOURCE_NONE \
                    and record.start < record_above.end_tag_start < record.end:
                if self.self_changed(ancestor):
                    return False
                ends -= 1
        return ends == 0

    cdef object stray_end_p(self, object before, CNode* following):
        """Where the input between `before` and the next sibling's is one
        </p> no node came from, which made this empty p (\"in body\"
        insertion mode, An end tag whose tag name is "p": no p in button
        scope) and makes it again: the offset it ends at, else None."""
        global _END_P
        if before is None or following == NULL or not self.gaps:
            return None
        extent = self.extents.get(<size_t> following)
        if extent is None or extent[0] <= before \
                or bisect_left(self.starts, extent[0]) != bisect_left(self.starts, before):
            return None
        if _END_P is None:
            import re
            _END_P = re.compile(rb"</p(?=[\t\n\x0c\r />])[^>]*>", re.IGNORECASE)
        text = self.info.stream_bytes(before, extent[0])
        if text is None or _END_P.fullmatch(text) is None:
            return None
        return extent[0]

    cdef bint harmless_tags(self, bytes text) except -1:
        """Whether input no node came from is whitespace and tags of html,
        head and body only: the same nodes around them, end tags end the
        same elements (or are ignored again), and start tags are ignored
        but for the attributes an html or body tag adds to its element
        where it has none of that name (\"in body\" insertion mode, A start
        tag whose tag name is "html" / "body"): kept where the element has
        them all."""
        global _STRAY_ROOT_TAG
        cdef CNode* element
        if self.document == NULL:
            return False
        if _STRAY_ROOT_TAG is None:
            import re
            _STRAY_ROOT_TAG = re.compile(
                rb"[ \t\n\r\x0c]*<(/?)(html|head|body)(?=[ \t\n\r\x0c/>])"
                rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*>[ \t\n\r\x0c]*", re.IGNORECASE)
        position = 0
        while position < len(text):
            match = _STRAY_ROOT_TAG.match(text, position)
            if match is None:
                return False
            position = match.end()
            name = match.group(2).lower()
            if name == b"head" or match.group(1):
                continue
            element = html_document_element(self.document) if name == b"html" \
                else document_body(self.document)
            if element == NULL:
                return False
            proxy = node_proxy(element)
            tag = match.group(0).strip(b" \t\n\r\x0c")
            for attribute in scan_start_tag_attributes(tag):
                if not proxy.has_attribute(attribute[0].decode("utf-8", "replace")):
                    return False
        return True

    cdef int boundaries(self, CNode* root) except -1:
        """The starts and the ends of every piece of input a node of root's
        subtree came from (start tags and end tags apart), sorted."""
        cdef list stack = [<size_t> root]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        self.all_starts = []
        self.all_ends = []
        while stack:
            node = <CNode*> <size_t> stack.pop()
            record = node_source(node)
            if record != NULL:
                self.all_starts.append(record.start)
                self.all_ends.append(record.end)
                if record.end_tag_start != SOURCE_NONE:
                    self.all_starts.append(record.end_tag_start)
                    self.all_ends.append(record.end_tag_end)
            elif node.flags & NODE_REMOVED_INPUT:
                # (an element the parser made: the input of the children
                # the API took out of it is its content's, which bounds
                # the regions around it as they did)
                self.all_starts.append(record_of(node).start)
                self.all_ends.append(record_of(node).end)
            child = ls_first_child(node)
            while child != NULL:
                stack.append(<size_t> child)
                child = child.next
        self.all_starts.sort()
        self.all_ends.sort()
        self.stream_end = len(self.info.stream_bytes(0, 1 << 62))
        return 0

    cdef list subtree_starts(self, CNode* top):
        """The starts of the input pieces of top's subtree but top's own
        tags (the input of children the API took out of an element the
        parser made, top included, is its content's: in)."""
        cdef list out = []
        cdef list stack = []
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        if node_source(top) == NULL and top.flags & NODE_REMOVED_INPUT:
            out.append(record_of(top).start)
        child = ls_first_child(top)
        while child != NULL:
            stack.append(<size_t> child)
            child = child.next
        while stack:
            node = <CNode*> <size_t> stack.pop()
            record = node_source(node)
            if record != NULL:
                out.append(record.start)
                if record.end_tag_start != SOURCE_NONE:
                    out.append(record.end_tag_start)
            elif node.flags & NODE_REMOVED_INPUT:
                out.append(record_of(node).start)
            child = ls_first_child(node)
            while child != NULL:
                stack.append(<size_t> child)
                child = child.next
        return out

    cdef bint blank(self, size_t start, size_t end) except -1:
        text = self.info.stream_bytes(start, end)
        return text is not None and not text.strip(b" \t\n\r\x0c")

    cdef object trimmed(self, size_t start, size_t end, bint leading):
        """start (with `leading`: moved past the whitespace at the start of
        [start, end)) or end (moved before the whitespace at its end)."""
        text = self.info.stream_bytes(start, end)
        if text is None:
            return start if leading else end
        if leading:
            return start + len(text) - len(text.lstrip(b" \t\n\r\x0c"))
        return end - (len(text) - len(text.rstrip(b" \t\n\r\x0c")))

    cdef object next_start(self, object offset, CNode* node, bint over_own=False):
        """The start of the next input at or after offset a node came
        from, but a node the API moved (moved_starts: its input is in the
        rewritten content of the element it went to; a node of node's
        subtree ends the search), or the end of the input. With
        `over_own`, not a node of node's subtree either: past an element's
        end tag, its children's input the parser put there (a body's text
        and comments after "</body></html>", a head's template after
        "</head>", moved or not) is its content still."""
        cdef Py_ssize_t index = bisect_left(self.all_starts, offset)
        own = None
        while index < len(self.all_starts):
            start = self.all_starts[index]
            if not over_own and start not in self.moved_starts:
                break
            if own is None:
                own = set(self.subtree_starts(node))
            if over_own and start not in own and start not in self.moved_starts \
                    or not over_own and start in own:
                break
            index += 1
        return self.all_starts[index] if index < len(self.all_starts) else self.stream_end

    cdef int measure_parsed(self, CNode* root) except -1:
        """The extents of root's subtrees as the parser made them, for the
        regions (content_region): a subtree the API moved in (NODE_MOVED)
        is left out of its ancestors' (its input is where it came from),
        the input of children it took out of an element the parser made is
        in that element's (NODE_REMOVED_INPUT); the starts of the moved
        subtrees' input (moved_starts). Post-order, iterative."""
        cdef list stack = [(<size_t> root, False, False)]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        cdef size_t address
        cdef bint inside
        self.parsed_extents = {}
        self.parsed_lows = {}
        self.moved_starts = set()
        order = []
        while stack:
            address, done, inside = stack.pop()
            node = <CNode*> address
            if not done:
                # (`inside`: in a moved subtree, node's own input moved)
                inside = inside or (node.flags & NODE_MOVED and node != root)
                record = node_source(node)
                if inside and record != NULL:
                    self.moved_starts.add(record.start)
                    if record.end_tag_start != SOURCE_NONE:
                        self.moved_starts.add(record.end_tag_start)
                elif inside and node.flags & NODE_REMOVED_INPUT:
                    self.moved_starts.add(record_of(node).start)
                stack.append((address, True, inside))
                child = ls_first_child(node)
                while child != NULL:
                    stack.append((<size_t> child, False, inside))
                    child = child.next
                continue
            order.append(address)
        for address in order:
            node = <CNode*> address
            record = node_source(node)
            low = high = None
            if record != NULL:
                low = record.start
                high = record.end
                if record.end_tag_start != SOURCE_NONE and record.end_tag_end > high:
                    high = record.end_tag_end
            elif node.flags & NODE_REMOVED_INPUT:
                low = record_of(node).start
                high = record_of(node).end
            moved = []
            child = ls_first_child(node)
            while child != NULL:
                extent = self.parsed_extents[<size_t> child]
                if child.flags & NODE_MOVED or extent is None:
                    # (each piece of input in it, wherever it was: a
                    # subtree the API built of input from several places
                    # adjoins the rest only with the pieces that do; a
                    # child with no input as parsed -- an element the
                    # parser made, the API moved nodes into -- holds only
                    # moved input, which adjoins the same way)
                    moved.extend(self.input_pieces(child))
                elif extent is not None:
                    if low is None or extent[0] < low:
                        low = extent[0]
                    if high is None or extent[1] > high:
                        high = extent[1]
                child = child.next
            # (a moved child whose input adjoins the rest, no other node's
            # input between, was in the subtree: moved within it)
            # (in input order: past one with other input between, none)
            for extent in sorted(moved) if low is not None else ():
                if extent[0] >= high:
                    if not self.only_moved_between(high, extent[0]):
                        break
                    high = max(high, extent[1])
            for extent in sorted(moved, key=lambda pair: pair[1], reverse=True) \
                    if low is not None else ():
                if extent[1] <= low:
                    if not self.only_moved_between(extent[1], low):
                        break
                    low = min(low, extent[0])
            self.parsed_extents[address] = None if low is None else (low, high)
            self.parsed_lows[address] = low
        return 0

    cdef list input_pieces(self, CNode* top):
        """The pieces of input of top's subtree (start tags, end tags, data;
        an element the parser made: the input of the children the API took
        out of it), unsorted."""
        cdef list out = []
        cdef list stack = [<size_t> top]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        while stack:
            node = <CNode*> <size_t> stack.pop()
            record = node_source(node)
            if record != NULL:
                out.append((record.start, record.end))
                if record.end_tag_start != SOURCE_NONE:
                    out.append((record.end_tag_start, record.end_tag_end))
            elif node.flags & NODE_REMOVED_INPUT:
                out.append((record_of(node).start, record_of(node).end))
            child = ls_first_child(node)
            while child != NULL:
                stack.append(<size_t> child)
                child = child.next
        return out

    cdef bint only_moved_between(self, size_t low, size_t high) except -1:
        """Whether the input pieces that start in [low, high) are all of
        subtrees the API moved."""
        cdef Py_ssize_t first = bisect_left(self.all_starts, low)
        cdef Py_ssize_t last = bisect_left(self.all_starts, high)
        for offset in self.all_starts[first:last]:
            if offset not in self.moved_starts:
                return False
        return True

    cdef object sibling_extent(self, CNode* node):
        """The parsed extent of a sibling (see content_region), None for one
        the API moved there (its input is not beside the element's)."""
        if node.flags & NODE_MOVED:
            return None
        return self.parsed_extents.get(<size_t> node)

    cdef object content_region(self, CNode* node):
        """The input of node's content (see patch): between its start tag
        and its end tag; where the parser implied the end, up to the next
        input a node came from (the input that implied it), but for
        whitespace before it; for an element the parser made, from the end
        of the input before its nodes' to the start of the input after
        them (but for whitespace at either side). None where it has no
        input of its own nor in its subtree."""
        cdef SourceRecord* record = node_source(node)
        cdef Py_ssize_t index
        cdef CNode* sibling
        cdef CNode* parent
        cdef SourceRecord* above
        extent = self.parsed_extents.get(<size_t> node)
        if record != NULL and record.end_tag_start != SOURCE_NONE:
            # (past_end_tag: an html, head or body element whose children
            # the API changed -- the parser puts children after their end
            # tags --, or an element a node of whose subtree came from input
            # after its end tag -- a body's text after "</html>", which its
            # ancestors' regions hold: the html element's does; what a
            # <template for> patched in after a div's end tag -- over the
            # end tag to the end of its subtree's input as parsed and the
            # input no node came from after it, but for the end tags at its
            # end where the API took no children out of it)
            after = self.past_end_tag and extent is not None \
                and extent[1] > record.end_tag_end \
                and max(self.subtree_starts(node), default=0) >= record.end_tag_end
            if after or self.past_end_tag and node.flags & NODE_CHILDREN_CHANGED \
                    and (<CElement*> node).ns == NS_HTML and (
                        (<CElement*> node).tag_id == TAG_HTML
                        or (<CElement*> node).tag_id == TAG_HEAD
                        or (<CElement*> node).tag_id == TAG_BODY):
                high = self.next_start(record.end_tag_end, node, True)
                if high > record.end_tag_end:
                    high = self.before_root_tags(record.end_tag_end, high, (
                        <CElement*> node).ns == NS_HTML and (<CElement*> node).tag_id == TAG_HEAD)
                if high > record.end_tag_end and not node.flags & NODE_CHILDREN_CHANGED:
                    high = self.before_end_tags(record.end_tag_end, high)
                if after and extent[1] > high:
                    high = extent[1]
                if high > record.end_tag_end:
                    return (record.end, high)
            return (record.end, record.end_tag_start)
        if extent is None and record == NULL:
            # (an element the parser made, with no input in it now: from
            # the end of its previous sibling's input to the next input)
            sibling = node.prev
            while sibling != NULL and self.sibling_extent(sibling) is None:
                sibling = sibling.prev
            if sibling == NULL:
                # (else from the end of the input before its next
                # sibling's to that)
                sibling = node.next
                while sibling != NULL and self.sibling_extent(sibling) is None:
                    sibling = sibling.next
                if sibling == NULL:
                    # (else, alone in its parent's content: from the
                    # parent's start tag to the next input, the input that
                    # implied it gone: the API removed it)
                    parent = ls_parent(node)
                    above = node_source(parent) if parent != NULL else NULL
                    if above == NULL or parent.type != ELEMENT_NODE:
                        return None
                    low = above.end
                    high = self.next_start(low, node)
                    high = self.trimmed(low, high, False)
                    return (low, max(low, high))
                high = self.parsed_lows[<size_t> sibling]
                index = bisect_right(self.all_ends, high) - 1
                low = self.all_ends[index] if index >= 0 else 0
                return (self.trimmed(low, high, True), high)
            low = self.sibling_extent(sibling)[1]
            high = self.next_start(low, node)
            high = self.trimmed(low, high, False)
            return (self.trimmed(low, high, True), high) if high > low else (low, low)
        if extent is None:
            return None
        extent = (self.parsed_lows[<size_t> node], extent[1])
        if record != NULL:
            low = record.end
        else:
            index = bisect_right(self.all_ends, extent[0]) - 1
            low = self.all_ends[index] if index >= 0 else 0
            low = self.trimmed(low, extent[0], True)
        high = self.next_start(extent[1], node)
        if record == NULL or not self.removed_whitespace(node, extent[1], high):
            high = self.trimmed(extent[1], high, False)
        if self.end_tags_kept:
            high = self.before_end_tags(extent[1], high)
        return (low, max(low, high))

    cdef object before_end_tags(self, object start, object end):
        """end moved before the end tags (and whitespace) at the end of the
        input [start, end): tags no node came from, which ended the
        elements open there (the input that implied an element's end, kept
        in place after its rewritten content)."""
        text = self.info.stream_bytes(start, end)
        if text is None:
            return end
        cut = len(text)
        while True:
            cut = len(text[:cut].rstrip(b" \t\n\r\x0c"))
            match = _END_TAG_AT_END.search(text, 0, cut)
            if match is None:
                break
            cut = match.start()
        return start + len(text[:cut].rstrip(b" \t\n\r\x0c"))

    cdef object before_root_tags(self, object start, object end, bint head):
        """end moved before the html, head and body tags (and whitespace)
        at the end of the input [start, end), which the parser ignored
        there (see harmless_tags); after a head's end tag, before any tag
        of an element the "after head" insertion mode does not put in the
        head (a "<p>" the frameset that followed dropped with the body)."""
        global _ROOT_TAG_AT_END
        text = self.info.stream_bytes(start, end)
        if text is None:
            return end
        if _ROOT_TAG_AT_END is None:
            import re
            _ROOT_TAG_AT_END = re.compile(rb"<(/?)([A-Za-z][^\t\n\x0c\r />]*)"
                                          rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*>\Z")
        cut = len(text)
        while True:
            cut = len(text[:cut].rstrip(b" \t\n\r\x0c"))
            match = _ROOT_TAG_AT_END.search(text, 0, cut)
            if match is None:
                break
            name = match.group(2).lower()
            if name not in (b"html", b"head", b"body") and not (head and name not in (
                    b"base", b"basefont", b"bgsound", b"link", b"meta", b"noframes",
                    b"script", b"style", b"template", b"title")):
                break
            cut = match.start()
        return start + cut

    cdef bint removed_whitespace(self, CNode* node, size_t end, size_t following) except -1:
        """Whether the whitespace after the input of an element whose end
        the parser implied, before the next input, is input of children
        the API removed from it (it has no node now, and the API changed
        the element's children): its content as parsed, in its region.
        Where other input is before it (a text the API removed), the
        whitespace is that text's end: the parser had inserted it in the
        element, the current node until the next input implied its end."""
        return node.flags & NODE_CHILDREN_CHANGED and following > end

    cdef bint only_inside(self, size_t low, size_t high, list own) except -1:
        """Whether the input pieces that start in [low, high) are those of
        `own` there, or of nodes the content of an element whose children
        the API changed writes (a node it moved out of the region): no
        other node's input is in the region."""
        cdef Py_ssize_t first = bisect_left(self.all_starts, low)
        cdef Py_ssize_t last = bisect_left(self.all_starts, high)
        if last - first == sum(1 for offset in own if low <= offset < high):
            return True
        mine = set(own)
        for offset in self.all_starts[first:last]:
            if offset not in mine and offset not in self.rewritten_starts:
                return False
        return True

    cdef tuple written_run(self, list pieces, CNode* first, CNode* stop,
                           object closing, object low, object high):
        """(low, high, pieces): a rewritten region [low, high) written as
        `pieces` (a start tag, or nothing) and the siblings from first up to
        stop (NULL: the last) as run() writes them (the walk), then
        `closing` (an end tag, or None); see rewritten_content."""
        cdef CNode* child = first
        self.pieces = pieces
        self.gaps = False
        before = None
        while child != stop:
            if self.regions_standard:
                # (the third try: the region's nodes by the
                # standard's serialization, ends written)
                pieces.append(serialize_html(child, True))
            else:
                before = self.write(child, before)
            child = child.next
        if closing is not None:
            pieces.append(closing)
        if self.ends_written:
            # (the input after the region follows it)
            pieces.append((high, high))
            resolve_implied_ends(pieces, False)
            pieces.pop()
        else:
            resolve_implied_ends(pieces, True)
        # (input a piece holds outside the region -- the end
        # tags in the whitespace after </body> the body's last
        # text holds -- is the input kept around it; but a
        # piece wholly outside it is the input of a node moved
        # there, copied)
        for index in range(len(pieces)):
            piece = pieces[index]
            if type(piece) is tuple and (piece[1] > high or piece[0] < low) \
                    and piece[0] < high and piece[1] > low:
                pieces[index] = (max(piece[0], low), min(piece[1], high))
        # (input copied into a rewritten region from outside
        # it -- a node moved there -- is part of the rewriting:
        # to_source_edits() reports the region, not a move of
        # what stayed around it)
        for index in range(len(pieces)):
            piece = pieces[index]
            if type(piece) is tuple and (piece[1] <= low or piece[0] >= high) \
                    and piece[1] > piece[0]:
                pieces[index] = _Rewritten(piece)
        return (low, high, pieces)

    cdef object rewritten_content(self, CNode* node, CNode* root):
        """(start, end, pieces): node's content region (see content_region;
        its start tag as well where the API changed its attributes or gave
        "<x/>" children) and what replaces it: node's children written as
        run() writes them (the walk). Where the region holds the input of
        nodes outside node (foster-parented text, nodes the adoption agency
        moved), or node has no input, its parent's instead, and so on up;
        None at root (the walk writes it all)."""
        cdef SourceRecord* record
        cdef CNode* child
        cdef bint opened
        cdef bint emptied
        while node != NULL and node != root:
            region = self.content_region(node)
            record = node_source(node)
            if region is not None:
                low, high = region
                own = self.subtree_starts(node)
                # (past_end_tag: the region reaches over its end tag,
                # written after its children)
                past = record != NULL and record.end_tag_start != SOURCE_NONE \
                    and high > record.end_tag_start
                if past:
                    own.append(record.end_tag_start)
                opened = record != NULL and node.type == ELEMENT_NODE and (
                    node.flags & NODE_SELF_CHANGED or (
                        node.first_child != NULL and self.self_closing(node)))
                if opened:
                    if record.end != low:
                        return None
                    low = record.start
                    own.append(record.start)
                if self.only_inside(low, high, own):
                    pieces = []
                    # (an element the parser made which the API emptied:
                    # nothing in the input implies it any more, its tags
                    # are written)
                    emptied = record == NULL and node.type == ELEMENT_NODE and (
                        ls_first_child(node) == NULL
                        # (the second try: an implied html, head, body,
                        # tbody, ... written with its tags, its region then
                        # holds what implied it and maybe its end tag; not a
                        # clone of a formatting element: the active
                        # formatting elements would clone it again)
                        or self.ends_written and (self.clones_written or not lxp_tag_category_of(
                            (<CElement*> node).tag_id, (<CElement*> node).ns)
                        & CAT_FORMATTING))
                    if node.type == ELEMENT_NODE and node.flags & NODE_SELF_CHANGED \
                            or opened or emptied:
                        pieces.append(ls_tag(node, False))
                    closing = ls_tag(node, True) if record != NULL \
                        and node.type == ELEMENT_NODE and node.first_child != NULL \
                        and self.self_closing(node) or emptied or past else None
                    self.region_owner = <size_t> node
                    return self.written_run(pieces, ls_first_child(node), NULL,
                                            closing, low, high)
            node = ls_parent(node)
        return None

    cdef object patch(self, CNode* root):
        """The first writing of a whole document or fragment: its input
        with the edited nodes' spans replaced, and nothing else -- an
        element's start tag where the API changed its attributes (an
        element the parser made: its start tag written before its first
        node's input), a text's (comment's) input where it changed its
        data, the content of an element whose children it inserted,
        removed or moved (see content_region) by its children written as
        run() writes them. None where that cannot be done (an edit in the
        Document's own children, regions that overlap, input of other
        nodes in a region): run() writes it."""
        cdef list regions = []
        cdef list stack = [<size_t> root]
        cdef list pieces
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        cdef bint self_changed
        self.boundaries(root)
        self.measure_parsed(root)
        self.rewritten_starts = set()
        while stack:
            node = <CNode*> <size_t> stack.pop()
            if node != root and node.flags & NODE_CHILDREN_CHANGED:
                self.rewritten_starts.update(self.subtree_starts(node))
            if node == root or node.flags & NODE_SUBTREE_CHANGED:
                child = ls_first_child(node)
                while child != NULL:
                    if child.flags & (NODE_SUBTREE_CHANGED | NODE_CHILDREN_CHANGED):
                        stack.append(<size_t> child)
                    child = child.next
        stack = [<size_t> root]
        self.marked = set()
        self.consumed = 0
        self.document = root if root.type == DOCUMENT_NODE else NULL
        if root.flags & (NODE_CHILDREN_CHANGED | NODE_SELF_CHANGED):
            return None
        while stack:
            node = <CNode*> <size_t> stack.pop()
            record = node_source(node)
            self_changed = node != root and (node.flags & NODE_SELF_CHANGED) != 0
            if node != root and (node.flags & NODE_CHILDREN_CHANGED or (
                    record != NULL and node.type == ELEMENT_NODE
                    and node.first_child != NULL and self.self_closing(node))):
                self.region_owner = <size_t> node
                region = self.rewritten_content(node, root)
                if region is None:
                    return None
                regions.append(region + (self.region_owner,))
                continue
            if self_changed:
                region = None
                self.region_owner = <size_t> node
                if record != NULL and self.only_inside(record.start, record.end,
                                                       [record.start]):
                    region = (record.start, record.end, [
                        ls_tag(node, False) if node.type == ELEMENT_NODE
                        else serialize_html(node, True)])
                    if node.type == ELEMENT_NODE and self.self_closing(node):
                        # (a foreign element's "<x/>": the standard's end
                        # tag closes it)
                        region[2].append(ls_tag(node, True))
                elif record == NULL and node.type == ELEMENT_NODE \
                        and self.extents.get(<size_t> node) is not None:
                    # (an element the parser made: its start tag before
                    # its first node's input; the parser implies its end;
                    # in the try of regions by the standard's algorithm,
                    # the whole element over its extent: an implied html
                    # element given attributes, whose body's text starts
                    # with whitespace, needs its head and body tags)
                    extent = self.extents.get(<size_t> node)
                    if self.regions_standard and self.only_inside(
                            extent[0], extent[1], self.subtree_starts(node)):
                        region = (extent[0], extent[1], [serialize_html(node, True)])
                    else:
                        region = (extent[0], extent[0], [ls_tag(node, False)])
                elif record == NULL and node.type == ELEMENT_NODE:
                    region = self.rewritten_content(node, root)
                else:
                    # (a text whose input holds other nodes' input)
                    region = self.rewritten_content(ls_parent(node), root)
                if region is None:
                    return None
                regions.append(tuple(region) + (self.region_owner,))
            if node == root or node.flags & NODE_SUBTREE_CHANGED:
                # (visited in tree order: regions at one point -- the start
                # tags of an implied head and body -- keep it)
                children = []
                child = ls_first_child(node)
                while child != NULL:
                    if child.flags & (NODE_SUBTREE_CHANGED | NODE_SELF_CHANGED
                                      | NODE_CHILDREN_CHANGED):
                        children.append(<size_t> child)
                    child = child.next
                stack.extend(reversed(children))
        # (a region inside another, the content of an ancestor written
        # whole, is in it: left out; an insertion point at either end of
        # one is kept beside it)
        regions = self.without_interleaving(regions, root)
        if regions is None:
            return None
        out = []
        kept = []                       # (the indexes of the input kept in place)
        position = 0
        last = None
        for low, high, pieces, address in regions:
            if low >= position:
                if low > position:
                    kept.append(len(out))
                    out.append((position, low))
                out.extend(pieces)
                position = high
                last = (low, high, address)
            elif high > position:
                return None             # (regions that overlap)
            elif (low, high) == last[:2] and high > low \
                    and not self.holds(<CNode*> <size_t> last[2], <CNode*> <size_t> address):
                # (one region of two nodes neither holds -- the content of
                # a foster-parented select and of the implied tbody after
                # it, both from the end of the select's input: each
                # writes its own nodes, in tree order)
                out.extend(pieces)
        if self.stream_end > position:
            kept.append(len(out))
            out.append((position, self.stream_end))
        if regions:
            return self.without_patching_templates(root, out, kept, regions)
        return out

    cdef bint holds(self, CNode* top, CNode* node) except -1:
        """Whether node is top or in its subtree (a template's contents in
        the template's)."""
        while node != NULL:
            if node == top:
                return True
            node = ls_parent(node)
        return False

    cdef object without_interleaving(self, list regions, CNode* root):
        """patch()'s regions (low, high, pieces, node address) sorted, where
        two overlap and neither holds the other (the content of clones the
        adoption agency made from input that interleaves: "<i>c<a>d</i>e"
        makes an i and an a whose content regions cross) both replaced by
        the content region of the nearest ancestor of their nodes that
        holds them both (its rewritten content writes them), but where
        they overlap only in input no node came from (then one region: the
        two writings with that input between); None where none below root
        does (run() writes it all)."""
        cdef CNode* first
        cdef CNode* second
        cdef CNode* node
        while True:
            regions.sort(key=lambda region: (region[0], region[1] > region[0], -region[1]))
            position = 0
            last = None
            clash = None
            for region in regions:
                if region[0] >= position:
                    position = region[1]
                    last = region
                elif region[1] > position:
                    clash = (last, region)
                    break
            if clash is None:
                return regions
            first = <CNode*> <size_t> clash[0][3]
            second = <CNode*> <size_t> clash[1][3]
            low = min(clash[0][0], clash[1][0])
            high = max(clash[0][1], clash[1][1])
            above = set()
            node = first
            while node != NULL:
                above.add(<size_t> node)
                node = ls_parent(node)
            node = second
            while node != NULL and <size_t> node not in above:
                node = ls_parent(node)
            if clash[0][0] < clash[1][0] and not self.ends_written \
                    and bisect_left(self.all_starts, clash[0][1]) \
                    == bisect_left(self.all_starts, clash[1][0]):
                # (regions that overlap only in input no node came from --
                # the end tag that ran the adoption agency, which implied
                # the end of the first one's node, and after which its
                # clone, the second one's node, was made: "<b>cruel</font>
                # world" -- are written one after the other, that input
                # kept between them, where it implies the end and makes
                # the clone again)
                regions.remove(clash[0])
                regions.remove(clash[1])
                regions.append((clash[0][0], clash[1][1], list(clash[0][2])
                                + [(clash[1][0], clash[0][1])] + list(clash[1][2]),
                                <size_t> node))
                continue
            region = self.sibling_run(node, first, second, low, high, root)
            while region is None:
                if node == NULL or node == root:
                    return None
                if node.type == ELEMENT_NODE:
                    region = self.rewritten_content(node, root)
                    if region is None:
                        return None
                    if region[0] <= low and high <= region[1]:
                        break
                    region = None
                node = ls_parent(node)
            regions.remove(clash[0])
            regions.remove(clash[1])
            regions.append(tuple(region) + (<size_t> node,))

    cdef object sibling_run(self, CNode* parent, CNode* first, CNode* second,
                            object low, object high, CNode* root):
        """Where first and second are in two children of parent (their
        nearest common ancestor, below root), and the input of those
        children and of the siblings between is all in [low, high) and no
        other node's is: that run of siblings written over [low, high)
        (written_run; the children of an element the parser made, written
        with their tags), else None."""
        cdef CNode* one = first
        cdef CNode* other = second
        cdef CNode* child
        cdef SourceRecord* record
        if parent == NULL or parent == root or parent == first or parent == second:
            return None
        while ls_parent(one) != parent:
            one = ls_parent(one)
        while ls_parent(other) != parent:
            other = ls_parent(other)
        child = one
        while child != NULL and child != other:
            child = child.next
        if child == NULL:
            one, other = other, one
        own = []
        child = one
        while True:
            record = node_source(child)
            if record != NULL:
                own.append(record.start)
                if record.end_tag_start != SOURCE_NONE:
                    own.append(record.end_tag_start)
            own.extend(self.subtree_starts(child))
            if child == other:
                break
            child = child.next
        for offset in own:
            if not low <= offset < high and offset not in self.moved_starts:
                return None
        if not self.only_inside(low, high, own):
            return None
        return self.written_run([], one, other.next, None, low, high)

    cdef list without_patching_templates(self, CNode* root, list out, list kept,
                                         list regions):
        """patch()'s pieces without the input of each <template for> whose
        nodes the rewritten regions write. Declarative out-of-order
        streaming (whatwg/html#11818, prepare content patching): a
        <template for> whose markers were found is never inserted, its
        content goes into the markers' parent and its end tag removes the
        markers, so no node came from its tags. Where the region of the
        element it patched is rewritten (the markers it found, which no node
        is, are not in its output), the template's input as it was would
        insert a template on the reparse, or patch again: its start tag and
        content are left out where every node still in the tree that came
        from its content is written by a rewritten region (a node the API
        moved or removed: none; a text it merged with the text before the
        markers: where that text's input is in a region). Its own end tag, which the parser ignores
        with no template open, and the end tags at the end of its content no
        node of the tree came from (of nodes the API removed) are kept; with
        `templates_whole` (a try of checked_pieces), those end tags are left
        out too. The reparse check decides."""
        global _TEMPLATE_TAG
        cdef list spans = []
        cdef list gathered = []
        cdef list stack = [<size_t> root]
        cdef CNode* node
        cdef CNode* child
        cdef SourceRecord* record
        text = self.info.stream_bytes(0, self.stream_end)
        if text is None or b"<" not in text:
            return out
        if _TEMPLATE_TAG is None:
            import re
            _TEMPLATE_TAG = re.compile(rb"<(/?)template(?=[\t\n\x0c\r />])"
                                       rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.IGNORECASE)
        matches = list(_TEMPLATE_TAG.finditer(text))
        if not matches:
            return out
        # (the input of every node of the tree: a tag in it is no tag)
        while stack:
            node = <CNode*> <size_t> stack.pop()
            record = node_source(node)
            if record != NULL and node.flags & NODE_SOURCE_GATHERED:
                # (a text whose input has other input between its pieces:
                # "a" and the "b" a template patched in before a marker
                # after it, one text)
                gathered.append((record.start, record.end))
            elif record != NULL:
                spans.append((record.start, record.end))
                if record.end_tag_start != SOURCE_NONE:
                    spans.append((record.end_tag_start, record.end_tag_end))
            child = ls_first_child(node)
            while child != NULL:
                stack.append(<size_t> child)
                child = child.next
        spans.sort()
        span_starts = [span[0] for span in spans]
        reach = running_reach(spans)
        own = set(span_starts)
        templates = []                  # (start, content start, end tag start)
        opened = []
        for match in matches:
            offset = match.start()
            index = bisect_right(span_starts, offset) - 1
            if offset in own or (index >= 0 and reach[index] > offset):
                continue                # (a node's tag, or in a node's input)
            if match.group(1):
                if opened:
                    start, content, patching = opened.pop()
                    if patching:
                        templates.append((start, content, offset))
                continue
            opened.append((offset, match.end(), any(
                attribute[0] == b"for" for attribute in scan_start_tag_attributes(
                    match.group(0)))))
        # (one the end of the input ended, not its end tag, left its
        # markers in the tree: a rewritten region writes them, and the
        # template finds them again)
        if not templates:
            return out
        # (in input order: one in another's content is left out with it)
        templates.sort()
        rewritten = [piece for piece in out if type(piece) is _Rewritten]
        cuts = []                       # (start, end) of input left out
        restores = {}                   # kept index -> a start tag before it
        for start, content, end in templates:
            if cuts and start < cuts[len(cuts) - 1][1]:
                continue                # (in the content of one left out)
            first = bisect_left(self.all_starts, content)
            last = bisect_left(self.all_starts, end)
            inside = self.all_starts[first:last] + [
                piece[0] for piece in gathered if content < piece[1] <= end]
            in_place = any(offset not in self.rewritten_starts and not any(
                piece[0] <= offset < piece[1] for piece in rewritten) and not any(
                    region[0] <= offset < region[1] for region in regions)
                for offset in inside)
            for index in kept:
                if out[index][0] <= start and end <= out[index][1]:
                    break
            else:
                # (its start tag at the end of a rewritten region -- the
                # content of the body it is at the start of -- and nodes of
                # it kept in place: the start tag is written again there)
                if in_place and any(region[0] <= start and region[1] == content
                                    for region in regions):
                    for index in kept:
                        if out[index][0] == content:
                            restores[index] = (start, content)
                            break
                continue                # (not wholly in input kept in place)
            if index == 0:
                continue                # (no rewritten region before it)
            if in_place:
                continue                # (nodes of it kept in place)
            cut = end
            if not self.templates_whole:
                while True:
                    match = _END_TAG_AT_END.search(text, content, cut)
                    if match is None or match.start() in own \
                            or match.group(1).lower() in (b"p", b"br"):
                        break
                    cut = match.start()
            cuts.append((start, cut))
        if not cuts and not restores:
            return out
        result = []
        kept_set = set(kept)
        for index in range(len(out)):
            piece = out[index]
            if index in restores:
                result.append(restores[index])
            if index not in kept_set:
                result.append(piece)
                continue
            low, high = piece
            for start, cut in cuts:
                if low <= start and cut <= high:
                    if start > low:
                        result.append((low, start))
                    low = cut
            if high > low:
                result.append((low, high))
        return result

    cdef list run(self, CNode* root, object before):
        """The pieces of root (its extents measured)."""
        self.pieces = []
        self.gaps = True
        self.consumed = 0
        self.marked = set()
        self.document = root if root.type == DOCUMENT_NODE else NULL
        self.input_end = len(self.info.stream_bytes(0, 1 << 62)) \
            if self.document != NULL else None
        if root.type == DOCUMENT_NODE and before is None:
            before = 0          # (whitespace before the first node: dropped)
        self.write(root, before)
        resolve_implied_ends(self.pieces, self.keep_implied, self.input_end)
        return self.pieces

    cdef object write(self, CNode* node, object before):
        """Write node (after input ending at stream offset `before`, or
        None); returns the stream offset its input ends at, or None."""
        cdef SourceRecord* record = node_source(node)
        cdef CNode* child
        cdef bint changed = (node.flags & NODE_SUBTREE_CHANGED) != 0
        cdef bint tags = True
        if self.forced and <size_t> node in self.forced:
            if record != NULL:
                self.gap(before, record.start)
            self.pieces.append(serialize_html(node, True))
            return None
        extent = self.extents.get(<size_t> node)
        if not changed and self.holds_only_its_nodes(node):
            self.gap(before, extent[0])
            self.pieces.append(extent)
            return extent[1]
        if node.type != ELEMENT_NODE and node.type != DOCUMENT_NODE \
                and node.type != DOCUMENT_FRAGMENT_NODE:
            if record != NULL and not self.self_changed(node) \
                    and ((not node.flags & NODE_SOURCE_GATHERED and self.terminated(node))
                         or (node.flags & NODE_SOURCE_GATHERED
                             and self.gathered_whitespace(node))):
                self.gap(before, record.start)
                self.pieces.append((record.start, record.end))
                if node.flags & NODE_SOURCE_GATHERED:
                    self.consumed = record.end
                return record.end
            if record != NULL:
                self.gap(before, record.start)
            self.pieces.append(serialize_html(node, True))
            return None
        if node.type == ELEMENT_NODE and record == NULL and not changed \
                and node.first_child == NULL and (<CElement*> node).ns == NS_HTML \
                and (<CElement*> node).tag_id == TAG_P:
            following = self.stray_end_p(before, node.next)
            if following is not None:
                self.pieces.append((before, following))
                return following
        # The tags: the input's where the element came from the input and
        # the API did not change it; none for an html, head or body element
        # the parser implied (it implies them again); else the standard's
        # (an element the API made or moved, a clone the parser made, or an
        # end the parser implied, written out).
        if node.type == ELEMENT_NODE and is_implied_root(node):
            tags = False
        if node.type == ELEMENT_NODE and record != NULL and not self.keep_implied \
                and self.gained_attributes(node):
            # (the second writing: the start tag of an html or body element
            # a later tag gave attributes is written with them all)
            self.marked.add(<size_t> node)
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
        if node.type == ELEMENT_NODE and record != NULL and node.first_child != NULL \
                and self.self_closing(node):
            # (a foreign element's "<x/>" the API gave children: the
            # standard's start and end tags)
            self.marked.add(<size_t> node)
        cdef bint self_changed = self.self_changed(node)
        if node.type == ELEMENT_NODE:
            if record != NULL and not self_changed:
                self.gap(before, record.start)
                self.pieces.append((record.start, record.end))
                before = record.end
            elif tags:
                if record != NULL:
                    self.gap(before, record.start)
                elif extent is not None:
                    # (an element the parser made, its start tag written:
                    # the whitespace no node came from before its first
                    # node's input is kept before it)
                    self.gap(before, extent[0])
                self.pieces.append(ls_tag(node, False))
                # (the first writing: the input after the start tag goes
                # on as it was, the dropped newline after <pre> included)
                before = record.end if record != NULL and self.keep_implied else None
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
            if record != NULL and record.end_tag_start != SOURCE_NONE and (
                    not self_changed or (self.keep_implied
                                         and <size_t> node not in self.marked)):
                # (the first writing keeps the end tag of an element whose
                # attributes changed: the API renames no element)
                if record.end_tag_start < self.consumed:
                    return before       # (written with its last text)
                self.gap(before, record.end_tag_start)
                self.pieces.append((record.end_tag_start, record.end_tag_end))
                return record.end_tag_end
            if tags:
                if record != NULL and self_changed and self.self_closing(node):
                    # (a foreign element's "<x/>" whose start tag is
                    # written: the standard's end tag closes it)
                    self.pieces.append(ls_tag(node, True))
                    return None
                if self.ends_written and node.flags & NODE_CHILDREN_CHANGED:
                    # (the second try: what implied its end may have moved
                    # with the children the API changed)
                    self.pieces.append(ls_tag(node, True))
                    return None
                if self.keep_implied and record != NULL and before is not None \
                        and <size_t> node not in self.marked:
                    # The first writing: an end the parser implied stays
                    # implied (the input that implied it follows; the
                    # reparse check decides, see checked_pieces).
                    self.pieces.append([ls_tag(node, True), before])
                    return before
                if record != NULL and before is not None \
                        and not self_changed \
                        and (has_implied_end(<CElement*> node)
                             # (or one the end of the input ended)
                             or before == self.input_end):
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
    return source_output(node, encoding, True, False)


cdef object node_to_source_edits(Node node, object encoding, bint checked):
    """Node.to_source_edits()."""
    return source_output(node, encoding, checked, True)


cdef object source_output(Node node, object encoding, bint checked, bint edits):
    """to_source()'s output, or with `edits` the rewritten ranges of the
    input that make it (source_edits); without `checked`, the first writing
    (no reparse check, hence no widened region)."""
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
        if edits:
            return []
        if text_output:
            return original if isinstance(original, str) else info.stream_text()
        if isinstance(original, bytes) and same_encoding(encoding, info.encoding):
            return original
        return info.assemble([(0, len(info.stream_bytes(0, 1 << 62)))], False, encoding,
                             unencodable_bytes(info, c_node, None, 0))
    reparse = info.reparse
    whole = reparse is not None and not info.insertions_made() and (
        c_node.type == DOCUMENT_NODE or (
            c_node.type == DOCUMENT_FRAGMENT_NODE
            and (<CDocumentFragment*> c_node).host == NULL))
    # (a whole document or fragment: implied ends stay implied where its
    # reparse allows; a node's own output is whole, its ends written)
    writer.keep_implied = whole
    writer.measure(c_node)
    pieces = writer.patch(c_node) if whole else None
    if pieces is None:
        pieces = writer.run(c_node, None)
    if checked and whole:
        pieces = checked_pieces(writer, c_node, pieces, info, reparse)
    if edits:
        return source_edits(pieces, info, text_output, encoding, c_node)
    return info.assemble(pieces, text_output, encoding,
                         unencodable_bytes(info, c_node, None, 0))


# Characters the output encoding has not (to_source(encoding=...)): where
# the HTML syntax has a character reference for them (text, RCDATA,
# attribute values), that; in a comment, a DOCTYPE, a processing
# instruction (a bogus comment) and raw text (script, style, ...), which
# have none, U+FFFD is written as U+0000 (the tokenizer's comment, DOCTYPE,
# bogus comment, RAWTEXT, script data and PLAINTEXT states make U+FFFD of
# it: the same tree), any other character raises UnicodeEncodeError (no
# output in that encoding parses to the tree), as it does in tag and
# attribute names.


_KEEP = object()
_NAMED = ("a comment", "a DOCTYPE", "a processing instruction", "raw text")


cdef object unencodable_bytes(object info, CNode* node, list pieces, Py_ssize_t first):
    """SourceMap.assemble's `unencodable` for node's output: the
    characters' bytes by where they are in the output's parse (with
    `pieces`, the text given is that of pieces[first:...] of that output)."""
    import functools
    cdef CNode* parent = ls_parent(node)
    context = _KEEP
    if parent != NULL and parent.type == ELEMENT_NODE and not (
            node.type == DOCUMENT_NODE or (node.type == DOCUMENT_FRAGMENT_NODE
                                           and (<CDocumentFragment*> node).host == NULL)):
        context = node_proxy(parent)
    elif node.type != DOCUMENT_NODE and node.type != DOCUMENT_FRAGMENT_NODE \
            and parent != NULL and parent.type == DOCUMENT_NODE:
        context = None
    return functools.partial(_unencodable, info, context, pieces, first)


def _unencodable(info, context, pieces, first, text, offsets, codec):
    if pieces is not None:
        shift = len(info.assemble(pieces[:first], True, None))
        text = info.assemble(pieces, True, None)
        offsets = [offset + shift for offset in offsets]
    if info.reparse is None:
        raise UnicodeEncodeError(codec, text, offsets[0], offsets[0] + 1,
                                 "not in the output encoding")
    tree = info.reparse(text, True) if context is _KEEP else info.reparse(text, True, context)
    strong = []                 # (start, end, kind, element): tags, comments, ...
    texts = []                  # (start, end) of the other texts
    stack = [tree]
    while stack:
        proxy = stack.pop()
        stack.extend(proxy.child_nodes)
        kind = proxy.node_type
        if kind == ELEMENT_NODE and proxy.local_name == "template" \
                and proxy.namespace_uri == "http://www.w3.org/1999/xhtml":
            stack.extend(proxy.content.child_nodes)
        span = proxy.source if kind != DOCUMENT_NODE and kind != DOCUMENT_FRAGMENT_NODE \
            else None
        if span is None:
            continue
        if kind == ELEMENT_NODE:
            strong.append((span.start, span.end, -1, proxy))
            if proxy.end_source is not None:
                strong.append((proxy.end_source.start, proxy.end_source.end, -1, None))
        elif kind == COMMENT_NODE:
            strong.append((span.start, span.end, 0, None))
        elif kind == DOCUMENT_TYPE_NODE:
            strong.append((span.start, span.end, 1, None))
        elif kind == PROCESSING_INSTRUCTION_NODE:
            strong.append((span.start, span.end, 2, None))
        elif kind == TEXT_NODE and text_is_raw((<Node> proxy).c_node):
            strong.append((span.start, span.end, 3, None))
        elif kind == TEXT_NODE:
            texts.append((span.start, span.end))
    strong.sort(key=lambda item: item[0])
    texts.sort()
    starts = [item[0] for item in strong]
    text_starts = [item[0] for item in texts]
    reach = running_reach(texts)
    out = []
    for offset in offsets:
        character = text[offset]
        reason = None
        index = bisect_right(starts, offset) - 1
        if index >= 0 and offset < strong[index][1]:
            start, end, kind, element = strong[index]
            if kind >= 0:
                if character == "\ufffd":
                    out.append("\x00".encode(codec))
                    continue
                reason = "%s has no character reference" % _NAMED[kind]
            else:
                for name in (element.attributes.keys() if element is not None else ()):
                    spans = element.attribute_source(name)
                    if spans is not None and spans[1] is not None \
                            and spans[1].start <= offset < spans[1].end:
                        break
                else:
                    reason = "a tag or attribute name has no character reference"
        else:
            index = bisect_right(text_starts, offset) - 1
            if index < 0 or reach[index] <= offset:
                reason = "no node of the output's parse came from it"
        if reason is not None:
            raise UnicodeEncodeError(
                codec, text, offset, offset + 1,
                "U+%04X is not in the encoding and %s: no output in this encoding "
                "parses to the tree" % (ord(character), reason))
        out.append(("&#%d;" % ord(character)).encode(codec))
    return out


cdef list source_edits(list pieces, object info, bint text_output, object encoding,
                       CNode* root):
    """The output as edits of the input: [(start, end, text)], offsets into
    the input as given, sorted and apart, such that the input with each
    [start, end) replaced by its text is the output. The input kept in
    place is the heaviest run of input pieces in input order (the most
    input bytes); the other pieces (serialized text, input copied out of
    order: a moved node) are the texts of the edits around them. For a
    node other than a Document the input before and after its own input
    is outside the output, and reported as removed."""
    cdef Py_ssize_t n, i, j, k
    cdef list spans = []                # (index in pieces, start, end), input
    for i in range(len(pieces)):
        piece = pieces[i]
        if type(piece) is tuple:
            if info.stream_bytes(piece[0], piece[1]) is None:
                continue                # (text a script wrote: not output)
            a = info.original_offset(piece[0])
            b = info.original_offset(piece[1])
            if b > a:
                spans.append((i, a, b))
    # The heaviest increasing chain (starts after the previous end), by
    # the input bytes it keeps: dynamic programming over the spans sorted
    # by start, with a Fenwick tree of the best chain ending before each
    # end offset (O(n log n)).
    n = len(spans)
    order = sorted(range(n), key=lambda index: spans[index][1])
    ends = sorted(set(span[2] for span in spans))
    tree = [0] * (len(ends) + 1)        # (best weight, span index + 1) maxima
    tree_at = [0] * (len(ends) + 1)
    best = [0] * n
    previous = [-1] * n
    # Process by piece order so chains follow the output order too.
    for k in range(n):
        i, a, b = spans[k]
        # best chain among earlier pieces whose end <= a
        j = bisect_right(ends, a)
        weight, at = 0, 0
        while j > 0:
            if tree[j] > weight:
                weight, at = tree[j], tree_at[j]
            j -= j & -j
        best[k] = weight + (b - a)
        previous[k] = at - 1
        j = bisect_left(ends, b) + 1
        while j <= len(ends):
            if best[k] > tree[j]:
                tree[j] = best[k]
                tree_at[j] = k + 1
            j += j & -j
    kept = set()
    if n:
        k = max(range(n), key=lambda index: best[index])
        while k >= 0:
            kept.add(k)
            k = previous[k]
    cdef list out = []
    cdef list run = []
    run_first = 0                       # (the index in pieces of run's first)
    position = 0
    original = info.original
    # (the output in the input's own form: an edit is compared with the
    # input it replaces)
    # (in an encoding where "<" and ">" are those bytes alone: not UTF-16
    # nor ISO-2022-JP)
    own_form = isinstance(original, str) if text_output else (
        isinstance(original, bytes) and same_encoding(encoding, info.encoding)
        and python_codec(encoding) not in ("utf_16_le", "utf_16_be", "utf-16-le",
                                           "utf-16-be", "iso2022_jp"))
    for k in range(n + 1):
        last = spans[k - 1][0] + 1 if k > 0 else 0
        upto = spans[k][0] if k < n else len(pieces)
        run.extend(pieces[last:upto])
        if k < n and k not in kept:
            run.append(pieces[spans[k][0]])
            continue
        start = spans[k][1] if k < n else len(original)
        text = info.assemble(run, text_output, encoding, unencodable_bytes(
            info, root, pieces, run_first)) if run else ("" if text_output else b"")
        if start > position or text:
            edit = unchanged_or_edit(original, position, start, text, own_form)
            if edit is not None:
                out.extend(kept_between(original, edit, own_form))
        run = []
        run_first = spans[k][0] + 1 if k < n else len(pieces)
        if k < n:
            position = spans[k][2]
    return out


cdef object unchanged_or_edit(object original, Py_ssize_t start, Py_ssize_t end,
                              object text, bint own_form):
    """The edit (start, end, text) without the input it writes again as it
    was at either end (a node serialized as its input had it: "<select>"
    and "</select>" around its rewritten content), cut only after a ">"
    and before a "<" (whole tags and texts stay in or out of it); None
    where its text is the input it replaces (nothing rewritten)."""
    cdef Py_ssize_t prefix = 0, suffix = 0, limit
    if not own_form:
        return (start, end, text)
    old = original[start:end]
    if old == text:
        return None
    close, open_ = (">", "<") if isinstance(text, str) else (b">", b"<")
    limit = min(len(old), len(text))
    while prefix < limit and old[prefix] == text[prefix]:
        prefix += 1
    while suffix < limit - prefix \
            and old[len(old) - 1 - suffix] == text[len(text) - 1 - suffix]:
        suffix += 1
    prefix = old.rfind(close, 0, prefix) + 1
    cut = old.find(open_, len(old) - suffix)
    suffix = len(old) - cut if cut >= 0 else 0
    return (start + prefix, end - suffix, text[prefix:len(text) - suffix])


cdef list kept_between(object original, tuple edit, bint own_form):
    """An edit whose text writes the input at its start again after an
    insertion (text = inserted + input[start:start + m]) or the input at
    its end before one (text = input[end - m:end] + inserted), as two
    edits around that input kept (the largest m, cut at whole tags:
    "<head></head>" inserted before "<body>...</html>" and the whitespace
    after it removed are two edits, not one over the kept tags)."""
    start, end, text = edit
    if not own_form or not text or end <= start:
        return [edit]
    old = original[start:end]
    close, open_ = (">", "<") if isinstance(text, str) else (b">", b"<")
    empty = text[:0]
    # (input at the start kept after an insertion: the first "<" of text
    # from which the rest of it is input at the start, ending at a ">")
    at = text.find(open_, 1)
    while at > 0:
        if old.startswith(text[at:]) and text.endswith(close):
            return [(start, start, text[:at]), (start + len(text) - at, end, empty)]
        at = text.find(open_, at + 1)
    # (input at the end kept before an insertion)
    at = text.rfind(close, 0, len(text) - 1)
    while at >= 0:
        if old.endswith(text[:at + 1]) and text.startswith(open_):
            return [(start, end - at - 1, empty), (end, end, text[at + 1:])]
        at = text.rfind(close, 0, at)
    return [edit]


cdef str dump_of(CNode* node):
    """The tree under node as a parse makes it: adjacent text nodes as
    one, empty ones left out (no serialization gives them)."""
    cdef Buffer out
    memset(&out, 0, sizeof(Buffer))
    begin_reading(node.owner)
    with nogil:
        dump_tree_as(&out, node, True)
    end_reading(node.owner)
    return buffer_finish(&out)


cdef inline CNode* ls_parent(CNode* node) noexcept nogil:
    """The parent, where a template's contents have their template."""
    cdef CNode* parent = node.parent
    if parent != NULL and parent.type == DOCUMENT_FRAGMENT_NODE \
            and (<CDocumentFragment*> parent).host != NULL:
        return (<CDocumentFragment*> parent).host
    return parent


cdef inline bint writes_tree(object info, object reparse, list pieces,
                             object expected) except -1:
    """Whether `pieces`, assembled into the output, reparse to the tree
    whose dump is `expected`."""
    return dump_of((<Node> reparse(info.assemble(pieces, True, None))).c_node) == expected


cdef object with_ignored_tail(_SourceWriter writer, list pieces, object info,
                              object reparse, str expected):
    """A walk's pieces (run()) that parse back to the tree (`expected`),
    with the input after every node's input kept at the end (tags the
    parser ignored: "</b>", "<frameset>" after the body's content, "</html>"
    ...: run() writes no input no node came from but whitespace and html,
    head and body tags), else as they are; None where neither does."""
    cdef size_t tail = max(writer.all_ends) if writer.all_ends else 0
    for piece in pieces:
        if type(piece) is not str and type(piece) is not list and piece[1] > tail:
            tail = piece[1]
    if tail < writer.stream_end:
        kept = pieces + [(tail, writer.stream_end)]
        if writes_tree(info, reparse, kept, expected):
            return kept
    if writes_tree(info, reparse, pieces, expected):
        return pieces
    return None


cdef list checked_pieces(_SourceWriter writer, CNode* root, list pieces, object info,
                         object reparse):
    """The pieces of a whole parsed document (or fragment), checked: where
    their text parses to another tree than root's (the parser would move or
    merge what the edits put there: foster parenting, attributes a later
    <html> or <body> tag adds, implied tags, raw text, foreign content),
    the smallest enclosing region of each edited node that parses back is
    written by the standard's algorithm instead, regions growing twice as
    high each round up to root's children (the DOCTYPE kept); where none
    does (a tree HTML cannot give: a <p> in a <p>), the first pieces."""
    cdef list seeds = []
    cdef list stack = [<size_t> root]
    cdef CNode* node
    cdef CNode* child
    cdef CNode* up
    cdef size_t address
    cdef Py_ssize_t level = 0, step
    cdef bint top
    expected = dump_of(root)
    if writes_tree(info, reparse, pieces, expected):
        return pieces
    # The first writing again, the ends the parser implied in its rewritten
    # regions written but where the input that implied them follows (a
    # moved element's end: nothing implies it where it went).
    if writer.keep_implied:
        # (the input after an element's end tag which its children the API
        # took out came from, in its content region)
        writer.past_end_tag = True
        again = writer.patch(root)
        writer.past_end_tag = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
        # (the end tags after the input of an element whose end the parser
        # implied kept after its rewritten content: they end it again)
        writer.end_tags_kept = True
        again = writer.patch(root)
        writer.end_tags_kept = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
        # (a <template for> left out with the end tags at the end of its
        # content: see without_patching_templates)
        writer.templates_whole = True
        again = writer.patch(root)
        writer.templates_whole = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
        writer.ends_written = True
        again = writer.patch(root)
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            writer.ends_written = False
            return again
        # ... and with the end tags after an implied end kept after the
        # rewritten content as well (content appended to a th whose "</tr>"
        # ended it and the i in it: "</i>" written before the new content,
        # "</tr>" kept after it)
        writer.end_tags_kept = True
        again = writer.patch(root)
        writer.end_tags_kept = False
        writer.ends_written = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
        # ... and with the nodes of its rewritten regions written by the
        # standard's serialization (the input the walk copies in them can
        # make the parser reconstruct or move what the edits put there)
        writer.ends_written = True
        writer.regions_standard = True
        again = writer.patch(root)
        writer.ends_written = False
        writer.regions_standard = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
        # ... and with the clones of formatting elements in them written
        # with their tags (the active formatting elements reconstruct a
        # clone where the input left it open; written, the tag runs the
        # adoption agency and opens the clone's content where it was)
        writer.ends_written = True
        writer.regions_standard = True
        writer.clones_written = True
        again = writer.patch(root)
        writer.ends_written = False
        writer.regions_standard = False
        writer.clones_written = False
        if again is not None and again != pieces and writes_tree(info, reparse, again, expected):
            return again
    # The second writing: the whole tree walked (implied ends still
    # implied), then the third: implied ends written where what follows is
    # not the input that implied them, html and body start tags with the
    # attributes later tags gave them.
    if writer.keep_implied:
        second = writer.run(root, None)
        found = with_ignored_tail(writer, second, info, reparse, expected)
        if found is not None:
            return found
    writer.keep_implied = False
    writer.measure(root)
    second = writer.run(root, None)
    found = with_ignored_tail(writer, second, info, reparse, expected)
    if found is not None:
        return found
    for address in writer.marked:
        seeds.append(address)
    # The edited nodes (nodes the API changed, or whose children it did).
    while stack:
        node = <CNode*> <size_t> stack.pop()
        if node != root and node.flags & (NODE_SELF_CHANGED | NODE_CHILDREN_CHANGED):
            seeds.append(<size_t> node)
        if not node.flags & NODE_SUBTREE_CHANGED and node != root:
            continue
        child = ls_first_child(node)
        while child != NULL:
            if child.flags & (NODE_SUBTREE_CHANGED | NODE_SELF_CHANGED
                              | NODE_CHILDREN_CHANGED):
                stack.append(<size_t> child)
            child = child.next
    # Root's children but its DOCTYPE, by the standard's algorithm: where
    # that does not parse back either, no output does better than the first.
    whole = set()
    child = ls_first_child(root)
    while child != NULL:
        if child.type != DOCUMENT_TYPE_NODE:
            whole.add(<size_t> child)
        child = child.next
    writer.forced = whole
    last = writer.run(root, None)
    found = with_ignored_tail(writer, last, info, reparse, expected)
    if found is None:
        return pieces
    last = found
    while True:
        forced = set()
        top = True
        for address in seeds:
            node = <CNode*> address
            step = 0
            while step < level:
                up = ls_parent(node)
                if up == NULL or up == root:
                    break
                node = up
                step += 1
            up = ls_parent(node)
            if up != NULL and up != root:
                top = False
            forced.add(<size_t> node)
        if top:
            return last
        writer.forced = forced
        attempt = writer.run(root, None)
        found = with_ignored_tail(writer, attempt, info, reparse, expected)
        if found is not None:
            return found
        level = level * 2 if level else 1


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
