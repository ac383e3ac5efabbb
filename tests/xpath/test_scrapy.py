"""lexpy.parsel's Scrapy recipe in a real crawl: corpus pages served by a
local HTTP server on loopback, crawled by Scrapy with
LexpyDownloaderMiddleware; the spider's response.xpath()/.css() answers
are lexpy.parsel's on the same bytes."""
from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from lexpy.parsel import Selector
from tests.xpath.test_differential import pages

import scrapy  # noqa: F401  (in the test extra: fails loudly when missing)

ROOT = Path(__file__).resolve().parents[2]

SPIDER = """
import json, sys
import scrapy
from scrapy.crawler import CrawlerProcess

urls, out = json.loads(sys.argv[1]), sys.argv[2]

class Pages(scrapy.Spider):
    name = "pages"
    start_urls = urls

    def parse(self, response):
        yield {"url": response.url,
               "class": type(response).__name__,
               "selector": type(response.selector).__module__,
               "title": response.xpath("normalize-space(//title)").get(),
               "links": response.css("a::attr(href)").getall(),
               "texts": response.xpath("//h1//text() | //h2//text()").getall()}

process = CrawlerProcess(settings={
    "DOWNLOADER_MIDDLEWARES": {"lexpy.parsel.LexpyDownloaderMiddleware": 950},
    "FEEDS": {out: {"format": "json"}}, "LOG_LEVEL": "ERROR",
    "ROBOTSTXT_OBEY": False, "TELNETCONSOLE_ENABLED": False})
process.crawl(Pages)
process.start()
"""


@pytest.fixture
def server() -> Iterator[Any]:
    folder = pages()[0].parent
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))

    class Quiet(handler.func):  # type: ignore[name-defined,misc]
        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_scrapy_crawl_uses_lexpy(server: Any, tmp_path: Path) -> None:
    chosen = pages()
    port = server.server_address[1]
    urls = ["http://127.0.0.1:%d/%s" % (port, page.name) for page in chosen]
    out = tmp_path / "items.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    proc = subprocess.run([sys.executable, "-c", SPIDER, json.dumps(urls), str(out)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = {item["url"]: item for item in json.loads(out.read_text(encoding="utf-8"))}
    assert len(items) == len(chosen), proc.stderr[-3000:]
    for url, page in zip(urls, chosen):
        item = items[url]
        assert item["class"] == "LexpyHtmlResponse" and item["selector"] == "lexpy.parsel"
        selector = Selector(body=page.read_bytes())
        assert item["title"] == selector.xpath("normalize-space(//title)").get()
        assert item["links"] == selector.css("a::attr(href)").getall()
        assert item["texts"] == selector.xpath("//h1//text() | //h2//text()").getall()
        assert item["links"], "a page without links proves little"
