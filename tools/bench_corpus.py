"""lexpy.corpus throughput per engine, in one run: a WARC built from the
corpus pages (as tests/corpus/test_processing.py builds it), processed with
extract_record serially, on 2 threads, on 2 processes and on a Dask
LocalCluster (1 and 2 worker processes); records/s and MB/s of HTML, the
threads speed-up at 2 jobs over 1, the Dask engine's overhead per record
over the serial run (1 worker against serial, cluster start-up apart), and
the WARC readers (fastwarc against warcio).

    python tools/bench_corpus.py [--copies 3] [--repeat 3]
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lexpy.corpus import iter_warc, process  # noqa: E402


def best(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--copies", type=int, default=3, help="the corpus this many times")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    from tests.corpus.test_corpus import PAGES
    from tests.corpus.test_processing import _write_warc
    folder = tempfile.mkdtemp()
    warc = os.path.join(folder, "corpus.warc.gz")
    pages = [page.read_bytes() for page in PAGES] * args.copies
    _write_warc(warc, pages)
    records = sum(1 for _ in iter_warc(warc))
    html_mb = sum(map(len, pages)) / 1e6
    print("WARC: %d records, %.1f MB of HTML, %.1f MB on disk"
          % (records, html_mb, os.path.getsize(warc) / 1e6))

    for backend in ("fastwarc", "warcio"):
        seconds = best(lambda: sum(1 for _ in iter_warc(warc, backend=backend)), args.repeat)
        print("read  %-9s %8.1f records/s %7.1f MB/s" % (backend, records / seconds,
                                                        html_mb / seconds))

    def run(**options):
        return best(lambda: sum(1 for _ in process(warc, **options)), args.repeat)

    timings = {}
    for name, options in [("serial", dict(engine="threads", jobs=1)),
                          ("threads x2", dict(engine="threads", jobs=2)),
                          ("processes x2", dict(engine="processes", jobs=2))]:
        timings[name] = run(**options)
    from distributed import Client, LocalCluster
    for workers in (1, 2):
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            startup = time.perf_counter() - start
            timings["dask x%d" % workers] = run(engine="dask", client=client)
        print("dask x%d cluster start-up %.2f s (not counted below)" % (workers, startup))
    for name, seconds in timings.items():
        print("%-13s %8.1f records/s %7.1f MB/s %6.2fx serial"
              % (name, records / seconds, html_mb / seconds, timings["serial"] / seconds))
    print("threads at 2 jobs: %.2fx 1 job" % (timings["serial"] / timings["threads x2"]))
    print("dask overhead per record over serial (1 worker): %.3f ms"
          % ((timings["dask x1"] - timings["serial"]) / records * 1e3))


if __name__ == "__main__":
    main()
