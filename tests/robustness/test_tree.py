"""Any markup gives a tree: random tag soup over the elements the tree
builder treats specially parses without an exception, in both scripting
modes and as fragments, and feeding it in random chunks gives the same
tree (hypothesis)."""
from hypothesis import given, settings, strategies as st

import lexpy

TAGS = """a b i p div span table tr td th tbody thead caption col colgroup
form select option optgroup hr input textarea title style script template
svg math mi mo mtext annotation-xml foreignObject desc li ul ol dd dt dl h1
h2 nobr button frameset frame body html head noscript pre listing plaintext
xmp iframe selectedcontent font br image keygen ruby rt rp rb rtc marquee
object applet area embed img meta link base""".split()

ATTRIBUTES = ["", " color=red", " encoding=text/html", " type=hidden",
              " selected", " a=b c=d", "/"]
TEXT = ["x", " ", "\n", "\x00", "&amp;", "&#0;", "\r\n", "<!--c-->",
        "<?pi x?>", "<![CDATA[z]]>", "<!DOCTYPE html>", "\u00e9", "\U0001F600"]

piece = st.one_of(
    st.builds(lambda t, a: "<%s%s>" % (t, a), st.sampled_from(TAGS),
              st.sampled_from(ATTRIBUTES)),
    st.builds(lambda t: "</%s>" % t, st.sampled_from(TAGS)),
    st.sampled_from(TEXT))
soup = st.lists(piece, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(soup, st.booleans(), st.lists(st.integers(1, 8), min_size=1, max_size=20))
def test_tag_soup_gives_the_same_tree_in_chunks(html, scripting, sizes):
    whole = lexpy.dump(lexpy.parse(html, scripting=scripting, collect_errors=True))
    parser = lexpy.Parser(scripting=scripting)
    i = 0
    k = 0
    while i < len(html):
        size = sizes[k % len(sizes)]
        parser.feed(html[i:i + size])
        i += size
        k += 1
    assert lexpy.dump(parser.close()) == whole


@settings(max_examples=200, deadline=None)
@given(soup, st.sampled_from(["td", "select", "template", "title", "tr", "html"]))
def test_tag_soup_as_a_fragment(html, context):
    lexpy.dump(lexpy.parse_fragment(html, context))
    lexpy.dump(lexpy.parse_fragment(html, "svg", namespace="svg"))
    lexpy.dump(lexpy.parse_fragment(html, "mi", namespace="math"))
