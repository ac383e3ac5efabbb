"""What the end of input checks read back of the input (issue 39, found by
test_properties.test_corpus_output_does_not_depend_on_chunking): it must
not depend on where the written input was last dropped, that is on the
chunking.

- The source of a script the input ends in (Rewriter._eof_raw_end_tag
  parses it again to tell whether an end tag written after it ends it):
  kept or dropped by the chunking, so that content appended to the body
  after it was refused whole and accepted with a cut. It is kept now from
  its start tag while that is within SCRIPT_KEPT bytes of the input's end
  (RewriterCore.input_kept), whatever the chunking; past that the
  rewriter refuses, whatever the chunking.
- A '<![CDATA[' in the input kept, read as a CDATA section the input ends
  in (Rewriter._check_join): in a script's text, or where the current node
  is HTML, it is not one.
"""
import lexpy
import pytest

from lexpy.rewriter import RewriteError, Rewriter
from lexpy.rewriter.engine import SCRIPT_KEPT

from tests.rewriter.test_properties import SLICES, _run


def _rewrite(raw, cuts, remove=True):
    rw = Rewriter(encoding="utf-8").on(
        "script", element=lambda e: e.remove() if remove else None) \
        .on("body", element=lambda e: e.append("<i>end</i>", html=True))
    bounds = [0] + cuts + [len(raw)]
    try:
        return b"".join(rw.feed(raw[a:b]) for a, b in zip(bounds, bounds[1:])) + rw.close()
    except RewriteError as error:
        return str(error)


def _dom_edit(raw, remove=True):
    # (the same edits with the DOM API, serialized and parsed again)
    dom = lexpy.parse(raw.decode("utf-8"))
    for script in dom.query_selector_all("script") if remove else ():
        script.remove()
    for node in lexpy.parse_fragment("<i>end</i>", "body").child_nodes:
        dom.body.append_child(node)
    return lexpy.dump(lexpy.parse(dom.to_html()))


def _same_whatever_the_chunking(raw, remove, step=331):
    whole = _rewrite(raw, [], remove)
    for cut in range(1, len(raw), step):
        assert _rewrite(raw, [cut], remove) == whole, cut
    return whole


@pytest.mark.parametrize("remove", [True, False])
@pytest.mark.parametrize("before,length", [(0, 4100), (5000, 4100), (5000, 9000),
                                           (10000, 30000)])
def test_a_script_the_input_ends_in(before, length, remove):
    # A '<x' at the end of the script's text (what looks like a tag the
    # input ends inside): its end tag is written before the appended
    # content where its source, parsed again, tells that it ends it; a
    # removed script is not in the output, nothing ends it.
    raw = b"<body>" + b"x" * before + b"<script>" + b"a" * length + b"<x"
    whole = _same_whatever_the_chunking(raw, remove)
    assert isinstance(whole, bytes), whole
    assert lexpy.dump(lexpy.parse(whole.decode("utf-8"))) == _dom_edit(raw, remove)


def test_a_script_past_script_kept_is_refused_whatever_the_chunking():
    raw = b"<body><script>" + b"a" * (SCRIPT_KEPT + 10) + b"<x"
    whole = _same_whatever_the_chunking(raw, False, 4999)
    assert "ends inside <script>" in whole


@pytest.mark.parametrize("remove", [True, False])
def test_a_cdata_section_start_in_a_script_before_text_the_input_ends_in(remove):
    # The input ends in the body, not in a CDATA section. It was refused
    # where the input kept still held the script (by the chunking).
    raw = b"<body>" + b"y " * 5000 + b"<script>/* <![CDATA[ */ x()</script>" + b"text " * 1000
    whole = _same_whatever_the_chunking(raw, remove, 97)
    assert isinstance(whole, bytes), whole
    assert lexpy.dump(lexpy.parse(whole.decode("utf-8"))) == _dom_edit(raw, remove)


def test_a_cdata_section_the_input_ends_in_is_ended_first():
    # (Rewriter._close_eof_cdata: "]]>" ends it with the same text, then
    # the appended content follows.)
    raw = b"<body><svg><![CDATA[a"
    whole = _same_whatever_the_chunking(raw, False, 1)
    assert isinstance(whole, bytes), whole
    assert lexpy.dump(lexpy.parse(whole.decode("utf-8"))) == _dom_edit(raw, False)


def test_the_corpus_slice_hypothesis_found():
    page = SLICES[6]
    start = 132537 % max(1, len(page) - 20000)
    raw = page[start:start + 20000]
    while raw and 0x80 <= raw[0] < 0xC0:
        raw = raw[1:]
    while raw and raw[-1] >= 0x80:
        raw = raw[:-1]
    # (the slice ends inside a script opened 4,097 bytes before its end)
    assert raw.rfind(b"<script") == len(raw) - 4097 and raw.rfind(b"</script") < len(raw) - 4097
    whole = _run(raw, [])
    assert isinstance(whole, bytes), whole
    assert _run(raw, [15961]) == whole
    dom = lexpy.parse(raw.decode("utf-8"))
    assert not dom.query_selector_all("a[href], p, li, dd")     # (_edits: no other edit)
    assert "<!--" not in raw.decode("utf-8")
    assert lexpy.dump(lexpy.parse(whole.decode("utf-8"))) == _dom_edit(raw)
