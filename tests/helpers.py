"""Helpers shared by the tests."""
import importlib
import random
import sys
import threading
import time

import lexpy


# What builds the test-only modules (lexpy/*/_testing.pyx; README's test
# command).
TEST_BUILD_COMMAND = 'LEXPY_TEST_BUILD=1 python -m pip install -e ".[test]"'


def require_test_build(name):
    """A module only a test build has (lexpy.dom._testing, ...). When it is
    missing the test that needs it fails (never skips), saying how to build
    it."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise ImportError("%s is built only by a test build of lexpy: run %s"
                          % (name, TEST_BUILD_COMMAND)) from None


def random_chunks(data, seed, largest):
    """`data` (str or bytes) cut into pieces of seeded random sizes from 1
    to `largest`."""
    rng = random.Random(seed)
    chunks = []
    i = 0
    while i < len(data):
        size = rng.randint(1, largest)
        chunks.append(data[i:i + size])
        i += size
    return chunks


def fed(chunks, **options):
    """What lexpy.Parser(**options) returns after being fed `chunks` in
    order (a Document, or a DocumentFragment with a context)."""
    parser = lexpy.Parser(**options)
    for chunk in chunks:
        parser.feed(chunk)
    return parser.close()


def progress_gaps(work):
    """Run work() in another thread and count in this one meanwhile: the
    gaps (in seconds) between every 1000th step and the time it all took.
    A `work` that holds the GIL throughout leaves gaps as long as itself."""
    started = threading.Event()
    steps = []

    def run():
        started.set()
        work()

    # A short switch interval: when `work` takes the GIL back after a stretch
    # without it (to make a str, say), this thread gets it again within half
    # a millisecond rather than Python's default 5 ms, so the gaps measure
    # how long `work` holds the GIL, not the interval.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        worker = threading.Thread(target=run)
        worker.start()
        started.wait()
        count = 0
        start = time.perf_counter()
        while worker.is_alive():
            count += 1
            if count % 1000 == 0:
                steps.append(time.perf_counter() - start)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    return [b - a for a, b in zip(steps, steps[1:])], (steps[-1] if steps else 0.0)
