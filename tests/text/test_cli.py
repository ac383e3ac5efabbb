"""The command line's text output: --text, --markdown, --main-content."""
from tests.api.test_cli import run, site  # noqa: F401 (the fixture)

PAGE = (b"<title>T</title><nav><a href=/>Home</a></nav><article><h1>Head</h1>"
        + b"<p>A paragraph of the article, long enough, with commas, to count.</p>" * 5
        + b"</article><footer>Footer, links, copyright notice here.</footer>")


def test_text_and_markdown_of_standard_input():
    status, out, err = run("--text", "-", stdin=b"<h1>a</h1><p>b <em>c</em>")
    assert (status, out, err) == (0, "a\n\nb c\n", "")
    status, out, err = run("--markdown", "-", stdin=b"<h1>a</h1><p>b <em>c</em>")
    assert (status, out, err) == (0, "# a\n\nb *c*\n", "")


def test_main_content(tmp_path):
    (tmp_path / "page.html").write_bytes(PAGE)
    status, out, err = run("--text", "--main-content", tmp_path / "page.html")
    assert status == 0 and out.startswith("Head\n\nA paragraph")
    assert "Home" not in out and "Footer" not in out
    status, out, err = run("--markdown", "--main-content", tmp_path / "page.html")
    assert status == 0 and out.startswith("# Head\n\nA paragraph")


def test_a_directory_as_text(site):  # noqa: F811
    status, out, err = run("--text", site)
    assert status == 0
    assert out == "==> %s <==\none\n==> %s <==\ntwo\n" % (
        site / "a.html", site / "sub" / "b.HTM")


def test_main_content_needs_text_or_markdown():
    status, out, err = run("--main-content", "-")
    assert status == 2 and "--main-content needs --text or --markdown" in err
    status, out, err = run("--text", "--markdown", "-")
    assert status == 2
