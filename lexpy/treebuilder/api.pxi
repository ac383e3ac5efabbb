# The Python face of one parse (used by lexpy.parser): a tokenizer and a
# tree builder over a new Document, fed UTF-8 chunks with the GIL released.
# Python objects are made only before the first token and after the tree is
# done.

NAMESPACES = {
    "html": NS_HTML, "http://www.w3.org/1999/xhtml": NS_HTML,
    "svg": NS_SVG, "http://www.w3.org/2000/svg": NS_SVG,
    "math": NS_MATHML, "mathml": NS_MATHML,
    "http://www.w3.org/1998/Math/MathML": NS_MATHML,
}


cdef class TreeConstruction:
    """One parse: UTF-8 chunks in, a Document (or a fragment's nodes) out.

    Internal to lexpy (lexpy.parse, lexpy.parse_fragment and lexpy.Parser
    are the public entry points): it does no argument checking beyond its
    types and no decoding.
    """
    cdef Document document
    cdef Tokenizer* c_tokenizer
    cdef TreeBuilder* c_builder
    cdef ErrorList c_errors
    cdef bint collect_errors
    cdef bint finished
    cdef object context_owner       # a caller's context element, kept alive

    def __cinit__(self, bint scripting=True, bint processing_instructions=True,
                  bint collect_errors=False):
        cdef CDocument* c_doc
        cdef ErrorList* errors
        memset(&self.c_errors, 0, sizeof(ErrorList))
        self.collect_errors = collect_errors
        self.document = document_new()
        if self.document is None or self.document.c_doc == NULL:
            raise RuntimeError("lexpy.dom could not create a document")
        c_doc = self.document.c_doc
        errors = &self.c_errors if collect_errors else NULL
        self.c_tokenizer = tokenizer_create(c_doc.tag_names, c_doc.attr_names,
                                            processing_instructions, errors)
        if self.c_tokenizer == NULL:
            raise MemoryError()
        self.c_builder = tree_builder_create(c_doc, self.c_tokenizer, errors,
                                             scripting)
        # The serializer writes <noscript> content as the parse read it; and
        # while the builder holds node pointers, the DOM reclaims nothing.
        c_doc.scripting = scripting
        c_doc.building = 1
        if self.c_builder == NULL:
            raise MemoryError()
        tokenizer_set_callback(self.c_tokenizer, tree_builder_token,
                               self.c_builder)

    def __dealloc__(self):
        if self.document is not None and self.document.c_doc != NULL:
            self.document.c_doc.building = 0
        if self.c_tokenizer != NULL:
            tokenizer_destroy(self.c_tokenizer)
        tree_builder_destroy(self.c_builder)
        error_list_clear(&self.c_errors)

    def set_fragment_context(self, str local_name, uint32_t namespace,
                             Node element=None):
        """Switch to the fragment case before the first chunk: the context
        element is `element` (of any document), or a new element named
        `local_name` in namespace NS_HTML, NS_SVG or NS_MATHML."""
        cdef CDocument* c_doc = self.document.c_doc
        cdef CElement* context
        cdef CElement* form = NULL
        cdef CNode* ancestor
        cdef bytes name
        if element is not None:
            if element.c_node == NULL or element.c_node.type != ELEMENT_NODE:
                raise TypeError("the context must be an Element")
            context = <CElement*> node_clone_into(element.c_node, c_doc, False)
            c_doc.quirks_mode = element.doc.c_doc.quirks_mode
            ancestor = element.c_node
            while ancestor != NULL:
                if ancestor.type == ELEMENT_NODE and is_html_element(
                        <CElement*> ancestor, TAG_FORM):
                    form = <CElement*> ancestor
                    break
                ancestor = ancestor.parent
            self.context_owner = element
        else:
            name = local_name.encode("utf-8")
            context = element_create(c_doc, tag_id_by_name(
                c_doc.tag_names, name, len(name), True), namespace)
            if context != NULL and is_html_element(context, TAG_FORM):
                form = context
        if context == NULL:
            raise MemoryError()
        if tree_builder_set_fragment_context(self.c_builder, context, form) != 0:
            raise MemoryError()

    def feed(self, bytes chunk):
        """Tokenize and build from a chunk of UTF-8 (complete sequences)."""
        cdef const uint8_t* data = chunk
        cdef size_t length = len(chunk)
        cdef int status
        if self.finished:
            raise ValueError("the parse is finished")
        with nogil:
            status = tokenizer_feed(self.c_tokenizer, data, length)
        if status != 0 and self.c_builder.failed:
            raise MemoryError()

    def finish(self):
        """End of input: the Document."""
        cdef int status
        if not self.finished:
            self.finished = True
            with nogil:
                status = tokenizer_finish(self.c_tokenizer)
            self.document.c_doc.building = 0
            if self.c_builder.failed:
                raise MemoryError()
        return self.document

    def finish_fragment(self):
        """End of input in the fragment case: a DocumentFragment holding the
        children of the root html element."""
        cdef CDocumentFragment* fragment
        cdef CElement* root = self.c_builder.fragment_root
        self.finish()
        if root == NULL:
            raise ValueError("not the fragment case")
        fragment = document_fragment_create(self.document.c_doc)
        if fragment == NULL:
            raise MemoryError()
        while root.node.first_child != NULL:
            node_append_child(&fragment.node, root.node.first_child)
        return node_proxy(&fragment.node)

    def buffered(self):
        """(bytes held, bytes allocated) by the tokenizer's incoming
        buffer between feeds."""
        cdef size_t capacity = 0
        cdef size_t held = tokenizer_buffered(self.c_tokenizer, &capacity)
        return held, capacity

    def document_object(self):
        return self.document

    def errors(self):
        """The collected parse errors as (code, line, column) tuples."""
        cdef size_t i
        result = []
        for i in range(self.c_errors.count):
            result.append((self.c_errors.items[i].code.decode("ascii"),
                           self.c_errors.items[i].line,
                           self.c_errors.items[i].column))
        return result
