"""lexpy.corpus throughput per engine, in one run: a WARC built from the
corpus pages (as tests/corpus/test_processing.py builds it), processed with
extract_record serially, on 2 threads, on 2 processes and on a Dask
LocalCluster (1 and 2 worker processes); records/s and MB/s of HTML, the
threads speed-up at 2 jobs over 1, the Dask engine's overhead per record
over the serial run (1 worker against serial, cluster start-up apart), and
the WARC readers (fastwarc against warcio). Each records/s figure is the
best of --repeat runs. CPU time per wall-clock second (the process's,
workers' time apart) says how much of the machine a run had: about 2 for
2 threads on 2 idle cores; the load average is printed before and after.

The speed-up of 2 threads comes from --pairs rounds, each a serial run, a
2-thread run and, for the machine's own figure, two serial runs at once in
two processes (no GIL, nothing shared): one round's runs follow each other
within about a second. Its figure is the median of the rounds' ratios.
On the shared machines this is measured on, the same serial run takes up
to 1.7x as long from one second to the next (memory-bound code varies
most; a compute loop hardly at all), so the best run of each kind compares
different moments of the machine: that figure is printed too.

The WARC holds the corpus pages --copies times (8: 882 records, 112 MB
of HTML): a run over them lasts about half a second serially. Each run
has a start-up (the workers start, the others wait for the first reads,
one finishes its last batch alone: a few milliseconds), which over 3
copies (0.2 s on 2 threads) was 2-3% of a run; a crawl's WARC file holds
tens of thousands of records.

    python tools/bench_corpus.py [--copies 8] [--repeat 3] [--pairs 15]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lexpy.corpus import iter_warc, process  # noqa: E402
from lexpy.corpus.readers import _inflater_module  # noqa: E402


def timed(function):
    """(wall-clock seconds, CPU seconds of this process) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - start, time.process_time() - cpu


def best(function, repeat):
    return min(timed(function) for _ in range(repeat))


def two_at_once(function):
    """Wall-clock seconds per call of `function` called in two processes at
    once (forked: each has its own interpreter and GIL)."""
    start = time.perf_counter()
    children = []
    for _ in range(2):
        child = os.fork()
        if child == 0:
            try:
                function()
            finally:
                os._exit(0)
        children.append(child)
    for child in children:
        os.waitpid(child, 0)
    return (time.perf_counter() - start) / 2


def quartiles(values):
    """The first and third quartile."""
    cuts = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return cuts[0], cuts[2]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--copies", type=int, default=8, help="the corpus this many times")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--pairs", type=int, default=15,
                   help="rounds of serial, 2-thread and 2-process runs")
    args = p.parse_args(argv)
    from tests.corpus.test_corpus import PAGES
    from tests.corpus.test_processing import _write_warc
    print("load average %.2f %.2f %.2f" % os.getloadavg())
    folder = tempfile.mkdtemp()
    warc = os.path.join(folder, "corpus.warc.gz")
    pages = [page.read_bytes() for page in PAGES] * args.copies
    _write_warc(warc, pages)
    records = sum(1 for _ in iter_warc(warc))
    html_mb = sum(map(len, pages)) / 1e6
    print("WARC: %d records, %.1f MB of HTML, %.1f MB on disk"
          % (records, html_mb, os.path.getsize(warc) / 1e6))

    for backend in ("fastwarc", "warcio"):
        seconds, _ = best(lambda: sum(1 for _ in iter_warc(warc, backend=backend)),
                          args.repeat)
        inflater = " (+ isal: members of the plain shape read by lexpy.corpus.members)" \
            if backend == "fastwarc" and _inflater_module() else ""
        print("read  %-9s %8.1f records/s %7.1f MB/s%s" % (backend, records / seconds,
                                                          html_mb / seconds, inflater))

    def run(**options):
        return lambda: sum(1 for _ in process(warc, **options))

    timings = {}
    rounds = {"serial": [], "threads x2": [], "machine x2": []}
    for _ in range(args.pairs):
        rounds["serial"].append(timed(run(engine="threads", jobs=1)))
        rounds["threads x2"].append(timed(run(engine="threads", jobs=2)))
        rounds["machine x2"].append(two_at_once(run(engine="threads", jobs=1)))
    timings["serial"] = min(rounds["serial"])
    timings["threads x2"] = min(rounds["threads x2"])
    timings["processes x2"] = best(run(engine="processes", jobs=2), args.repeat)
    from distributed import Client, LocalCluster
    for workers in (1, 2):
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            startup = time.perf_counter() - start
            timings["dask x%d" % workers] = best(run(engine="dask", client=client),
                                                 args.repeat)
        print("dask x%d cluster start-up %.2f s (not counted below)" % (workers, startup))
    serial = timings["serial"][0]
    for name, (seconds, cpu) in timings.items():
        print("%-13s %8.1f records/s %7.1f MB/s %6.2fx serial  (CPU/wall %.2f)"
              % (name, records / seconds, html_mb / seconds, serial / seconds, cpu / seconds))
    ratios = {"threads x2": [one[0] / two[0] for one, two
                             in zip(rounds["serial"], rounds["threads x2"])],
              "machine x2": [one[0] / two for one, two
                             in zip(rounds["serial"], rounds["machine x2"])]}
    print("threads at 2 jobs: %.2fx 1 job (median of %d rounds, quartiles %.2fx-%.2fx; "
          "best runs: %.2fx)" % (statistics.median(ratios["threads x2"]), args.pairs,
                                 *quartiles(ratios["threads x2"]),
                                 serial / timings["threads x2"][0]))
    print("the machine at 2 jobs: %.2fx 1 job (two serial runs at once in two processes, "
          "the same rounds; quartiles %.2fx-%.2fx)" % (statistics.median(ratios["machine x2"]),
                                                     *quartiles(ratios["machine x2"])))
    print("dask overhead per record over serial (1 worker): %.3f ms"
          % ((timings["dask x1"][0] - serial) / records * 1e3))
    print("load average %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
