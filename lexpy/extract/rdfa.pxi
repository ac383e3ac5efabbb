# RDFa Core 1.1's processing sequence over the elements scan_structured()
# gives (rdfa.py: what each entry holds, the initial context and the JSON
# shape), compiled into lexpy.extract.extractor: rdfa.py's rdfa_of drives
# it. https://www.w3.org/TR/rdfa-core/#s_sequence

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDF_TYPE = _RDF + "type"
_RDFA = "http://www.w3.org/ns/rdfa#"


# https://infra.spec.whatwg.org/#split-on-ascii-whitespace
cdef list split_on_ascii_whitespace(object value):
    # one pass over the code points (a regex costs a search per call); a
    # value that is one token is returned as it is
    cdef str text
    cdef Py_ssize_t i = -1, length, start = -1
    cdef Py_UCS4 c
    cdef list tokens = []
    if not value:
        return tokens
    text = value
    length = len(text)
    for c in text:                      # (a C loop over the code points)
        i += 1
        if c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D:
            if start >= 0:
                tokens.append(text[start:i])
                start = -1
        elif start < 0:
            start = i
    if start == 0:
        tokens.append(text)
    elif start > 0:
        tokens.append(text[start:length])
    return tokens


cdef class RdfaContext:
    """The evaluation context of an element (rdfa-core's 7.5): base,
    parent subject and object, IRI mappings, incomplete triples,
    language, default vocabulary."""
    cdef str base
    cdef object parent_subject
    cdef object parent_object
    cdef dict prefixes
    cdef list incomplete
    cdef object language
    cdef object vocab

    def __init__(self, str base, parent_subject, parent_object, dict prefixes, list incomplete,
                 language, vocab):
        self.base = base
        self.parent_subject = parent_subject
        self.parent_object = parent_object
        self.prefixes = prefixes
        self.incomplete = incomplete
        self.language = language
        self.vocab = vocab


cdef class _LaterIri:
    """An IRI written as a URL, resolved against `base` when it is needed."""
    cdef str written
    cdef str base
    cdef str iri                  # once resolved

    def __cinit__(self, str written, str base):
        self.written = written
        self.base = base
        self.iri = None


cdef bint has_scheme(str value):
    scheme, colon, _ = value.partition(":")
    return bool(colon) and scheme[:1].isalpha() and all(
        c.isalnum() or c in "+-." for c in scheme)


cdef class RdfaProcessor:
    cdef str base
    cdef list triples
    cdef Py_ssize_t blank_nodes
    cdef dict resolved
    cdef dict initial_prefixes
    cdef dict initial_terms
    cdef object parse_url

    def __init__(self, str base, dict initial_prefixes, dict initial_terms, parse_url):
        self.base = base
        self.triples = []
        self.blank_nodes = 0
        self.resolved = {}
        self.initial_prefixes = initial_prefixes
        self.initial_terms = initial_terms
        self.parse_url = parse_url

    cdef str new_blank_node(self):
        self.blank_nodes += 1
        return "_:b%d" % self.blank_nodes

    cdef object resolve(self, str value, RdfaContext context):
        """`value` as an IRI against the base: a _LaterIri, parsed by the
        URL parser only if a triple holds it (json(); most resources of a
        page only pass through the context)."""
        key = (value, context.base)
        found = self.resolved.get(key)
        if found is None:
            found = self.resolved[key] = _LaterIri(value, context.base)
        return found

    cdef str resolved_now(self, object iri):
        cdef _LaterIri later
        if type(iri) is not _LaterIri:
            return iri
        later = <_LaterIri> iri
        if later.iri is None:
            resolved = self.parse_url(later.written, later.base or None)
            later.iri = resolved if resolved is not None else later.written
        return later.iri

    cdef object curie(self, str value, RdfaContext context, bint terms):
        """A CURIE, term or absolute IRI of @property, @typeof, @rel, @rev,
        @datatype (`terms`) or a SafeCURIEorCURIEorIRI of @about and
        @resource (None: resolve it as an IRI). A safe CURIE's brackets
        are taken off in a loop (any number of them, no recursion)."""
        while value.startswith("[") and value.endswith("]"):
            value = value[1:len(value) - 1]      # (no wraparound here)
            if not value:
                return None
            terms = False
        if ":" not in value:
            if not terms:
                return None
            if context.vocab:
                return context.vocab + value
            return self.initial_terms.get(value.lower())
        prefix, _, reference = value.partition(":")
        if prefix == "_":
            return "_:" + (reference or "blank")
        if prefix == "" and terms:
            return "http://www.w3.org/1999/xhtml/vocab#" + reference
        mapped = context.prefixes.get(prefix.lower())
        if mapped is not None and not reference.startswith("//"):
            return mapped + reference
        if terms:
            return value if has_scheme(value) else None
        return None

    cdef object resource(self, dict attrs, str name, RdfaContext context):
        value = attrs.get(name)
        if value is None:
            return None
        if name in ("about", "resource"):
            found = self.curie(value, context, False)
            if found is not None:
                return found
        return self.resolve(value, context)

    cdef list predicates(self, object value, RdfaContext context):
        found = []
        for token in split_on_ascii_whitespace(value):
            iri = self.curie(token, context, True)
            if iri is not None and not iri.startswith("_:"):
                found.append(iri)
        return found

    def run(self, list entries):
        cdef RdfaContext initial
        cdef list contexts
        cdef Py_ssize_t depth
        # each visited element's context for its children, by depth: an
        # element's parent was visited just before at the depth above
        initial = RdfaContext(self.base, self.base, self.base, dict(self.initial_prefixes), [],
                              None, None)
        contexts = []
        for depth, attrs, xmlns, head_or_body, text in entries:
            del contexts[depth:]
            contexts.append(self.element(attrs, xmlns, head_or_body, text,
                                         contexts[depth - 1] if depth else initial,
                                         depth == 0))

    cdef RdfaContext element(self, dict attrs, list xmlns, bint head_or_body, object text,
                             RdfaContext context, bint is_root):
        # https://www.w3.org/TR/rdfa-core/#s_sequence
        attribute = attrs.get
        skip = False
        new_subject = None
        current_object = None
        typed_resource = None
        prefixes = context.prefixes
        vocab = context.vocab
        language = context.language
        local_incomplete = []
        vocab_value = attribute("vocab")
        if vocab_value is not None:
            if vocab_value.strip():
                vocab = self.resolved_now(self.resolve(vocab_value.strip(), context))
                self.triples.append((self.base, _RDFA + "usesVocabulary", {"@id": vocab}))
            else:
                vocab = None
        declared = list(xmlns)
        prefix_value = attribute("prefix")
        if prefix_value is not None:
            tokens = split_on_ascii_whitespace(prefix_value)
            for i in range(0, len(tokens) - 1, 2):
                if tokens[i].endswith(":"):
                    declared.append((tokens[i][:len(tokens[i]) - 1], tokens[i + 1]))
        if declared:
            prefixes = dict(prefixes)
            for name, value in declared:
                if name and name != "_":
                    prefixes[name.lower()] = value
        lang = attribute("xml:lang")
        if lang is None:
            lang = attribute("lang")
        if lang is not None:
            language = lang or None
        local = RdfaContext(context.base, context.parent_subject, context.parent_object,
                         prefixes, context.incomplete, language, vocab)
        rel = attribute("rel")
        rev = attribute("rev")
        if rel is not None or rev is not None:
            # HTML+RDFa: rel values that are not CURIEs or terms are dropped
            rel_predicates = self.predicates(rel, local)
            rev_predicates = self.predicates(rev, local)
        else:
            rel_predicates = rev_predicates = []
        has_rel = bool(rel_predicates or rev_predicates)
        properties = attribute("property")
        typeof = attribute("typeof")
        about = self.resource(attrs, "about", local)
        resource = (self.resource(attrs, "resource", local) if "resource" in attrs
                    else self.resource(attrs, "href", local) if "href" in attrs
                    else self.resource(attrs, "src", local))
        if not has_rel:
            if properties is not None and attribute("content") is None \
                    and attribute("datatype") is None:
                if about is not None:
                    new_subject = about
                elif is_root:
                    new_subject = self.base
                elif context.parent_object is not None:
                    new_subject = context.parent_object
                if typeof is not None:
                    if about is not None:
                        typed_resource = about
                    elif is_root:
                        typed_resource = self.base
                    else:
                        typed_resource = resource if resource is not None \
                            else self.new_blank_node()
                        current_object = typed_resource
            else:
                if about is not None:
                    new_subject = about
                elif resource is not None:
                    new_subject = resource
                elif is_root:
                    new_subject = self.base
                elif head_or_body:
                    new_subject = context.parent_object
                elif typeof is not None:
                    new_subject = self.new_blank_node()
                elif context.parent_object is not None:
                    new_subject = context.parent_object
                    if properties is None:
                        skip = True
                if typeof is not None:
                    typed_resource = new_subject
        else:
            if about is not None:
                new_subject = about
                if typeof is not None:
                    typed_resource = about
            elif is_root:
                new_subject = self.base
            elif head_or_body:
                new_subject = context.parent_object
            else:
                new_subject = context.parent_object
            if resource is not None:
                current_object = resource
            elif typeof is not None and about is None:
                current_object = self.new_blank_node()
            if typeof is not None and about is None:
                typed_resource = current_object
        if typed_resource is not None:
            for iri in self.predicates(typeof, local):
                self.triples.append((typed_resource, _RDF_TYPE, {"@id": iri}))
        if new_subject is not None and current_object is not None:
            for predicate in rel_predicates:
                self.triples.append((new_subject, predicate, {"@id": current_object}))
            for predicate in rev_predicates:
                self.triples.append((current_object, predicate, {"@id": new_subject}))
        elif has_rel:
            current_object = self.new_blank_node()
            local_incomplete = [(p, True) for p in rel_predicates] + \
                [(p, False) for p in rev_predicates]
        if properties is not None and new_subject is not None:
            object_value = self.property_value(attrs, text or "", local, resource,
                                               typed_resource, has_rel, about, typeof)
            for predicate in self.predicates(properties, local):
                self.triples.append((new_subject, predicate, object_value))
        if not skip and new_subject is not None:
            for predicate, forward in context.incomplete:
                if forward:
                    self.triples.append((context.parent_subject, predicate,
                                         {"@id": new_subject}))
                else:
                    self.triples.append((new_subject, predicate,
                                         {"@id": context.parent_subject}))
        if skip:
            return local
        parent_object = current_object if current_object is not None else (
            new_subject if new_subject is not None else context.parent_subject)
        return RdfaContext(context.base, new_subject if new_subject is not None
                        else context.parent_subject, parent_object, prefixes,
                        local_incomplete, language, vocab)

    cdef dict property_value(self, dict attrs, str text_content, RdfaContext context,
                             object resource, object typed_resource, bint has_rel,
                             object about, object typeof):
        content = attrs.get("content")
        datatype = attrs.get("datatype")
        if datatype is not None and datatype.strip():
            iri = self.curie(datatype.strip(), context, True)
            text = content if content is not None else text_content
            if iri is not None and iri not in (_RDF + "XMLLiteral", _RDF + "HTML"):
                return {"@value": text, "@type": iri}
            if iri is not None:
                return {"@value": text, "@type": iri}
        if datatype is not None and not datatype.strip():
            return self.literal(content if content is not None else text_content, context)
        if content is not None:
            return self.literal(content, context)
        if not has_rel and datatype is None and resource is not None:
            return {"@id": resource}
        if typeof is not None and about is None and not has_rel and typed_resource is not None:
            return {"@id": typed_resource}
        return self.literal(text_content, context)

    cdef dict literal(self, str text, RdfaContext context):
        if context.language:
            return {"@value": text, "@language": context.language}
        return {"@value": text}

    def json(self):
        """The triples as expanded JSON-LD: a node object per subject."""
        nodes = {}
        seen = set()
        for subject, predicate, value in self.triples:
            subject = self.resolved_now(subject)
            if type(value.get("@id")) is _LaterIri:
                value = {"@id": self.resolved_now(value["@id"])}
            key = (subject, predicate, tuple(sorted(value.items())))
            if key in seen:
                continue
            seen.add(key)
            node = nodes.setdefault(subject, {"@id": subject})
            if predicate == _RDF_TYPE:
                node.setdefault("@type", []).append(value["@id"])
            else:
                node.setdefault(predicate, []).append(value)
        return list(nodes.values())
