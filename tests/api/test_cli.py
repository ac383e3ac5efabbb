"""The command line, driven as a user drives it: `python -m lexpy ...` in a
subprocess, on files, standard input, directories, missing files and bad
options, checking the output and the exit status."""
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import lexpy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "example.html"


def run(*args, stdin=b"", stderr=subprocess.PIPE):
    """Run `python -m lexpy ARGS` from the checkout; (status, stdout, stderr)."""
    process = subprocess.run([sys.executable, "-m", "lexpy", *map(str, args)],
                             input=stdin, stdout=subprocess.PIPE, stderr=stderr,
                             cwd=ROOT, timeout=120)
    return (process.returncode, process.stdout.decode("utf-8"),
            process.stderr.decode("utf-8") if process.stderr is not None else "")


@pytest.fixture
def site(tmp_path):
    (tmp_path / "a.html").write_bytes(b"<title>A</title><p>one")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.HTM").write_bytes(b"<p>two<!--c-->")
    (tmp_path / "sub" / "notes.txt").write_bytes(b"<p>not html")
    return tmp_path


def test_a_file_prints_its_serialization():
    status, out, err = run(EXAMPLE)
    assert status == 0 and err == ""
    assert out == lexpy.parse(EXAMPLE.read_bytes()).to_html() + "\n"


def test_dump_prints_the_test_format_tree():
    status, out, err = run("--dump", EXAMPLE)
    assert status == 0
    assert out == lexpy.dump(lexpy.parse(EXAMPLE.read_bytes())) + "\n"
    assert out.startswith("| <!DOCTYPE html>\n| <html>\n|   <head>\n")


def test_standard_input():
    status, out, err = run("--dump", "-", stdin=b"<p>x&amp;y")
    assert status == 0
    assert out == "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"x&y\"\n"


def test_a_directory_parses_every_html_file_under_it(site):
    status, out, err = run(site)
    assert status == 0 and err == ""            # no progress bar: not a terminal
    assert out == (
        "==> %s <==\n<html><head><title>A</title></head><body><p>one</p></body></html>\n"
        "==> %s <==\n<html><head></head><body><p>two<!--c--></p></body></html>\n"
        % (site / "a.html", site / "sub" / "b.HTM"))


def test_a_directory_shows_a_progress_bar_on_a_terminal(site):
    leader, follower = pty.openpty()
    try:
        status, out, _ = run("--stats", site, stderr=follower)
        os.close(follower)
        follower = None
        shown = b""
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:
                break
            if not data:
                break
            shown += data
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert status == 0
    assert b"[###############...............] 1/2" in shown
    assert b"[##############################] 2/2" in shown
    assert out.count("\n") == 3 and out.startswith(str(site / "a.html") + ": ")


def test_a_missing_file_is_reported_and_the_others_are_parsed():
    status, out, err = run("no-such-file.html", EXAMPLE)
    assert status == 1
    assert err == "lexpy: no-such-file.html: no such file or directory\n"
    assert "<title>lexpy example" in out


def test_an_unreadable_file_in_a_directory(site):
    (site / "broken.html").symlink_to(site / "gone.html")
    status, out, err = run("--stats", site)
    assert status == 1
    assert err == "lexpy: %s: No such file or directory\n" % (site / "broken.html")
    assert out.count(" elements, ") == 2       # the others are parsed


def test_a_directory_without_html_files(tmp_path):
    status, out, err = run(tmp_path)
    assert status == 1 and out == ""
    assert err == "lexpy: %s: no .html or .htm files in this directory\n" % tmp_path


def test_a_special_file_is_not_read(tmp_path):
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    status, out, err = run(fifo)
    assert status == 1
    assert err == "lexpy: %s: not a regular file\n" % fifo


@pytest.mark.parametrize("args, message", [
    ([], "the following arguments are required: FILE"),
    (["--bogus", "x.html"], "unrecognized arguments: --bogus"),
    (["--json", "x.html"], "--json needs --errors or --stats"),
    (["--dump", "--errors", "x.html"], "not allowed with argument"),
    (["--encoding", "no-such-label", "x.html"], "unknown encoding label 'no-such-label'"),
    (["--encoding"], "expected one argument"),
    (["--fragment", "a b c", "x.html"], "--fragment: a fragment context is a name"),
    (["--fragment", "td", "--fragment"], "expected one argument"),
])
def test_bad_usage_exits_with_2(args, message):
    status, out, err = run(*args)
    assert status == 2 and out == ""
    assert err.startswith("usage: lexpy")
    assert message in err


def test_errors_as_file_line_column_code(tmp_path):
    page = tmp_path / "bad.html"
    page.write_bytes(b"<p>\x00</p>\n</div>")
    status, out, err = run("--errors", page)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "%s:1:1: missing-doctype" % page
    assert "%s:1:4: unexpected-null-character" % page in lines
    expected = lexpy.parse(page.read_bytes(), collect_errors=True).errors
    assert lines == ["%s:%d:%d: %s" % (page, e.line, e.column, e.code) for e in expected]


def test_errors_as_json(tmp_path):
    page = tmp_path / "bad.html"
    page.write_bytes(b"<p>\x00")
    status, out, err = run("--errors", "--json", page)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert records[0] == {"file": str(page), "line": 1, "column": 1,
                          "code": "missing-doctype", "message": "Missing doctype"}
    assert {r["code"] for r in records} >= {"unexpected-null-character"}


def test_stats(site):
    status, out, err = run("--stats", site / "a.html", site / "sub" / "b.HTM")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("%s: 22 bytes, " % (site / "a.html"))
    assert " 5 elements, 2 text, 0 comments, 0 other, " in lines[0]
    assert " 4 elements, 1 text, 1 comments, 0 other, " in lines[1]
    assert lines[2].startswith("total: 2 files, 36 bytes, ")


def test_stats_as_json(site):
    status, out, err = run("--stats", "--json", site)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(records) == 2
    first = records[0]
    assert first["file"] == str(site / "a.html")
    assert (first["bytes"], first["elements"], first["text"]) == (22, 5, 2)
    assert first["parse_ms"] >= 0 and isinstance(first["encoding"], str)


def test_encoding_option(tmp_path):
    page = tmp_path / "latin.html"
    page.write_bytes(b"<p>caf\xe9")
    status, out, err = run("--encoding", "latin1", page)
    assert status == 0
    assert "<p>café</p>" in out


def test_fragment_option():
    status, out, err = run("--dump", "--fragment", "td", "-", stdin=b"<td>x")
    assert status == 0 and out == '| "x"\n'
    status, out, err = run("--dump", "--fragment", "svg path", "-",
                           stdin=b"<circle/><p>")
    assert status == 0 and out == "| <svg circle>\n| <p>\n"
    status, out, err = run("--errors", "--fragment", "tr", "-", stdin=b"x")
    assert status == 0 and ":1:1: " in out


def test_no_scripting_option():
    page = b"<noscript><p>x</p></noscript>"
    status, on, err = run("--dump", "-", stdin=page)
    status, off, err = run("--dump", "--no-scripting", "-", stdin=page)
    assert '"<p>x</p>"' in on
    assert "<p>" in off and '"<p>x</p>"' not in off


def test_version():
    status, out, err = run("--version")
    assert status == 0 and out.startswith("lexpy ")
