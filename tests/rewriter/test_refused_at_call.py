"""Refusals a handler can catch (issue 39): an edit whose refusal would
otherwise come from feed/close at a later token, ending the whole
rewrite, is refused at the call when the rewriter cannot know yet that it
will be expressible. Removing a tracking pixel whose start tag
reconstructed formatting elements, and unwrapping a table part (empty or
not is known only at its end), leave the stream going and the input
unchanged."""
import pytest

import lexpy
from lexpy.rewriter import RewriteError


def _caught(data, selector, operation, chunk=None):
    refused = []

    def handler(element):
        try:
            getattr(element, operation)()
        except RewriteError as error:
            refused.append(str(error))
    rw = lexpy.Rewriter().on(selector, element=handler)
    raw = data.encode()
    if chunk is None:
        out = rw.feed(raw) + rw.close()
    else:
        out = b"".join(rw.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk)) + rw.close()
    return out.decode(), refused


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("data,selector,operation", [
    ("<p><b>x</p><img>z", "img", "remove"),
    ("<p><b>x</p><br>z", "br", "remove"),
    ("<p><b>x</p><input>z", "input", "remove"),
    ("<table><tr><td>x</td></tr></table>", "td", "remove_and_keep_content"),
    ("<table><tr><td>x</td></tr></table>", "tr", "remove_and_keep_content"),
    ("<table><tr><td>x</td></tr></table>", "table", "remove_and_keep_content"),
    ("<table><tr><td></td></tr></table>", "td", "remove_and_keep_content"),
])
def test_refused_at_the_call_and_the_stream_goes_on(data, selector, operation, chunk):
    out, refused = _caught(data, selector, operation, chunk)
    assert refused, "accepted at the call"
    assert out == data
