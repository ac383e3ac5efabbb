"""The script execution hook (lexpy.parse/Parser on_script) and
document.write at the insertion point, driven from Python without any
JavaScript engine: each script's text is Python code run with `write`,
`writeln` and `doc` in scope.

https://html.spec.whatwg.org/multipage/parsing.html#scriptEndTag
https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#document.write()
"""
import gc

import pytest

import lexpy
from tests.helpers import fed


class PythonScripts:
    """An on_script callback running each script's text as Python."""

    def __init__(self):
        self.ran = []            # the scripts' texts, in the order they ran
        self.writers = []

    def __call__(self, script, writer):
        source = script.text_content
        self.ran.append(source)
        self.writers.append(writer)
        exec(source, {"write": writer.write, "writeln": writer.writeln,
                      "doc": script.owner_document, "script": script})


def run(html, **options):
    scripts = PythonScripts()
    document = lexpy.parse(html, on_script=scripts, **options)
    return document, scripts


def body_html(document):
    return document.body.inner_html


def every_split(html):
    """The input cut at every split point, and one character at a time."""
    yield [html[i:i + 1] for i in range(len(html))]
    for i in range(1, len(html)):
        yield [html[:i], html[i:]]


def assert_same_when_fed(html, **options):
    whole, scripts = run(html, **options)
    for chunks in every_split(html):
        again = PythonScripts()
        document = fed(chunks, on_script=again, **options)
        assert lexpy.dump(document) == lexpy.dump(whole), chunks
        assert again.ran == scripts.ran, chunks
    for chunks in every_split(html.encode("utf-8")):
        again = PythonScripts()
        document = fed(chunks, on_script=again, **options)
        assert lexpy.dump(document) == lexpy.dump(whole), chunks


# ---------------------------------------------------------------------------
# document.write at the insertion point
# ---------------------------------------------------------------------------

def test_a_write_goes_before_the_rest_of_the_input():
    document, scripts = run("1<script>write('2')</script>3")
    assert body_html(document) == "1<script>write('2')</script>23"
    assert len(document.body.child_nodes) == 3          # "1", script, "23"
    assert scripts.ran == ["write('2')"]


def test_nested_writes_run_in_the_standards_order():
    # The standard's example: a script that writes a script that writes.
    html = ("1<script>write('<script>write(\"x\")</scr' + 'ipt>')</script>"
            "<script>write('<script>write(\"a\")</scr' + 'ipt>"
            "<script>write(\"b\")</scr' + 'ipt>')</script>2")
    document, scripts = run(html)
    assert scripts.ran == [
        "write('<script>write(\"x\")</scr' + 'ipt>')",
        'write("x")',
        "write('<script>write(\"a\")</scr' + 'ipt><script>write(\"b\")</scr' + 'ipt>')",
        'write("a")',
        'write("b")',
    ]
    texts = [node.data for node in document.body.child_nodes if node.node_type == 3]
    assert texts == ["1", "x", "a", "b2"]
    assert_same_when_fed(html)


def test_writes_in_sequence_from_one_script():
    document, scripts = run("<script>write('a'); write('<b>'); writeln('c')</script>d")
    assert body_html(document) == "a<b>c\nd</b>"      # (the script is in the head)
    assert body_html(run("<script>write('x', 'y', 'z')</script>")[0]) == "xyz"


def test_a_written_element_is_closed_by_later_content():
    html = "<script>write('<div id=a>')</script>text</div>after"
    document, _ = run(html)
    assert document.get_element_by_id("a").text_content == "text"
    assert body_html(document) == '<div id="a">text</div>after'
    assert_same_when_fed(html)


def test_an_unfinished_tag_is_continued_by_the_input():
    html = "<script>write('<p class=\"a')</script>b\">c"
    document, _ = run(html)
    paragraph = document.query_selector("p")
    assert paragraph.get_attribute("class") == "ab"
    assert paragraph.text_content == "c"
    assert_same_when_fed(html)


def test_a_character_reference_split_between_write_and_input():
    html = "<body><script>write('&am')</script>p;"
    document, _ = run(html)
    assert body_html(document).endswith("</script>&amp;")
    assert document.body.text_content.endswith("&")


def test_end_tag_split_across_writes():
    # "</script>" split over two writes: the written script ends with the
    # second write, and runs then.
    html = ("<body><script>write('<script>write(\"1\")</scr'); write('ipt>'); "
            "write('<i>after</i>')</script>")
    document, scripts = run(html)
    assert scripts.ran[1] == 'write("1")'
    assert body_html(document).endswith('<script>write("1")</script>1<i>after</i>')


def test_a_write_of_a_script_start_without_its_end():
    # The written script's end tag comes from the input.
    html = "<body><script>write('<script>write(\"5\")')</script>;write('6')</script>7"
    document, scripts = run(html)
    assert scripts.ran == ["write('<script>write(\"5\")')", "write(\"5\");write('6')"]
    assert body_html(document).endswith("567")
    assert_same_when_fed(html)


def test_the_dom_is_live_in_the_callback():
    html = ('<p><b id="A"><script>doc.get_element_by_id("A").set_attribute("id", "B")'
            '</script></p>TEXT</b>')
    document, _ = run(html)
    # The adoption agency clones the b "for the token it was created for":
    # id A, not the id the script set.
    ids = [b.get_attribute("id") for b in document.query_selector_all("b")]
    assert ids == ["B", "A"]


def test_removing_an_open_element_from_a_script():
    html = ("<div id=outer><div id=a><script>doc.get_element_by_id('a').remove()"
            "</script>inside</div>after</div>")
    document, _ = run(html)
    assert document.get_element_by_id("a") is None
    assert body_html(document) == '<div id="outer">after</div>'


def test_moving_an_open_element_from_a_script():
    html = ("<table><tr><td id=c><script>doc.body.append_child("
            "doc.get_element_by_id('c'))</script>x</td></tr></table><p>y")
    document, _ = run(html)
    cell = document.get_element_by_id("c")
    assert cell.parent_node is document.body
    assert cell.text_content.endswith("x")
    assert document.query_selector("p").text_content == "y"


def test_the_script_runs_with_the_tree_so_far():
    seen = []
    lexpy.parse("<p>a</p><script>x</script><p>b</p>",
                on_script=lambda script, writer: seen.append(
                    script.owner_document.body.inner_html))
    assert seen == ["<p>a</p><script>x</script>"]


def test_feed_runs_a_script_as_soon_as_its_end_tag_is_in():
    scripts = PythonScripts()
    parser = lexpy.Parser(on_script=scripts)
    parser.feed("<p>a<script>write('b')</scr")
    assert scripts.ran == []
    parser.feed("ipt")
    assert scripts.ran == []
    parser.feed(">")
    assert scripts.ran == ["write('b')"]
    parser.feed("c")
    assert parser.close().query_selector("p").text_content == "awrite('b')bc"


def test_parsing_between_scripts_releases_the_gil():
    # As tests/test_gil_released.py: the other thread keeps going, but for
    # a few long gaps a busy machine may cause.
    from tests.helpers import progress_gaps
    parses = 4
    html = ("<script>write('<p>')</script>" + "<div><i>text</i></div>" * 100000
            + "<script>write('</p>')</script>" + "<b>bold</b>" * 100000)

    def work():
        for _ in range(parses):
            lexpy.parse(html, on_script=PythonScripts())

    gaps, total = progress_gaps(work)
    assert len(gaps) > 10
    assert len([gap for gap in gaps if gap > total / parses / 2]) <= parses // 4


def test_a_written_meta_changes_the_encoding():
    # The bytes before the <meta> have another meaning in windows-1251:
    # the document is parsed again, and its script runs again.
    # (The <meta> is built by the script: the prescan would find it.)
    html = (b"\xe9<script>write('<meta charset=\"windows-' + '1251\">')</script>"
            b"<p>\xe9</p>")
    document, scripts = run(html)
    assert document.encoding == "windows-1251"
    assert len(scripts.ran) == 2
    assert document.query_selector("p").text_content == "\u0439"
    same = PythonScripts()
    assert lexpy.dump(fed([html[i:i + 3] for i in range(0, len(html), 3)],
                          on_script=same)) == lexpy.dump(document)


# ---------------------------------------------------------------------------
# Which scripts run ("prepare the script element")
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("attributes, runs", [
    ("", True),
    (' type=""', True),
    (' type="text/javascript"', True),
    (' type=" TEXT/JavaScript "', True),
    (' type="application/ecmascript"', True),
    (' language="javascript"', True),
    (' language=""', True),
    (' type="text/javascript; charset=utf-8"', False),
    (' type="module"', False),
    (' type="importmap"', False),
    (' type="text/plain"', False),
    (' type="text/template"', False),
    (' language="vbscript"', False),
    (" nomodule", False),
    (' for="window" event="onload"', True),
    (' for="window" event="onclick"', False),
    (' for="button" event="onload"', False),
    (' src="a.js"', False),
    (' src=""', False),
])
def test_script_types(attributes, runs):
    _, scripts = run("<script%s>write('x')</script>" % attributes)
    assert scripts.ran == (["write('x')"] if runs else [])


def test_no_call_for_an_empty_script_or_without_scripting():
    assert run("<script></script>")[1].ran == []
    document, scripts = run("<body><script>write('x')</script><noscript><p>n</p></noscript>",
                            scripting=False)
    assert scripts.ran == []
    assert document.query_selector("noscript p") is not None


def test_no_call_in_template_contents():
    document, scripts = run("<template><script>write('x')</script></template>"
                            "<script>write('y')</script>")
    assert scripts.ran == ["write('y')"]


def test_svg_scripts():
    # "Process the SVG script element" at its end tag (or as a self-closing
    # tag): the callback runs it, writes go to the insertion point.
    # (An SVG script's content is markup: its '<' comes as a reference.)
    document, scripts = run("<body><svg><script>write('&lt;b>x&lt;/b>')</script></svg>y")
    assert scripts.ran == ["write('<b>x</b>')"]
    assert body_html(document).endswith("</script></svg><b>x</b>y")
    assert run('<svg><script type="text/plain">write("x")</script></svg>')[1].ran == []
    calls = []
    lexpy.parse('<svg><script xlink:href="a.js"/><script href="b.js"></script></svg>',
                on_script=lambda script, writer: calls.append(script.get_attribute_ns(
                    "http://www.w3.org/1999/xlink", "href") or script.get_attribute("href")),
                external_scripts=True)
    assert calls == ["a.js", "b.js"]


def test_the_fragment_case_takes_no_callback():
    with pytest.raises(ValueError, match="fragment"):
        lexpy.Parser(context="div", on_script=PythonScripts())


def test_external_scripts():
    html = ('<body><script src="a.js"></script><script src="b.js" defer></script>'
            '<script src="c.js" async></script><p>end')
    calls = []

    def external(script, writer):
        calls.append((script.get_attribute("src"),
                      script.owner_document.query_selector("p") is not None))
        writer.write("<i>written</i>")

    document = lexpy.parse(html, on_script=external, external_scripts=True)
    # a.js where the standard runs it (before <p>), the deferred and async
    # ones once the parse is over (their writes ignored: no insertion point).
    assert calls == [("a.js", False), ("b.js", True), ("c.js", True)]
    assert len(document.query_selector_all("i")) == 1
    calls.clear()
    lexpy.parse(html, on_script=external)
    assert calls == []


def test_an_external_script_written_by_a_script_runs_after_it():
    # Nested in a write, a parser-blocking script waits for the outer script
    # (the parser pause flag); the text written meanwhile waits too.
    order = []

    def scripts(script, writer):
        src = script.get_attribute("src")
        order.append(src or script.text_content)
        if src is None:
            writer.write('<script src="e.js"></script>')
            writer.write("<b>after</b>")
            order.append("outer done")
        else:
            writer.write("<i>external</i>")

    document = lexpy.parse("<body><script>x</script>end", on_script=scripts,
                           external_scripts=True)
    assert order == ["x", "outer done", "e.js"]
    assert body_html(document) == ('<script>x</script><script src="e.js"></script>'
                                   "<i>external</i><b>after</b>end")


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

def test_a_callback_that_raises_breaks_the_parse():
    def failing(script, writer):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        lexpy.parse("<script>x</script>rest", on_script=failing)
    parser = lexpy.Parser(on_script=failing)
    with pytest.raises(KeyError):
        parser.feed("<script>x</script>")
    with pytest.raises(ValueError, match="KeyError"):
        parser.feed("more")
    with pytest.raises(ValueError, match="KeyError"):
        parser.close()


def test_a_nested_failure_caught_by_the_outer_script_still_breaks_the_parse():
    def scripts(script, writer):
        if script.text_content == "outer":
            try:
                writer.write("<script>inner</script>")
            except ZeroDivisionError:
                pass
        else:
            raise ZeroDivisionError("inner")

    with pytest.raises(ZeroDivisionError, match="inner"):
        lexpy.parse("<script>outer</script>", on_script=scripts)


def test_a_script_that_writes_itself_stops_at_the_nesting_limit():
    html = "<script>write('<script>' + script.text_content + '</scr' + 'ipt>')</script>"
    scripts = PythonScripts()
    with pytest.raises(lexpy.ScriptNestingError, match=str(lexpy.MAX_SCRIPT_NESTING)):
        lexpy.parse(html, on_script=scripts)
    assert len(scripts.ran) == lexpy.MAX_SCRIPT_NESTING


def test_the_writer_after_its_callback_returned():
    _, scripts = run("<script>write('a')</script>")
    with pytest.raises(ValueError, match="returned"):
        scripts.writers[0].write("late")
    assert not scripts.writers[0].active


def test_writer_arguments_and_feeding_from_a_callback():
    with pytest.raises(TypeError):
        run("<script>write(1)</script>")
    parser = lexpy.Parser(on_script=lambda script, writer: parser.feed("<p>"))
    with pytest.raises(ValueError, match="writer"):
        parser.feed("<script>x</script>")
    with pytest.raises(TypeError):
        lexpy.parse("", on_script="not callable")


def test_lone_surrogates_in_a_write():
    document, _ = run("<script>write('a\\ud800b')</script>")
    assert document.body.text_content.endswith("a\ufffdb")


def test_nothing_is_kept_after_a_failed_parse():
    def failing(script, writer):
        raise RuntimeError("x")

    for _ in range(3):
        with pytest.raises(RuntimeError):
            lexpy.parse("<script>x</script>" * 3, on_script=failing)
    gc.collect()
    assert not [o for o in gc.get_objects()
                if type(o).__name__ == "TreeConstruction"]


# ---------------------------------------------------------------------------
# Any writes, any chunking
# ---------------------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

PIECES = [
    "<p>", "</p>", "<b>", "</b>", "<table>", "<td>", "x", " ", "&amp", ";", "&",
    "<", ">", "</", "<div class='", "'", '"', "<!--", "-->", "<script>",
    "</script>", "</scr", "ipt>", "<textarea>", "</textarea>", "\r", "\n", "é",
]


class PieceScripts(PythonScripts):
    """Scripts `w(3); w(7)`: write PIECES[3], then PIECES[7]."""

    def __call__(self, script, writer):
        import re
        self.ran.append(script.text_content)
        if re.fullmatch(r"(w\(\d+\)(; )?)*", script.text_content):
            # (else a script made of written markup: it does nothing)
            exec(script.text_content, {"w": lambda k: writer.write(PIECES[k])})


def piece_scripts(pieces):
    return "<script>%s</script>" % "; ".join("w(%d)" % k for k in pieces)


@settings(max_examples=150, deadline=None)
@given(writes=st.lists(st.lists(st.integers(0, len(PIECES) - 1), max_size=6),
                       min_size=1, max_size=4),
       tail=st.lists(st.sampled_from(PIECES + [piece_scripts([19, 6, 20])]), max_size=8),
       seed=st.integers(0, 2 ** 16))
def test_any_writes_give_the_same_tree_for_any_chunking(writes, tail, seed):
    """Scripts that write any pieces of markup (nested scripts included):
    the whole input and the input fed in random chunks give the same tree
    and run the same scripts."""
    import random
    html = "<body>" + "".join(piece_scripts(pieces) for pieces in writes) + "".join(tail)
    scripts = PieceScripts()
    try:
        whole = lexpy.parse(html, on_script=scripts)
    except lexpy.ScriptNestingError:
        return
    rng = random.Random(seed)
    chunks, i = [], 0
    while i < len(html):
        n = rng.randint(1, 12)
        chunks.append(html[i:i + n])
        i += n
    again = PieceScripts()
    assert lexpy.dump(fed(chunks, on_script=again)) == lexpy.dump(whole), chunks
    assert again.ran == scripts.ran
