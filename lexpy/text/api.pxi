# The Python functions: argument checks, the readers count that keeps the
# tree unchanged while the walk runs without the GIL, one str at the end.

import re

fill_ua_boxes()

from lexpy.dom.dom import Text as _Text


cdef CNode* node_of(object node, str what) except NULL:
    if not isinstance(node, Node):
        raise TypeError("%s must be a lexpy Node, not %s"
                        % (what, type(node).__name__))
    if (<Node> node).c_node == NULL:
        raise ValueError("%s belongs to no document" % what)
    return (<Node> node).c_node


cdef uint32_t attribute_id(CDocument* doc, bytes name):
    # (the document's dynamic attribute id; 0 when no element has it)
    return attr_id_by_name(doc.attr_names, <const uint8_t*> <char*> name, len(name), False)


cdef bint flag(object value, str name) except -1:
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, type(value).__name__))
    return value


cdef inline void begin_reading(CDocument* doc) noexcept:
    # (the DOM's protocol, proxies.pxi: while nonzero the Python API refuses
    # changes, so the walk sees no half-made change)
    doc.readers += 1


cdef inline void end_reading(CDocument* doc) noexcept:
    doc.readers -= 1


cdef void write_descendant_text(TextWriter* w, CNode* root) noexcept nogil:
    # https://dom.spec.whatwg.org/#concept-descendant-text-content
    cdef CNode* node = root.first_child
    while node != NULL:
        if node.type == TEXT_NODE:
            writer_raw(w, (<CCharacterData*> node).data,
                       (<CCharacterData*> node).length)
        node = next_in_tree(node, root)


cdef int walk_with_main_content(TextWriter* w, CNode* root, TextOptions* o,
                                bint main_content, bint markdown) noexcept nogil:
    """Run the text or Markdown walk, first choosing the main content when
    asked (main_content.pxi)."""
    cdef ContentStats stats
    cdef uint8_t* removed = NULL
    cdef int result
    if main_content:
        if collect_stats(&stats, root, o) != 0:
            w.failed = True
            return -1
        if stats.count:
            removed = <uint8_t*> malloc(stats.count)
            if removed == NULL or select_main_content(&stats, removed) != 0:
                free(removed)
                stats_free(&stats)
                w.failed = True
                return -1
            o.removed = removed
            o.subtree = stats.subtree
    result = write_markdown(w, root, o) if markdown else collect_text(w, root, o)
    o.removed = NULL
    o.subtree = NULL
    free(removed)
    if main_content:
        stats_free(&stats)
    return result


cdef void plain_text_options(TextOptions* o, CDocument* doc, bint links, bint alt_text,
                             bint list_bullets):
    memset(o, 0, sizeof(TextOptions))
    o.mode = MODE_PLAIN
    o.scripting = doc.scripting != 0
    o.aria_hidden = attribute_id(doc, b"aria-hidden")
    o.links = links
    o.alt_text = alt_text
    o.list_bullets = list_bullets


cdef void extract_text_walk(TextWriter* w, CNode* root, TextOptions* o,
                            bint main_content) noexcept nogil:
    if root.type == ELEMENT_NODE and (<CElement*> root).template_content != NULL:
        root = (<CElement*> root).template_content
    writer_init(w)
    walk_with_main_content(w, root, o, main_content, False)
    writer_measure(w)


def inner_text(element):
    """The HTML standard's innerText of `element`
    (https://html.spec.whatwg.org/multipage/dom.html#dom-innertext): its
    rendered text under the user-agent stylesheet (lexpy applies no author
    CSS: `style` attributes and <style> sheets are ignored). An element that
    is not being rendered (display: none, outside a document, fallback
    content, ...) gives its text_content. None for SVG and MathML elements,
    which have no innerText. Element.inner_text and outer_text call this."""
    cdef CNode* c_node = node_of(element, "element")
    cdef CElement* c_element
    cdef TextWriter w
    cdef TextOptions o
    cdef bint rendered = False
    if c_node.type != ELEMENT_NODE:
        raise TypeError("element must be a lexpy Element, not %s"
                        % type(element).__name__)
    c_element = <CElement*> c_node
    if c_element.ns != NS_HTML:
        return None
    writer_init(&w)
    memset(&o, 0, sizeof(TextOptions))
    o.mode = MODE_INNER_TEXT
    o.scripting = c_node.owner.scripting != 0
    begin_reading(c_node.owner)
    with nogil:
        rendered = element_being_rendered(c_element, o.scripting)
        if not rendered:
            write_descendant_text(&w, c_node)
        elif html_box(c_element, o.scripting) != BOX_REPLACED:
            collect_text(&w, c_node, &o)
        writer_measure(&w)
    end_reading(c_node.owner)
    return writer_finish(&w)


_LINE_BREAKS = re.compile("(\r\n|\r|\n)")


def _rendered_text_fragment(str value, document):
    # https://html.spec.whatwg.org/multipage/dom.html#rendered-text-fragment
    fragment = document.create_document_fragment()
    for i, part in enumerate(_LINE_BREAKS.split(value)):
        if i % 2:
            fragment.append_child(document.create_element("br"))
        elif part:
            fragment.append_child(document.create_text_node(part))
    return fragment


def set_inner_text(element, value):
    """The innerText setter: replace the children of `element` with the
    text, each line break (CRLF, CR or LF) becoming a <br> element
    (https://html.spec.whatwg.org/multipage/dom.html#set-the-inner-text-steps)."""
    node_of(element, "element")
    if not isinstance(value, str):
        raise TypeError("inner_text must be a str, not %s" % type(value).__name__)
    fragment = _rendered_text_fragment(value, element.owner_document)
    element.text_content = None
    element.append_child(fragment)


def set_outer_text(element, value):
    """The outerText setter: replace `element` itself with the text and
    <br> elements, then merge the Text nodes that meet
    (https://html.spec.whatwg.org/multipage/dom.html#dom-outertext). A
    ValueError when the element has no parent."""
    node_of(element, "element")
    if not isinstance(value, str):
        raise TypeError("outer_text must be a str, not %s" % type(value).__name__)
    parent = element.parent_node
    if parent is None:
        raise ValueError("outer_text cannot be set on an element without a "
                         "parent (NoModificationAllowedError)")
    document = element.owner_document
    following = element.next_sibling
    previous = element.previous_sibling
    fragment = _rendered_text_fragment(value, document)
    if not fragment.has_child_nodes():
        fragment.append_child(document.create_text_node(""))
    parent.replace_child(fragment, element)
    if following is not None and isinstance(following.previous_sibling, _Text):
        _merge_with_next_text(following.previous_sibling)
    if isinstance(previous, _Text):
        _merge_with_next_text(previous)


def _merge_with_next_text(node):
    # https://html.spec.whatwg.org/multipage/dom.html#merge-with-the-next-text-node
    following = node.next_sibling
    if not isinstance(following, _Text):
        return
    node.append_data(following.data)
    following.remove()


def extract_text(node, *, main_content=False, links=False, alt_text=False,
                 list_bullets=True):
    """Readable plain text of `node` (any node: a Document, an element, a
    fragment, template contents, a detached subtree; for a <template>, its
    contents), with the document's block structure: a blank line between
    paragraphs, headings, tables, lists and other blocks of their kind, one
    line break around other blocks, list items on their own lines ("- ",
    or "1. " in ordered lists, indented by nesting), table cells separated
    by tabs and rows by line breaks, preformatted text kept, other white
    space collapsed. Left out: what the UA stylesheet does not render
    (head, script, style, template, hidden, ...), what the page hides
    itself (aria-hidden="true", an inline style of display: none or
    visibility: hidden: the only author styling looked at), form controls,
    embedded content and SVG. Lone surrogates in the text pass through.

    main_content: only the main content (the article, with its title when
    that belongs to it): boilerplate such as navigation, headers, footers,
    sidebars, comments, share widgets and link lists is removed by
    heuristics over the tree (text and link density per block, semantic
    elements, ARIA roles, class and id words; main_content.pxi). A page
    without anything article-like gives its text without boilerplate.
    links: write each link's target after its text, as " (href)".
    alt_text: write images' alt text.
    list_bullets: write list markers ("- ", "1. ")."""
    cdef CNode* c_node = node_of(node, "node")
    cdef TextWriter w
    cdef TextOptions o
    cdef CDocument* doc = c_node.owner
    plain_text_options(&o, doc, flag(links, "links"), flag(alt_text, "alt_text"),
                       flag(list_bullets, "list_bullets"))
    cdef bint main = flag(main_content, "main_content")
    if c_node.type == TEXT_NODE or c_node.type == CDATA_SECTION_NODE:
        writer_init(&w)
        with nogil:
            writer_text(&w, (<CCharacterData*> c_node).data,
                        (<CCharacterData*> c_node).length, False)
        return writer_finish(&w)
    if c_node.type != ELEMENT_NODE and c_node.type != DOCUMENT_NODE \
            and c_node.type != DOCUMENT_FRAGMENT_NODE:
        return ""
    begin_reading(doc)
    try:
        with nogil:
            extract_text_walk(&w, c_node, &o, main)
    finally:
        end_reading(doc)
    return writer_finish(&w)


def to_markdown(node, *, main_content=False, raw_html=False):
    """CommonMark for `node` (any node, as for extract_text): ATX headings,
    paragraphs, emphasis and strong emphasis, code spans and fenced code
    blocks (the info string from class="language-x"), links and images with
    their titles (an inline data: image gives its alt text only; a
    javascript: link its text), nested ordered (start numbers kept) and
    bullet lists,
    block quotes, thematic breaks, hard line breaks, GFM tables; text is
    backslash-escaped so it renders back as the same text.

    main_content: only the main content, as for extract_text.
    raw_html: inline elements Markdown cannot express (span with
    attributes, sub, sup, u, ...) and comments are written as raw HTML;
    otherwise only their text."""
    cdef CNode* c_node = node_of(node, "node")
    cdef TextWriter w
    cdef TextOptions o
    cdef CNode* root = c_node
    cdef CDocument* doc = c_node.owner
    memset(&o, 0, sizeof(TextOptions))
    o.mode = MODE_PLAIN
    o.scripting = doc.scripting != 0
    o.alt_text = True
    o.aria_hidden = attribute_id(doc, b"aria-hidden")
    o.raw_html = flag(raw_html, "raw_html")
    cdef bint main = flag(main_content, "main_content")
    writer_init(&w)
    if c_node.type == TEXT_NODE or c_node.type == CDATA_SECTION_NODE:
        return extract_text(node)
    if c_node.type != ELEMENT_NODE and c_node.type != DOCUMENT_NODE \
            and c_node.type != DOCUMENT_FRAGMENT_NODE:
        return ""
    begin_reading(doc)
    try:
        with nogil:
            walk_with_main_content(&w, root, &o, main, True)
            writer_measure(&w)
    finally:
        end_reading(doc)
    return writer_finish(&w)


def _main_content_candidates(node, count=5):
    """Diagnostics for tuning main_content (not API): the best scoring
    elements as (element, score, text characters), best first."""
    cdef CNode* root = node_of(node, "node")
    cdef ContentStats stats
    cdef TextOptions o
    cdef uint8_t* removed
    cdef size_t i
    cdef list elements = []
    memset(&o, 0, sizeof(TextOptions))
    o.mode = MODE_PLAIN
    o.scripting = root.owner.scripting != 0
    o.aria_hidden = attribute_id(root.owner, b"aria-hidden")
    if collect_stats(&stats, root, &o) != 0:
        raise MemoryError()
    try:
        removed = <uint8_t*> malloc(stats.count + 1)
        select_main_content(&stats, removed)
        free(removed)
        scores = sorted(((stats.score[i], i) for i in range(stats.count)), reverse=True)[:count]
        wanted = {i: s for s, i in scores}
        index = 0
        c = root.first_child
        found = {}
        while c != NULL:
            if c.type == ELEMENT_NODE:
                if index in wanted:
                    found[index] = (node_proxy(c), wanted[index], stats.text[index])
                index += 1
            c = next_in_tree(c, root)
        return [found[i] for s, i in scores if i in found]
    finally:
        stats_free(&stats)
