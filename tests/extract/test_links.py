"""lexpy.iter_links against a reference walk written here (every
URL-bearing attribute of issue 36's list, resolved with ada-url directly)
on every corpus page, and make_links_absolute."""
import re

import pytest
from ada_url import join_url, normalize_url

import lexpy
from tests.conformance import data

PAGES = sorted(p for p in data.corpus_dir().iterdir() if p.is_file())
PAGE_URL = "https://corpus.example/dir/page.html?q=1"
PLAIN = {("a", "href"), ("area", "href"), ("link", "href"), ("img", "src"),
         ("script", "src"), ("iframe", "src"), ("frame", "src"), ("form", "action"),
         ("button", "formaction"), ("input", "formaction"), ("input", "src"),
         ("object", "data"), ("embed", "src"), ("audio", "src"), ("video", "src"),
         ("video", "poster"), ("source", "src"), ("track", "src"), ("blockquote", "cite"),
         ("q", "cite"), ("del", "cite"), ("ins", "cite")}
HTML = "http://www.w3.org/1999/xhtml"
WS = " \t\n\x0c\r"


def _join(base, url):
    url = url.strip(WS)
    try:
        return join_url(base, url) if base else normalize_url(url)
    except ValueError:
        return url


def reference_links(document, page_url):
    base = page_url
    for element in document.iter("base"):
        if element.has_attribute("href") and element.namespace_uri == HTML:
            base = _join(page_url, element.get_attribute("href"))
            if base == element.get_attribute("href").strip(WS) and page_url is None:
                try:
                    normalize_url(base)
                except ValueError:
                    base = None
            break
    found = []
    for element in document.iter():
        html = element.namespace_uri == HTML
        attributes = element.attributes
        for name in attributes:
            if html and (element.local_name, name) in PLAIN:
                found.append((name, _join(base, attributes[name])))
        if html and element.local_name in ("img", "source") and "srcset" in attributes:
            for url in _srcset(attributes["srcset"]):
                found.append(("srcset", _join(base, url)))
        if html and element.local_name == "meta" and \
                (attributes.get("http-equiv") or "").lower() == "refresh":
            match = re.match(r"[\s]*[\d.]+[\s;,]+(?:url\s*=\s*)?['\"]?([^'\"]*)",
                             attributes.get("content") or "", re.I)
            if match and match.group(1):
                found.append(("content", _join(base, match.group(1))))
        for url in re.findall(r"""url\(\s*['"]?([^)'"]*?)['"]?\s*\)""",
                              attributes.get("style") or "", re.I):
            found.append(("style", _join(base, url)))
    return found


def _srcset(value):
    # whitespace-separated tokens: a URL, then descriptors up to a comma
    urls = []
    expecting_url = True
    tokens = value.split()
    while tokens:
        token = tokens.pop(0)
        if expecting_url:
            url = token.lstrip(",")
            if not url:
                continue
            if url.endswith(","):
                urls.append(url.rstrip(","))
            else:
                urls.append(url)
                expecting_url = False
        elif "," in token:
            expecting_url = True
            rest = token.split(",", 1)[1]
            if rest:
                tokens.insert(0, rest)
    return urls


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_iter_links_equals_the_reference_walk(path):
    document = lexpy.parse(path.read_bytes())
    got = [(attribute, url) for _, attribute, url, _ in
           lexpy.iter_links(document, base_url=PAGE_URL)]
    assert got == reference_links(document, PAGE_URL)


def test_corpus_has_links():
    total = sum(len(list(lexpy.iter_links(lexpy.parse(p.read_bytes()), base_url=PAGE_URL)))
                for p in PAGES[:20])
    assert total > 1000


@pytest.mark.parametrize("path", PAGES[:30], ids=[p.name for p in PAGES[:30]])
def test_make_links_absolute_leaves_only_absolute_urls(path):
    document = lexpy.parse(path.read_bytes())
    unparsable = {url for _, _, url, _ in lexpy.iter_links(document, base_url=PAGE_URL)
                  if _unparsable(url)}
    document.make_links_absolute(PAGE_URL)       # the Node method (issue 36)
    for _, attribute, url, _ in lexpy.iter_links(document):
        assert url in unparsable or not _unparsable(url), (attribute, url)


def _unparsable(url):
    try:
        normalize_url(url)
        return False
    except ValueError:
        return True


def test_positions_and_rewriting():
    document = lexpy.parse(
        '<base href="/b/"><a href=" x y ">a</a>'
        '<img src=i.png srcset="a.png 1x, b,c.png 2x,d.png">'
        '<div style="background:url( \'s.png\' ) url(t.png)"></div><a href="http://[bad">')
    links = list(lexpy.iter_links(document, base_url="http://ex.com/p/q"))
    assert [(a, u, p) for _, a, u, p in links] == [
        ("href", "http://ex.com/b/x%20y", 1), ("src", "http://ex.com/b/i.png", 0),
        ("srcset", "http://ex.com/b/a.png", 0), ("srcset", "http://ex.com/b/b,c.png", 10),
        ("srcset", "http://ex.com/b/d.png", 21), ("style", "http://ex.com/b/s.png", 17),
        ("style", "http://ex.com/b/t.png", 30), ("href", "http://[bad", 0)]
    lexpy.make_links_absolute(document, "http://ex.com/p/q")
    assert document.get_elements_by_tag_name("img")[0].get_attribute("srcset") == \
        "http://ex.com/b/a.png 1x, http://ex.com/b/b,c.png 2x,http://ex.com/b/d.png"


def test_meta_refresh():
    document = lexpy.parse('<meta http-equiv=refresh content="0;URL=\'/next?a=1\'">'
                           '<meta http-equiv=refresh content="5">')
    assert [(a, u) for _, a, u, _ in lexpy.iter_links(document, base_url="http://h/x")] == \
        [("content", "http://h/next?a=1")]


def test_a_million_links_is_linear_enough():
    document = lexpy.parse("<a href=x>" * 100000)
    assert sum(1 for _ in lexpy.iter_links(document, base_url="http://h/")) == 100000


def test_the_node_method_rewrites_its_subtree_only():
    # Node.make_links_absolute is the function through the DOM's hook: on
    # an element, the links below it change and the others stay.
    page = '<base href="/b/"><p><a href="x?a=1&b">1</a></p><a href=y>2</a>'
    document = lexpy.parse(page)
    paragraph = document.query_selector("p")
    paragraph.make_links_absolute("http://ex.com/p/q")
    anchors = document.get_elements_by_tag_name("a")
    assert [a.get_attribute("href") for a in anchors] == ["http://ex.com/b/x?a=1&b", "y"]
    other = lexpy.parse(page)
    lexpy.make_links_absolute(other.query_selector("p"), "http://ex.com/p/q")
    assert other.to_html() == document.to_html()


def test_importing_lexpy_does_not_load_the_url_parser():
    # The hook loads lexpy.extract.links (and ada-url) on its first call.
    import subprocess
    import sys
    code = ("import sys, lexpy; before = 'ada_url' in sys.modules; "
            "d = lexpy.parse('<a href=x>'); d.make_links_absolute('http://h/'); "
            "print(before, 'ada_url' in sys.modules, d.query_selector('a').get_attribute('href'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True", "http://h/x"]
