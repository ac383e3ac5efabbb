"""Helpers shared by the tests."""
import random

import lexpy


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
