"""The tag and attribute name scans go without a check of the buffer's end
when a byte that ends every name (whitespace, '/', '>', NUL) lies ahead of
them in the buffer (set_buffer's t.name_stop, looked for in the buffer's
last 64 bytes). A name cut by the end of the input must still end there:
the input is parsed in place from a slice of a longer buffer, whose next
bytes would go on with the name, at every length, and must give the tree
of the same bytes on their own. (The pages declare their encoding and are
longer than the prescan's 1024 bytes: the tokenizer scans them in place.)"""
import pytest

import lexpy

PAGE = (b'<!DOCTYPE html><html lang=en><head><meta charset=utf-8>'
        b'<title>T</title></head><body class="b">' + b"filler text " * 90 +
        b'<div ID=main data-x=\'1\'>'
        b'<svg viewBox="0 0 10 10"><path D="M0 0L10 10"/></svg>'
        b'<a HREF=/x title="t">x</a><InPut type=checkbox checked>'
        b'<p>text</p></div></body></html>')


def test_names_cut_at_every_length_of_a_slice():
    view = memoryview(PAGE)
    for length in range(1000, len(PAGE) + 1):
        got = lexpy.dump(lexpy.parse(view[:length]))
        assert got == lexpy.dump(lexpy.parse(bytes(PAGE[:length]))), length


@pytest.mark.parametrize("name", [b"div", b"DIV", b"a" * 100, b"x-" * 70])
def test_a_long_name_without_a_stop_in_the_last_64_bytes(name):
    """No byte in the buffer's last 64 that ends a name: the scans check
    the end, and a name that reaches it ends there."""
    head = b"<meta charset=utf-8>" + b"filler text " * 90
    page = head + b"<p " + name + b"=1 " + name
    view = memoryview(page + b"more>")
    got = lexpy.dump(lexpy.parse(view[:len(page)]))
    assert got == lexpy.dump(lexpy.parse(page))
    tag = head + b"<" + name
    got = lexpy.dump(lexpy.parse(memoryview(tag + b"more>")[:len(tag)]))
    assert got == lexpy.dump(lexpy.parse(tag))
