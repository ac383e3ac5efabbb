"""A text token the parser splits between two elements (issue 39): in the
head, its whitespace goes into the head, then a character the text
handler does not see (U+0000, which the parser then ignores in the body)
takes the parser out of the head and into an implied body. The chunk's
text went into the head, but the current node at the end of its token is
the body: content written before or after the chunk lands in the body,
where the DOM edit puts it in the head. Refused (Rewriter._check_unit),
whole and in chunks; whitespace chunks the parser does not leave stay
accepted."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError

REASON = "the parser left the element its text went into later in its token"


def _rewrite(data, where, content, chunk):
    def edit(unit):
        if unit.text and not unit.text.strip("\t\n\f\r "):
            getattr(unit, where)(content)
    rewriter = Rewriter().on_document(text=edit)
    raw = data.encode()
    step = chunk or len(raw)
    return b"".join(rewriter.feed(raw[i:i + step]) for i in range(0, len(raw), step)) \
        + rewriter.close()


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("content", ["X", " "])
@pytest.mark.parametrize("data", [
    "<head> \x00",
    "<head> \x00<title>t</title>",
    "</script><head></template>&#10;\x00<caption>",
    "<html><head>\n\x00<p>x",
])
def test_content_next_to_text_the_parser_left_behind_is_refused(data, where, content, chunk):
    with pytest.raises(RewriteError, match=REASON):
        _rewrite(data, where, content, chunk)


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("data", [
    "<head> <title>t</title>",
    "<head>&#10;<title>t</title>",
    "<head>\n<meta charset=utf-8></head>",
])
def test_whitespace_next_to_text_the_parser_keeps_is_written(data, where, chunk):
    out = _rewrite(data, where, " ", chunk)
    document = lexpy.parse(data)
    head = document.head
    text = next(node for node in head.child_nodes if node.node_type == 3)
    getattr(text, where)(" ")
    assert lexpy.parse(out).to_html() == document.to_html()
