"""lexpy.corpus.members: the records of a .warc.gz read in C, member by
member, are those fastwarc reads from the same file, for the members of
the plain shape it reads and for every other shape it gives back to
fastwarc (generated files of records of many shapes, several in a member,
damaged and truncated ones among them)."""
import gzip
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexpy.corpus import Record, iter_warc, readers
from tests.corpus.test_corpus import PAGES
from tests.corpus.test_processing import _write_warc

import isal  # noqa: F401,E402  (lexpy[warc]: the inflater GzipMembers drives)


def _rows(path):
    return [(r.offset, r.url, r.status, r.headers, r.body) if isinstance(r, Record)
            else r.to_dict() for r in iter_warc(path, backend="fastwarc")]


def _fastwarc_rows(path):
    """The rows of iter_warc with fastwarc reading every member."""
    def none_in_c(raw, name, start, state, inflater_module):
        return start
        yield   # (a generator that yields nothing)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readers, "_member_records", none_in_c)
        return _rows(path)


def test_the_corpus_members_are_read_in_c(tmp_path):
    from lexpy.corpus.members import GzipMembers
    path = tmp_path / "corpus.warc.gz"
    _write_warc(path, [p.read_bytes() for p in PAGES])
    with open(path, "rb") as raw:
        members = GzipMembers(raw, 0, readers._inflater_module())
        got = []
        while True:
            record = members.next_record()
            if type(record) is not tuple:
                break
            got.append(record)
    assert record is None       # (no member given back to fastwarc)
    assert len(got) == len(PAGES) + 2
    rows = _fastwarc_rows(path)
    assert [(o, u, s, h, b) for o, u, s, h, b in got] == rows == _rows(path)


VERSIONS = [b"WARC/1.0", b"WARC/1.1", b"WARC/1.0 ", b"WARC/0.18", b"WARC/2.0"]
TYPES = [b"response", b"Response", b" response ", b"request", b"metadata", b"resource",
         b"responses"]
URLS = [b"http://a.example/", b" http://b.example/x?y ", b"http://\xc3\xa9.example/",
        b"http://bad\xff.example/", b""]
CONTENT_TYPES = [b"application/http; msgtype=response", b"application/http",
                 b" application/http;msgtype=response", b"text/html", b"Application/HTTP"]
STATUS_LINES = [b"HTTP/1.1 200 OK", b"HTTP/1.0 404", b"HTTP/1.1  200 OK", b"http/1.1 200",
                b"HTTP/1.1 20x OK", b"HTTP/1.1 200\tOK", b"  HTTP/1.1 301 Moved", b"ICY 200 OK",
                b"HTTP/1.1 0099999999999999999999 x"]
HTTP_HEADERS = [b"Content-Type: text/html; charset=utf-8", b"X-Euro: \xa4 \xe9",
                b"Set-Cookie :  a=b ", b"Empty:", b"  Indented: x", b"no colon here",
                b" continued line",
                b"Bare\nLF: x", b"Bare\rCR: x", b"Content-Encoding: identity"]
EXTRA_WARC_HEADERS = [b"WARC-Date: 2026-12-03T00:00:00Z", b"WARC-Record-ID: <urn:x>",
                      b" folded continuation", b"broken header line", b"X-Bare\nLF: y",
                      b"Content-Length: 5", b"WARC-Type: request",
                      b"Content-Type: text/plain", b"WARC-Target-URI: http://second.example/"]


def _usual(draw, values, plain):
    """values[0] for a record of the plain shape, else any of them."""
    return values[0] if plain else draw(st.sampled_from(values))


@st.composite
def records(draw):
    """One WARC record's bytes: most of the plain shape writers make (with
    any HTTP headers of the usual kind and any body), the others of shapes
    drawn from the unusual."""
    plain = draw(st.integers(0, 9)) < 7
    http = plain or draw(st.booleans())
    body = draw(st.binary(max_size=300))
    if http:
        headers = draw(st.lists(st.sampled_from(HTTP_HEADERS[:4] if plain else HTTP_HEADERS),
                                max_size=3))
        ends = _usual(draw, [b"\r\n\r\n", b"\r\n", b""], plain)
        status = draw(st.sampled_from(STATUS_LINES[:2] if plain else STATUS_LINES))
        block = status + b"".join(b"\r\n" + h for h in headers) + ends + body
    else:
        block = body
    lines = [b"WARC-Type: " + _usual(draw, TYPES, plain and draw(st.integers(0, 4)) > 0)]
    if plain or draw(st.booleans()):
        lines.append(b"WARC-Target-URI: " + draw(st.sampled_from(URLS)))
    if http:
        lines.append(b"Content-Type: " + _usual(draw, CONTENT_TYPES, plain))
    elif draw(st.booleans()):
        lines.append(b"Content-Type: " + draw(st.sampled_from(CONTENT_TYPES)))
    length = _usual(draw, [b"%d", b" %d ", b"0%d", b"%dx"], plain) % len(block)
    # (fastwarc 2.0.1 takes only this spelling of the name: see
    # test_field_names_are_case_insensitive)
    lines.append(draw(st.sampled_from([b"Content-Length: ", b"Content-Length:"])) + length)
    lines += draw(st.lists(st.sampled_from(EXTRA_WARC_HEADERS[:2] if plain
                                           else EXTRA_WARC_HEADERS), max_size=2))
    lines = draw(st.permutations(lines))
    head = draw(st.sampled_from(VERSIONS[:2] if plain else VERSIONS))
    trailer = _usual(draw, [b"\r\n\r\n", b"\r\n", b""], plain)
    return head + b"".join(b"\r\n" + line for line in lines) + b"\r\n\r\n" + block + trailer


@st.composite
def warc_files(draw):
    """A .warc.gz of drawn records: most in a member each, some two to a
    member, now and then a member of random bytes, a cut end."""
    plain = b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http\r\n" \
            b"Content-Length: 24\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>ok\r\n\r\n"
    members = []
    for record in draw(st.lists(records(), min_size=1, max_size=8)):
        if members and draw(st.integers(0, 9)) == 0:
            members[-1] += record
        else:
            members.append(record)
        if draw(st.integers(0, 3)) == 0:
            members.append(plain)
    data = [gzip.compress(m, mtime=0) for m in members]
    if draw(st.integers(0, 19)) == 0:
        data.insert(draw(st.integers(0, len(data))), draw(st.binary(min_size=1, max_size=40)))
    whole = b"".join(data)
    cut = draw(st.sampled_from([0] * 9 + [1, 7, 30]))
    return whole[:len(whole) - cut] if cut < len(whole) else whole


@settings(max_examples=300, deadline=None)
@given(warc_files())
def test_members_read_in_c_are_what_fastwarc_reads(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("members") / "drawn.warc.gz"
    path.write_bytes(data)
    assert _rows(path) == _fastwarc_rows(path)


def test_members_of_another_shape_go_to_fastwarc_from_their_offset(tmp_path):
    # plain members, then one that holds two records, then plain ones: the
    # first are read in C, fastwarc reads on from the member of two (both
    # its records come out, and the plain members after it)
    def record(n):
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>%d" % n
        return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.example/%d\r\n"
                b"Content-Type: application/http; msgtype=response\r\n"
                b"Content-Length: %d\r\n\r\n" % (n, len(http))) + http + b"\r\n\r\n"
    members = [gzip.compress(record(0)), gzip.compress(record(1)),
               gzip.compress(record(2) + record(3)), gzip.compress(record(4))]
    path = tmp_path / "mixed.warc.gz"
    path.write_bytes(b"".join(members))
    offsets = [0, len(members[0]), len(members[0]) + len(members[1])]
    from lexpy.corpus.members import GzipMembers
    with open(path, "rb") as raw:
        reader = GzipMembers(raw, 0, readers._inflater_module())
        assert [reader.next_record()[0] for _ in range(2)] == offsets[:2]
        assert reader.next_record() == offsets[2]
    got = list(iter_warc(path))
    assert [r.url for r in got] == ["http://e.example/%d" % n for n in range(5)]
    assert [r.body for r in got] == [b"<p>%d" % n for n in range(5)]
    assert [r.offset for r in got][:3] == offsets
    assert _rows(path) == _fastwarc_rows(path)


def test_a_big_body_comes_whole(tmp_path):
    # a body past the size copied with the GIL held, in a member inflated in
    # many calls
    page = b"<!DOCTYPE html>" + bytes(range(256)) * 20000
    path = tmp_path / "big.warc.gz"
    _write_warc(path, [page, b"<p>after"], extra=False)
    got = list(iter_warc(path))
    assert [r.body for r in got] == [page, b"<p>after"]
    assert _rows(path) == _fastwarc_rows(path)


def test_inflate_gives_each_member_and_its_offset():
    from lexpy.corpus.members import GzipMembers
    parts = [b"one", b"", b"three" * 1000]
    packed = [gzip.compress(p, mtime=0) for p in parts]
    members = GzipMembers(io.BytesIO(b"".join(packed)), 0, readers._inflater_module())
    members.output_limit = 100
    got, offset = [], 0
    for part, pack in zip(parts, packed):
        chunks = []
        while True:
            chunk = members.inflate()
            assert members.member_offset == offset
            chunks.append(chunk)
            if members.ended:
                break
        got.append(b"".join(chunks))
        offset += len(pack)
    assert got == parts
    assert members.inflate() is None and not members.truncated


def test_field_names_are_case_insensitive(tmp_path):
    # WARC 1.1, section 4: field names are case-insensitive, as warcio reads
    # them (fastwarc 2.0.1 takes Content-Length only so spelled, and reports
    # the record as an invalid header)
    http = b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n<p>x"
    record = (b"WARC/1.1\r\nwarc-type: response\r\nwarc-target-uri: http://e.example/\r\n"
              b"CONTENT-TYPE: application/http; msgtype=response\r\n"
              b"content-length: %d\r\n\r\n" % len(http)) + http + b"\r\n\r\n"
    path = tmp_path / "names.warc.gz"
    path.write_bytes(gzip.compress(record))
    expected = [(0, "http://e.example/", 200, [("content-type", "text/html")], b"<p>x")]
    assert _rows(path) == expected
    assert [(r.offset, r.url, r.status, r.headers, r.body)
            for r in iter_warc(path, backend="warcio")] == expected


@pytest.mark.parametrize("shape", ["one record", "two records", "short", "long"])
def test_a_big_member_of_another_type_is_passed_over(tmp_path, shape):
    # a resource record of 3 MB between two responses: inflated in many
    # calls and not kept whole; when it does not hold one record of its
    # Content-Length, fastwarc reads on from it
    def record(kind, block, length=None):
        return (b"WARC/1.0\r\nWARC-Type: %s\r\nContent-Type: application/octet-stream\r\n"
                b"Content-Length: %d\r\n\r\n" % (kind, len(block) if length is None else length)
                ) + block + b"\r\n\r\n"
    def response(n):
        http = b"HTTP/1.1 200 OK\r\n\r\n<p>%d" % n
        return (b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http\r\n"
                b"Content-Length: %d\r\n\r\n" % len(http)) + http + b"\r\n\r\n"
    big = bytes(range(256)) * 12000
    resource = {"one record": record(b"resource", big),
                "two records": record(b"resource", big) + response(9),
                "short": record(b"resource", big, len(big) - 10),
                "long": record(b"resource", big, len(big) + 10)}[shape]
    members = [gzip.compress(response(0)), gzip.compress(resource), gzip.compress(response(1))]
    path = tmp_path / "big.warc.gz"
    path.write_bytes(b"".join(members))
    from lexpy.corpus.members import GzipMembers
    with open(path, "rb") as raw:
        reader = GzipMembers(raw, 0, readers._inflater_module())
        assert reader.next_record()[0] == 0
        got = reader.next_record()
        if shape == "one record":
            assert got[0] == len(members[0]) + len(members[1])
            assert reader.next_record() is None
        else:
            assert got == len(members[0])     # (handed back to fastwarc)
    assert _rows(path) == _fastwarc_rows(path)
