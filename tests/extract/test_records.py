"""Selectors with parsel's ::text / ::attr(name) endings (lexpy.selectors
.values) against parsel itself on the same well-formed markup, and
lexpy.extract_records / compile_extractor."""
import threading

import parsel  # the test extra installs it
import pytest

import lexpy
from lexpy.selectors.values import select_values

PAGE = """<html><head><title>Shop</title></head><body>
<div id=main><h1>Books <small>all</small></h1>
<ol class=row>
 <li class=product><article><h3><a href="a/one.html" title="One">One <b>1</b></a></h3>
   <p class="price_color">£51.77</p><p class="star-rating Three"></p>
   <p class="availability">  In stock </p></article></li>
 <li class=product><article><h3><a href="a/two.html" title="Two">Two</a></h3>
   <p class="price_color">£53.74</p><p class="star-rating One"></p></article></li>
</ol><p>tail <a href=x>x</a> text</p></div></body></html>"""

SELECTORS = [
    "a::text", "a ::text", "h3 a::attr(href)", "a::attr(title)", "li ::attr(class)",
    "p.price_color::text", "h1::text", "h1 ::text", "title::text", "div#main > p ::text",
    "a::attr(href), p::attr(class)", "li:nth-child(2) a::text", "small::text",
    "p:not(.price_color)::attr(class)", "a::attr(nonexistent)",
]


@pytest.mark.parametrize("selector", SELECTORS)
def test_values_equal_parsel(selector):
    document = lexpy.parse(PAGE)
    theirs = parsel.Selector(text=PAGE).css(selector).getall()
    if "," in selector:  # parsel unites the items in tree order; lexpy keeps item order
        assert sorted(select_values(document, selector)) == sorted(theirs)
    else:
        assert select_values(document, selector) == theirs


def test_element_items_give_html():
    document = lexpy.parse(PAGE)
    assert select_values(document, "h3 b") == ["<b>1</b>"]


def test_bad_endings_are_syntax_errors():
    with pytest.raises(lexpy.SelectorSyntaxError):
        select_values(lexpy.parse(PAGE), "a >::text")
    with pytest.raises(lexpy.SelectorSyntaxError):
        lexpy.parse(PAGE).query_selector_all("a::text")  # not CSS outside these helpers


FIELDS = {
    "title": "h3 a::attr(title)",
    "price": "p.price_color::text",
    "rating": lambda item: item.query_selector(".star-rating").class_list[1],
    "availability": ".availability::text",
    "texts": ["h3 ::text"],
}
EXPECTED = [
    {"title": "One", "price": "£51.77", "rating": "Three", "availability": "  In stock ",
     "texts": ["One ", "1"]},
    {"title": "Two", "price": "£53.74", "rating": "One", "availability": None,
     "texts": ["Two"]},
]


def test_extract_records():
    assert lexpy.extract_records(lexpy.parse(PAGE), "li.product", FIELDS) == EXPECTED


def test_records_equal_parsel_per_item():
    theirs = []
    for item in parsel.Selector(text=PAGE).css("li.product"):
        theirs.append({"title": item.css("h3 a::attr(title)").get(),
                       "price": item.css("p.price_color::text").get(),
                       "texts": item.css("h3 ::text").getall()})
    ours = lexpy.extract_records(lexpy.parse(PAGE), "li.product",
                                 {k: FIELDS[k] for k in ("title", "price", "texts")})
    assert ours == theirs


def test_compiled_extractor_over_threads():
    extractor = lexpy.compile_extractor("li.product", FIELDS)
    documents = [lexpy.parse(PAGE) for _ in range(8)]
    results = [None] * len(documents)

    def run(i):
        results[i] = extractor.extract(documents[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(documents))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [EXPECTED] * len(documents)


def test_a_bad_field_is_a_type_error():
    with pytest.raises(TypeError):
        lexpy.compile_extractor("li", {"x": 3})


# The C pass (lexpy.extract.extractor) against the Python walk of
# lexpy.selectors.values, field by field, on corpus pages.

from tests.conformance import data  # noqa: E402
from tests.helpers import progress_gaps  # noqa: E402

CORPUS = sorted(p for p in data.corpus_dir().iterdir() if p.is_file())[::7]
CORPUS_FIELDS = {
    "href": "a::attr(href)", "text": "::text", "all_text": ["::text"],
    "deep": [" ::text"], "first_deep": "span ::text", "classes": [" ::attr(class)"],
    "img": "img::attr(src)", "nested": ["div ::text"], "none": "::attr(no-such-attr)",
    # one bound selector serves every item: :scope and descendant
    # combinators must not carry a match from one item to the next
    "scoped": [":scope > a::attr(href)"], "div_span": ["div span::text"],
}


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_the_c_pass_equals_the_python_walk(path):
    document = lexpy.parse(path.read_bytes())
    for item_selector in ("li", "div > p", "article, section"):
        records = lexpy.extract_records(document, item_selector, CORPUS_FIELDS)
        items = document.query_selector_all(item_selector)
        assert len(records) == len(items)
        for record, item in zip(records, items):
            for name, field in CORPUS_FIELDS.items():
                if isinstance(field, list):
                    assert record[name] == select_values(item, field[0]), name
                else:
                    found = select_values(item, field)
                    assert record[name] == (found[0] if found else None), name


def test_the_c_pass_releases_the_gil():
    # items that match late and fields over every item: matching dominates
    page = "<ul>" + "<li><a href=x>n</a></li>" * 100000 + "</ul>"
    document = lexpy.parse(page)
    extractor = lexpy.compile_extractor("li:has(a[href=x]):not(:has(b))",
                                        {"t": "a:not([title])::attr(nope)"})
    gaps, total = progress_gaps(lambda: extractor.extract(document))
    assert total > 0.01
    # the other thread kept counting while the matching ran
    assert max(gaps) < total / 2, (max(gaps), total)


def test_the_first_value_comes_from_a_later_match_when_the_first_has_none():
    # The C pass tries the first match alone, then every match (parsel's get()).
    page = ("<div class=i><a>no title</a><a title=second>x</a><p> </p><p>text</p></div>"
            "<div class=i><a title=first>y</a><a title=other>z</a></div>")
    fields = {"title": "a::attr(title)", "text": "p::text", "missing": "b::text"}
    ours = lexpy.extract_records(lexpy.parse(page), "div.i", fields)
    theirs = [{name: item.css(selector).get() for name, selector in fields.items()}
              for item in parsel.Selector(text=page).css("div.i")]
    assert ours == theirs == [{"title": "second", "text": " ", "missing": None},
                              {"title": "first", "text": None, "missing": None}]


def test_one_extractor_over_threads_and_documents_with_other_attribute_ids():
    # The ids of data-k differ between the two documents; a compiled
    # extractor binds them per call, not in its shared state.
    extractor = lexpy.compile_extractor("p", {"k": "::attr(data-k)"})
    pages = {"a": "<p data-a=1 data-b=2 data-c=3 data-k=a>" * 50, "b": "<p data-k=b>" * 50}
    documents = [(name, lexpy.parse(page)) for name, page in pages.items()] * 4
    wrong = []

    def run(name, document):
        for _ in range(200):
            if any(r["k"] != name for r in extractor(document)):
                wrong.append(name)
                return

    threads = [threading.Thread(target=run, args=pair) for pair in documents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_one_bound_selector_over_nested_items():
    # The C pass binds a field's selector once per document and runs it
    # from each item: what :scope matched below one item is not reused
    # for the next, and a descendant match through an outer item holds.
    page = ("<ul><li><b>1</b><ul><li><b>2</b><i><b>3</b></i></li></ul></li>"
            "<li><i><b>4</b></i></li></ul>")
    fields = {"own": [":scope > b::text"], "deep": ["i b::text"], "li_b": ["li b::text"]}
    document = lexpy.parse(page)
    records = lexpy.extract_records(document, "li", fields)
    expected = [{name: select_values(item, selector[0]) for name, selector in fields.items()}
                for item in document.query_selector_all("li")]
    assert records == expected
    assert [r["own"] for r in records] == [["1"], ["2"], []]
    assert [r["li_b"] for r in records] == [["1", "2", "3"], ["2", "3"], ["4"]]


def test_fields_by_type_in_any_case_and_namespace():
    # The C pass tries only elements of a field's subject type (its ids in
    # the document, lowercase and as written): HTML names in any case,
    # SVG's camelCase ones as written, names the document lacks.
    page = ("<div class=i><svg><foreignObject><b>in svg</b></foreignObject>"
            "<linearGradient id=g></linearGradient></svg><P>p</P><b>b</b></div>"
            "<div class=i><custom-el x=1>c</custom-el></div>")
    fields = {"p": "P::text", "b": "div B::text", "fo": "svg foreignObject b::text",
              "fo_lower": "foreignobject b::text", "grad": "linearGradient::attr(id)",
              "custom": "Custom-El::attr(x)", "none": "blink::text", "star": "*::text",
              "class": "div .x::text", "all_b": ["b::text"],
              "attr_b": "div[class=i] b::text", "attr_subject": "custom-el[x]::attr(x)",
              "attr_any": "div [x]::attr(x)", "attr_quoted": '[id="g"]::attr(id)'}
    document = lexpy.parse(page)
    records = lexpy.extract_records(document, "div.i", fields)
    expected = []
    for item in document.query_selector_all("div.i"):
        record = {}
        for name, field in fields.items():
            if isinstance(field, list):
                record[name] = select_values(item, field[0])
            else:
                found = select_values(item, field)
                record[name] = found[0] if found else None
        expected.append(record)
    assert records == expected
    assert records[0]["fo"] == "in svg" and records[0]["grad"] == "g"
    assert records[0]["p"] == "p" and records[1]["custom"] == "1"


def test_items_by_type_in_any_case_and_namespace():
    page = ("<svg><linearGradient id=a></linearGradient><lineargradient id=b/></svg>"
            "<DIV class=i id=c></DIV><div class=i id=d><p class=i id=e></div>")
    document = lexpy.parse(page)
    for selector in ("DIV.i", "div.i", "svg linearGradient", "linearGradient",
                     "lineargradient", "p.i", "blink", "div > .i", "* .i",
                     # attribute selectors narrow a compound (the subject's
                     # type stays), or are the whole subject compound
                     "div[class=i]", 'div[id="d"]', "DIV[class]", "div [id]", "div>[class]",
                     "[id=e]", 'div[title="x ] > p"]', "p[id='e'].i", "*[id]",
                     'div[class="\\69"]'):
        records = lexpy.extract_records(document, selector, {"id": "::attr(id)"})
        assert [r["id"] for r in records] == \
            [e.get_attribute("id") for e in document.query_selector_all(selector)], selector
