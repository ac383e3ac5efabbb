# structured_data()'s own work, compiled into lexpy.extract.extractor: the
# syntaxes asked for, one scan_structured_c() walk, and the JSON-LD,
# microdata and OpenGraph made from it without a Python frame per page or
# per script (structured.py drives it and holds what is rarely run: the
# lenient JSON pass, RDFa, meta, the uniform shapes).

import json

from lexpy.dom import Document as _Document

_STRUCTURED_SYNTAXES = ("json-ld", "microdata", "opengraph", "rdfa", "meta")
DEF WANT_JSON_LD = 1
DEF WANT_MICRODATA = 2
DEF WANT_OPENGRAPH = 4
DEF WANT_RDFA = 8
DEF WANT_META = 16

# json.loads(text, strict=False)'s scanner, called directly: decode() and
# raw_decode() are Python frames and two regex matches
_JSON_SCAN_ONCE = json.JSONDecoder(strict=False).scan_once

# OpenGraph: the namespaces of its own prefixes, and a prefix declaration
OG_NAMESPACES = {
    "og": "http://ogp.me/ns#",
    "music": "http://ogp.me/ns/music#",
    "video": "http://ogp.me/ns/video#",
    "article": "http://ogp.me/ns/article#",
    "book": "http://ogp.me/ns/book#",
    "profile": "http://ogp.me/ns/profile#",
    "product": "http://ogp.me/ns/product#",
}
PREFIX_DECLARATION = re.compile(r"\s*(\w+):\s*([^\s]+)")
cdef dict _og_namespaces = OG_NAMESPACES
cdef object _find_prefix_declarations = PREFIX_DECLARATION.findall


cdef int wanted_syntaxes(object syntaxes) except -1:
    """The WANT_ bits of `syntaxes` (None: all); ValueError naming the
    first one that is none of them."""
    cdef int wanted = 0
    if syntaxes is None:
        return WANT_JSON_LD | WANT_MICRODATA | WANT_OPENGRAPH | WANT_RDFA | WANT_META
    for syntax in syntaxes:
        if syntax == "json-ld":
            wanted |= WANT_JSON_LD
        elif syntax == "microdata":
            wanted |= WANT_MICRODATA
        elif syntax == "opengraph":
            wanted |= WANT_OPENGRAPH
        elif syntax == "rdfa":
            wanted |= WANT_RDFA
        elif syntax == "meta":
            wanted |= WANT_META
        else:
            raise ValueError("unknown syntax %r (one of %s)"
                             % (syntax, ", ".join(_STRUCTURED_SYNTAXES)))
    return wanted


cpdef list json_ld_of(list texts, object lenient):
    """The JSON-LD items of the ld+json script texts: each text without a
    leading BOM and surrounding whitespace, decoded (an array's members one
    by one; empty bodies, null and empty values skipped); a text the strict
    decode refuses goes to `lenient` (structured.py's _parse_lenient_json)
    with the decode's ValueError (None when it found no value, or more
    than one), and lenient's ValueError (or RecursionError: arrays or
    objects nested deeper than the decoder goes) makes an error entry
    {"@error": message, "@text": text}."""
    cdef list items = []
    cdef str stripped
    cdef Py_ssize_t end
    for text in texts:
        stripped = (<str> text).lstrip("\ufeff").strip()
        if not stripped:
            continue
        strict_error = None
        try:
            data, end = _JSON_SCAN_ONCE(stripped, 0)
            accepted = end == len(stripped)
        except ValueError as error:
            # (the error _parse_lenient_json's own first decode would raise)
            strict_error = error
            accepted = False
        except (StopIteration, RecursionError):
            accepted = False
        if not accepted:
            try:
                data = lenient(text, strict_error)
            except (ValueError, RecursionError) as error:
                # (RecursionError: nested deeper than the decoder goes)
                items.append({"@error": str(error), "@text": text})
                continue
        if isinstance(data, list):
            for item in data:
                if item:
                    items.append(item)
        elif data:
            items.append(data)
    return items


cpdef list opengraph_of(list heads):
    """OpenGraph as extruct gives it from scan_structured()'s heads: per
    head with a property, the prefixes its html element and it declare plus
    the OpenGraph namespaces used, and the (property, content) pairs whose
    prefix is declared or OpenGraph's."""
    cdef list found = []
    cdef list properties
    cdef dict namespaces
    cdef str name, prefix
    cdef Py_ssize_t colon
    cdef tuple pair
    for html_prefix, head_prefix, pairs in heads:
        if not pairs:
            continue                      # no property: nothing to give
        namespaces = {}
        if html_prefix:
            namespaces.update(_find_prefix_declarations(html_prefix))
        if head_prefix:
            namespaces.update(_find_prefix_declarations(head_prefix))
        properties = []
        for pair in pairs:
            name = pair[0]
            colon = name.find(":")
            prefix = name if colon < 0 else name[:colon]
            namespace = _og_namespaces.get(prefix)
            if namespace is not None:
                namespaces[prefix] = namespace
            if prefix in namespaces:
                properties.append(pair)
        if properties:
            found.append({"namespace": namespaces, "properties": properties})
    return found


def structured_of(Node doc not None, base_url, syntaxes, tuple hooks):
    """structured_data()'s dict but for the uniform shapes: `syntaxes` as
    structured_data() takes them; `hooks` are structured.py's
    (_parse_lenient_json, rdfa_of, rdfa, meta). RDFa is found in the same
    walk when `doc` is a Document (from the document element)."""
    cdef int wanted = wanted_syntaxes(syntaxes)
    cdef dict output = {}
    cdef bint rdfa_in_walk = (wanted & WANT_RDFA) != 0 and isinstance(doc, _Document)
    cdef tuple scanned = scan_structured_c(
        doc, (wanted & WANT_MICRODATA) != 0, (wanted & WANT_JSON_LD) != 0,
        (wanted & WANT_OPENGRAPH) != 0, rdfa_in_walk)
    cdef list items = scanned[0], texts = scanned[1], heads = scanned[2]
    if wanted & WANT_MICRODATA:
        output["microdata"] = ExtructMicrodata(doc, base_url, False, True, False,
                                               items).items() if items else []
    if wanted & WANT_JSON_LD:
        output["json-ld"] = json_ld_of(texts, hooks[0]) if texts else []
    if wanted & WANT_OPENGRAPH:
        output["opengraph"] = opengraph_of(heads) if heads else []
    if rdfa_in_walk:
        output["rdfa"] = hooks[1](scanned[3], doc, base_url)
    elif wanted & WANT_RDFA:
        output["rdfa"] = hooks[2](doc, base_url=base_url)
    if wanted & WANT_META:
        output["meta"] = hooks[3](doc)
    return output
