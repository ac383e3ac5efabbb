"""lexpy.rewriter.asgi.RewriterMiddleware: rewrite the HTML responses of
an ASGI application as they stream (issue 39 point 7).

    from lexpy.rewriter.asgi import RewriterMiddleware

    def setup(rewriter, scope):
        rewriter.on("body", element=lambda e: e.append("<script src=/a.js></script>", html=True))

    app = RewriterMiddleware(app, setup)

Each `text/html` response gets a fresh lexpy.Rewriter; setup(rewriter,
scope) registers its handlers (scope is the request's ASGI scope). The
body streams through the rewriter message by message: each
`http.response.body` message sends what the rewriter has ready (the lag
is the unfinished token), the last one what close() returns. Then:

- Content-Length is dropped (the length changes; the server streams the
  body chunked, or until the connection closes in HTTP/1.0);
- the charset parameter of the Content-Type is the transport label (the
  Encoding Standard's: it decides the encoding, as it does for
  lexpy.parse), an unknown label is ignored;
- responses of another content type, compressed ones (a
  Content-Encoding other than identity), HEAD requests and statuses
  without a body (1xx, 204, 304) pass through untouched, message by
  message;
- the server's http.response.pathsend / zerocopysend extensions are
  hidden from the application (a file sent by path would bypass the
  rewriter);
- a handler's exception (or a RewriteError) propagates to the server
  after the response has started: the server aborts the response, so
  the client sees a truncated body, never a silently wrong one.

Pure ASGI 3: it imports no web framework; any ASGI server runs it
(the extra lexpy[asgi] installs uvicorn).
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, List, MutableMapping, Optional, Tuple

from lexpy.encoding import encoding
from lexpy.rewriter import Rewriter

__all__ = ["RewriterMiddleware"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Setup = Callable[[Rewriter, Scope], Any]

_HIDDEN_EXTENSIONS = ("http.response.pathsend", "http.response.zerocopysend")


def _media_type(value: bytes) -> Tuple[str, Dict[str, str]]:
    """The media type (lower case) and parameters of a Content-Type value."""
    text = value.decode("latin-1")
    parts = text.split(";")
    params: Dict[str, str] = {}
    for part in parts[1:]:
        name, sep, param = part.partition("=")
        if sep:
            param = param.strip()
            if len(param) >= 2 and param[0] == param[-1] == '"':
                param = param[1:-1]
            params[name.strip().lower()] = param
    return parts[0].strip().lower(), params


def _label(charset: Optional[str]) -> Optional[str]:
    """The charset as a transport label, or None when the Encoding
    Standard does not know it (the label is then ignored)."""
    if not charset:
        return None
    try:
        encoding.lookup(charset)
    except (LookupError, ValueError):
        return None
    return charset


class RewriterMiddleware:
    """Rewrite the text/html responses of `app` with a fresh Rewriter per
    response, on which setup(rewriter, scope) registers handlers.
    `scripting` and `max_memory` are passed to each Rewriter;
    `content_types` lists the media types rewritten (text/html alone by
    default)."""

    def __init__(self, app: ASGIApp, setup: Setup, *, scripting: bool = True,
                 max_memory: Optional[int] = None,
                 content_types: Tuple[str, ...] = ("text/html",)) -> None:
        self.app = app
        self.setup = setup
        self.scripting = scripting
        self.max_memory = max_memory
        self.content_types = tuple(t.lower() for t in content_types)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        extensions = scope.get("extensions")
        if extensions and any(name in extensions for name in _HIDDEN_EXTENSIONS):
            scope = dict(scope)
            scope["extensions"] = {name: value for name, value in extensions.items()
                                   if name not in _HIDDEN_EXTENSIONS}
        response = _Response(self, scope, send)
        await self.app(scope, receive, response.send)

    def _rewriter(self, scope: Scope, label: Optional[str]) -> Rewriter:
        rewriter = Rewriter(encoding=label, scripting=self.scripting, max_memory=self.max_memory)
        self.setup(rewriter, scope)
        return rewriter


class _Response:
    """The send() of one response: decides at http.response.start whether
    the body is rewritten."""

    def __init__(self, middleware: RewriterMiddleware, scope: Scope, send: Send) -> None:
        self.middleware = middleware
        self.scope = scope
        self.downstream = send
        self.rewriter: Optional[Rewriter] = None
        self.done = False

    async def send(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "http.response.start":
            message = self._start(message)
        elif kind == "http.response.body" and self.rewriter is not None:
            if self.done:
                return
            more = bool(message.get("more_body", False))
            body = self.rewriter.feed(message.get("body", b""))
            if not more:
                body += self.rewriter.close()
                self.done = True
            if not body and more:
                return
            message = {"type": "http.response.body", "body": body, "more_body": more}
        await self.downstream(message)

    def _start(self, message: Message) -> Message:
        headers: List[Tuple[bytes, bytes]] = [(bytes(k), bytes(v))
                                              for k, v in message.get("headers", ())]
        status = int(message.get("status", 200))
        content_type: Optional[bytes] = None
        compressed = False
        for name, value in headers:
            lower = name.lower()
            if lower == b"content-type":
                content_type = value
            elif lower == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                compressed = True
        if content_type is None or compressed or self.scope.get("method") == "HEAD" \
                or status < 200 or status in (204, 304):
            return message
        media_type, params = _media_type(content_type)
        if media_type not in self.middleware.content_types:
            return message
        self.rewriter = self.middleware._rewriter(self.scope, _label(params.get("charset")))
        message = dict(message)
        message["headers"] = [(k, v) for k, v in headers if k.lower() != b"content-length"]
        return message
