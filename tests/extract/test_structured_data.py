"""lexpy.structured_data over extruct's fixtures (../shared/scrape/
structured-data/extruct: extruct's expected output, each compared as its
manifest says) and lexpy.microdata_json over the HTML standard's JSON
conversion of every microdata page (html-standard-microdata/)."""
import json
import re

import pytest

import lexpy
from lexpy.extract import structured
from tests.extract.scrape_data import (
    extruct_entries, scrape_dir, standard_microdata_entries)

SAMPLES = scrape_dir() / "structured-data" / "extruct" / "samples"
STANDARD = scrape_dir() / "structured-data"
ENTRIES = extruct_entries()
OUTSIDE = {
    "microformat": "microformats (mf2) are not a syntax of lexpy.structured_data "
                   "(issue 36: json-ld, microdata, opengraph, rdfa, meta)",
    "dublincore": "Dublin Core meta tags are given as the `meta` key, not in "
                  "extruct's dublincore shape (issue 36's list of syntaxes)",
}
RDFA_RULES = {
    "misc/Portfolio_Niels_Lubberman.html":
        "XHTML+RDFa 1.0 host language (its doctype): pyRdfa applies the XHTML "
        "vocabulary's rel terms (alternate, icon) and serializes rdf:XMLLiteral "
        "content as canonical XML; lexpy processes HTML+RDFa 1.1 and takes the text",
    "songkick/elysianfields.html":
        "HTML+RDFa 1.1 (https://www.w3.org/TR/html-rdfa/#extensions-to-the-html5-syntax): "
        "the lang attribute sets the language of literals; pyRdfa over extruct's "
        "XML DOM drops it (no @language in extruct's expectation)",
    "songkick/elysianfields_1.html":
        "HTML+RDFa 1.1 (https://www.w3.org/TR/html-rdfa/#extensions-to-the-html5-syntax): "
        "the lang attribute sets the language of literals; pyRdfa over extruct's "
        "XML DOM drops it (no @language in extruct's expectation)",
}
# The standard's JSON differs from the reference file only where the
# reference resolved URLs with urljoin instead of the URL Standard.
URL_STANDARD = {
    "extruct/samples/schema.org/LocalBusiness.002.html":
        "URL Standard: the empty path of the special URL http://www.dishdash.com "
        "serializes as '/' (https://url.spec.whatwg.org/#url-serializing); the "
        "reference file kept urljoin's http://www.dishdash.com",
}


def _id(entry):
    return "%s:%s" % (entry["syntax"], entry["expected"])


def _load(path):
    return lexpy.parse((SAMPLES / path).read_bytes())


def test_every_fixture_is_collected():
    assert len(ENTRIES) == 59
    assert len(standard_microdata_entries()) == 22


@pytest.mark.parametrize("entry", ENTRIES, ids=[_id(e) for e in ENTRIES])
def test_extruct_fixture(entry):
    syntax = entry["syntax"]
    if syntax in OUTSIDE:
        pytest.xfail(OUTSIDE[syntax])
    if entry["html"] in RDFA_RULES and syntax != "all":
        pytest.xfail(RDFA_RULES[entry["html"]])
    document = _load(entry["html"])
    expected = json.loads((SAMPLES / entry["expected"]).read_text(encoding="utf-8"))
    options = entry["options"]
    if syntax == "microdata":
        got = structured.microdata(document, **options)
    elif syntax == "json-ld":
        got = structured.json_ld(document)
    elif syntax == "opengraph":
        got = structured.opengraph(document)
    elif syntax == "rdfa":
        got = structured.rdfa(document, base_url=options.get("base_url"))
        assert _triples(got) == _triples(expected)
        return
    else:
        assert syntax == "all", syntax
        got = lexpy.structured_data(document, base_url=options.get("base_url"))
        got_rdfa, expected_rdfa = got.pop("rdfa"), expected.pop("rdfa")
        if entry["compare"] != "all-rdfa-only":
            expected = {key: value for key, value in expected.items()
                        if key not in OUTSIDE}
            got = {key: value for key, value in got.items() if key in expected}
            assert json.loads(json.dumps(got)) == expected
        if entry["html"] in RDFA_RULES:
            pytest.xfail(RDFA_RULES[entry["html"]])
        assert _triples(got_rdfa) == _triples(expected_rdfa)
        return
    assert json.loads(json.dumps(got)) == expected


def _triples(nodes):
    """Expanded JSON-LD as a sorted list of triples, blank node labels
    erased (extruct's rdfa comparison is order-insensitive and renumbers
    blank nodes; erasing them is coarser and enough for these pages)."""
    found = []
    for node in nodes:
        subject = node["@id"]
        for name, values in node.items():
            if name == "@id":
                continue
            for value in (values if name != "@type" else [{"@id": v} for v in values]):
                found.append((subject, "type" if name == "@type" else name,
                              json.dumps(value, sort_keys=True)))
    return sorted(tuple(re.sub(r"_:[A-Za-z0-9]+", "_:", part) for part in triple)
                  for triple in found)


STANDARD_ENTRIES = standard_microdata_entries()


@pytest.mark.parametrize("entry", STANDARD_ENTRIES,
                         ids=[e["expected"].split("/")[-1] for e in STANDARD_ENTRIES])
def test_microdata_equals_the_standards_json(entry):
    if entry["html"] in URL_STANDARD:
        pytest.xfail(URL_STANDARD[entry["html"]])
    document = lexpy.parse((STANDARD / entry["html"]).read_bytes())
    expected = json.loads((STANDARD / entry["expected"]).read_text(encoding="utf-8"))
    got = lexpy.microdata_json(document, base_url=entry["document_url"])
    assert got == expected
    assert len(got["items"]) == entry["items"]


def test_the_url_standard_difference_is_the_only_one():
    entry = next(e for e in STANDARD_ENTRIES if e["html"] in URL_STANDARD)
    document = lexpy.parse((STANDARD / entry["html"]).read_bytes())
    expected = json.loads((STANDARD / entry["expected"]).read_text(encoding="utf-8"))
    got = lexpy.microdata_json(document, base_url=entry["document_url"])
    assert got != expected
    assert got["items"][0]["properties"]["url"] == ["http://www.dishdash.com/"]
    got["items"][0]["properties"]["url"] = ["http://www.dishdash.com"]
    assert got == expected


# The standard's rules, one by one, on small pages.

def _items(html, base_url="http://example.com/dir/page"):
    return lexpy.microdata_json(lexpy.parse(html), base_url=base_url)["items"]


def test_itemref_cycle_is_an_error_string():
    [item] = _items('<div itemscope><div id=a itemprop=p itemscope itemref=b></div>'
                    '<div id=b itemprop=q itemscope itemref=a></div></div>')
    a = item["properties"]["p"][0]
    assert a["properties"]["q"][0]["properties"]["p"] == ["ERROR"]
    b = item["properties"]["q"][0]
    assert b["properties"]["p"][0]["properties"]["q"] == ["ERROR"]


def test_itemref_reaching_the_same_element_twice_counts_it_once():
    items = _items('<div itemscope itemref="p p q"></div><p id=p itemprop="a b a">v</p>'
                   '<p id=q itemprop=c>w</p>')
    assert items == [{"properties": {"a": ["v"], "b": ["v"], "c": ["w"]}}]


def test_property_values_per_element():
    html = ('<base href="/base/"><div itemscope itemtype="t u t" itemid="#me">'
            '<meta itemprop=m content=M><img itemprop=i src=a.png>'
            '<a itemprop=h href=" ../x "></a><object itemprop=o data=d></object>'
            '<data itemprop=d value=7>seven</data><meter itemprop=r value=0.5></meter>'
            '<time itemprop=t>2020<b>x</b></time><time itemprop=t datetime=2021>y</time>'
            '<span itemprop=s> a <script>b</script></span></div>')
    [item] = _items(html)
    assert item["type"] == ["t", "u"]
    assert item["id"] == "http://example.com/base/#me"
    assert item["properties"] == {
        "m": ["M"], "i": ["http://example.com/base/a.png"], "h": ["http://example.com/x"],
        "o": ["http://example.com/base/d"], "d": ["7"], "r": ["0.5"],
        "t": ["2020", "2021"], "s": [" a b"]}


def test_deeply_nested_items_do_not_recurse():
    depth = 5000
    html = '<div itemscope>' + '<div itemprop=p itemscope>' * depth
    [item] = _items(html)
    for _ in range(depth):
        item = item["properties"]["p"][0]
    assert item == {"properties": {}}


def test_json_ld_leniency_and_error_entries():
    html = ('<script type="application/ld+json">\ufeff<!--{"a": 1}--></script>'
            '<script type="application/ld+json">{"b": [1, 2,], // c\n}</script>'
            '<script type="application/ld+json">{"broken": </script>'
            '<script type="application/ld+json"><![CDATA[[{"d": 4}, null]]]></script>')
    items = lexpy.structured_data(lexpy.parse(html), syntaxes=["json-ld"])["json-ld"]
    assert items[0] == {"a": 1}
    assert items[1] == {"b": [1, 2]}
    assert set(items[2]) == {"@error", "@text"} and items[2]["@text"] == '{"broken": '
    assert items[3] == {"d": 4}
    assert len(items) == 4
    html = ('<script type=" Application/LD+JSON ">{"a": 1};</script>'
            '<script type="application/ld+json">{"b": 2}\n{"c": 3}, [{"d": 4}]</script>'
            '<script type="application/json">{"no": 1}</script>')
    items = lexpy.structured_data(lexpy.parse(html), syntaxes=["json-ld"])["json-ld"]
    assert items == [{"a": 1}, {"b": 2}, {"c": 3}, {"d": 4}]


def test_json_ld_nested_deeper_than_the_decoder_is_an_error_entry():
    # the decoder's RecursionError was raised out of structured_data
    deep = "[" * 100000 + "]" * 100000
    html = ('<script type="application/ld+json">%s</script>'
            '<script type="application/ld+json">{"a": 1}</script>' % deep)
    for document in (lexpy.parse(html), lexpy.parse(html.replace("]", ""))):
        items = lexpy.structured_data(document, syntaxes=["json-ld"])["json-ld"]
        assert len(items) == 2 and items[1] == {"a": 1}
        assert set(items[0]) == {"@error", "@text"} and "recursion" in items[0]["@error"]
        assert structured.json_ld(document) == items


def test_opengraph_prefixes_and_uniform():
    html = ('<html prefix="og: http://ogp.me/ns# fb: http://fb.example/ns#"><head>'
            '<meta property="og:title" content="T"><meta property="og:type" content="book">'
            '<meta property="fb:app_id" content="1"><meta property="zz:no" content="x">'
            '<meta name="twitter:card" content="summary">')
    data = lexpy.structured_data(lexpy.parse(html), syntaxes=["opengraph", "meta"])
    assert data["opengraph"] == [{
        "namespace": {"og": "http://ogp.me/ns#", "fb": "http://fb.example/ns#"},
        "properties": [("og:title", "T"), ("og:type", "book"), ("fb:app_id", "1")]}]
    assert {"name": "twitter:card", "content": "summary"} in data["meta"]
    uniform = lexpy.structured_data(lexpy.parse(html), syntaxes=["opengraph"], uniform=True)
    assert uniform["opengraph"][0]["@type"] == "book"
    assert uniform["opengraph"][0]["og:title"] == "T"


def test_uniform_microdata():
    html = '<div itemscope itemtype="http://schema.org/Person"><p itemprop=name>N</p></div>'
    data = lexpy.structured_data(lexpy.parse(html), syntaxes=["microdata"], uniform=True)
    assert data["microdata"] == [
        {"@type": "Person", "@context": "http://schema.org", "name": "N"}]


def test_unknown_syntax_is_refused():
    with pytest.raises(ValueError):
        lexpy.structured_data(lexpy.parse(""), syntaxes=["microformat"])


def test_syntaxes_in_any_iterable_and_the_first_unknown_named():
    # structured_data (structured.pxi) reads `syntaxes` itself: None is all
    # of them, any iterable does, the keys come in one order whatever the
    # order asked, and the error names the first unknown one
    document = lexpy.parse('<meta property="og:title" content="T">')
    assert list(lexpy.structured_data(document)) == [
        "microdata", "json-ld", "opengraph", "rdfa", "meta"]
    assert list(lexpy.structured_data(document, syntaxes=("meta", "json-ld"))) == [
        "json-ld", "meta"]
    assert list(lexpy.structured_data(document, syntaxes=iter(["opengraph"]))) == ["opengraph"]
    assert lexpy.structured_data(document, syntaxes=[]) == {}
    with pytest.raises(ValueError, match="unknown syntax 'x'"):
        lexpy.structured_data(document, syntaxes=["meta", "x", "y"])
    with pytest.raises(ValueError, match=r"unknown syntax \['meta'\]"):
        lexpy.structured_data(document, syntaxes=[["meta"]])
    with pytest.raises(ValueError, match="unknown syntax 'm'"):
        lexpy.structured_data(document, syntaxes="meta")


def test_json_ld_strict_decode_and_its_fallback():
    # json_ld_of (structured.pxi) takes what the strict decode accepts as
    # a whole (after a BOM and whitespace) and hands the rest to the lenient
    # pass: falsy values and members are skipped, and an error entry keeps
    # the body as written
    # (the error of a body nothing decodes is the strict decode's, which
    # the lenient pass is handed rather than decoding again)
    bodies = ['\ufeff \n{"a": "\u00e9"}\n ', "null", "[]", '""', "0", '[{"b": 1}, {}, 0, [2]]',
              ' {"c": 3} {"d": 4} ', '{"e": 5} tail', "", "  \n", ' \n{"f":\n }// x\n']
    html = "".join('<script type="application/ld+json">%s</script>' % body for body in bodies)
    items = lexpy.structured_data(lexpy.parse(html), syntaxes=["json-ld"])["json-ld"]
    assert items[:5] == [{"a": "\u00e9"}, {"b": 1}, [2], {"c": 3}, {"d": 4}]
    assert len(items) == 7
    assert items[5]["@text"] == '{"e": 5} tail'
    assert items[5]["@error"].startswith("Extra data")
    assert items[6]["@text"] == bodies[10]
    with pytest.raises(ValueError) as strict:
        json.JSONDecoder(strict=False).decode(bodies[10].strip())
    assert items[6]["@error"] == str(strict.value) == "Expecting value: line 2 column 2 (char 7)"


PAGES = sorted({entry["html"] for entry in ENTRIES})


@pytest.mark.parametrize("page", PAGES)
def test_equals_extruct_itself(page):
    # extruct (the test extra) parses with lxml, lexpy as browsers do; on
    # these pages the trees agree where the syntaxes look
    import warnings

    import extruct
    body = (SAMPLES / page).read_bytes()
    syntaxes = ["microdata", "json-ld", "opengraph"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = extruct.extract(body, syntaxes=syntaxes)
    ours = lexpy.structured_data(lexpy.parse(body), syntaxes=syntaxes)
    assert json.loads(json.dumps(ours)) == json.loads(json.dumps(theirs))
    for uniform in (True,):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = extruct.extract(body, syntaxes=syntaxes, uniform=uniform)
        ours = lexpy.structured_data(lexpy.parse(body), syntaxes=syntaxes, uniform=uniform)
        assert json.loads(json.dumps(ours)) == json.loads(json.dumps(theirs))


def test_the_structured_data_walk_releases_the_gil():
    # scan_structured (extractor.pyx) finds the items, the ld+json scripts
    # and the heads in one walk without the GIL: on a large page with few
    # of them, another thread keeps running meanwhile.
    from tests.helpers import progress_gaps
    from lexpy.extract.extractor import scan_structured
    page = ('<head><meta property="og:title" content=t></head>'
            + "<div><p><span>x</span></p></div>" * 100000
            + '<div itemscope><b itemprop=n>1</b></div>'
            + '<script type="application/ld+json">{"a": 1}</script>')
    document = lexpy.parse(page)

    def work():
        for _ in range(30):
            found = scan_structured(document, True, True, True)
        assert len(found[0]) == 1 and found[1] == ['{"a": 1}'] and len(found[2]) == 1
    gaps, total = progress_gaps(work)
    assert total > 0.01
    assert max(gaps) < total / 2, (max(gaps), total)


# The text of a property (extruct's html_text) from text_events' C walk,
# against the walk over the proxies it replaced (kept here as the
# reference), on every element of corpus pages and on hostile shapes.

from lexpy.extract._dom import ELEMENT, TEXT, walk  # noqa: E402
from lexpy.extract.structured import (  # noqa: E402
    _DOUBLE, _DOUBLE_NEWLINE_TAGS, _NEWLINE, _NEWLINE_TAGS, _PUNCTUATION_AFTER, _REMOVED_TAGS,
    _WHITESPACE, _html_text)


def _html_text_walk(root):
    chunks = []
    state = {"prev": _DOUBLE, "prev_is_mark": True}
    pending = []

    def add_newlines(tag):
        if state["prev_is_mark"] and state["prev"] == _DOUBLE:
            return
        if tag in _DOUBLE_NEWLINE_TAGS:
            chunks.append("\n" if state["prev_is_mark"] and state["prev"] == _NEWLINE
                          else "\n\n")
            state["prev"], state["prev_is_mark"] = _DOUBLE, True
        elif tag in _NEWLINE_TAGS:
            if not (state["prev_is_mark"] and state["prev"] == _NEWLINE):
                chunks.append("\n")
            state["prev"], state["prev_is_mark"] = _NEWLINE, True

    def flush():
        if not pending:
            return
        raw = "".join(pending)
        del pending[:]
        text = _WHITESPACE.sub(" ", raw.strip())
        if not text:
            return
        if state["prev_is_mark"]:
            space = ""
        else:
            prev = state["prev"]
            space = " " if (prev[-1:].isspace() or (not _PUNCTUATION_AFTER.search(text)
                                                    and not prev.endswith("("))) else ""
        chunks.append(space)
        chunks.append(text)
        state["prev"], state["prev_is_mark"] = raw, False

    skipping = 0
    for entering, node in walk(root):
        kind = node.node_type
        if kind == ELEMENT:
            tag = node.local_name
            if skipping:
                if entering and node.first_child is not None:
                    skipping += 1
                elif not entering:
                    skipping -= 1
                continue
            if tag in _REMOVED_TAGS:
                if entering and node.first_child is not None:
                    skipping = 1
                continue
            flush()
            add_newlines(tag)
        elif kind == TEXT and not skipping:
            pending.append(node.text_content or "")
    flush()
    return "".join(chunks).strip()


_TEXT_PAGES = [
    "<div>a<p>b<br>c</p><script>x<b>y</b></script>d<svg><script><g/>e</script></svg>f</div>",
    "<ul><li>one,<li>(two)<li> three .</ul><pre>  x\n y </pre><table><tr><td>1<td>2</table>",
    "<p>a<!-- c -->b<style>s</style><meta content=m><link href=l>c</p><h1> </h1>t\u00a0u",
    # html_text's C buffer: Unicode whitespace (str.split's) inside, around
    # and between chunks, punctuation after "(", after whitespace, after
    # multi-byte characters; chunks that are only whitespace
    "<p>x(<b>y</b>) z<i>,w</i>\u3000\u2028<span>\x1c.</span>\u00e9\u200a<em>!</em>"
    "\U0001F600<u>?</u>\u0085<s>\u2003</s><q>\u00a0)</q>(\t<b>;</b></p><div>\u3000</div>",
]


def test_the_c_text_walk_equals_the_python_walk():
    from tests.conformance import data
    pages = sorted(p for p in data.corpus_dir().iterdir() if p.is_file())[::11]
    documents = [lexpy.parse(page.read_bytes()) for page in pages] + \
        [lexpy.parse(html) for html in _TEXT_PAGES]
    svg_script = lexpy.parse("<svg><script><g/><g>x</g>y</script>z</svg>")
    documents.append(svg_script)
    checked = 0
    for document in documents:
        for element in [document.document_element] + list(document.iter()):
            assert _html_text(element) == _html_text_walk(element), element
            checked += 1
    assert checked > 5000



# JSON-LD's leniency: _without_comments (compiled: extractor's
# json_without_comments) against a character loop in Python, the reference.

from hypothesis import given, settings, strategies as st  # noqa: E402

import re  # noqa: E402

from lexpy.extract.structured import _without_comments  # noqa: E402

_TRAILING_COMMA = re.compile(r",(\s*[\]}])")


def _without_comments_loop(text):
    """`text` without what is not JSON outside strings: // and /* */
    comments, <!-- --> comments, CDATA markers and commas before a closing
    bracket. A helper of this module, not a standard's algorithm."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith("<!--", i):
            j = text.find("-->", i + 4)
            i = n if j < 0 else j + 3
        elif text.startswith("<![CDATA[", i):
            i += 9
        elif text.startswith("]]>", i):
            i += 3
        else:
            j = i + 1
            while j < n and text[j] not in '"/<]':
                j += 1
            out.append(text[i:j])
            i = j
    return _TRAILING_COMMA.sub(r"\1", "".join(out))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(['"', "\\", "/", "*", "//", "/*", "*/", "<!--", "-->", "<",
                                 "<![CDATA[", "]]>", "]", ",", "}", " ", "\n", "a", "1", "{",
                                 "-", "!", "[", "CDATA", "\xa0", "\u2003", "\t"]),
                max_size=25).map("".join))
def test_json_ld_comments_are_dropped_as_the_loop_dropped_them(text):
    assert _without_comments(text) == _without_comments_loop(text)


# JSON-LD's decoding: the scanner called directly (_decode) gives what
# json.JSONDecoder(strict=False).decode gives: the value, or the error.

import json  # noqa: E402

from lexpy.extract.structured import _decode  # noqa: E402


def _decoded(decode, text):
    try:
        return "value", decode(text)
    except ValueError as error:
        return type(error), str(error)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["{", "}", "[", "]", '"', "a", "1", ",", ":", " ", "\n", "\t",
                                 "\r", "null", "true", "\\", "\x01", "\xa0", "\u2003", "-",
                                 ".", "e"]), max_size=16).map("".join))
def test_json_ld_decodes_as_the_json_decoder(text):
    assert _decoded(_decode, text) == _decoded(json.JSONDecoder(strict=False).decode, text)


# RDFa: the elements the C walk gives (scan_structured's rdfa entries,
# without those that change nothing) against a walk over proxies of every
# element the sequence visits (the makers, what is below rel/rev, what is
# around them), through the same processor: the same triples on every
# corpus page and every extruct page.

_RDFA_MAKERS = "[typeof], [property], [rel], [rev], [vocab]"
_RDFA_ATTRIBUTES = ("typeof", "property", "rel", "rev", "vocab", "prefix", "xml:lang", "lang",
                    "about", "resource", "href", "src", "content", "datatype")


def _rdfa_entries_by_proxies(root):
    makers = root.query_selector_all(_RDFA_MAKERS)
    if not makers and not root.matches(_RDFA_MAKERS):
        return []
    needed = {root}
    for element in makers:
        node = element
        while node is not None and node not in needed:
            needed.add(node)
            node = node.parent
    for element in root.query_selector_all("[rel], [rev]"):
        needed.update(e for e in element.descendants() if e.node_type == 1)
    entries = []
    stack = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        attrs = {name: element.get_attribute(name) for name in _RDFA_ATTRIBUTES
                 if element.get_attribute(name) is not None}
        xmlns = [(name[6:], value) for name, value in element.attributes.items()
                 if name.startswith("xmlns:")]
        head_or_body = (element.namespace_uri == "http://www.w3.org/1999/xhtml"
                        and element.local_name in ("head", "body"))
        entries.append((depth, attrs, xmlns, head_or_body,
                        (element.text_content or "") if "property" in attrs else None))
        stack.extend((child, depth + 1) for child in reversed(list(element.children))
                     if child in needed)
    return entries


def test_the_c_rdfa_walk_equals_a_walk_over_every_visited_element():
    from lexpy.extract.extractor import scan_structured
    from lexpy.extract.rdfa import rdfa_of
    from tests.conformance import data
    pages = sorted(p for p in data.corpus_dir().iterdir() if p.is_file())
    pages += sorted(SAMPLES.rglob("*.html"))
    compared = with_triples = left_out = 0
    for page in pages:
        document = lexpy.parse(page.read_bytes())
        root = document.document_element
        if root is None:
            continue
        reference = _rdfa_entries_by_proxies(root)
        entries = scan_structured(document, False, False, False, True)[3]
        left_out += len(reference) - len(entries)
        got = rdfa_of(entries, document, None)
        assert got == rdfa_of(reference, document, None), page
        compared += 1
        with_triples += bool(got)
    assert compared > 150 and with_triples > 50 and left_out > 1000, (compared, with_triples,
                                                                       left_out)


MICRODATA_PAGES = [page for page in PAGES if b"itemscope" in (SAMPLES / page).read_bytes()]


@pytest.mark.parametrize("page", MICRODATA_PAGES)
def test_microdata_options_equal_extruct(page):
    # ExtructMicrodata's strict (lists and types as written), nested (items
    # by reference) and add_text_content, on the token lists the C scan
    # gives and the properties dict it finishes in place
    import warnings

    from extruct.w3cmicrodata import MicrodataExtractor
    from lexpy.extract.structured import microdata
    body = (SAMPLES / page).read_bytes()
    document = lexpy.parse(body)
    for strict in (False, True):
        for nested in (True, False):
            for add_text_content in (False, True):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = MicrodataExtractor(strict=strict, nested=nested,
                                                  add_text_content=add_text_content).extract(body)
                found = microdata(document, strict=strict, nested=nested,
                                  add_text_content=add_text_content)
                assert json.loads(json.dumps(found)) == json.loads(json.dumps(expected)), \
                    (strict, nested, add_text_content)


# json_fast (structured.pxi): what it takes, it decodes as the json module's
# decoder does (the same values of the same types); what it refuses goes
# to that decoder.

from lexpy.extract.extractor import STRICT_DECODE_FAILS, json_fast_decode  # noqa: E402


def _typed(value):
    # equality that tells 1 from 1.0 and True, and keeps the key order
    if isinstance(value, dict):
        return ("dict", [(key, _typed(member)) for key, member in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(member) for member in value])
    return (type(value).__name__, repr(value))


def _json_module(text):
    try:
        value, end = json.JSONDecoder(strict=False).scan_once(text, 0)
    except (ValueError, StopIteration):
        return None
    return _typed(value) if end == len(text) else None


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20)


@settings(max_examples=2000, deadline=None)
@given(_JSON_VALUES, st.booleans(), st.sampled_from([None, 0, 1]),
       st.sampled_from([(", ", ": "), (",", ":"), (" ,\n", " :\t")]))
def test_json_fast_decodes_as_the_json_module(value, ascii_only, indent, separators):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent, separators=separators)
    taken, decoded = json_fast_decode(text)
    expected = _json_module(text)
    if taken:
        assert _typed(decoded) == expected
    # it takes what JSON-LD writes: all but surrogate escapes and long integers
    refusable = ("\\ud" in text or any(isinstance(v, int) and abs(v) >= 10 ** 18
                                       for v in _leaves(value)))
    assert taken or refusable


def _leaves(value):
    if isinstance(value, dict):
        for member in value.values():
            yield from _leaves(member)
    elif isinstance(value, list):
        for member in value:
            yield from _leaves(member)
    else:
        yield value


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["{", "}", "[", "]", '"', "a", "1", "0", ",", ":", " ", "\n",
                                 "\t", "\r", "null", "true", "false", "\\", "\\/", "\\u00e9",
                                 "\\ud83d", "\\ude00", "\\x", "\x01", "\xa0", "\U0001f600",
                                 "-", ".", "e", "E", "+", "NaN", "Infinity"]),
                max_size=16).map("".join))
def test_json_fast_takes_nothing_the_json_module_refuses(text):
    taken, decoded = json_fast_decode(text)
    if taken:
        assert _typed(decoded) == _json_module(text)
    elif decoded is STRICT_DECODE_FAILS:
        # what it calls invalid the json module's scanner refuses too
        assert _json_module(text) is None
    else:
        assert decoded is None


@pytest.mark.parametrize("text", [
    '"a\\/b\\"c\\\\d\\b\\f\\n\\r\\t\\u00e9\\u20AC"', '"\x01\x1f raw"', '"\U0001f600\u20ac"',
    "1e5", "1E+2", "-0", "-0.0", "0.5e-3", "123456789012345678", "-123456789012345678",
    '{"a": 1, "a": 2, "b": [true, false, null, {}, []]}', " [ 1 , { } ] "[1:-1],
    # a Latin-1 string's runs between escapes copied whole: an escape at
    # each end, escapes side by side, one past U+00FF last or in the middle
    '"\\/"', '"\\/x\\/"', '"x\\/\\/y"', '"\xe9\\/\xe8"', '"ab\\u0100"',
    '"\xe9\\u0100\\/z"', '"\\u00ff\\u00e9"'])
def test_json_fast_takes_these(text):
    taken, decoded = json_fast_decode(text)
    assert taken and _typed(decoded) == _json_module(text)


def test_json_fast_strings_repeated_evicted_and_long():
    # short ASCII strings are shared within a decode (a table by hash:
    # 200 distinct keys evict each other), long ones and those with escapes
    # (a backslash before the closing quote, "\/" as JSON-LD writes URLs)
    # found by searching for the quote and the backslash
    keys = ["k%d" % n for n in range(200)] + ["x" * 32, "y" * 33]
    value = [{key: [key, key + "\\", "\"" + key, "a/b" * 20] for key in keys}
             for _ in range(3)]
    value.append("\\" * 40 + '"' + "z" * 100 + "\\")
    text = json.dumps(value).replace("/", "\\/")
    taken, decoded = json_fast_decode(text)
    assert taken and _typed(decoded) == _json_module(text)
    assert decoded == value


@pytest.mark.parametrize("text", [
    "1.", "01", "1e", "[1,]", '{"a": 1,}', "{'a': 1}", "NaN", "-Infinity", '"\\ud83d\\ude00"',
    '"\\x"', '"open', "1234567890123456789", "[" * 150 + "]" * 150, "[1] x", "", "tru",
    '{"a": 1 "b": 2}', '{"a" 1}', "[1 2]", '{"a": [1}', "[NaN]", '{"a": Infinity}',
    "[-Infinity, 1]", '[1, "\\ud83d\\ude00"]'])
def test_json_fast_refuses_these_and_json_ld_of_decodes_them_as_before(text):
    taken, marker = json_fast_decode(text)
    assert not taken
    # invalid (the strict decode skipped) only where the json module's
    # scanner fails too
    assert marker is None or (marker is STRICT_DECODE_FAILS and _json_module(text) is None)
    html = '<script type="application/ld+json">%s</script>' % text
    items = lexpy.structured_data(lexpy.parse(html), syntaxes=["json-ld"])["json-ld"]
    value = _json_module(text.strip())
    if value is not None and value[1] not in ([], "None", "False", "0", "0.0", "''"):
        assert [_typed(item) for item in items] == (
            value[1] if value[0] == "list" else [value])


@pytest.mark.parametrize("text", [
    "1.", "01", "1e", "[1,]", '{"a": 1,}', "{'a': 1}", "[1] x", "", "tru", "// c\n{}",
    '{"a": 1 "b": 2}', '{"a" 1}', "[1 2]", '{"a": [1}', '{"a": 1, // c\n}', "<!-- {} -->"])
def test_json_fast_knows_where_the_strict_decode_fails(text):
    # (json_ld_of then hands the text to the lenient pass without that
    # decode, which raises and is caught)
    assert _json_module(text) is None
    assert json_fast_decode(text) == (False, STRICT_DECODE_FAILS)


@pytest.mark.parametrize("text", [
    "NaN", "[NaN]", '{"a": Infinity}', "[-Infinity, 1]", '[1, "\\ud83d\\ude00"]',
    "1234567890123456789", "[" * 150 + "]" * 150])
def test_json_fast_leaves_to_the_decoder_what_it_may_take(text):
    assert _json_module(text) is not None
    assert json_fast_decode(text) == (False, None)


def test_json_ld_lenient_pass_makes_the_strict_error_only_when_it_fails():
    # a body that starts with what no JSON value starts with is handed to
    # the lenient pass without a strict decode (STRICT_DECODE_FAILS); the
    # error entry of one that nothing decodes still has the strict
    # decoder's message
    bodies = ["<!-- {\"a\": 1} -->", "// c\n{\"b\": [2, 3,]}", "<!-- {\"c\": -->",
              "\ufeff{\"d\": 4}", "/* x */ nope"]
    html = "".join('<script type="application/ld+json">%s</script>' % body for body in bodies)
    items = lexpy.structured_data(lexpy.parse(html), syntaxes=["json-ld"])["json-ld"]
    assert items[:2] == [{"a": 1}, {"b": [2, 3]}]
    assert items[2] == {"@error": "Expecting value: line 1 column 1 (char 0)",
                        "@text": bodies[2]}
    assert items[3] == {"d": 4}
    assert items[4]["@error"] == "Expecting value: line 1 column 1 (char 0)"
    assert structured._parse_lenient_json(bodies[0], None) == {"a": 1}
    with pytest.raises(ValueError, match="Expecting value: line 1 column 1"):
        structured._parse_lenient_json(bodies[2], STRICT_DECODE_FAILS)



# prefix_declarations (structured.pxi): OpenGraph's prefix attribute read
# in one pass as PREFIX_DECLARATION.findall reads it

from lexpy.extract.extractor import PREFIX_DECLARATION, prefix_declarations  # noqa: E402


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from([" ", "\t", "\n", "\xa0", "\u3000", "a", "Z", "_", "9", "\xe9",
                                 "\u0663", ":", "-", "/", "#", "og", "http://ogp.me/ns#",
                                 "\U0001d400", "\x1c"]), max_size=20).map("".join))
def test_prefix_declarations_as_the_regex_finds_them(text):
    assert prefix_declarations(text) == PREFIX_DECLARATION.findall(text)


@pytest.mark.parametrize("text", [
    "og: http://ogp.me/ns# fb: http://ogp.me/ns/fb#", "ab-cd: x", "a:   ", "", "a:b:c",
    "  og:\thttp://x  y: z  ", "\xe9t\xe9: http://x/", "w" * 5000 + "-" + "v" * 5000 + ": x"])
def test_prefix_declarations_examples(text):
    assert prefix_declarations(text) == PREFIX_DECLARATION.findall(text)


# structured_data's microdata is built straight from the scan's lists
# (structured.pxi's microdata_of_scan) unless an item has itemref; it must
# give what ExtructMicrodata (microdata(), which reads the scan's tuples)
# gives, on the shapes where they could part.
_MICRODATA_SHAPES = [
    # nested items, a name given twice and three times (a list from the second)
    '<div itemscope itemtype="http://schema.org/A"><span itemprop="n">1</span>'
    '<span itemprop="n">2</span><span itemprop="n">3</span>'
    '<div itemprop="sub child" itemscope itemtype="x y"><b itemprop="n">4</b></div>'
    '<i itemprop="n">5</i></div>',
    # an item without properties (its own value), with itemid and no type
    '<div itemscope><a itemprop="u" itemscope href=" /p ">x</a>'
    '<p itemscope itemid=" urn:1 " itemtype=t>text <b>bold</b></p></div>',
    # values of each kind: meta, URLs, data, time, content, actions, text
    '<div itemscope itemtype=T><meta itemprop=m content=c><img itemprop=i src="a b.png">'
    '<a itemprop="l" href="../x?q=1#f">a</a><object itemprop=o data=d></object>'
    '<data itemprop=d value=7>seven</data><meter itemprop=me value=0.5></meter>'
    '<time itemprop=t datetime=2020>then</time><time itemprop=t2>no datetime</time>'
    '<span itemprop=c content="from content">shown</span>'
    '<input itemprop="query-input" name=q required><input itemprop="x-output">'
    '<p itemprop=p>Some <b>text</b>, here.<br>line</p></div>',
    # empty and whitespace itemprop, non-ASCII and long names, repeated names
    '<div itemscope><span itemprop="">e</span><span itemprop="  \t ">w</span>'
    '<span itemprop="na\u00efve">1</span><span itemprop="%s">2</span>'
    '<div itemscope itemprop=""><span itemprop=n>inner</span></div>'
    '<span itemprop="a a">dup</span></div>' % ("long" * 20),
    # several top-level items, an itemprop outside any item
    '<span itemprop=stray>s</span><div itemscope itemtype=A></div>'
    '<div itemscope itemtype=B><span itemprop=n>b</span></div>',
    # itemref: the other path
    '<div itemscope itemref="r1 r2"><span itemprop=a>1</span></div>'
    '<p id=r1 itemprop=b>2</p><div id=r2 itemprop=c itemscope><b itemprop=d>3</b></div>',
]


@pytest.mark.parametrize("html", _MICRODATA_SHAPES)
@pytest.mark.parametrize("base_url", [None, "http://example.com/a/b"])
def test_structured_data_microdata_equals_extructmicrodata(html, base_url):
    from lexpy.extract.structured import microdata
    document = lexpy.parse(html)
    got = lexpy.structured_data(document, base_url=base_url, syntaxes=["microdata"])
    expected = microdata(document, base_url=base_url)
    assert got["microdata"] == expected
    assert json.dumps(got["microdata"]) == json.dumps(expected)   # (key order too)
    assert expected                       # (each shape has items)


def _opengraph_reference(heads):
    # opengraph_of as it read each property's prefix before (a str sliced
    # and looked up), kept as the reference of its in-place reading
    from lexpy.extract.extractor import OG_NAMESPACES, prefix_declarations
    found = []
    for html_prefix, head_prefix, pairs in heads:
        if not pairs:
            continue
        namespaces = {}
        if html_prefix:
            namespaces.update(prefix_declarations(html_prefix))
        if head_prefix:
            namespaces.update(prefix_declarations(head_prefix))
        properties = []
        for pair in pairs:
            name = pair[0]
            colon = name.find(":")
            prefix = name if colon < 0 else name[:colon]
            if prefix in OG_NAMESPACES:
                namespaces[prefix] = OG_NAMESPACES[prefix]
            if prefix in namespaces:
                properties.append(pair)
        if properties:
            found.append({"namespace": namespaces, "properties": properties})
    return found


@pytest.mark.parametrize("names", [
    ["og:title", "og", "product", "product:price:amount", "products:x", "ogg:x", "o:x",
     "article:", ":x", "", "music:song", "video", "book:isbn", "profile:x:y", "bookx",
     "og\u00e9:x", "\u00e9og:x", "OG:title", "productx:y", "a" * 40],
    ["fb:app_id", "my:thing", "og:title", "other:x", "my"],
])
@pytest.mark.parametrize("prefix", [None, "my: http://my.example/ns# og: http://other/"])
def test_opengraph_prefixes_read_in_place(names, prefix):
    from lexpy.extract.extractor import opengraph_of
    heads = [(prefix, "fb: http://ogp.me/ns/fb#", [(name, "v%d" % i)
                                                   for i, name in enumerate(names)])]
    got = opengraph_of(heads)
    expected = _opengraph_reference(heads)
    assert got == expected
    assert [list(d["namespace"].items()) for d in got] == [
        list(d["namespace"].items()) for d in expected]
