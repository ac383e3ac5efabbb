# extruct's microdata over the items scan_structured() gives, compiled
# into lexpy.extract.extractor (structured.py drives it; its comments say
# what extruct does and why).

from urllib.parse import urljoin

cdef object _NO_VALUE = object()


cdef object entry_value(int kind, object payload, dict joined, object base_url):
    # the value of a property that is no item from its (kind, payload)
    if kind == VALUE_STRING:
        return payload
    if kind == VALUE_URL:
        return join_url(joined, base_url, payload)
    required, input_name = payload
    action = {}
    if required:
        action["valueRequired"] = True
    if input_name:
        action["valueName"] = input_name
    return action


cdef str join_url(dict joined, object base_url, str written):
    """A URL as extruct gives it: trimmed, joined to `base_url` by urljoin
    when there is one (as written when urllib rejects it); `joined` holds
    those made."""
    value = joined.get(written)
    if value is not None:
        return value
    value = written.strip(" \t\n\x0c\r")
    if base_url:
        try:
            value = urljoin(base_url, value)
        except ValueError:  # urllib rejects it (a bad IPv6 authority): as written
            pass
    joined[written] = value
    return value


cdef class ExtructMicrodata:
    """extruct's microdata over scan_structured()'s items (structured.py
    drives it): its property walk, its values and its text."""
    cdef object doc
    cdef object base_url
    cdef bint strict
    cdef bint nested
    cdef bint add_text_content
    cdef list scopes
    cdef set seen
    cdef object id_map
    cdef object index_of
    cdef dict joined

    def __init__(self, doc, base_url, bint strict, bint nested, bint add_text_content,
                 scanned=None):
        self.doc = doc
        self.base_url = base_url
        self.strict = strict
        self.nested = nested
        self.add_text_content = add_text_content
        # each item: (element, itemtype's tokens, itemid, itemref,
        # [(itemprop's tokens, kind, payload)])
        self.scopes = (scanned if scanned is not None
                                  else scan_structured(doc, True, False, False)[0])
        self.seen = set()
        self.id_map = None
        self.index_of = None
        self.joined = {}

    def items(self):
        found = []
        for index in range(len(self.scopes)):
            item = self.item(index)
            if item:
                found.append(item)
        return found

    cdef object item(self, Py_ssize_t index):
        cdef _ItemFrame root, frame, child
        # extruct recurses from an item into its nested items; here a stack
        # of frames does it in the same order (items nest as deep as the tree)
        root = self.start(index)
        if root is None:
            return None
        stack = [root]
        while stack:
            frame = stack[len(stack) - 1]
            if frame.index == len(frame.pending):
                self.finish(frame)
                stack.pop()
                continue
            names, kind, payload = frame.pending[frame.index]
            frame.index += 1
            child = None
            if kind == VALUE_ITEM:
                if self.nested:
                    child = self.start(payload)
                    value = None if child is None else child.item
                else:
                    value = {"iid_ref": payload + 1}
            else:
                value = self.entry_value(kind, payload)
            if self.strict:
                for name in names:
                    frame.properties.setdefault(name, []).append(value)
            else:
                # a name's only value as it is, a list from its second on
                # (values are never lists themselves)
                for name in names:
                    existing = frame.properties.get(name, _NO_VALUE)
                    if existing is _NO_VALUE:
                        frame.properties[name] = value
                    elif existing.__class__ is list:
                        (<list> existing).append(value)
                    else:
                        frame.properties[name] = [existing, value]
            if child is not None:
                stack.append(child)
        return root.item

    cdef _ItemFrame start(self, Py_ssize_t index):
        iid = index + 1
        if self.nested:
            if iid in self.seen:
                return None
            self.seen.add(iid)
        node, itemtype, itemid, itemref, entries = self.scopes[index]
        item = {}
        if not self.nested:
            item["iid"] = iid
        types = itemtype                 # (its tokens)
        if types:
            item["type"] = types[0] if not self.strict and len(types) == 1 else types
            if itemid:
                item["id"] = itemid.strip()
        pending = entries                # (each with its itemprop's tokens)
        if itemref:
            pending = list(entries)
            for refid in split_on_ascii_whitespace(itemref):
                pending.extend(self.referenced_entries(refid))
        return _ItemFrame(node, item, pending)

    cdef list referenced_entries(self, str refid):
        """(names, kind, payload) of the property elements an itemref brings
        in (scan_structured() gives the others), found in C."""
        if self.id_map is None:
            wanted = {token for scope in self.scopes if scope[3]
                      for token in split_on_ascii_whitespace(scope[3])}
            self.id_map = elements_by_id(self.doc, wanted)
        referenced = self.id_map.get(refid)
        if referenced is None:
            return []
        entries = []
        for names, kind, payload in referenced_properties(referenced):
            if kind == VALUE_ITEM:
                if self.index_of is None:
                    self.index_of = {scope[0]: index
                                     for index, scope in enumerate(self.scopes)}
                payload = self.index_of[payload]
            entries.append((names, kind, payload))
        return entries

    cdef object entry_value(self, int kind, object payload):
        return entry_value(kind, payload, self.joined, self.base_url)

    cdef void finish(self, _ItemFrame frame) except *:
        item = frame.item
        if frame.properties:
            item["properties"] = frame.properties
        else:
            item["value"] = self.value(frame.node, force=True)
        if self.add_text_content:
            text = html_text(frame.node)
            if text:
                item["textContent"] = text

    cdef object value(self, node, bint force=False):
        if not force and node.has_attribute("itemscope"):
            if self.index_of is None:
                self.index_of = {scope[0]: index for index, scope in enumerate(self.scopes)}
            index = self.index_of[node]
            return self.item(index) if self.nested else {"iid_ref": index + 1}
        name = node.local_name
        if name == "meta":
            return node.get_attribute("content") or ""
        if name in ("audio", "embed", "iframe", "img", "source", "track", "video"):
            return self.url(node, "src")
        if name in ("a", "area", "link"):
            return self.url(node, "href")
        if name == "object":
            return self.url(node, "data")
        if name in ("data", "meter"):
            return node.get_attribute("value") or ""
        if name == "time":
            return node.get_attribute("datetime") or ""
        content = node.get_attribute("content")
        if content:
            return content
        itemprop = node.get_attribute("itemprop")
        if itemprop and (itemprop.endswith("-input") or itemprop.endswith("-output")):
            return self.entry_value(VALUE_ACTION, (node.has_attribute("required"),
                                                    node.get_attribute("name")))
        return html_text(node)

    cdef str url(self, node, str attribute):
        return self.join(node.get_attribute(attribute) or "")

    cdef str join(self, str written):
        return join_url(self.joined, self.base_url, written)


cdef class _ItemFrame:
    cdef object node
    cdef dict item
    cdef list pending
    cdef Py_ssize_t index
    cdef dict properties

    def __init__(self, node, dict item, list pending):
        self.node = node
        self.item = item
        self.pending = pending
        self.index = 0
        self.properties = {}
