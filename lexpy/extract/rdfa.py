"""RDFa 1.1 in HTML (RDFa Lite 1.1's vocab, typeof, property, resource and
prefix, and the Core attributes pages mix in: about, rel, rev, href, src,
content, datatype, xmlns:, lang), processed by RDFa Core 1.1's sequence,
with the triples given as expanded JSON-LD (extruct's rdfa shape: one node
object per subject, "@type" for rdf:type, {"@id"} or {"@value", "@type" or
"@language"} values). Not handled: inlist, XMLLiteral content (the text is
taken), the processor graph."""
from typing import Any, Dict, List, Optional, Set, Tuple

from lexpy.dom import Node
from lexpy.extract._dom import (
    document_base_url, document_of, parse_url, split_on_ascii_whitespace)
from lexpy.extract.extractor import scan_structured

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDF_TYPE = RDF + "type"
RDFA = "http://www.w3.org/ns/rdfa#"
XSD = "http://www.w3.org/2001/XMLSchema#"

# https://www.w3.org/2011/rdfa-context/rdfa-1.1 (the initial context) and
# the OpenGraph prefixes extruct adds to it
INITIAL_PREFIXES = {
    "as": "https://www.w3.org/ns/activitystreams#",
    "cc": "http://creativecommons.org/ns#", "ctag": "http://commontag.org/ns#",
    "dc": "http://purl.org/dc/terms/", "dcterms": "http://purl.org/dc/terms/",
    "dc11": "http://purl.org/dc/elements/1.1/", "foaf": "http://xmlns.com/foaf/0.1/",
    "gr": "http://purl.org/goodrelations/v1#", "grddl": "http://www.w3.org/2003/g/data-view#",
    "ical": "http://www.w3.org/2002/12/cal/icaltzd#", "ma": "http://www.w3.org/ns/ma-ont#",
    "og": "http://ogp.me/ns#", "owl": "http://www.w3.org/2002/07/owl#",
    "rdf": RDF, "rdfa": RDFA, "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rev": "http://purl.org/stuff/rev#", "rif": "http://www.w3.org/2007/rif#",
    "schema": "http://schema.org/", "sioc": "http://rdfs.org/sioc/ns#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "skosxl": "http://www.w3.org/2008/05/skos-xl#", "v": "http://rdf.data-vocabulary.org/#",
    "vcard": "http://www.w3.org/2006/vcard/ns#", "void": "http://rdfs.org/ns/void#",
    "wdr": "http://www.w3.org/2007/05/powder#", "wdrs": "http://www.w3.org/2007/05/powder-s#",
    "xhv": "http://www.w3.org/1999/xhtml/vocab#", "xml": "http://www.w3.org/XML/1998/namespace",
    "xsd": XSD, "prov": "http://www.w3.org/ns/prov#", "qb": "http://purl.org/linked-data/cube#",
    "sd": "http://www.w3.org/ns/sparql-service-description#",
    "twitter": "https://dev.twitter.com/cards#", "fb": "http://ogp.me/ns/fb#",
    "music": "http://ogp.me/ns/music#", "video": "http://ogp.me/ns/video#",
    "article": "http://ogp.me/ns/article#", "book": "http://ogp.me/ns/book#",
    "profile": "http://ogp.me/ns/profile#",
}
INITIAL_TERMS = {
    "describedby": "http://www.w3.org/2007/05/powder-s#describedby",
    "license": "http://www.w3.org/1999/xhtml/vocab#license",
    "role": "http://www.w3.org/1999/xhtml/vocab#role",
}

Triple = Tuple[str, str, Any]
# What the C walk (extractor.pyx's scan_structured) gives of each element
# the sequence visits: (depth from the document element, {RDFa attribute:
# value}, [(prefix, IRI) of its xmlns: attributes], whether it is an HTML
# head or body, its text content when it has property). It visits the
# elements with an attribute that makes triples (typeof, property, rel,
# rev, vocab), the elements below one with rel or rev (the subjects that
# complete its incomplete triples) and the elements around those (the
# context on the way down); the others make nothing. Of those it leaves
# out the ones with none of the attributes element() reads (nor a head or
# body): they hand their children the context they got, so the depth
# counts only the elements given.
Entry = Tuple[int, Dict[str, str], List[Tuple[str, str]], bool, Optional[str]]


class _Context:
    __slots__ = ("base", "parent_subject", "parent_object", "prefixes", "incomplete",
                 "language", "vocab")

    def __init__(self, base: str, parent_subject: Optional[str], parent_object: Optional[str],
                 prefixes: Dict[str, str], incomplete: List[Tuple[str, bool]],
                 language: Optional[str], vocab: Optional[str]) -> None:
        self.base = base
        self.parent_subject = parent_subject
        self.parent_object = parent_object
        self.prefixes = prefixes
        self.incomplete = incomplete
        self.language = language
        self.vocab = vocab


def rdfa_lite(doc: Node, *, base_url: Optional[str] = None) -> List[Dict[str, Any]]:
    """The RDFa triples of the document of `doc` as expanded JSON-LD."""
    document = document_of(doc)
    root = document.document_element if document is not None else None
    if root is None:
        return []
    return rdfa_of(scan_structured(root, False, False, False, True)[3], root, base_url)


def rdfa_of(entries: List[Entry], doc: Node, base_url: Optional[str]) -> List[Dict[str, Any]]:
    """The expanded JSON-LD of the RDFa entries scan_structured() found in
    the document of `doc`."""
    if not entries:
        return []
    base = document_base_url(doc, base_url) or ""
    processor = _Processor(base)
    processor.run(entries)
    return processor.json()


class _Processor:
    def __init__(self, base: str) -> None:
        self.base = base
        self.triples: List[Triple] = []
        self.blank_nodes = 0
        self.resolved: Dict[Tuple[str, str], str] = {}

    def new_blank_node(self) -> str:
        self.blank_nodes += 1
        return "_:b%d" % self.blank_nodes

    def resolve(self, value: str, context: _Context) -> str:
        key = (value, context.base)
        found = self.resolved.get(key)
        if found is None:
            resolved = parse_url(value, context.base or None)
            found = self.resolved[key] = resolved if resolved is not None else value
        return found

    def curie(self, value: str, context: _Context, terms: bool,
              safe_only: bool = False) -> Optional[str]:
        """A CURIE, term or absolute IRI of @property, @typeof, @rel, @rev,
        @datatype (`terms`) or a SafeCURIEorCURIEorIRI of @about and
        @resource (None: resolve it as an IRI)."""
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1]
            return self.curie(inner, context, False) if inner else None
        if ":" not in value:
            if not terms:
                return None
            if context.vocab:
                return context.vocab + value
            return INITIAL_TERMS.get(value.lower())
        prefix, _, reference = value.partition(":")
        if prefix == "_":
            return "_:" + (reference or "blank")
        if prefix == "" and terms:
            return "http://www.w3.org/1999/xhtml/vocab#" + reference
        mapped = context.prefixes.get(prefix.lower())
        if mapped is not None and not reference.startswith("//"):
            return mapped + reference
        if terms:
            return value if _has_scheme(value) else None
        return None

    def resource(self, attrs: Dict[str, str], name: str, context: _Context) -> Optional[str]:
        value = attrs.get(name)
        if value is None:
            return None
        if name in ("about", "resource"):
            found = self.curie(value, context, False)
            if found is not None:
                return found
        return self.resolve(value, context)

    def predicates(self, value: Optional[str], context: _Context) -> List[str]:
        found = []
        for token in split_on_ascii_whitespace(value):
            iri = self.curie(token, context, True)
            if iri is not None and not iri.startswith("_:"):
                found.append(iri)
        return found

    def run(self, entries: List[Entry]) -> None:
        # each visited element's context for its children, by depth: an
        # element's parent was visited just before at the depth above
        initial = _Context(self.base, self.base, self.base, dict(INITIAL_PREFIXES), [],
                           None, None)
        contexts: List[_Context] = []
        for depth, attrs, xmlns, head_or_body, text in entries:
            del contexts[depth:]
            contexts.append(self.element(attrs, xmlns, head_or_body, text,
                                         contexts[depth - 1] if depth else initial,
                                         depth == 0))

    def element(self, attrs: Dict[str, str], xmlns: List[Tuple[str, str]], head_or_body: bool,
                text: Optional[str], context: _Context, is_root: bool) -> _Context:
        # https://www.w3.org/TR/rdfa-core/#s_sequence
        attribute = attrs.get
        skip = False
        new_subject: Optional[str] = None
        current_object: Optional[str] = None
        typed_resource: Optional[str] = None
        prefixes = context.prefixes
        vocab = context.vocab
        language = context.language
        local_incomplete: List[Tuple[str, bool]] = []
        vocab_value = attribute("vocab")
        if vocab_value is not None:
            if vocab_value.strip():
                vocab = self.resolve(vocab_value.strip(), context)
                self.triples.append((self.base, RDFA + "usesVocabulary", {"@id": vocab}))
            else:
                vocab = None
        declared = list(xmlns)
        prefix_value = attribute("prefix")
        if prefix_value is not None:
            tokens = split_on_ascii_whitespace(prefix_value)
            for i in range(0, len(tokens) - 1, 2):
                if tokens[i].endswith(":"):
                    declared.append((tokens[i][:-1], tokens[i + 1]))
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
        local = _Context(context.base, context.parent_subject, context.parent_object,
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
                self.triples.append((typed_resource, RDF_TYPE, {"@id": iri}))
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
                    self.triples.append((context.parent_subject, predicate,  # type: ignore[arg-type]
                                         {"@id": new_subject}))
                else:
                    self.triples.append((new_subject, predicate,
                                         {"@id": context.parent_subject}))
        if skip:
            return local
        parent_object = current_object if current_object is not None else (
            new_subject if new_subject is not None else context.parent_subject)
        return _Context(context.base, new_subject if new_subject is not None
                        else context.parent_subject, parent_object, prefixes,
                        local_incomplete, language, vocab)

    def property_value(self, attrs: Dict[str, str], text_content: str, context: _Context,
                       resource: Optional[str], typed_resource: Optional[str], has_rel: bool,
                       about: Optional[str], typeof: Optional[str]) -> Dict[str, str]:
        content = attrs.get("content")
        datatype = attrs.get("datatype")
        if datatype is not None and datatype.strip():
            iri = self.curie(datatype.strip(), context, True)
            text = content if content is not None else text_content
            if iri is not None and iri not in (RDF + "XMLLiteral", RDF + "HTML"):
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

    def literal(self, text: str, context: _Context) -> Dict[str, str]:
        if context.language:
            return {"@value": text, "@language": context.language}
        return {"@value": text}

    def json(self) -> List[Dict[str, Any]]:
        nodes: Dict[str, Dict[str, Any]] = {}
        seen = set()
        for subject, predicate, value in self.triples:
            key = (subject, predicate, tuple(sorted(value.items())))
            if key in seen:
                continue
            seen.add(key)
            node = nodes.setdefault(subject, {"@id": subject})
            if predicate == RDF_TYPE:
                node.setdefault("@type", []).append(value["@id"])
            else:
                node.setdefault(predicate, []).append(value)
        return list(nodes.values())


def _has_scheme(value: str) -> bool:
    scheme, colon, _ = value.partition(":")
    return bool(colon) and scheme[:1].isalpha() and all(
        c.isalnum() or c in "+-." for c in scheme)
