"""RDFa 1.1 in HTML (RDFa Lite 1.1's vocab, typeof, property, resource and
prefix, and the Core attributes pages mix in: about, rel, rev, href, src,
content, datatype, xmlns:, lang), processed by RDFa Core 1.1's sequence,
with the triples given as expanded JSON-LD (extruct's rdfa shape: one node
object per subject, "@type" for rdf:type, {"@id"} or {"@value", "@type" or
"@language"} values). Not handled: inlist, XMLLiteral content (the text is
taken), the processor graph."""
from typing import Any, Dict, List, Optional, Tuple

from lexpy.dom import Node
from lexpy.extract._dom import (
    document_base_url, document_of, parse_url)
from lexpy.extract.extractor import RdfaProcessor, scan_structured

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

# What the C walk (extractor.pyx's scan_structured) gives of each element
# the sequence (RdfaProcessor, extractor.pyx's rdfa.pxi, compiled) visits:
# (depth from the document element, {RDFa attribute:
# value}, [(prefix, IRI) of its xmlns: attributes], whether it is an HTML
# head or body, its text content when it has property). It visits the
# elements with an attribute that makes triples (typeof, property, rel,
# rev, vocab), the elements below one with rel or rev (the subjects that
# complete its incomplete triples) and the elements around those (the
# context on the way down); the others make nothing. Of those it leaves
# out the ones with none of the attributes the sequence reads (nor a head or
# body): they hand their children the context they got, so the depth
# counts only the elements given.
Entry = Tuple[int, Dict[str, str], List[Tuple[str, str]], bool, Optional[str]]


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
    processor = RdfaProcessor(base, INITIAL_PREFIXES, INITIAL_TERMS, parse_url)
    processor.run(entries)
    return processor.json()
