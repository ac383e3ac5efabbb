"""lexpy.rewriter.asgi.RewriterMiddleware (issue 39 point 7) with a real
server (uvicorn, on a free loopback port in a thread of this process) and
a real client (httpx): a 5 MB page streamed in 64 KiB chunks arrives
rewritten, and its first rewritten bytes arrive before the application
sends its last chunk (the application waits for the client to have seen
them); JSON and compressed responses pass through untouched; the
Content-Type's charset is the transport label."""
import asyncio
import gzip
import json
import socket
import threading
import time

import httpx
import pytest
import uvicorn

import lexpy
from lexpy.rewriter import Rewriter
from lexpy.rewriter.asgi import RewriterMiddleware

CHUNK = 64 * 1024
TIMEOUT = 30.0


def _page():
    head = b"<!DOCTYPE html><html><head><title>big</title></head><body>\n"
    parts = [head]
    size = len(head)
    i = 0
    while size < 5 * 1024 * 1024:
        line = (b'<p class=c%d>Paragraph %d with <a href="/page/%d">a link</a> &amp; '
                b'<b>bold</b> text.</p>\n' % (i % 7, i, i))
        parts.append(line)
        size += len(line)
        i += 1
    parts.append(b"</body></html>\n")
    return b"".join(parts)


PAGE = _page()
JSON = json.dumps({"html": '<a href="/x">x</a>', "n": list(range(1000))}).encode()
# A UTF-8 page whose <meta> (in the prescan window) says windows-1252: only
# the transport label (charset=utf-8) makes it UTF-8.
LABELLED = ('<meta charset="windows-1252"><p>caf\u00e9 <a href="/c">\u00e9</a></p>'
            + " " * 1024).encode("utf-8")


def _boom(element):
    raise KeyError("boom")


def _setup(rewriter, scope):
    assert scope["type"] == "http"
    if scope.get("path") == "/boom":
        rewriter.on("b", element=_boom)
    rewriter.on("a[href]", element=lambda e: e.set_attribute(
        "href", "/proxied" + e.get_attribute("href")))
    rewriter.on("body", element=lambda e: e.append("<script>done()</script>", html=True))


class _App:
    """The application: /page streams PAGE in 64 KiB chunks and waits,
    before its last chunk, until the client says it saw rewritten bytes."""

    def __init__(self):
        self.client_saw_rewritten = threading.Event()
        self.last_chunk_sent = threading.Event()
        self.waited_for_client = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path == "/page":
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", b"%d" % len(PAGE))]})
            chunks = [PAGE[i:i + CHUNK] for i in range(0, len(PAGE), CHUNK)]
            for chunk in chunks[:-1]:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            loop = asyncio.get_running_loop()
            self.waited_for_client = await loop.run_in_executor(
                None, self.client_saw_rewritten.wait, TIMEOUT)
            self.last_chunk_sent.set()
            await send({"type": "http.response.body", "body": chunks[-1]})
        elif path == "/json":
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(JSON))]})
            await send({"type": "http.response.body", "body": JSON[:100], "more_body": True})
            await send({"type": "http.response.body", "body": JSON[100:]})
        elif path == "/gzip":
            body = gzip.compress(PAGE[:100000])
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/html"), (b"content-encoding", b"gzip"),
                (b"content-length", b"%d" % len(body))]})
            await send({"type": "http.response.body", "body": body})
        elif path == "/boom":
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/html; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"<p>" + b"x" * 100000,
                        "more_body": True})
            await send({"type": "http.response.body", "body": b"<b>boom</b>"})
        elif path == "/labelled":
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b'text/html; charset="UTF-8"')]})
            await send({"type": "http.response.body", "body": LABELLED})
        else:
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"not found"})


@pytest.fixture(scope="module")
def served():
    app = _App()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(RewriterMiddleware(app, _setup), lifespan="off",
                            log_level="warning", loop="asyncio", http="h11")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield app, "http://127.0.0.1:%d" % port
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()


def _expected_page():
    return lexpy.rewrite(PAGE, _rewriter())


def _rewriter(label="utf-8"):
    rw = Rewriter(encoding=label)
    _setup(rw, {"type": "http"})
    return rw


def test_big_page_arrives_rewritten_and_streamed(served):
    app, base = served
    received = []
    saw_rewritten_before_last_chunk = None
    with httpx.Client(timeout=TIMEOUT) as client:
        with client.stream("GET", base + "/page") as response:
            assert response.status_code == 200
            assert "content-length" not in response.headers
            assert response.headers["content-type"] == "text/html; charset=utf-8"
            for chunk in response.iter_raw():
                received.append(chunk)
                if saw_rewritten_before_last_chunk is None and \
                        b'href="/proxied/page/' in b"".join(received):
                    saw_rewritten_before_last_chunk = not app.last_chunk_sent.is_set()
                    app.client_saw_rewritten.set()
    body = b"".join(received)
    assert app.waited_for_client is True, "the client saw no rewritten bytes in time"
    assert saw_rewritten_before_last_chunk is True
    assert body == _expected_page()
    assert body.count(b'href="/proxied/page/') == PAGE.count(b'href="/page/') > 10000
    # (</body> does not pop the body: it ends at the end of input, where the
    # appended script goes; the reparse puts it last in the body.)
    last = lexpy.parse(body).body.last_element_child
    assert last.local_name == "script" and last.text_content == "done()"


def test_json_passes_through_untouched(served):
    _, base = served
    with httpx.Client(timeout=TIMEOUT) as client:
        response = client.get(base + "/json")
    assert response.status_code == 200
    assert response.headers["content-length"] == str(len(JSON))
    assert response.content == JSON


def test_compressed_html_passes_through_untouched(served):
    _, base = served
    with httpx.Client(timeout=TIMEOUT) as client:
        with client.stream("GET", base + "/gzip") as response:
            raw = b"".join(response.iter_raw())
            assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(raw) == PAGE[:100000]


def test_charset_is_the_transport_label(served):
    _, base = served
    with httpx.Client(timeout=TIMEOUT) as client:
        response = client.get(base + "/labelled")
    assert response.content == lexpy.rewrite(LABELLED, _rewriter("utf-8"))
    assert 'href="/proxied/c"' in response.content.decode("utf-8")


def test_a_handler_error_truncates_the_response(served):
    # The response has started: the server aborts it, and the client sees
    # an incomplete body, never a complete wrong one.
    _, base = served
    received = []
    with httpx.Client(timeout=TIMEOUT) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            with client.stream("GET", base + "/boom") as response:
                for chunk in response.iter_raw():
                    received.append(chunk)
    assert b"".join(received).startswith(b"<p>xxx")


def test_other_statuses_and_types_untouched(served):
    _, base = served
    with httpx.Client(timeout=TIMEOUT) as client:
        response = client.get(base + "/nothing")
    assert response.status_code == 404 and response.content == b"not found"


def test_hides_send_by_path_extensions():
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope.get("extensions", {}))

    scope = {"type": "http", "method": "GET", "path": "/",
             "extensions": {"http.response.pathsend": {}, "http.response.trailers": {}}}
    asyncio.run(RewriterMiddleware(app, _setup)(scope, None, None))
    assert seen == {"http.response.trailers": {}}


def test_media_type_and_label_parsing():
    from lexpy.rewriter.asgi import _label, _media_type
    assert _media_type(b'Text/HTML ; Charset="Shift_JIS"') == ("text/html",
                                                               {"charset": "Shift_JIS"})
    assert _label("latin1") == "latin1" and _label("no-such-encoding") is None
