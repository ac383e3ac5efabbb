"""lexpy.extract_text and the text layer's behaviour on any node and on bad
input: block structure, options, main content, deep and large trees, lone
surrogates, argument errors, the GIL released while the walk runs."""
from pathlib import Path

import pytest

import lexpy
from tests.helpers import progress_gaps
from tests.text.test_inner_text import _data_dir

PAGES = sorted(p for p in (_data_dir() / "readability-pages").iterdir()
               if (p / "source.html").is_file())


def text(html, **options):
    return lexpy.extract_text(lexpy.parse(html), **options)


def test_block_structure():
    assert text("<h1>Title</h1><p>One <b>two</b>\n three</p><p>Four</p>"
                "<div>a</div><div>b</div>") == "Title\n\nOne two three\n\nFour\n\na\nb"
    assert text("<ul><li>a<li>b<ul><li>c</ul></ul><ol start=3><li>x<li>y</ol>") == (
        "- a\n- b\n  - c\n\n3. x\n4. y")
    assert text("<ul><li>a<li>b</ul>", list_bullets=False) == "a\nb"
    assert text("<table><tr><td>a<td>b<tr><td>c<td>d</table>") == "a\tb\nc\td"
    assert text("<pre>  x\n    y</pre><p>z") == "  x\n    y\n\nz"
    assert text("a<br>b") == "a\nb"


def test_noise_is_left_out():
    assert text("<title>T</title><script>s()</script><style>p{}</style>"
                "<template>t</template><p hidden>h</p><noscript>n</noscript>"
                "<p>kept<input value=v><select><option>o</select><button>b</button>"
                "<textarea>ta</textarea><svg><text>svg</text></svg>"
                "<span style='display: none'>inline</span><i aria-hidden=true>i</i>") == "kept"


def test_links_and_alt_text():
    html = '<p><a href="/x">x</a> <a href="#top">top</a> <img alt="a cat">'
    assert text(html) == "x top"
    assert text(html, links=True, alt_text=True) == "x (/x) top a cat"


def test_any_node():
    doc = lexpy.parse("<p id=p>a <b>b</b></p><template id=t><p>in template</p></template>")
    assert lexpy.extract_text(doc.get_element_by_id("p")) == "a b"
    assert lexpy.extract_text(doc.get_element_by_id("p").first_child) == "a"
    assert lexpy.extract_text(doc.get_element_by_id("t")) == "in template"
    assert lexpy.extract_text(doc.get_element_by_id("t").content) == "in template"
    assert lexpy.extract_text(doc.doctype or doc.create_comment("c")) == ""
    detached = doc.create_element("div")
    detached.inner_html = "<p>x</p><p>y</p>"
    assert lexpy.extract_text(detached) == "x\n\ny"
    assert lexpy.extract_text(lexpy.parse_fragment("<td>a<td>b", "tr")) == "a\tb"
    bodiless = lexpy.parse("<frameset><frame></frameset>")
    assert lexpy.extract_text(bodiless, main_content=True) == ""
    assert lexpy.extract_text(lexpy.parse("")) == ""


def test_lone_surrogates_pass_through():
    doc = lexpy.parse("<p>x</p>")
    doc.body.first_child.text_content = "a\ud800b"
    assert lexpy.extract_text(doc) == "a\ud800b"
    assert lexpy.to_markdown(doc) == "a\ud800b"


def test_bad_arguments_name_the_argument():
    doc = lexpy.parse("<p>x")
    with pytest.raises(TypeError, match="node"):
        lexpy.extract_text("<p>x")
    for option in ("main_content", "links", "alt_text", "list_bullets"):
        with pytest.raises(TypeError, match=option):
            lexpy.extract_text(doc, **{option: "yes"})
    with pytest.raises(TypeError, match="element"):
        lexpy.text.inner_text(doc)
    with pytest.raises(TypeError):
        lexpy.extract_text(doc, unknown=True)


@pytest.mark.parametrize("make", [
    lambda n: "<div>" * n + "x",
    lambda n: "<blockquote>" * n + "x",
    lambda n: "<ul><li>" * n + "x",
    lambda n: "<table><tr><td>" * (n // 3) + "x",
    lambda n: "<em>" * n + "x",
    lambda n: "<pre>" * n + "x",
], ids=["div", "blockquote", "list", "table", "em", "pre"])
def test_million_deep_trees(make):
    doc = lexpy.parse(make(1_000_000))
    for main_content in (False, True):
        assert "x" in lexpy.extract_text(doc, main_content=main_content)
        assert "x" in lexpy.to_markdown(doc, main_content=main_content)
    assert "x" in doc.body.inner_text


def test_a_hundred_megabytes_of_text():
    doc = lexpy.parse("<p>" + "word " * 20_000_000)
    out = lexpy.extract_text(doc)
    assert len(out) == 20_000_000 * 5 - 1
    assert out.startswith("word word")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_option_combination_raises_on_a_page(page):
    doc = lexpy.parse(page.joinpath("source.html").read_bytes())
    for main_content in (False, True):
        for flag in (False, True):
            assert isinstance(lexpy.extract_text(
                doc, main_content=main_content, links=flag, alt_text=flag,
                list_bullets=not flag), str)
            assert isinstance(lexpy.to_markdown(doc, main_content=main_content,
                                                raw_html=flag), str)
    assert isinstance(doc.body.inner_text, str)


def test_main_content_keeps_the_article_and_drops_boilerplate():
    paragraph = "<p>%s, with enough words, commas, and length to be text.</p>"
    html = ("<nav><a href=/>Home</a> <a href=/a>About</a></nav>"
            "<div class=sidebar><p>Sidebar text, short, links.</p></div>"
            "<article><h1>The title</h1>" + "".join(paragraph % ("Sentence %d" % i)
                                                   for i in range(8)) +
            "<div class=share-buttons><a href=/s>Share</a></div></article>"
            "<footer><p>Copyright, all rights reserved, 2024.</p></footer>")
    out = text(html, main_content=True)
    assert out.startswith("The title\n\nSentence 0,")
    assert "Sentence 7" in out
    for noise in ("Home", "Sidebar", "Share", "Copyright"):
        assert noise not in out
    assert lexpy.to_markdown(lexpy.parse(html), main_content=True).startswith(
        "# The title\n\nSentence 0,")


def test_main_content_keeps_a_headline_above_the_article_body():
    paragraph = "<p>%s, with enough words, commas, and length to be text.</p>"
    html = ("<header class=site><a href=/>Site</a></header><div class=column>"
            "<header><h1>The headline</h1></header><div class=body>"
            + "".join(paragraph % ("Sentence %d" % i) for i in range(6))
            + "</div></div><footer>Footer</footer>")
    out = text(html, main_content=True)
    assert out.startswith("The headline\n\nSentence 0,")
    assert "Site" not in out and "Footer" not in out


def test_the_gil_is_released_while_text_is_extracted():
    doc = lexpy.parse("<div><p>some <b>text</b>, <a href=x>link</a></p></div>" * 100_000)

    def work():
        for _ in range(4):
            lexpy.extract_text(doc, main_content=True)
            lexpy.to_markdown(doc)

    gaps, total = progress_gaps(work)
    assert len(gaps) > 10
    assert len([gap for gap in gaps if gap > total / 8 / 2]) <= 2


def test_the_walk_sees_the_tree_as_changed():
    doc = lexpy.parse("<p>x")
    assert lexpy.extract_text(doc) == "x"
    doc.body.append_child(doc.create_text_node("y"))
    assert lexpy.extract_text(doc) == "x\n\ny"
    assert doc.body.inner_text == "x\n\ny"
