"""Pickling the corpus against parsing it, in one run: pickle.dumps and
pickle.loads of every parsed page against lexpy.parse of its bytes (total
time, best of --repeat), and the pickles' size against the HTML's.

    python tools/bench_pickle.py [--repeat 5] [CORPUS_DIR]
"""
import argparse
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import lexpy  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402


def best(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("corpus", nargs="?", default=None)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args(argv)
    folder = args.corpus or str(corpus_dir())
    pages = [open(os.path.join(folder, n), "rb").read() for n in sorted(os.listdir(folder))]
    docs = [lexpy.parse(page) for page in pages]
    pickles = [pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL) for doc in docs]
    html_bytes = sum(map(len, pages))
    parse = best(lambda: [lexpy.parse(page) for page in pages], args.repeat)
    dumps = best(lambda: [pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
                          for doc in docs], args.repeat)
    loads = best(lambda: [pickle.loads(data) for data in pickles], args.repeat)
    print("pages: %d, HTML %.2f MB, pickles %.2f MB (%.2fx the HTML)"
          % (len(pages), html_bytes / 1e6, sum(map(len, pickles)) / 1e6,
             sum(map(len, pickles)) / html_bytes))
    print("parse       %.1f MB/s (1.00x)" % (html_bytes / 1e6 / parse))
    print("dumps       %.1f MB/s of HTML (%.2fx parse)" % (html_bytes / 1e6 / dumps, parse / dumps))
    print("loads       %.1f MB/s of HTML (%.2fx parse)" % (html_bytes / 1e6 / loads, parse / loads))
    print("dumps+loads %.2fx parse" % (parse / (dumps + loads)))


if __name__ == "__main__":
    main()
