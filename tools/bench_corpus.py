"""lexpy.corpus throughput per engine, in one run: a WARC built from the
corpus pages (as tests/corpus/test_processing.py builds it), processed with
extract_record serially, on 2 threads, on 2 processes and on a Dask
LocalCluster (1 and 2 worker processes); records/s and MB/s of HTML, the
threads speed-up at 2 jobs over 1, the Dask engine's overhead per record
over the serial run (1 worker against serial, cluster start-up apart), and
the WARC readers (fastwarc against warcio). Each figure is the best of
--repeat runs; the serial and 2-thread runs alternate, so that a change in
the machine's load falls on both. CPU time per wall-clock second (the
process's, workers' time apart) says how much of the machine a run had:
about 2 for 2 threads on 2 idle cores; the load average is printed before
and after, since a machine shared with other work gives less.

    python tools/bench_corpus.py [--copies 3] [--repeat 3]
"""
import argparse
import os
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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--copies", type=int, default=3, help="the corpus this many times")
    p.add_argument("--repeat", type=int, default=3)
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
        inflater = " (+ isal)" if backend == "fastwarc" and _inflater_module() else ""
        print("read  %-9s %8.1f records/s %7.1f MB/s%s" % (backend, records / seconds,
                                                          html_mb / seconds, inflater))

    def run(**options):
        return lambda: sum(1 for _ in process(warc, **options))

    timings = {}
    rounds = {"serial": [], "threads x2": []}
    for _ in range(args.repeat):
        rounds["serial"].append(timed(run(engine="threads", jobs=1)))
        rounds["threads x2"].append(timed(run(engine="threads", jobs=2)))
    for name, runs in rounds.items():
        timings[name] = min(runs)
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
    print("threads at 2 jobs: %.2fx 1 job (best of %d alternating runs; each round: %s)"
          % (serial / timings["threads x2"][0], args.repeat,
             ", ".join("%.2fx" % (one[0] / two[0])
                       for one, two in zip(rounds["serial"], rounds["threads x2"]))))
    print("dask overhead per record over serial (1 worker): %.3f ms"
          % ((timings["dask x1"][0] - serial) / records * 1e3))
    print("load average %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
