"""lexpy select / data / tables / links (lexpy/extract/cli.py)."""
import json

from tests.api.test_cli import run, site  # noqa: F401 (the fixture)

PAGE = (b'<html prefix="og: http://ogp.me/ns#"><title>T</title>'
        b'<meta property="og:title" content="X">'
        b'<script type="application/ld+json">{"@type": "Thing"}</script>'
        b'<ul><li><a href="/a" class=x>One</a><li><a href=b>Two <b>2</b></a></ul>'
        b'<table><tr><th>h<th>i<tr><td>1<td>2</table><img srcset="s.png 1x, t.png 2x">')


def test_select():
    assert run("select", "a.x", "-", stdin=PAGE) == (0, '<a href="/a" class="x">One</a>\n', "")
    assert run("select", "a", "--attr", "href", "-", stdin=PAGE) == (0, "/a\nb\n", "")
    assert run("select", "a", "--text", "-", stdin=PAGE) == (0, "One\nTwo 2\n", "")
    assert run("select", "a::text", "-", stdin=PAGE) == (0, "One\nTwo \n", "")
    assert run("select", "a ::text", "-", stdin=PAGE) == (0, "One\nTwo \n2\n", "")
    status, out, err = run("select", "a[", "-", stdin=PAGE)
    assert status == 2 and "bad selector" in err


def test_data():
    status, out, err = run("data", "--base", "http://h/", "-", stdin=PAGE)
    assert status == 0, err
    data = json.loads(out)
    assert data["json-ld"] == [{"@type": "Thing"}]
    assert data["opengraph"][0]["properties"] == [["og:title", "X"]]


def test_tables():
    assert run("tables", "-", stdin=PAGE) == (0, '[[{"h": "1", "i": "2"}]]\n', "")
    assert run("tables", "--csv", "-", stdin=PAGE) == (0, "h,i\n1,2\n", "")


def test_links():
    status, out, err = run("links", "--base", "http://h/x/", "-", stdin=PAGE)
    assert (status, err) == (0, "")
    assert out.split() == ["http://h/a", "http://h/x/b", "http://h/x/s.png", "http://h/x/t.png"]
    status, out, err = run("links", "--json", "-", stdin=PAGE)
    assert json.loads(out.splitlines()[2]) == {
        "element": "img", "attribute": "srcset", "url": "s.png", "position": 0}


def test_directories_and_unreadable_inputs(site):  # noqa: F811
    status, out, err = run("links", site)
    assert status == 0
    status, out, err = run("select", "p", site / "missing.html")
    assert status == 1 and "no such file" in err
