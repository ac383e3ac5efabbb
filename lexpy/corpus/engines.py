"""process(): run an extraction function over records on threads (lexpy
parses without the GIL), processes (multiprocessing) or a Dask cluster,
with errors as data and results in input order on request."""
from __future__ import annotations

import collections
import os
import queue
import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Tuple

from lexpy.corpus.extract import extract_record
from lexpy.corpus.readers import Item, iter_inputs
from lexpy.corpus.records import NotAPage, Record, RecordError

ENGINES = ("threads", "processes", "dask")
Batch = List[Item]
# (a batch's index, its results or, for index -1, the number of batches,
# and what it raised)
Outcome = Tuple[int, Any, Optional[BaseException]]


def apply(fn: Callable[[Record], Any], item: Item) -> Any:
    """fn(item) with its exception turned into a RecordError (a RecordError
    item passes through untouched)."""
    if isinstance(item, RecordError):
        return item
    try:
        return fn(item)
    except NotAPage as exc:
        return RecordError(item.file, item.offset, str(exc), url=item.url,
                           kind="skipped")
    except Exception as exc:
        return RecordError(item.file, item.offset, "%s: %s" % (type(exc).__name__, exc),
                           url=item.url, kind="failed")


def apply_batch(fn: Callable[[Record], Any], batch: Batch) -> List[Any]:
    """[apply(fn, item) for item in batch]: the unit of work a process or a
    Dask worker runs."""
    return [apply(fn, item) for item in batch]


def _check_inputs(inputs: Any) -> Iterable[Any]:
    if isinstance(inputs, (str, bytes, os.PathLike, Record)):
        inputs = [inputs]
    if isinstance(inputs, (list, tuple)):
        for item in inputs:
            if isinstance(item, (str, os.PathLike)) and not os.path.exists(item):
                raise FileNotFoundError("no such file or directory: %r"
                                        % os.fspath(item))
    return inputs  # type: ignore[no-any-return]


def _batches(items: Iterator[Item], size: int, first: Optional[int] = None) -> Iterator[Batch]:
    """Lists of `size` items (the last may be shorter); with `first`, the
    first has that many and each next one twice as many, up to `size`."""
    batch: Batch = []
    limit = min(first, size) if first else size
    for item in items:
        batch.append(item)
        if len(batch) >= limit:
            yield batch
            batch = []
            limit = min(2 * limit, size)
    if batch:
        yield batch


def process(inputs: Any, fn: Callable[[Record], Any] = extract_record, *,
            engine: str = "threads", jobs: Optional[int] = None,
            ordered: bool = True, batch_size: Optional[int] = None,
            client: Any = None, scheduler: Optional[str] = None,
            mp_context: Any = None) -> Iterator[Any]:
    """Run `fn` over the records of `inputs` and yield its results.

    `inputs`: a path or a list of paths (WARC files, HTML files, folders of
    either), or an iterable of Records. A missing path raises
    FileNotFoundError here, before any work starts (for a list; a lazy
    iterable is read as it goes).

    `engine`: 'threads' (lexpy releases the GIL while it parses, so the
    threads of one process share its cores), 'processes'
    (concurrent.futures over multiprocessing; `mp_context` picks the start
    method, and `fn` must be picklable), or 'dask' (batches of records
    submitted to a dask.distributed Client: `client`, else the current
    client if there is one, else a Client of `scheduler`, an address, else
    a LocalCluster of `jobs` worker processes made and closed here).
    `jobs`: workers (default os.cpu_count(); 1 with 'threads' runs in the
    calling thread; with more, the calling thread is one of them, between
    the results it yields). `batch_size`: records per task of the processes
    and dask engines, and of the threads engine's tasks (default 8).

    Results come in input order when `ordered` (default), else as they are
    done. An exception in `fn` becomes a RecordError (file, offset,
    message) in the results, as does each damaged part of an input; a
    worker process that dies is reported: the records it held are retried
    once, one at a time, and a record that kills its worker again is listed
    as a RecordError of kind 'worker'. No record is lost."""
    if engine not in ENGINES:
        raise ValueError("engine must be one of %s, not %r" % (", ".join(ENGINES), engine))
    if not callable(fn):
        raise TypeError("fn must be callable, not %s" % type(fn).__name__)
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool)
                             or jobs < 1):
        raise ValueError("jobs must be a positive int or None, not %r" % (jobs,))
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError("batch_size must be a positive int or None, not %r"
                         % (batch_size,))
    if engine == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ImportError("engine='dask' needs dask.distributed: "
                              "pip install 'lexpy[dask]'") from None
    items = iter_inputs(_check_inputs(inputs))
    workers = jobs or os.cpu_count() or 1
    size = batch_size or 8
    if engine == "threads":
        return _threads(items, fn, workers, ordered, size)
    if engine == "processes":
        return _processes(items, fn, workers, ordered, size, mp_context)
    return _dask(items, fn, workers, ordered, size, client, scheduler)


def _drain(pending: Deque[Tuple[Any, "Future[Any]"]], ordered: bool,
           limit: int) -> Iterator[Tuple[Any, "Future[Any]"]]:
    """Take finished (key, future) pairs off `pending` until at most `limit`
    are left: the oldest first when ordered, else any finished ones."""
    while len(pending) > limit:
        if ordered:
            key, future = pending.popleft()
            wait([future])
            yield key, future
        else:
            done, _ = wait([f for _, f in pending], return_when=FIRST_COMPLETED)
            kept: Deque[Tuple[Any, "Future[Any]"]] = collections.deque()
            finished: List[Tuple[Any, "Future[Any]"]] = []
            for pair in pending:
                (finished if pair[1] in done else kept).append(pair)
            pending.clear()
            pending.extend(kept)
            yield from finished


class _SharedBatches:
    """The batches of the threads engine's input, read by its workers
    themselves: no thread of its own for reading, which would share the
    cores with them (a third thread on two cores is switched in and out,
    and the caches with it). A worker takes a batch one of them read
    beforehand; when none is waiting and no one is reading, it reads the
    next one first. After taking one, a worker reads ahead, when no one
    else is reading, until `ahead` batches wait for the others (with one
    waiting, a worker that comes for it while another reads the next finds
    it; with fewer, it would wait for that read with its core idle: about
    4% of the workers' time on the corpus WARC). At most `window` batches
    are read and not yet yielded (release() frees one)."""

    def __init__(self, batches: Iterator[Batch], window: int, ahead: int,
                 done: "queue.SimpleQueue[Outcome]") -> None:
        self._batches = batches
        self._window = threading.BoundedSemaphore(window)
        self._slots = window
        self._ahead = ahead
        self._done = done
        self._lock = threading.Condition()
        self._ready: Deque[Tuple[int, Batch]] = collections.deque()
        self._reading = False
        self._count = 0         # batches read
        self._ended = False     # the input is read to its end, or failed
        self._stopped = False

    def take(self, wait: bool = True) -> Optional[Tuple[int, Batch]]:
        """The next batch to process with its index, None when there is no
        more (the end of the input or stop()). With `wait` false, None also
        when there is none to take at once: another worker is reading, or
        the window is full."""
        with self._lock:
            while not self._ready:
                if self._stopped or self._ended:
                    return None
                if not self._reading:
                    self._reading = True
                    break
                if not wait:
                    return None
                self._lock.wait()
            else:
                return self._ready.popleft()
        return self._read(wait)

    def read_ahead(self) -> None:
        """Read batches for the other workers until `ahead` wait, while no
        one else is reading and the window has room."""
        while True:
            with self._lock:
                if len(self._ready) >= self._ahead or self._reading or self._ended \
                        or self._stopped:
                    return
                self._reading = True
            task = self._read(False)
            if task is None:
                return
            with self._lock:
                self._ready.append(task)
                self._lock.notify()

    def _read(self, wait: bool) -> Optional[Tuple[int, Batch]]:
        # (the caller took the reading role)
        try:
            if not self._window.acquire(wait):
                return None
            if self._stopped:
                return None
            index = self._count
            try:
                batch = next(self._batches, None)
            except BaseException as exc:    # an input that cannot be read
                self._ended = True
                self._done.put((index, None, exc))
                return None
            if batch is None:
                self._ended = True
                self._done.put((-1, index, None))   # the number of batches
                return None
            self._count += 1
            return index, batch
        finally:
            with self._lock:
                self._reading = False
                self._lock.notify_all()

    def release(self) -> None:
        """A batch read was yielded."""
        self._window.release()

    def stop(self) -> None:
        """No more batches: take() gives None from now on."""
        with self._lock:
            self._stopped = True
            self._lock.notify_all()
        for _ in range(self._slots):
            try:
                self._window.release()  # (wakes a read waiting for room)
            except ValueError:          # (every slot free already)
                break


def _threads(items: Iterator[Item], fn: Callable[[Record], Any], workers: int,
             ordered: bool, size: int) -> Iterator[Any]:
    if workers == 1:
        for item in items:
            yield apply(fn, item)
        return
    # Batches: a task per record costs as much as a small page's Python
    # work. The first ones are small (1, 2, 4... records): the other workers
    # wait for the first reads (two batches of 8 were 2% of a run over the
    # corpus WARC). At most 3 * workers batches are read and not yet yielded: each
    # worker's, as many waiting, and as many done and held for the order.
    done: "queue.SimpleQueue[Outcome]" = queue.SimpleQueue()
    shared = _SharedBatches(_batches(items, size, first=1), workers * 3, workers, done)

    def work() -> None:
        while True:
            task = shared.take()
            if task is None:
                return
            shared.read_ahead()
            index, batch = task
            try:
                done.put((index, apply_batch(fn, batch), None))
            except BaseException as exc:
                shared.stop()
                done.put((index, None, exc))
                return

    # The calling thread is one of the workers: between the results it
    # yields, it processes a batch whenever none is done (with a thread of
    # its own for each worker, the one waiting for the results is a third
    # thread on two cores, woken for every batch: about 5% of the threads'
    # speed on the corpus WARC).
    threads = [threading.Thread(target=work, name="lexpy-corpus-%d" % k, daemon=True)
               for k in range(1, workers)]
    for thread in threads:
        thread.start()
    try:
        held: Dict[int, Tuple[Any, Optional[BaseException]]] = {}
        following = 0           # the next batch to yield when ordered
        total: Optional[int] = None
        yielded = 0
        while total is None or yielded < total:
            task = shared.take(wait=False) if done.empty() else None
            if task is not None:
                shared.read_ahead()
                outcome: Outcome = (task[0], apply_batch(fn, task[1]), None)
            else:
                outcome = done.get()
            index, results, failure = outcome
            if index < 0:
                total = results
                continue
            if ordered:
                held[index] = (results, failure)
                now = []
                while following in held:
                    now.append(held.pop(following))
                    following += 1
            else:
                now = [(results, failure)]
            for results, failure in now:
                if failure is not None:
                    raise failure
                yielded += 1
                shared.release()
                yield from results
    finally:
        shared.stop()
        for thread in threads:
            thread.join()


def _worker_died(batch: Batch, why: str) -> List[RecordError]:
    return [item if isinstance(item, RecordError) else
            RecordError(item.file, item.offset, why, url=item.url, kind="worker")
            for item in batch]


def _processes(items: Iterator[Item], fn: Callable[[Record], Any], workers: int,
               ordered: bool, size: int, mp_context: Any) -> Iterator[Any]:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(workers, mp_context=mp_context)

    def retry(batches: List[Batch]) -> Iterator[Any]:
        # One record at a time in a fresh pool: a record that kills its
        # worker again is then known, and fails alone.
        for batch in batches:
            for item in batch:
                pool = new_pool()
                try:
                    yield pool.submit(apply, fn, item).result()
                except BrokenProcessPool:
                    yield from _worker_died([item], "the worker process died "
                                            "twice on this record")
                finally:
                    pool.shutdown(wait=True, cancel_futures=True)

    def submit(batch: Batch) -> "Future[Any]":
        # A worker that died since the last look breaks the pool at once:
        # the batch is then one of those the broken pool took.
        try:
            return executor.submit(apply_batch, fn, batch)
        except BrokenProcessPool as exc:
            broken: "Future[Any]" = Future()
            broken.set_exception(exc)
            return broken

    pending: Deque[Tuple[Any, "Future[Any]"]] = collections.deque()
    executor = new_pool()
    try:
        batches = _batches(items, size)
        exhausted = False
        while not exhausted or pending:
            if not exhausted:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                else:
                    pending.append((batch, submit(batch)))
            limit = 0 if exhausted else workers * 2
            finished = list(_drain(pending, ordered, limit))
            if not any(isinstance(f.exception(), BrokenProcessPool) for _, f in finished):
                for _, future in finished:
                    yield from future.result()
                continue
            # The pool broke: every batch in flight went with it, except
            # those done before. In order, keep what is done and retry the
            # rest.
            finished.extend(pending)
            pending.clear()
            wait([f for _, f in finished])
            executor.shutdown(wait=True, cancel_futures=True)
            for batch, future in finished:
                if future.exception() is None:
                    yield from future.result()
                elif isinstance(future.exception(), BrokenProcessPool):
                    yield from retry([batch])
                else:
                    future.result()     # (apply_batch catches fn's errors)
            executor = new_pool()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _dask(items: Iterator[Item], fn: Callable[[Record], Any], workers: int,
          ordered: bool, size: int, client: Any, scheduler: Optional[str]) -> Iterator[Any]:
    import distributed
    from distributed import wait as dask_wait

    own: List[Any] = []
    if client is None:
        if scheduler is not None:
            client = distributed.Client(scheduler)
            own.append(client)
        else:
            try:
                client = distributed.get_client()
            except ValueError:
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                                   processes=True, dashboard_address=None)
                client = distributed.Client(cluster)
                own.extend([client, cluster])
    window = max(2 * len(client.scheduler_info().get("workers", {})), 2)

    def collect(batch: Batch, future: Any) -> List[Any]:
        try:
            return future.result()  # type: ignore[no-any-return]
        except distributed.KilledWorker as exc:
            return _worker_died(batch, "the Dask worker died on this batch: %s" % exc)
        except Exception as exc:    # the task could not run at all
            return [item if isinstance(item, RecordError) else
                    RecordError(item.file, item.offset, "%s: %s" % (type(exc).__name__, exc),
                                url=item.url, kind="failed") for item in batch]

    pending: Deque[Tuple[Batch, Any]] = collections.deque()
    try:
        for batch in _batches(items, size):
            pending.append((batch, client.submit(apply_batch, fn, batch, pure=False)))
            while len(pending) > window:
                if ordered:
                    done_batch, future = pending.popleft()
                    yield from collect(done_batch, future)
                else:
                    dask_wait([f for _, f in pending], return_when="FIRST_COMPLETED")
                    for pair in [p for p in pending if p[1].done()]:
                        pending.remove(pair)
                        yield from collect(*pair)
        while pending:
            done_batch, future = pending.popleft()
            yield from collect(done_batch, future)
    finally:
        for future in pending:
            future[1].cancel()
        for owned in own:
            owned.close()
