"""to_html(indent=N): for every tree-construction case and corpus page the
pretty-printed HTML reparses to the same tree once whitespace in text is
normalised (only whitespace text changes), and pretty-printing it again
changes nothing; whitespace-keeping elements untouched; bad indents; a
1,000,000-deep tree."""
import sys

import pytest

import lexpy
from lexpy.dom import Document
from tests.conformance import data
from tests.dom.minify_reference import normalise_whitespace
from tests.dom.test_minify import PAGES, TREE_FILES, _parse_case, _serializable


def check_pretty(parse, tree, scripting, indent):
    pretty = tree.to_html(indent=indent)
    got = lexpy.dump(normalise_whitespace(parse(pretty), scripting))
    expected = lexpy.dump(normalise_whitespace(parse(tree.to_html()), scripting))
    if got != expected:
        return "reparse differs\npretty:\n%s\nexpected:\n%s\ngot:\n%s" % (
            pretty, expected, got)
    again = parse(pretty).to_html(indent=indent)
    if again != pretty:
        return "not idempotent\nonce:\n%s\ntwice:\n%s" % (pretty, again)
    return None


@pytest.mark.parametrize("name", TREE_FILES)
def test_tree_cases_change_only_whitespace(name):
    failures = []
    checked = 0
    for case in data.tree_cases():
        if case.file != name:
            continue
        def parse(html, case=case):
            return _parse_case(case, html)
        tree = _serializable(parse, parse(case.data))
        if tree is None:            # (see test_minify: beyond the standard serializer)
            continue
        for indent in (2, 0):
            failure = check_pretty(parse, tree, case.scripting, indent)
            if failure:
                failures.append("%s %r\n%s" % (case.id, case.data, failure))
        checked += 1
    assert not failures, "\n\n".join(failures[:5])


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_corpus_pages_change_only_whitespace(path):
    tree = _serializable(lexpy.parse, lexpy.parse(path.read_bytes()))
    assert tree is not None
    failure = check_pretty(lexpy.parse, tree, True, 2)
    assert failure is None, failure


def test_layout():
    doc = lexpy.parse("<!DOCTYPE html><html><head><title>T</title><meta charset=utf-8>"
                      "</head><body><div><p>Hello   <b>big</b> world</p><ul><li>a</li>"
                      "</ul></div><pre>\n\n  x\n   y</pre></body></html>")
    assert doc.to_html(indent=2) == "\n".join([
        "<!DOCTYPE html>",
        "<html>",
        "  <head>",
        "    <title>T</title>",
        '    <meta charset="utf-8">',
        "  </head>",
        "  <body>",
        "    <div>",
        "      <p>Hello <b>big</b> world</p>",
        "      <ul>",
        "        <li>a</li>",
        "      </ul>",
        "    </div>",
        "    <pre>\n\n  x\n   y</pre>",
        "  </body>",
        "</html>"])


def test_whitespace_keeping_elements_untouched():
    html = ("<div><textarea>\n\n a  </textarea><script> a  =  1\n</script>"
            "<style>\n p {}</style><pre>\n\n x</pre></div>")
    out = lexpy.parse(html).body.to_html(indent=4)
    for kept in ("<textarea>\n\n a  </textarea>", "<script> a  =  1\n</script>",
                 "<style>\n p {}</style>", "<pre>\n\n x</pre>"):
        assert kept in out, (kept, out)


@pytest.mark.parametrize("bad", ["2", 2.0, True, [2]])
def test_indent_must_be_an_int(bad):
    with pytest.raises(TypeError):
        lexpy.parse("<p>x").to_html(indent=bad)


def test_indent_must_not_be_negative():
    with pytest.raises(ValueError):
        lexpy.parse("<p>x").to_html(indent=-1)
    with pytest.raises(TypeError):
        lexpy.parse("<p>x").to_html(indent=2, keep_comments=True)


def test_indentation_stops_growing():
    # 64 levels at most: the output stays linear in the input.
    doc = Document()
    node = doc.append_child(doc.create_element("div"))
    for _ in range(199):
        node = node.append_child(doc.create_element("div"))
    lines = doc.to_html(indent=3).split("\n")
    assert len(lines) == 399            # (the innermost <div></div> is one line)
    assert max(len(line) - len(line.lstrip(" ")) for line in lines) == 64 * 3


def test_deep_tree_pretty_prints():
    assert sys.getrecursionlimit() <= 10_000
    depth = 1_000_000
    doc = Document()
    node = doc.append_child(doc.create_element("div"))
    for _ in range(depth - 1):
        node = node.append_child(doc.create_element("div"))
    node.append_child(doc.create_text_node(" leaf "))
    out = doc.to_html(indent=0)
    assert out == "<div>\n" * (depth - 1) + "<div> leaf </div>" + "\n</div>" * (depth - 1)


def test_command_line_pretty_and_minify():
    from tests.api.test_cli import EXAMPLE, run
    document = lexpy.parse(EXAMPLE.read_bytes())
    status, out, err = run("--pretty", EXAMPLE)
    assert status == 0 and err == ""
    assert out == document.to_html(indent=2) + "\n"
    status, out, err = run("--minify", EXAMPLE)
    assert status == 0 and err == ""
    assert out == document.to_html(minify=True) + "\n"
    status, out, err = run("--pretty", "--dump", EXAMPLE)
    assert status == 2


@pytest.mark.parametrize("seed", range(2))
def test_random_documents_change_only_whitespace(seed):
    # (idempotence is not checked here: a tree with an <a> nested in an
    # <a> reparses its inserted whitespace elsewhere, by the adoption agency
    # algorithm; the tree cases and corpus pages check it)
    import random
    from tests.dom.test_minify import PIECES
    rnd = random.Random(seed)
    failures = []
    for _ in range(1500):
        html = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 25)))
        for scripting in (True, False):
            def parse(text, scripting=scripting):
                return lexpy.parse(text, scripting=scripting)
            tree = _serializable(parse, parse(html))
            if tree is None:
                continue
            failure = check_pretty(parse, tree, scripting, 2)
            if failure and "not idempotent" not in failure:
                failures.append("%r %s\n%s" % (html, scripting, failure))
    assert not failures, "\n\n".join(failures[:3])
