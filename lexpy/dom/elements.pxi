# Element proxies and their attributes.

from collections.abc import ItemsView, KeysView, Mapping, MutableMapping, ValuesView


cdef inline bint ascii_lowercase_equal(const uint8_t* stored, const uint8_t* name,
                                       size_t length) noexcept nogil:
    """Whether `stored` is `name` ASCII-lowercased."""
    cdef size_t i
    cdef uint8_t c
    for i in range(length):
        c = name[i]
        if 0x41 <= c <= 0x5A:
            c += 0x20
        if stored[i] != c:
            return False
    return True


cdef Py_ssize_t find_attribute_by_qualified_name(CElement* element,
                                                 const uint8_t* name,
                                                 size_t length) noexcept nogil:
    """Index of the first attribute whose qualified name is `name`, or -1."""
    return find_attribute_by_name(element, name, length, False)


cdef Py_ssize_t find_attribute_by_name(CElement* element, const uint8_t* name,
                                       size_t length, bint lowercase) noexcept nogil:
    """Index of the first attribute whose qualified name is `name` (its
    ASCII-lowercased form when `lowercase`), or -1."""
    cdef CDocument* doc = element.node.owner
    cdef const uint8_t* local_name
    cdef const uint8_t* prefix
    cdef size_t local_length, prefix_length
    cdef uint32_t i
    cdef CAttr* attr
    for i in range(element.attr_count):
        attr = &element.attrs[i]
        local_name = attribute_name(doc, attr.local_name, &local_length)
        if attr.prefix == 0:
            if local_length == length and (
                    ascii_lowercase_equal(local_name, name, length) if lowercase
                    else memcmp(local_name, name, length) == 0):
                return i
            continue
        prefix = attribute_name(doc, attr.prefix, &prefix_length)
        if prefix_length + 1 + local_length != length \
                or name[prefix_length] != 0x3A:
            continue
        if lowercase:
            if ascii_lowercase_equal(prefix, name, prefix_length) \
                    and ascii_lowercase_equal(local_name, name + prefix_length + 1,
                                              local_length):
                return i
        elif memcmp(prefix, name, prefix_length) == 0 \
                and memcmp(local_name, name + prefix_length + 1, local_length) == 0:
            return i
    return -1


# The str of each attribute name, made on first use and kept: for the
# static table's names, in one array for every document; for a document's
# own (data-*, ...), in its Document (ids of its dynamic table never change).
cdef PyObject* static_attr_names[ATTR__LAST_STATIC]
memset(static_attr_names, 0, sizeof(static_attr_names))


cdef inline str attribute_local_name(CDocument* doc, lxp_attr_id_t id):
    cdef size_t length
    cdef const uint8_t* name
    cdef str text
    if id < ATTR__LAST_STATIC:
        if static_attr_names[id] != NULL:
            return <str> static_attr_names[id]
        name = attribute_name(doc, id, &length)
        text = decode_utf8(name, length)
        Py_INCREF(text)
        static_attr_names[id] = <PyObject*> text
        return text
    return dynamic_attribute_name(<Document> doc.node.proxy, id)


cdef str dynamic_attribute_name(Document document, lxp_attr_id_t id):
    cdef Py_ssize_t index = id - ATTR__LAST_STATIC
    cdef list names = document.attr_name_strs
    cdef size_t length
    cdef const uint8_t* name
    cdef str text
    if names is None:
        names = document.attr_name_strs = []
    if index < len(names):
        text = <str> names[index]
        if text is not None:
            return text
    name = attribute_name(document.c_doc, id, &length)
    text = decode_utf8(name, length)
    if index >= len(names):
        names.extend([None] * (index + 1 - len(names)))
    names[index] = text
    return text


cdef Py_ssize_t attribute_index(Element element, object qualified_name) except -2:
    """Index of the attribute get_attribute(qualified_name) reads, or -1
    (https://dom.spec.whatwg.org/#concept-element-attributes-get-by-name)."""
    cdef CElement* c_element = element._c()
    cdef const uint8_t* name
    cdef Py_ssize_t length
    cdef bytes data
    if not isinstance(qualified_name, str):
        raise TypeError("attribute name must be a str, not %s"
                        % type(qualified_name).__name__)
    name = utf8_or_null(<str> qualified_name, &length)
    if name == NULL:
        data = encode_utf8(qualified_name, "attribute name")
        name = data
        length = len(data)
    # ASCII lowercasing of the UTF-8 is ASCII lowercasing of the str.
    return find_attribute_by_name(c_element, name, <size_t> length,
                                  c_element.ns == NS_HTML)


cdef inline str attribute_value(CAttr* attr):
    return decode_utf8(attr.value, attr.value_length)


cdef list attribute_names_list(CElement* element):
    cdef CDocument* doc = element.node.owner
    cdef uint32_t i
    cdef list result = PyList_New(element.attr_count)
    cdef str name
    for i in range(element.attr_count):
        name = attribute_qualified_name(doc, &element.attrs[i])
        Py_INCREF(name)
        PyList_SET_ITEM(result, i, name)
    return result


cdef list attribute_values_list(CElement* element):
    cdef uint32_t i
    cdef list result = PyList_New(element.attr_count)
    cdef str value
    for i in range(element.attr_count):
        value = attribute_value(&element.attrs[i])
        Py_INCREF(value)
        PyList_SET_ITEM(result, i, value)
    return result


cdef list attribute_items_list(CElement* element):
    cdef CDocument* doc = element.node.owner
    cdef uint32_t i
    cdef list result = PyList_New(element.attr_count)
    cdef tuple item
    for i in range(element.attr_count):
        item = (attribute_qualified_name(doc, &element.attrs[i]),
                attribute_value(&element.attrs[i]))
        Py_INCREF(item)
        PyList_SET_ITEM(result, i, item)
    return result


cdef str attribute_qualified_name(CDocument* doc, CAttr* attr):
    if attr.prefix == 0:
        return attribute_local_name(doc, attr.local_name)
    return attribute_local_name(doc, attr.prefix) + u":" \
        + attribute_local_name(doc, attr.local_name)


@cython.no_gc_clear
cdef class Element(Node):
    """An element. `attributes` is a mutable mapping of qualified names to
    values; a <template>'s children live in `content`."""

    cdef CElement* _c(self) except NULL:
        return <CElement*> live(self)

    def __repr__(self):
        cdef CElement* element = self._c()
        if element.ns == NS_SVG or element.ns == NS_MATHML:
            return "<Element %s %s>" % (
                lxp_ns_prefix[element.ns].decode("ascii"), self.local_name)
        return "<Element %s>" % self.qualified_name

    # -- selectors (lexpy.selectors) ------------------------------------------

    def query_selector(self, selectors, namespaces=None):
        """The first descendant element, in tree order, that matches the
        selector list `selectors` (CSS Selectors Level 4), or None.
        `namespaces` maps prefixes to namespace URLs for `prefix|name`."""
        return selector_engine()[0](self, selectors, namespaces)

    def query_selector_all(self, selectors, namespaces=None):
        """Every descendant element that matches `selectors`, in tree order,
        as a new list."""
        return selector_engine()[1](self, selectors, namespaces)

    def matches(self, selectors, namespaces=None):
        """Whether this element matches `selectors`."""
        return selector_engine()[2](self, selectors, namespaces)

    def closest(self, selectors, namespaces=None):
        """This element or its nearest ancestor element that matches
        `selectors`, or None."""
        return selector_engine()[3](self, selectors, namespaces)

    def xpath(self, expr, *, namespaces=None, **variables):
        """The value of the XPath 1.0 expression `expr` with this node as
        the context: a list of nodes in document order (attribute and text
        nodes as lexpy.XPathString), a float, a bool or a str.
        `namespaces` maps prefixes to namespace URIs; keyword arguments
        are the expression's $variables."""
        return xpath_engine()(self, expr, namespaces, variables)

    # -- names --------------------------------------------------------------

    @property
    def local_name(self):
        """The local name ('div', 'foreignObject')."""
        cdef size_t length
        cdef const uint8_t* name = element_local_name(self._c(), &length)
        return decode_utf8(name, length)

    @property
    def namespace_uri(self):
        """The namespace URI ('http://www.w3.org/1999/xhtml' for HTML), or
        None."""
        cdef CElement* element = self._c()
        cdef size_t length
        cdef const uint8_t* uri
        if element.ns == NS__UNDEF:
            return None
        uri = namespace_uri_of(element.node.owner, element.ns, &length)
        return decode_utf8(uri, length)

    @property
    def prefix(self):
        """The namespace prefix, or None."""
        cdef CElement* element = self._c()
        cdef size_t length
        cdef const uint8_t* name
        if element.prefix == 0:
            return None
        name = attribute_name(element.node.owner, element.prefix, &length)
        return decode_utf8(name, length)

    @property
    def qualified_name(self):
        """'prefix:local' or 'local'."""
        prefix = self.prefix
        return self.local_name if prefix is None else prefix + u":" + self.local_name

    @property
    def tag_name(self):
        """The qualified name, upper-cased for an HTML element ('DIV')."""
        if self._c().ns == NS_HTML:
            return ascii_uppercase(self.qualified_name)
        return self.qualified_name

    @property
    def node_name(self):
        """The tag name ('DIV' for an HTML div)."""
        return self.tag_name

    @property
    def content(self):
        """The template contents (a DocumentFragment) of an HTML <template>;
        None for any other element."""
        return node_proxy(self._c().template_content)

    # -- attributes -----------------------------------------------------------

    @property
    def id(self):
        """The id attribute ('' when there is none)."""
        return self.get_attribute(u"id") or u""

    @id.setter
    def id(self, value):
        self.set_attribute(u"id", value)

    @property
    def class_name(self):
        """The class attribute ('' when there is none)."""
        return self.get_attribute(u"class") or u""

    @class_name.setter
    def class_name(self, value):
        self.set_attribute(u"class", value)

    @property
    def class_list(self):
        """The classes as a ClassList: an ordered set kept in the class
        attribute (`"x" in el.class_list`, el.class_list.add("y"))."""
        cdef ClassList classes = ClassList.__new__(ClassList)
        live(self)
        classes._element = self
        return classes

    @property
    def attributes(self):
        """The attributes as a mutable mapping: qualified name -> value."""
        cdef Attributes attributes = Attributes.__new__(Attributes)
        live(self)
        attributes._element = self
        return attributes

    cdef bytes _attribute_key(self, object qualified_name):
        # https://dom.spec.whatwg.org/#concept-element-attributes-get-by-name
        if not isinstance(qualified_name, str):
            raise TypeError("attribute name must be a str, not %s"
                            % type(qualified_name).__name__)
        if self._c().ns == NS_HTML:
            qualified_name = ascii_lowercase(qualified_name)
        return encode_utf8(qualified_name, "attribute name")

    @property
    def end_source(self):
        """The SourceSpan of the element's end tag (positions=True), or
        None where its end was implied or it has none."""
        return source_span_of(self, True)

    def attribute_source(self, name):
        """The SourceSpans (name, value) of the attribute `name` in the
        element's start tag (positions=True); value None for an attribute
        written without one; None when the start tag has no such attribute
        (or the element has no source)."""
        return attribute_source_of(self, name)

    def get_attribute(self, qualified_name):
        """The value of the first attribute named `qualified_name` (ASCII
        case-insensitive on HTML elements), or None."""
        cdef Py_ssize_t index = attribute_index(self, qualified_name)
        if index < 0:
            return None
        return attribute_value(&(<CElement*> self.c_node).attrs[index])

    def has_attribute(self, qualified_name):
        """Whether the element has an attribute named `qualified_name`
        (ASCII case-insensitive on HTML elements)."""
        return attribute_index(self, qualified_name) >= 0

    def set_attribute(self, qualified_name, value):
        """Set an attribute by name (lowercased on HTML elements); a new one
        has no namespace."""
        # https://dom.spec.whatwg.org/#dom-element-setattribute
        cdef CElement* element = self._c()
        cdef bytes name, data
        cdef Py_ssize_t index
        cdef lxp_attr_id_t local_name
        cdef uint8_t* copy
        if not isinstance(qualified_name, str):
            raise TypeError("attribute name must be a str, not %s"
                            % type(qualified_name).__name__)
        if not is_valid_attribute_local_name(qualified_name):
            raise InvalidCharacterError("invalid attribute name %r" % qualified_name)
        data = encode_utf8(value, "attribute value")
        check_not_read(element.node.owner)
        name = self._attribute_key(qualified_name)
        index = find_attribute_by_qualified_name(element, name, len(name))
        if index >= 0:
            source_changed(&element.node, NODE_SELF_CHANGED)
            if attribute_set_value(element.node.owner, &element.attrs[index],
                                   data, len(data)) != 0:
                raise MemoryError()
            return
        local_name = document_attr_id_utf8(element.node.owner, name)
        copy = dom_copy(element.node.owner, data, len(data))
        source_changed(&element.node, NODE_SELF_CHANGED)
        if copy == NULL or element_add_attribute(
                element, local_name, NS__UNDEF, 0, copy, len(data)) != 0:
            raise MemoryError()

    def remove_attribute(self, qualified_name):
        """Remove the first attribute named `qualified_name` (nothing when
        there is none)."""
        cdef CElement* element = self._c()
        cdef bytes name = self._attribute_key(qualified_name)
        cdef Py_ssize_t index = find_attribute_by_qualified_name(element, name, len(name))
        if index >= 0:
            check_not_read(element.node.owner)
            element_remove_attribute_at(element, index)

    cdef Py_ssize_t _find_ns(self, object namespace, object local_name) except -2:
        cdef CElement* element = self._c()
        cdef bytes uri, name
        cdef lxp_ns_id_t ns = NS__UNDEF
        cdef lxp_attr_id_t id
        cdef CAttr* attr
        if namespace is not None and namespace != "":
            uri = encode_utf8(namespace, "namespace")
            ns = namespace_id(element.node.owner, uri, len(uri), False)
            if ns == 0:
                return -1
        name = encode_utf8(local_name, "local name")
        id = attr_id_by_name(element.node.owner.attr_names, name, len(name), False)
        if id == 0:
            return -1
        attr = element_find_attribute(element, id, ns)
        return -1 if attr == NULL else <Py_ssize_t> (attr - element.attrs)

    def get_attribute_ns(self, namespace, local_name):
        """The value of the attribute (namespace, local_name), or None."""
        cdef Py_ssize_t index = self._find_ns(namespace, local_name)
        cdef CElement* element = self._c()
        if index < 0:
            return None
        return decode_utf8(element.attrs[index].value,
                           element.attrs[index].value_length)

    def has_attribute_ns(self, namespace, local_name):
        """Whether the element has the attribute (namespace, local_name)."""
        return self._find_ns(namespace, local_name) >= 0

    def set_attribute_ns(self, namespace, qualified_name, value):
        """Set the attribute (namespace, local name of qualified_name);
        a new one gets the prefix of qualified_name."""
        # https://dom.spec.whatwg.org/#dom-element-setattributens
        cdef CElement* element = self._c()
        cdef CDocument* c_doc = element.node.owner
        cdef str prefix, local
        cdef bytes data, name
        cdef lxp_ns_id_t ns
        cdef lxp_attr_id_t local_name, prefix_id = 0
        cdef CAttr* attr
        cdef uint8_t* copy
        namespace, prefix, local = validate_and_extract(namespace, qualified_name,
                                                        False)
        data = encode_utf8(value, "attribute value")
        check_not_read(c_doc)
        ns = document_namespace_id(c_doc, namespace)
        name = encode_utf8(local, "local name")
        local_name = document_attr_id_utf8(c_doc, name)
        attr = element_find_attribute(element, local_name, ns)
        if attr != NULL:
            source_changed(&element.node, NODE_SELF_CHANGED)
            if attribute_set_value(c_doc, attr, data, len(data)) != 0:
                raise MemoryError()
            return
        if prefix is not None:
            prefix_id = document_attr_id(c_doc, prefix)
        copy = dom_copy(c_doc, data, len(data))
        source_changed(&element.node, NODE_SELF_CHANGED)
        if copy == NULL or element_add_attribute(
                element, local_name, ns, prefix_id, copy, len(data)) != 0:
            raise MemoryError()

    def remove_attribute_ns(self, namespace, local_name):
        """Remove the attribute (namespace, local_name), if there is one."""
        cdef Py_ssize_t index = self._find_ns(namespace, local_name)
        if index >= 0:
            check_not_read(self.c_node.owner)
            element_remove_attribute_at(self._c(), index)

    def get_attribute_names(self):
        """The qualified names of the attributes, in order."""
        return attribute_names_list(self._c())

    def attribute_nodes(self):
        """The attributes as (namespace URI or None, prefix or None, local
        name, value) tuples, in order."""
        cdef CElement* element = self._c()
        cdef CDocument* c_doc = element.node.owner
        cdef CAttr* attr
        cdef uint32_t i
        cdef size_t length
        cdef const uint8_t* text
        cdef list result = []
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            text = namespace_uri_of(c_doc, attr.ns, &length)
            namespace = decode_utf8(text, length) if attr.ns != NS__UNDEF else None
            prefix = None
            if attr.prefix:
                text = attribute_name(c_doc, attr.prefix, &length)
                prefix = decode_utf8(text, length)
            text = attribute_name(c_doc, attr.local_name, &length)
            result.append((namespace, prefix, decode_utf8(text, length),
                           decode_utf8(attr.value, attr.value_length)))
        return result

    # -- serialization --------------------------------------------------------

    @property
    def outer_html(self):
        """The HTML serialization of the element itself."""
        return serialize_html(live(self), True)

    @property
    def inner_html(self):
        """The HTML serialization of the children (of the contents, for a
        <template>). Setting it parses the string as a fragment in the
        context of this element (lexpy.parse_fragment, with the scripting
        flag of this element's document) and replaces the children with
        the result."""
        return serialize_html(live(self), False)

    @inner_html.setter
    def inner_html(self, value):
        # https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-innerhtml
        cdef Node fragment
        cdef Node target
        cdef CNode* holder
        if not isinstance(value, str):
            raise TypeError("inner_html must be a str, not %s" % type(value).__name__)
        live(self)
        check_not_read(self.c_node.owner)
        fragment = fragment_parser()(value, self,
                                     scripting=self.c_node.owner.scripting != 0)
        target = self.content if self.content is not None else self
        # The fragment's document is the parse's own: its nodes are copied
        # into this document (copy_fragment_children says why), then it goes.
        holder = copy_fragment_children(fragment, document_of(target))
        replace_all_with_text(target, None)
        move_children(holder, target)


    # -- rendered text ------------------------------------------------------
    # Computed by lexpy.text, a layer above the DOM: it registers its
    # functions with register_text_layer when lexpy is imported, so the DOM
    # imports nothing from it.

    @property
    def inner_text(self):
        """The HTML standard's innerText: the element's text as rendered
        under the user-agent stylesheet (no author CSS: style attributes and
        <style> sheets are ignored); the text_content of an element that is
        not being rendered; None for SVG and MathML elements. Setting it
        replaces the children with Text nodes and a <br> per line break."""
        return text_layer().inner_text(self)

    @inner_text.setter
    def inner_text(self, value):
        text_layer().set_inner_text(self, value)

    @property
    def outer_text(self):
        """As inner_text when read; setting it replaces the element itself
        with the text (and <br> elements), merging adjacent Text nodes."""
        return text_layer().inner_text(self)

    @outer_text.setter
    def outer_text(self, value):
        text_layer().set_outer_text(self, value)

    # -- the HTML Sanitizer API ---------------------------------------------
    # lexpy.sanitizer, a layer above the DOM, registers itself with
    # register_sanitizer_layer when lexpy is imported.

    def set_html(self, html, sanitizer=None):
        """Replace the children (a template's contents) with `html` parsed in
        the context of this element and sanitized (the Sanitizer API's
        setHTML: always safe; `sanitizer` is a lexpy.Sanitizer, a
        SanitizerConfig mapping, "default" or None for the default)."""
        sanitizer_layer().set_html(self, html, sanitizer, True)

    def set_html_unsafe(self, html, sanitizer=None):
        """As set_html, without the safe baseline (the Sanitizer API's
        setHTMLUnsafe: with no `sanitizer`, nothing is removed)."""
        sanitizer_layer().set_html(self, html, sanitizer, False)


cdef object registered_text_layer = None


def register_text_layer(layer):
    """Called by lexpy.text on import: the object whose inner_text,
    set_inner_text and set_outer_text the Element properties call."""
    global registered_text_layer
    registered_text_layer = layer


cdef object registered_sanitizer_layer = None


def register_sanitizer_layer(layer):
    """Called by lexpy.sanitizer on import: the object whose set_html the
    Element methods call."""
    global registered_sanitizer_layer
    registered_sanitizer_layer = layer


cdef object sanitizer_layer():
    if registered_sanitizer_layer is None:
        raise RuntimeError("set_html needs lexpy.sanitizer (import lexpy)")
    return registered_sanitizer_layer


cdef object text_layer():
    if registered_text_layer is None:
        raise RuntimeError("inner_text needs lexpy.text (import lexpy)")
    return registered_text_layer


@cython.final
@cython.freelist(16)
cdef class Attributes:
    """The attributes of an element as a live mutable mapping from
    qualified names ('class', 'xlink:href') to values (a
    collections.abc.MutableMapping). Lookups are ASCII case-insensitive on
    HTML elements, as get_attribute() is; keys(), values() and items() are
    live views."""

    cdef Element _element

    def __init__(self, element):
        if not isinstance(element, Element):
            raise TypeError("Attributes needs an Element, not %s"
                            % type(element).__name__)
        self._element = element

    cdef CElement* _c(self) except NULL:
        return self._element._c()

    def __getitem__(self, name):
        cdef Py_ssize_t index = attribute_index(self._element, name)
        if index < 0:
            raise KeyError(name)
        return attribute_value(&self._c().attrs[index])

    def __setitem__(self, name, value):
        self._element.set_attribute(name, value)

    def __delitem__(self, name):
        if attribute_index(self._element, name) < 0:
            raise KeyError(name)
        self._element.remove_attribute(name)

    def __contains__(self, name):
        return isinstance(name, str) and attribute_index(self._element, name) >= 0

    def __iter__(self):
        return attribute_iterator(self._element, ITERATE_KEYS)

    def __len__(self):
        return self._c().attr_count

    def get(self, name, default=None, /):
        """The value of `name`, or `default`."""
        cdef Py_ssize_t index = attribute_index(self._element, name)
        if index < 0:
            return default
        return attribute_value(&self._c().attrs[index])

    def keys(self):
        """A live view of the qualified names, in order."""
        cdef AttributeKeys view = AttributeKeys.__new__(AttributeKeys)
        view._mapping = self
        return view

    def values(self):
        """A live view of the values, in order."""
        cdef AttributeValues view = AttributeValues.__new__(AttributeValues)
        view._mapping = self
        return view

    def items(self):
        """A live view of the (name, value) pairs, in order."""
        cdef AttributeItems view = AttributeItems.__new__(AttributeItems)
        view._mapping = self
        return view

    def pop(self, name, /, *default):
        """Remove `name` and return its value (`default`, if given, when
        there is none; else KeyError)."""
        if len(default) > 1:
            raise TypeError("pop expected at most 2 arguments, got %d"
                            % (1 + len(default)))
        value = self.get(name)
        if value is None:
            if default:
                return default[0]
            raise KeyError(name)
        self._element.remove_attribute(name)
        return value

    def popitem(self):
        """Remove the last attribute and return its (name, value)."""
        cdef CElement* element = self._c()
        if element.attr_count == 0:
            raise KeyError("popitem(): the element has no attributes")
        item = (attribute_qualified_name(element.node.owner,
                                         &element.attrs[element.attr_count - 1]),
                attribute_value(&element.attrs[element.attr_count - 1]))
        check_not_read(element.node.owner)
        element_remove_attribute_at(element, element.attr_count - 1)
        return item

    def clear(self):
        """Remove every attribute."""
        cdef CElement* element = self._c()
        if element.attr_count:
            check_not_read(element.node.owner)
        while element.attr_count:
            element_remove_attribute_at(element, element.attr_count - 1)

    def update(self, other=(), /, **kwargs):
        """Set attributes from a mapping or (name, value) pairs, then from
        keyword arguments."""
        if isinstance(other, Mapping):
            for name in other:
                self[name] = other[name]
        elif hasattr(other, "keys"):
            for name in other.keys():
                self[name] = other[name]
        else:
            for name, value in other:
                self[name] = value
        for name, value in kwargs.items():
            self[name] = value

    def setdefault(self, name, default, /):
        """The value of `name`; when there is none, set it to `default`
        first (a str: attribute values are strings)."""
        value = self.get(name)
        if value is None:
            self[name] = default
            return default
        return value

    def __eq__(self, other):
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(attribute_items_list(self._c())) == dict(other.items())

    def __repr__(self):
        return "Attributes(%r)" % dict(attribute_items_list(self._c()))


# Iterating over the attributes: a snapshot of the element's CAttr array
# taken when the iterator is made (so that changing the attributes in the
# loop body changes nothing for the loop, as iterating over a list made
# then would), and the strings made one at a time from it. The values'
# bytes are not copied: while any iterator of the document is open,
# attribute_set_value writes a new value to new arena memory instead of
# over the old one (which the document keeps until it goes). An items()
# iterator hands out the same tuple again when the loop let go of the last
# one (as dict's items iterator does), and leaves it to the next iterator.

cdef enum AttributeIteration:
    ITERATE_KEYS = 0
    ITERATE_VALUES = 1
    ITERATE_ITEMS = 2

cdef enum:
    SNAPSHOT_INLINE = 4           # attributes copied into the iterator itself
                                  # (95% of the corpus's elements have 4 or less)

cdef extern from "Python.h":
    PyObject* PyTuple_GET_ITEM_raw "PyTuple_GET_ITEM"(PyObject* p,
                                                      Py_ssize_t pos) noexcept
    void PyTuple_SET_ITEM_raw "PyTuple_SET_ITEM"(PyObject* p, Py_ssize_t pos,
                                                 PyObject* o) noexcept


# A (name, value) tuple an ended items() iterator no longer needed, for
# the next one (or None).
cdef tuple spare_item = None


@cython.final
@cython.no_gc_clear
@cython.freelist(8)
cdef class AttributeIterator:
    """An iterator over the names, values or (name, value) pairs of an
    element's attributes as they were when it was made."""

    cdef Document doc             # the snapshot's document (None: ended)
    cdef CAttr* attrs             # the snapshot: inline, or malloc'd
    cdef uint32_t count
    cdef uint32_t index
    cdef uint32_t kind            # AttributeIteration
    cdef tuple item               # the last (name, value) handed out
    cdef CAttr inline_attrs[SNAPSHOT_INLINE]

    def __init__(self, *args, **kwargs):
        raise TypeError("AttributeIterator objects are made by iterating over "
                        "an element's attributes")

    def __dealloc__(self):
        self._end()

    cdef void _end(self) noexcept:
        global spare_item
        if self.item is not None:
            if spare_item is None and Py_REFCNT_raw(<PyObject*> self.item) == 1:
                spare_item = self.item      # for the next iterator's first pair
            self.item = None
        if self.doc is None:
            return
        self.doc.c_doc.attribute_snapshots -= 1
        if self.attrs != self.inline_attrs:
            free(self.attrs)
        self.attrs = NULL
        self.count = self.index = 0
        self.doc = None

    def __iter__(self):
        return self

    def __length_hint__(self):
        return self.count - self.index

    def __next__(self):
        cdef CAttr* attr
        cdef CDocument* c_doc
        cdef PyObject* item
        cdef PyObject* old_name
        cdef PyObject* old_value
        cdef str name, value
        global spare_item
        if self.index >= self.count:
            self._end()
            raise StopIteration
        attr = &self.attrs[self.index]
        self.index += 1
        c_doc = self.doc.c_doc
        if self.kind == ITERATE_KEYS:
            return attribute_qualified_name(c_doc, attr)
        if self.kind == ITERATE_VALUES:
            return attribute_value(attr)
        name = attribute_qualified_name(c_doc, attr)
        value = attribute_value(attr)
        item = <PyObject*> self.item
        if item == <PyObject*> None and spare_item is not None:
            self.item = spare_item
            spare_item = None
            item = <PyObject*> self.item
        if item == <PyObject*> None or Py_REFCNT_raw(item) != 1:
            self.item = (name, value)
            return self.item
        old_name = PyTuple_GET_ITEM_raw(item, 0)
        old_value = PyTuple_GET_ITEM_raw(item, 1)
        Py_INCREF(name)
        Py_INCREF(value)
        PyTuple_SET_ITEM_raw(item, 0, <PyObject*> name)
        PyTuple_SET_ITEM_raw(item, 1, <PyObject*> value)
        Py_DECREF_raw(old_name)
        Py_DECREF_raw(old_value)
        return self.item


cdef AttributeIterator attribute_iterator(Element element, uint32_t kind):
    cdef CElement* c_element = element._c()
    cdef AttributeIterator iterator = AttributeIterator.__new__(AttributeIterator)
    cdef uint32_t count = c_element.attr_count
    iterator.kind = kind
    if count == 0:
        return iterator                 # ended from the start
    if count <= SNAPSHOT_INLINE:
        iterator.attrs = iterator.inline_attrs
    else:
        iterator.attrs = <CAttr*> malloc(count * sizeof(CAttr))
        if iterator.attrs == NULL:
            raise MemoryError()
    memcpy(iterator.attrs, c_element.attrs, count * sizeof(CAttr))
    iterator.count = count
    iterator.doc = element.doc
    iterator.doc.c_doc.attribute_snapshots += 1
    return iterator


@cython.no_gc_clear
@cython.freelist(8)             # (of the same size: Keys and Items share it)
cdef class _AttributeView:
    """The base of the live views of an element's attributes."""

    cdef Attributes _mapping

    def __init__(self, *args, **kwargs):
        raise TypeError("%s objects are made by an element's attributes"
                        % type(self).__name__)

    def __len__(self):
        return self._mapping._c().attr_count

    cdef object _snapshot(self):
        raise NotImplementedError

    # The set operations of keys() and items() (as collections.abc's Set
    # mixins define them) work on a snapshot: a dict view of the moment.
    def __and__(self, other):
        return self._snapshot() & other

    def __rand__(self, other):
        return other & self._snapshot()

    def __or__(self, other):
        return self._snapshot() | other

    def __ror__(self, other):
        return other | self._snapshot()

    def __sub__(self, other):
        return self._snapshot() - other

    def __rsub__(self, other):
        return other - self._snapshot()

    def __xor__(self, other):
        return self._snapshot() ^ other

    def __rxor__(self, other):
        return other ^ self._snapshot()

    def __richcmp__(self, other, int op):
        snapshot = self._snapshot()
        if isinstance(other, _AttributeView):
            other = (<_AttributeView> other)._snapshot()
        if op == 0:
            return snapshot < other
        if op == 1:
            return snapshot <= other
        if op == 2:
            return snapshot == other
        if op == 3:
            return snapshot != other
        if op == 4:
            return snapshot > other
        return snapshot >= other

    def isdisjoint(self, other):
        """Whether the view and `other` have nothing in common."""
        return self._snapshot().isdisjoint(other)

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, list(self))


@cython.final
@cython.no_gc_clear
cdef class AttributeKeys(_AttributeView):
    """The qualified names of an element's attributes (a live KeysView)."""

    def __iter__(self):
        return attribute_iterator(self._mapping._element, ITERATE_KEYS)

    def __contains__(self, name):
        return name in self._mapping

    def __reversed__(self):
        return reversed(attribute_names_list(self._mapping._c()))

    cdef object _snapshot(self):
        return dict.fromkeys(attribute_names_list(self._mapping._c())).keys()


@cython.final
@cython.no_gc_clear
cdef class AttributeItems(_AttributeView):
    """The (name, value) pairs of an element's attributes (a live
    ItemsView)."""

    def __iter__(self):
        return attribute_iterator(self._mapping._element, ITERATE_ITEMS)

    def __contains__(self, item):
        if not isinstance(item, tuple) or len(<tuple> item) != 2:
            return False
        cdef Py_ssize_t index
        name, value = item
        if not isinstance(name, str):
            return False
        index = attribute_index(self._mapping._element, name)
        return index >= 0 and attribute_value(&self._mapping._c().attrs[index]) == value

    def __reversed__(self):
        return reversed(attribute_items_list(self._mapping._c()))

    cdef object _snapshot(self):
        return dict(attribute_items_list(self._mapping._c())).items()


@cython.final
@cython.no_gc_clear
@cython.freelist(8)
cdef class AttributeValues:
    """The values of an element's attributes (a live ValuesView)."""

    cdef Attributes _mapping

    def __init__(self, *args, **kwargs):
        raise TypeError("AttributeValues objects are made by an element's "
                        "attributes")

    def __len__(self):
        return self._mapping._c().attr_count

    def __iter__(self):
        return attribute_iterator(self._mapping._element, ITERATE_VALUES)

    def __contains__(self, value):
        return value in attribute_values_list(self._mapping._c())

    def __reversed__(self):
        return reversed(attribute_values_list(self._mapping._c()))

    def __repr__(self):
        return "AttributeValues(%r)" % attribute_values_list(self._mapping._c())


# The C paths of node_proxy and proxy_dealloc (proxies.pxi) for every proxy
# class but Document (the last of them is Element, above).
install_proxy_type(Node, 0)
install_proxy_type(CharacterData, 0)
install_proxy_type(Element, ELEMENT_NODE)
install_proxy_type(Text, TEXT_NODE)
install_proxy_type(Comment, COMMENT_NODE)
install_proxy_type(ProcessingInstruction, PROCESSING_INSTRUCTION_NODE)
install_proxy_type(DocumentType, DOCUMENT_TYPE_NODE)
install_proxy_type(DocumentFragment, DOCUMENT_FRAGMENT_NODE)

MutableMapping.register(Attributes)
KeysView.register(AttributeKeys)
ItemsView.register(AttributeItems)
ValuesView.register(AttributeValues)
