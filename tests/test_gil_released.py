"""lexpy.parse releases the GIL while it decodes, tokenizes and builds
(DESIGN.md decision 8): another Python thread runs during a long parse. A
parse that held the GIL from start to end would let the other thread take
no step at all until it returned."""
import threading
import time

import lexpy

# A document that takes a while: deep markup, text, attributes, references,
# and a legacy encoding to decode.
DOCUMENT = ('<meta charset="windows-1252"><body>' + (
    '<div class="c"><p title="t&amp;x">caf\xe9 &lt;text&gt; <b>bold</b><i>it</i>'
    '<table><tr><td>cell</td></tr></table></p></div>\n') * 20000).encode("cp1252")


def test_another_thread_runs_while_a_document_is_parsed():
    started = threading.Event()
    steps = []

    def parse():
        started.set()
        for _ in range(3):
            lexpy.parse(DOCUMENT)

    worker = threading.Thread(target=parse)
    worker.start()
    started.wait()
    count = 0
    start = time.perf_counter()
    while worker.is_alive():
        count += 1
        if count % 1000 == 0:
            steps.append(time.perf_counter() - start)
    worker.join()
    # The main thread kept going all along: had the GIL stayed held, it
    # would have stalled for each whole parse (gaps of a third of the time).
    gaps = [b - a for a, b in zip(steps, steps[1:])]
    assert len(gaps) > 10
    assert max(gaps) < steps[-1] / 6
