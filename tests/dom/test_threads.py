"""to_html, dump and text_content walk the tree without the GIL (DESIGN.md
decision 8): another Python thread runs while a big tree is serialized;
and while one is, the API refuses to change that document (RuntimeError)
instead of letting the walk see a half-made change."""
import threading

import pytest

import lexpy
from tests.helpers import progress_gaps

DOCUMENT = "<body>" + (
    '<div class="c"><p title="t&amp;x">caf\xe9 &lt;text&gt; <b>bold</b><i>it</i>'
    '<table><tr><td>cell</td></tr></table></p></div>\n') * 40000

READS = {
    "to_html": lambda doc: doc.to_html(),
    "dump": lexpy.dump,
    "text_content": lambda doc: doc.body.text_content,
}


@pytest.fixture(scope="module")
def big():
    return lexpy.parse(DOCUMENT)


@pytest.mark.parametrize("read", sorted(READS))
def test_another_thread_runs_while_a_tree_is_read(big, read):
    walks = 12

    def work():
        for _ in range(walks):
            READS[read](big)

    gaps, total = progress_gaps(work)
    # Had the GIL stayed held, this thread would have stalled for each
    # whole walk: a gap of about a walk's time per walk. (A few long gaps
    # may come from a busy machine rather than the GIL.)
    assert len(gaps) > 10
    assert len([gap for gap in gaps if gap > total / walks / 2]) <= walks // 4


def test_changes_are_refused_while_another_thread_reads():
    doc = lexpy.parse(DOCUMENT)
    body = doc.body
    expected = doc.to_html()
    outputs = []
    reading = threading.Event()

    def work():
        reading.set()
        for _ in range(5):
            outputs.append(doc.to_html())

    span = doc.create_element("span")
    worker = threading.Thread(target=work)
    worker.start()
    reading.wait()
    refused = done = 0
    while worker.is_alive():
        for change in (lambda: body.set_attribute("data-x", "1"),
                       lambda: body.remove_attribute("data-x"),
                       lambda: body.append_child(span),
                       lambda: span.remove(),
                       lambda: doc.create_element("span"),        # a known name
                       lambda: doc.create_element("never-seen-%d" % done)):
            try:
                change()
                done += 1
            except RuntimeError as error:
                assert "another thread" in str(error)
                refused += 1
    worker.join()
    assert refused > 0
    # Each walk saw a whole tree: the body with or without the attribute
    # and the <span>.
    variants = set()
    for with_attribute in (expected, expected.replace("<body>", '<body data-x="1">')):
        variants.add(with_attribute)
        variants.add(with_attribute.replace("</body>", "<span></span></body>"))
    assert len(outputs) == 5 and set(outputs) <= variants
    body.set_attribute("data-y", "2")            # no reader now
    assert body.get_attribute("data-y") == "2"
