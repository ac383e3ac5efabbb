"""lexpy.corpus and `lexpy extract`: a WARC built (with warcio's writer)
from the corpus pages, with HTTP headers whose charset sometimes differs
from the page's <meta>, processed serially, on 2 threads, on processes and
on a dask.distributed LocalCluster of 2 worker processes: the four outputs
are identical. Damaged inputs (a truncated WARC, a corrupt gzip member, a
non-HTML record, an unknown charset label, an empty body) become error
objects naming the file and offset, and the run goes on."""
import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import lexpy
from lexpy.__main__ import main
from lexpy.corpus import (Record, RecordError, extract_record, iter_files, iter_warc,
                          process)
from tests.corpus.test_corpus import PAGES

UNKNOWN_LABEL = "x-no-such-charset"


def _charset(index, page):
    """The Content-Type of page `index`: none, the page's own encoding, one
    that differs from its <meta> (windows-1252 for UTF-8 pages and UTF-8 for
    the others), or an unknown label."""
    kind = index % 4
    if kind == 0:
        return "text/html"
    own = lexpy.parse(page).encoding
    if kind == 1:
        return "text/html; charset=%s" % own
    if kind == 2:
        return "text/html; charset=\"%s\"" % ("windows-1252" if own == "UTF-8" else "utf-8")
    return "text/html; charset=%s" % UNKNOWN_LABEL


def _write_warc(path, pages, extra=True):
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=str(path).endswith(".gz"))
        writer.write_record(writer.create_warcinfo_record("test.warc", {"software": "test"}))
        for index, page in enumerate(pages):
            url = "http://example.com/%d/page.html" % index
            request = writer.create_warc_record(url, "request", payload=io.BytesIO(
                b"GET /%d/page.html HTTP/1.1\r\nHost: example.com\r\n\r\n" % index))
            writer.write_record(request)
            headers = StatusAndHeaders("200 OK", [("Content-Type", _charset(index, page))],
                                       protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(page), http_headers=headers))
        if extra:
            for url, content_type, body, status in [
                    ("http://example.com/logo.png", "image/png", b"\x89PNG\r\n\x1a\n....", "200 OK"),
                    ("http://example.com/empty", "text/html", b"", "204 No Content")]:
                headers = StatusAndHeaders(status, [("Content-Type", content_type)],
                                           protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(
                    url, "response", payload=io.BytesIO(body), http_headers=headers))


@pytest.fixture(scope="module")
def warc(tmp_path_factory):
    path = tmp_path_factory.mktemp("warc") / "corpus.warc.gz"
    _write_warc(path, [p.read_bytes() for p in PAGES])
    return path


def _lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _position(obj):
    return (obj["file"], obj["offset"])


@pytest.fixture(scope="module")
def outputs(warc, tmp_path_factory):
    """`lexpy extract` over the WARC by each engine: {name: lines}."""
    from distributed import LocalCluster
    folder = tmp_path_factory.mktemp("out")
    runs = {"serial": ["--jobs", "1"], "threads": ["--jobs", "2"],
            "processes": ["--engine", "processes", "--jobs", "2"]}
    results = {}
    for name, options in runs.items():
        out = folder / ("%s.jsonl" % name)
        assert main(["extract", str(warc), "-o", str(out)] + options) == 0
        results[name] = _lines(out)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        out = folder / "dask.jsonl"
        assert main(["extract", str(warc), "-o", str(out), "--engine", "dask",
                     "--scheduler", cluster.scheduler_address]) == 0
        results["dask"] = _lines(out)
    return results


def test_the_four_engines_write_the_same_records(outputs):
    serial = sorted(outputs["serial"], key=_position)
    assert len(serial) == len(PAGES) + 2
    for name in ("threads", "processes", "dask"):
        assert sorted(outputs[name], key=_position) == serial, name
    # in input order, as asked
    assert [_position(o) for o in outputs["dask"]] == [_position(o) for o in outputs["serial"]]


def test_records_carry_the_transport_encoding(outputs, warc):
    records = [r for r in iter_warc(warc)]
    by_position = {_position(o): o for o in outputs["serial"]}
    differing = 0
    for index, record in enumerate(records[:len(PAGES)]):
        got = by_position[(str(warc), record.offset)]
        assert got["url"] == "http://example.com/%d/page.html" % index
        assert got["status"] == 200
        label = _charset(index, record.body).partition("charset=")[2].strip('"')
        if label and label != UNKNOWN_LABEL:
            expected = lexpy.parse(record.body, encoding=label).encoding
            differing += expected != lexpy.parse(record.body).encoding
            assert got["warnings"] == []
        else:
            expected = lexpy.parse(record.body).encoding
            assert bool(got["warnings"]) == (label == UNKNOWN_LABEL)
        assert got["encoding"] == expected
        assert got["parse_errors"] == len(lexpy.parse(record.body, encoding=label or None
                                                      if label != UNKNOWN_LABEL else None,
                                                      collect_errors=True).errors)
    assert differing > 10       # the header overrode many pages' own <meta>


def test_non_html_and_empty_records_are_error_objects(outputs, warc):
    records = list(iter_warc(warc))
    errors = [o for o in outputs["serial"] if "error" in o]
    assert [(e["offset"], e["kind"], e["url"]) for e in errors] == [
        (records[-2].offset, "skipped", "http://example.com/logo.png"),
        (records[-1].offset, "skipped", "http://example.com/empty")]
    assert all(e["file"] == str(warc) for e in errors)
    assert "image/png" in errors[0]["error"] and "empty" in errors[1]["error"]


# fastwarc reads a .warc.gz inflated by python-isal outside the GIL when
# it is installed (lexpy[warc] installs it), else inflates it itself: the
# same records and the same reports either way.
INFLATERS = ["isal", "fastwarc"]


@pytest.fixture(params=INFLATERS)
def inflater(request, monkeypatch):
    from lexpy.corpus import readers
    if request.param == "isal":
        assert readers._inflater_module() is not None, "python-isal is not installed"
    else:
        monkeypatch.setattr(readers, "_inflater_module", lambda: None)
    return request.param


def test_damaged_warcs(tmp_path, warc, inflater):
    pages = [p.read_bytes() for p in PAGES[:12]]
    whole = tmp_path / "whole.warc.gz"
    _write_warc(whole, pages, extra=False)
    good = list(iter_warc(whole))
    data = whole.read_bytes()
    # a corrupt gzip member (the fifth response) and a truncated end
    damaged = bytearray(data)
    damaged[good[4].offset + 30:good[4].offset + 60] = b"\x00" * 30
    corrupt = tmp_path / "corrupt.warc.gz"
    corrupt.write_bytes(bytes(damaged))
    truncated = tmp_path / "truncated.warc.gz"
    truncated.write_bytes(data[:good[9].offset + 500])
    plain = tmp_path / "plain.warc"
    _write_warc(plain, pages, extra=False)
    plain_good = list(iter_warc(plain))
    cut_plain = tmp_path / "cut.warc"
    cut_plain.write_bytes(plain.read_bytes()[:plain_good[6].offset + 900])
    for backend in ("fastwarc", "warcio"):
        items = list(iter_warc(corrupt, backend=backend))
        assert [type(i) for i in items] == [Record] * 4 + [RecordError] + [Record] * 7
        assert items[4].offset == good[4].offset and items[4].kind == "read"
        assert [i.body for i in items[5:]] == [g.body for g in good[5:]]
        items = list(iter_warc(truncated, backend=backend))
        assert [type(i) for i in items] == [Record] * 9 + [RecordError]
        assert items[9].offset == good[9].offset and "truncated" in items[9].message
        items = list(iter_warc(cut_plain, backend=backend))
        assert [type(i) for i in items] == [Record] * 6 + [RecordError]
        assert items[6].offset == plain_good[6].offset
    # the command line goes on after them, to the next file
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(corrupt), str(truncated), str(whole), "-o", str(out),
                 "--jobs", "2"]) == 0
    lines = _lines(out)
    assert len(lines) == 12 + 10 + 12
    assert [(l["file"], l["offset"]) for l in lines if "error" in l] == [
        (str(corrupt), good[4].offset), (str(truncated), good[9].offset)]


def test_both_backends_read_the_same_records(warc, inflater):
    def rows(backend):
        return [(r.offset, r.url, r.status, r.headers, r.body) if isinstance(r, Record)
                else r.to_dict() for r in iter_warc(warc, backend=backend)]
    assert rows("fastwarc") == rows("warcio")


def test_the_target_uri_header_is_found_in_any_case(tmp_path):
    # Looked up among the WARC headers by lexpy, not by fastwarc's
    # HeaderMap.get (lexpy.corpus.readers._target_uri): names compare ASCII
    # case-insensitively, the first of two wins, and a record without one
    # has no URL; warcio (get_header) agrees.
    def record(target_headers):
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>"
        head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%d>\r\n"
                % len(target_headers)) + b"".join(target_headers) + (
                b"Content-Type: application/http; msgtype=response\r\n"
                b"Content-Length: %d\r\n\r\n" % len(http))
        return head + http + b"\r\n\r\n"
    path = tmp_path / "cases.warc"
    path.write_bytes(record([b"warc-target-URI: http://a.example/\r\n"])
                     + record([b"WARC-Target-URI: http://b.example/\r\n",
                               b"WARC-TARGET-URI: http://c.example/\r\n"])
                     + record([]))
    for backend in ("fastwarc", "warcio"):
        assert [r.url for r in iter_warc(path, backend=backend)] == [
            "http://a.example/", "http://b.example/", None], backend


def test_a_record_inflating_to_megabytes_reads_whole(tmp_path, inflater):
    # 12 MB of markup in a member of a few kB: inflated a few MiB at a time
    page = b"<!DOCTYPE html><title>big</title>" + b"<p>row <b>bold</b></p>\n" * 500000
    path = tmp_path / "big.warc.gz"
    _write_warc(path, [page, b"<p>after"], extra=False)
    assert path.stat().st_size < 200000
    records = list(iter_warc(path))
    assert [type(r) for r in records] == [Record, Record]
    assert records[0].body == page and records[1].body == b"<p>after"


def _read_to_end(stream, size):
    """What a stream gives, read `size` bytes at a time until it is done."""
    got = b""
    while True:
        chunk = stream.read(size)
        if not chunk:
            return got
        got += chunk


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=3000), min_size=1, max_size=12),
       st.integers(1, 300), st.integers(1, 300), st.integers(1, 5000),
       st.integers(0, 3))
def test_inflated_members_are_the_members_and_their_offsets(
        members, read_size, input_size, output_limit, cut):
    # gzip members of random sizes read through python-isal in small reads,
    # inputs and outputs, so that members end inside reads and inside the
    # inflater's own read-ahead: the bytes and each member's offset are
    # those of zlib, member by member; a cut end ends the stream there
    from lexpy.corpus import readers
    module = readers._inflater_module()
    assert module is not None, "python-isal is not installed"
    packed = [gzip.compress(m * 3, mtime=0) for m in members]
    data = b"".join(packed)[:-cut or None]
    stream = readers._InflatedMembers(io.BytesIO(b"junk" + data), 4, module)
    stream.members.read_size, stream.members.input_size, stream.members.output_limit = \
        read_size, input_size, output_limit
    got = _read_to_end(stream, 97)
    whole = b"".join(m * 3 for m in members)
    if cut:
        assert whole.startswith(got)
    else:
        assert got == whole
    offset, position = 4, 0
    for m, p in zip(members, packed):
        if m and position < len(got):
            assert stream.offset_of(position) == offset
            assert stream.offset_of(position + len(m) * 3 - 1) == offset
        offset += len(p)
        position += len(m) * 3


class _ReadingAhead:
    """A stand-in for igzip_lib, to check _InflatedMembers' bookkeeping
    where the decompressor takes input past a member's end before it says
    it ended (the API allows it: unused_data is what came after): a
    "member" is a length byte and that many bytes, and the decompressor
    ends it only once it holds `ahead` more bytes (the test's data ends with
    that many bytes of padding)."""

    DECOMP_GZIP = 0

    def __init__(self, ahead):
        self.ahead = ahead

    def IgzipDecompressor(self, flag):
        module = self

        class Decompressor:
            needs_input, eof, unused_data = True, False, b""
            held = b""

            def decompress(self, data, limit):
                self.held += bytes(data)
                size = self.held[0] + 1 if self.held else None
                if size is None or len(self.held) < size + module.ahead:
                    return b""
                self.eof, self.needs_input = True, False
                self.unused_data = self.held[size:]
                return self.held[1:size]

        return Decompressor()


@pytest.mark.parametrize("read_size", [1, 2, 3, 7, 100])
@pytest.mark.parametrize("ahead", [0, 1, 5, 40])
def test_inflated_members_give_back_what_follows_a_member(read_size, ahead):
    from lexpy.corpus import readers
    members = [bytes([n % 251]) * n for n in (3, 0, 17, 1, 60, 9, 2, 33)]
    data = b"".join(bytes([len(m)]) + m for m in members) + b"\xff" * ahead
    stream = readers._InflatedMembers(io.BytesIO(data), 0, _ReadingAhead(ahead))
    stream.members.read_size = read_size
    got = _read_to_end(stream, 5)
    assert got == b"".join(members)
    starts, offset, position = {}, 0, 0
    for m in members:
        if m:
            starts[position] = offset
        offset += 1 + len(m)
        position += len(m)
    assert all(stream.offset_of(p) == o for p, o in starts.items())


class _ShortReads:
    """A payload reader that gives at most `step` bytes a read."""

    def __init__(self, data, step):
        self.data, self.step = data, step

    def read(self, size=-1):
        size = self.step if size < 0 else min(size, self.step)
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk


@pytest.mark.parametrize("limit", [0, 5, 99, 100, 101, 1000])
@pytest.mark.parametrize("step", [1, 7, 100, 10**6])
def test_a_payload_read_in_short_reads_comes_whole(limit, step):
    from lexpy.corpus.readers import _read_payload
    data = bytes(range(100))
    assert _read_payload(_ShortReads(data, step), limit) == data


def test_missing_input_is_an_error_before_any_work(tmp_path, capsys, warc):
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(warc), str(tmp_path / "missing.warc"), "-o", str(out)]) == 1
    assert "missing.warc: no such file or directory" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(FileNotFoundError, match="missing"):
        process([str(warc), str(tmp_path / "missing")])


def test_usage_errors():
    for argv in (["--engine", "spark", "x"], ["--jobs", "0", "x"],
                 ["--scheduler", "tcp://x:1", "--engine", "threads", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(["extract"] + argv)
        assert exc.value.code == 2
    with pytest.raises(ValueError, match="engine"):
        process([], engine="spark")
    with pytest.raises(ValueError, match="jobs"):
        process([], jobs=0)
    with pytest.raises(TypeError, match="fn"):
        process([], fn=None)


def _die_on_third(record):
    if record.url.endswith("/2/page.html"):
        os._exit(3)          # a worker process that dies
    return record.url


def _fail_on_first(record):
    if record.url.endswith("/0/page.html"):
        raise RuntimeError("boom")
    return record.url


def test_a_dying_worker_is_reported_and_the_rest_retried(tmp_path):
    path = tmp_path / "few.warc.gz"
    _write_warc(path, [p.read_bytes() for p in PAGES[:10]], extra=False)
    results = list(process([str(path)], _die_on_third, engine="processes", jobs=2,
                           batch_size=2))
    assert len(results) == 10
    assert isinstance(results[2], RecordError) and results[2].kind == "worker"
    assert results[:2] + results[3:] == ["http://example.com/%d/page.html" % i
                                         for i in range(10) if i != 2]


def test_function_errors_are_error_objects(tmp_path):
    path = tmp_path / "few.warc.gz"
    _write_warc(path, [p.read_bytes() for p in PAGES[:4]], extra=False)
    for engine in ("threads", "processes"):
        results = list(process(str(path), _fail_on_first, engine=engine, jobs=2,
                               ordered=False))
        errors = [r for r in results if isinstance(r, RecordError)]
        assert len(results) == 4 and len(errors) == 1
        assert errors[0].kind == "failed" and "RuntimeError: boom" in errors[0].message
        assert errors[0].file == str(path) and errors[0].offset > 0


@pytest.mark.parametrize("count,size,first,sizes", [
    (40, 8, 1, [1, 2, 4, 8, 8, 8, 8, 1]), (20, 8, None, [8, 8, 4]),
    (5, 2, 4, [2, 2, 1]), (3, 8, 1, [1, 2]), (0, 8, 1, [])])
def test_batches_grow_from_the_first_size(count, size, first, sizes):
    from lexpy.corpus.engines import _batches
    batches = list(_batches(iter(range(count)), size, first))
    assert [len(b) for b in batches] == sizes
    assert [x for b in batches for x in b] == list(range(count))


def test_the_threads_engine_keeps_order_with_a_bounded_window():
    records = [Record("f", i, "http://example.com/%d" % i, 200, [], b"<p>%d" % i)
               for i in range(200)]
    calls = []
    seen_by_slow = []

    def slow_first(record):
        calls.append(record.offset)
        if record.offset == 0:
            time.sleep(0.5)
            seen_by_slow.append(len(calls))
        return record.offset

    results = list(process(records, slow_first, engine="threads", jobs=2, batch_size=4))
    assert results == list(range(200))
    assert sorted(calls) == list(range(200))
    # While the first batch was slow, the other worker ran at most the rest
    # of the window (3 * jobs batches in flight, and the one read next).
    assert 4 < seen_by_slow[0] <= (3 * 2 + 1) * 4
    calls.clear()
    unordered = list(process(records, slow_first, engine="threads", jobs=2, batch_size=4,
                             ordered=False))
    assert sorted(unordered) == list(range(200)) and unordered[0] != 0


def test_the_threads_engine_works_in_the_calling_thread_too():
    # jobs=2 is the calling thread and one thread more, not two more
    records = [Record("f", i, "http://example.com/%d" % i, 200, [], b"<p>") for i in range(64)]
    seen = set()
    engine_threads = set()

    def where(record):
        seen.add(threading.get_ident())
        engine_threads.update(t.ident for t in threading.enumerate()
                              if t.name.startswith("lexpy-corpus-"))
        time.sleep(0.002)
        return record.offset

    assert list(process(records, where, engine="threads", jobs=2, batch_size=2)) \
        == list(range(64))
    assert threading.get_ident() in seen and len(seen) == 2
    assert len(engine_threads) == 1 and engine_threads < seen


def test_the_threads_engine_raises_what_reading_raises_and_stops_its_threads():
    def inputs():
        yield Record("f", 0, "http://example.com/", 200, [], b"<p>0")
        raise RuntimeError("the input broke")

    def run(ordered):
        # (in a thread of its own: an error lost on the way would hang)
        outcome = []

        def consume():
            try:
                list(process(inputs(), lambda record: record.offset, engine="threads",
                             jobs=2, ordered=ordered))
            except RuntimeError as exc:
                outcome.append(exc)

        thread = threading.Thread(target=consume, daemon=True)
        thread.start()
        thread.join(30)
        assert not thread.is_alive(), "the error did not reach the consumer"
        return outcome

    before = threading.active_count()
    for ordered in (True, False):
        assert [str(exc) for exc in run(ordered)] == ["the input broke"]
        assert threading.active_count() == before
    # a consumer that stops early leaves no thread behind either
    records = [Record("f", i, "http://example.com/", 200, [], b"<p>") for i in range(100)]
    results = process(records, lambda record: record.offset, engine="threads", jobs=2,
                      batch_size=2)
    assert next(results) == 0
    results.close()
    assert threading.active_count() == before


def test_extract_record_fields():
    page = (b"<!DOCTYPE html><html lang=de-AT><head><title>\n A  title </title>"
            b"<base href='/docs/'><meta name=Description content='About it'>"
            b"<link rel='alternate Canonical' href='../canon'></head><body>"
            b"<script>var x</script><p>Hello <b>world</b></p>"
            b"<a href=' page.html '>a</a><a href='https://other.org/x'>b</a>"
            b"<map><area href='?q=1'></map><a name=anchor>no href</a>")
    record = Record("f.warc", 7, "http://example.com/a/b.html", 200,
                    [("content-type", "text/html; charset=ISO-8859-1")], page)
    got = extract_record(record)
    assert got == {
        "file": "f.warc", "offset": 7, "url": "http://example.com/a/b.html",
        "status": 200, "encoding": "windows-1252", "title": "A title",
        "lang": "de-AT", "description": "About it",
        "canonical": "http://example.com/canon",
        "links": ["http://example.com/docs/page.html", "https://other.org/x",
                  "http://example.com/docs/?q=1"],
        "text": got["text"], "parse_errors": 0, "warnings": []}
    assert "Hello world" in got["text"]


def test_extract_record_text_is_the_main_content_of_the_body():
    for page in PAGES[:20]:
        body = page.read_bytes()
        got = extract_record(Record("f", 0, "http://x/", 200, [], body))
        doc = lexpy.parse(body)
        assert got["text"] == lexpy.extract_text(doc.body or doc, main_content=True)
    small = extract_record(Record("f", 0, "http://x/", 200, [], b"<p>text"))
    assert small["text"] == "text"


def test_iter_files(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a.html").write_bytes(b"<title>a</title>")
    (tmp_path / "b" / "c.htm.gz").write_bytes(gzip.compress(b"<title>c</title>"))
    (tmp_path / "b" / "bad.html.gz").write_bytes(b"not gzip")
    (tmp_path / "notes.txt").write_bytes(b"skipped")
    items = list(iter_files(tmp_path))
    assert [os.path.basename(i.file) for i in items] == ["a.html", "bad.html.gz", "c.htm.gz"]
    assert isinstance(items[1], RecordError) and items[1].offset == 0
    titles = [r["title"] if isinstance(r, dict) else r.kind
              for r in process(str(tmp_path), jobs=1)]
    assert titles == ["a", "read", "c"]


def test_interrupt_leaves_valid_json_lines(tmp_path, warc):
    out = tmp_path / "out.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-m", "lexpy", "extract"] + [str(warc)] * 40
        + ["-o", str(out), "--jobs", "2"], stderr=subprocess.PIPE,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or out.stat().st_size < 100000):
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    lines = _lines(out)          # every line is whole JSON
    assert 0 < len(lines) < 40 * (len(PAGES) + 2)
    assert b"(interrupted)" in err


def test_resolve_is_urljoin_on_every_link_of_the_corpus():
    from urllib.parse import urljoin

    from lexpy.corpus.extract import resolve
    odd = ["/a//b", "/a/./b", "/", "/?", "/#", "/a?b#c", "/a;b", "//host/x", "/a/../b",
           "/%2e%2e/x", "/a/b/", "/a b", "/\u00e9", "HTTP://X/y", "http://[::1", "?q", "#f",
           "http://a/b/../c", "https://a/b?", "https://a/b#", " /x ", "#", "#a#b", "#a;b",
           "a", "a/", "a//b", "./a", "../a", "a/./b", "a/..", "a?", "a#", "a?b#c", ".", "..",
           ".a", "a:b/c", "a/b:c", "x?y:z", "a;b", "mailto:x", "JavaScript:void(0)",
           "http:rel", "HTTPS:rel", "ftp://h/x", "tel:+1", "a\tb", "java\tscript:x",
           "x://[bad", "1a:b", "//h", "//h/a?b#c", "//h?q", "//h#f", "//h?", "//h/a#",
           "//[::1]/x", "//h;p/x", "///x", "//", "//h/./x", "//h/a//b", "//\u00e9/x",
           "//h:80/x", "//u@h/x", " # ", "##", "//\uff03", "//a\uff0fb/x"]
    bases = ["https://user@Example.COM:8080", "http://x/y?q#f", "http://[::1]/a",
             "file:///tmp/a.html", "", "http://x", "http://x/", "http://x/a/./b/c",
             "http://x/a//b/c", "http://x/a/b/..", "http://x/a;p/b", "http://x/a?", "HTTP://X/a",
             "http://b\uff03d/p", "http://x/d/p?q", "https://x/\u00e9/p", "http://x/a b/c"]
    checked = 0
    for page in PAGES:
        doc = lexpy.parse(page.read_bytes())
        hrefs = [a.get_attribute("href") for a in
                 doc.query_selector_all("a[href], area[href], link[href]")] + odd
        for base in ["http://example.com/dir/page.html"] + bases:
            for href in hrefs:
                try:
                    expected = urljoin(base, href.strip("\t\n\x0c\r "))
                except ValueError:
                    expected = href.strip("\t\n\x0c\r ")
                assert resolve(base, href) == expected, (base, href)
                checked += 1
    assert checked > 50000


# Links made of the characters the shapes of lexpy.corpus.urls look at
# (whitespace, controls, delimiters, dots, letters of a scheme, non-ASCII).
_LINK_PARTS = ["http", "https", "HTTP", "ftp", "mailto", ":", "//", "/", "?", "#", ";",
               ".", "..", "a", "b.c", "x-y+z", "1", "%2e", "[", "]", "@", " ", "\t", "\n",
               "\x00", "\x7f", "\u00e9", "\U0001F600", "\uff03", "~", "="]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_LINK_PARTS), max_size=12).map("".join),
       st.sampled_from(["http://example.com/dir/page.html", "https://x/a/b?q#f",
                        "http://x", "https://x/\u00e9/", "http://x/a/../b", "mailto:y",
                        "http://x/a//b", ""]))
def test_resolve_is_urljoin_on_generated_links(href, base):
    from urllib.parse import urljoin

    from lexpy.corpus.extract import resolve, resolve_all
    stripped = href.strip("\t\n\x0c\r ")
    try:
        expected = urljoin(base, stripped)
    except ValueError:
        expected = stripped
    assert resolve(base, href) == expected
    assert resolve_all(base, [href, "/x", href]) == [expected, resolve(base, "/x"), expected]


_LINK_DOCS = [
    '<a href="/x">a</a><area href=" y "><a>no href</a><a href="">empty</a>',
    '<svg><a href="/svg"></a><a xlink:href="/xlink"></a></svg><math><a href="/m"></a></math>',
    '<template><a href="/in-template"></a></template><a HREF="/upper">',
    '<a href="#"></a><a href="#"></a><a href="//h/p"></a><a href="\u00e9/\ud800"></a>',
    '<div><a href="a"><area href="b"><a href="a"></a></a></div>' * 3,
]


_HEAD_DOCS = [
    # the first of each, wherever it is; case and word rules of the selectors
    '<svg><title>svg title</title></svg><title>html</title><base><base href="/b/">'
    '<meta name=description><meta name=DESCRIPTION content=d1><meta name=description content=d2>'
    '<link rel=canonical><link rel="alternate\tCanonical " href=c1><link rel=canonical href=c2>',
    '<meta name=" description" content=no><meta name=descriptions content=no>'
    '<link rel=canonicals href=no><link rel="x-canonical" href=no><link href=no>'
    '<meta content=no><base href="">',
    '<template><title>in template</title><base href="/t/"></template><a href=x>',
    '<base href="http://other.example/dir/"><a href="p"></a><a href="#f"></a>'
    '<a href="../up"></a><a href="/abs"></a>',
    '<base href="  "><base href="https://[bad/"><a href="q"></a>',
]


def _reference_fields(root, url):
    """What page_fields finds, found with the selectors layer."""
    from lexpy.corpus.extract import resolve

    def first(selector):
        found = root.query_selector_all(selector)
        return found[0] if found else None
    base = first("base[href]")
    base_url = resolve(url, base.get_attribute("href")) if base is not None else url
    links = [resolve(base_url, a.get_attribute("href"))
             for a in root.query_selector_all("a[href], area[href]")]
    return (base_url, links, first("title"), first('meta[name="description" i][content]'),
            first('link[rel~="canonical" i][href]'))


@pytest.mark.parametrize("url", ["http://example.com/dir/page.html", "https://x/a?q#f",
                                 "mailto:z", ""])
def test_page_fields_are_what_the_selectors_find(url):
    from lexpy.corpus.extract import _base, _join, resolve
    from lexpy.corpus.urls import page_fields
    docs = [lexpy.parse(page.read_bytes()) for page in PAGES] \
        + [lexpy.parse(html) for html in _LINK_DOCS + _HEAD_DOCS]
    fragment = lexpy.parse_fragment('<a href="/f"><title>t</title>', context="div")
    found = [0, 0, 0, 0]
    template = lexpy.parse("<template><p>in <a href=t>it</a></template>").head.first_child
    for n, root in enumerate(docs + [fragment, docs[-1].body, template]):
        with_text = n % 2 == 0 or root is template
        got = page_fields(root, url, _base, resolve, _join, text=with_text)
        expected = _reference_fields(root, url)
        assert got[:2] == expected[:2]
        for k, (element, reference) in enumerate(zip(got[2:5], expected[2:])):
            assert element is reference
            found[k] += element is not None
        found[3] += got[0] != url
        # the text, walked in the same release of the GIL: extract_text's
        if with_text:
            text_root = (root.body or root) if isinstance(root, lexpy.Document) else root
            assert got[5] == lexpy.extract_text(text_root, main_content=True)
        else:
            assert got[5] is None
    assert all(found)       # (each field was found on some page)


def test_page_fields_keep_the_document_read_and_pass_on_a_callback_error():
    from lexpy.corpus.extract import _base, resolve
    from lexpy.corpus.urls import page_fields
    doc = lexpy.parse('<a href="?q"></a><a href="/ok"></a>')

    def join(base_url, href):
        doc.body.append("changed")          # the document is being read

    with pytest.raises(RuntimeError):
        page_fields(doc, "http://x/", _base, resolve, join)
    doc.body.append("after")                  # and is not after the call
    with pytest.raises(ZeroDivisionError):
        page_fields(doc, "http://x/", _base, resolve, lambda b, h: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        page_fields(lexpy.parse("<base href=b>"), "http://x/", _base,
                    lambda u, h: 1 / 0, str.__add__)
    assert page_fields(doc, "", lambda url: (None, None, None, None), resolve,
                       lambda b, h: h.upper())[1] == ["?Q", "/OK"]


# The base URL's parts as the regular expressions of extract.py found them
# before lexpy.corpus.urls did (the reference of base_parts).
_ORIGIN = re.compile(r"(https?)://[^/?#;\[\]\x00-\x20\x7f]+(?=[/?#]|$)")
_PLAIN_ABSOLUTE = re.compile(
    r"https?://[^/?#;\[\]\x00-\x20\x7f]+"
    r"(?:/[^?#;\x00-\x20\x7f]*)?(?:\?[^#;\x00-\x20\x7f]+)?(?:#[^;\x00-\x20\x7f]+)?")
_DOT_SEGMENT = re.compile(r"/\.\.?(?:/|$|[?#])")


def _reference_base(base_url):
    origin = _ORIGIN.match(base_url)
    if origin is None or not origin.group(0).isascii():
        return (None, None, None, None)
    if not _PLAIN_ABSOLUTE.fullmatch(base_url):
        return (origin.group(1), origin.group(0), None, None)
    without_fragment = base_url.partition("#")[0]
    path = without_fragment[origin.end():].partition("?")[0]
    if "//" in path or _DOT_SEGMENT.search(path):
        return (origin.group(1), origin.group(0), without_fragment, None)
    return (origin.group(1), origin.group(0), without_fragment,
            origin.group(0) + path[:path.rfind("/") + 1] if path else origin.group(0) + "/")


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["http", "https", "://", "http://x", "https://h:8"] + _LINK_PARTS),
                max_size=10).map("".join))
def test_base_parts_are_the_regular_expressions(base):
    from lexpy.corpus.urls import base_parts
    assert base_parts(base) == _reference_base(base)
    assert base_parts(base + "\n") == _reference_base(base + "\n")


def test_plain_resolutions_rejects_what_is_not_a_str():
    from lexpy.corpus.urls import plain_resolutions
    with pytest.raises(TypeError):
        plain_resolutions([b"/x"], "http", "http://x", None, None)
    with pytest.raises(ValueError):
        plain_resolutions(["/x"], "ftp", "ftp://x", None, None)
    assert plain_resolutions([], None, None, None, None) == []


def test_spark_partition_recipe(warc):
    # The function given to rdd.mapPartitions, run without Spark (PySpark is
    # not a test dependency): one partition holding the WARC.
    from lexpy.corpus.recipes import spark_partition
    rows = list(spark_partition(iter([str(warc)])))
    assert rows == [r if isinstance(r, dict) else r.to_dict()
                    for r in process(str(warc), jobs=1)]
    assert len(rows) == len(PAGES) + 2


def test_datatrove_extract_recipe():
    # The extractor step's extract(), run without datatrove.
    from lexpy.corpus.recipes import datatrove_extract
    text = datatrove_extract("<title>t</title><script>x</script><p>Some text</p>")
    assert "Some text" in text and "x" not in text.replace("text", "")
    with pytest.raises(TypeError):
        datatrove_extract(b"bytes")


# extract_record's links are lexpy.extract's (issue 36 point 3): the URL
# Standard's parser (ada-url), as iter_links gives them. Against the
# urljoin links it gave before, every difference on the corpus is one of
# these classes, each the URL Standard's rule (what a browser's href gives):
_LINK_DIFFERENCES = {
    # https://url.spec.whatwg.org/#url-serializing: a special URL's empty
    # path is serialized as "/" (http://x -> http://x/)
    "empty-path",
    # https://url.spec.whatwg.org/#host-parsing: a domain is ASCII-lowercased
    # (domain to ASCII), https://www.BMJV.de -> https://www.bmjv.de
    "host-case",
    # https://url.spec.whatwg.org/#concept-url-fragment: href="#" keeps its
    # empty fragment (page.html#); urljoin drops it
    "empty-fragment",
    # https://url.spec.whatwg.org/#path-percent-encode-set and the query and
    # special-query sets: non-ASCII (as UTF-8), spaces and ' in a special
    # URL's query are percent-encoded; urljoin leaves them raw
    "percent-encoding",
    # https://url.spec.whatwg.org/#port-state: an empty port is no port
    # (http://http://x/ is host "http", path "//x/"); urljoin keeps it
    "empty-port",
}
_AUTHORITY = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)(.*)$", re.S)


def _link_difference(old, new):
    """The classes of _LINK_DIFFERENCES that take the urljoin link `old`
    to the WHATWG link `new` (with "OTHER" when they do not)."""
    from urllib.parse import unquote
    found = []
    made = old
    parts = _AUTHORITY.match(old)
    if parts:
        scheme, authority, rest = parts.groups()
        if authority.endswith(":"):
            found.append("empty-port")
            authority = authority[:-1]
        if (scheme + authority).lower() != scheme + authority:
            found.append("host-case")
        if scheme.lower() in ("http://", "https://") and rest[:1] in ("", "?", "#"):
            found.append("empty-path")
            rest = "/" + rest
        made = (scheme + authority).lower() + rest
    if made + "#" == new:
        return found + ["empty-fragment"]
    if made != new:
        if unquote(made).replace(" ", "%20") != unquote(new).replace(" ", "%20"):
            return found + ["OTHER"]
        found.append("percent-encoding")
    return found


def test_extract_record_links_are_the_extract_layers():
    from collections import Counter

    from lexpy.corpus.extract import _base, _join, _link_base, _link_join, resolve
    from lexpy.corpus.urls import page_fields
    url = "http://example.com/dir/page.html"
    classes = Counter()
    total = 0
    for page in PAGES:
        body = page.read_bytes()
        doc = lexpy.parse(body)
        got = extract_record(Record("f", 0, url, 200, [("Content-Type", "text/html")],
                                    body))["links"]
        # the one implementation: iter_links's href of every HTML a and area
        assert got == [link for element, attribute, link, _ in lexpy.iter_links(doc, base_url=url)
                       if element.local_name in ("a", "area") and attribute == "href"], page.name
        assert got == page_fields(doc, url, _base, _link_base, _link_join, shapes=False)[1]
        before = page_fields(doc, url, _base, resolve, _join)[1]
        assert len(before) == len(got)
        total += len(got)
        for old, new in zip(before, got):
            if old != new:
                kinds = _link_difference(old, new)
                assert "OTHER" not in kinds, (page.name, old, new)
                classes.update(kinds)
    assert set(classes) <= _LINK_DIFFERENCES
    # (on the 110 corpus pages: 16,818 links, 1,017 of them changed)
    assert total > 15000 and 0 < sum(classes.values()) < total // 10, (total, classes)


# The shapes page_fields(whatwg=True) makes in C are the ones the URL
# Standard's parser gives alike: generated links, with the characters and
# pieces where urljoin and the standard part ways (host case, ports,
# userinfo, IPv4-looking and punycode hosts, %2e, backslashes, quotes).
_WHATWG_PARTS = _LINK_PARTS + ["HTTPS://", "http://", "https://", "Ex", "x.y", "xn--a",
                               "1.2", "0x7f", ":80", ":", "@", "%2E", "%2e%2e", "\\", "'",
                               '"', "<", "|", "^", "{", "`", "mailto:", "JavaScript:",
                               "ftp://", "ws://", "foo://", "-", "_", "(", "!", "$"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_WHATWG_PARTS), max_size=10).map("".join),
       st.sampled_from(["http://example.com/dir/page.html", "https://x/a/b?q#f",
                        "http://x/", "https://x/%C3%A9/", "http://x/a/b", "mailto:y", ""]))
def test_page_fields_whatwg_shapes_are_the_url_standards(href, base):
    from lexpy.corpus.extract import _base, _link_base, _link_join
    from lexpy.corpus.urls import page_fields
    from lexpy.extract.links import resolve_link
    doc = lexpy.parse("<a></a><a></a>")
    for anchor in doc.get_elements_by_tag_name("a"):
        anchor.set_attribute("href", href)
    expected = resolve_link(href, base or None)
    assert page_fields(doc, base, _base, _link_base, _link_join, whatwg=True)[1] == \
        [expected, expected]
