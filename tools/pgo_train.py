#!/usr/bin/env python3
"""The training run of lexpy's profile-guided build (setup.py, PGO).

    python tools/pgo_train.py [--seconds S]

setup.py runs this script between the instrumented build and the final
one, with the instrumented modules first on sys.path: what it runs is what
the compiler then optimizes for (the hot paths laid out straight, the rest
compiled as usual: -fprofile-partial-training). It never reads files: the
documents are generated here, with a fixed seed, in the shapes real pages
have (navigation lists, articles with inline formatting and character
references, tables, forms, inline SVG, scripts, styles and JSON-LD,
microdata, comments, mis-nesting the tree builder repairs, CRLF line ends,
a legacy encoding declared by <meta>). The benchmarks' inputs (the corpus,
the scraping fixtures, tools/gen_listings.py's pages) are not among them,
so that a benchmark measures what any page gets.

Each document is parsed from bytes and from str, serialized, queried,
turned to text, and run through the extraction layer and the streaming
rewriter; an operation that fails is skipped (the build must not depend on
it). Exit status 0 unless lexpy cannot be imported.
"""
import argparse
import random
import sys
import time

WORDS = ("the of and to in is for on with as was by at from that this are an be or "
         "have not it which one all new more can about their will has other price "
         "review music film data city market research team world local report "
         "Zürich café naïve São Paulo 東京 Москва").split()
TAGS_INLINE = ("b", "i", "em", "strong", "span", "code", "small", "a", "abbr", "mark")
REFERENCES = ("&amp;", "&lt;", "&gt;", "&nbsp;", "&quot;", "&#39;", "&#x2014;", "&eacute;",
              "&copy;", "&hellip;", "&mdash;", "&#169;", "&rarr;", "&notin", "&amp")


def words(rng, low, high):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def attribute_value(rng, value):
    quote = rng.random()
    if quote < 0.75:
        return '"%s"' % value
    if quote < 0.9 or " " in value or not value:
        return "'%s'" % value
    return value


def inline(rng, depth=0):
    parts = []
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.45 or depth > 2:
            text = words(rng, 1, 12)
            if rng.random() < 0.25:
                text += " " + rng.choice(REFERENCES) + " " + words(rng, 1, 3)
            parts.append(text)
        elif roll < 0.85:
            tag = rng.choice(TAGS_INLINE)
            attrs = ""
            if tag == "a":
                attrs = " href=%s" % attribute_value(
                    rng, "/%s/%d?x=1&amp;y=%d" % (rng.choice(WORDS), rng.randint(1, 999),
                                                  rng.randint(1, 9)))
            elif rng.random() < 0.4:
                attrs = " class=%s" % attribute_value(rng, "c-%s__%s" % (
                    rng.choice(WORDS), rng.choice(WORDS)))
            parts.append("<%s%s>%s</%s>" % (tag, attrs, inline(rng, depth + 1), tag))
        elif roll < 0.92:
            parts.append('<img src="/i/%d.jpg" srcset="/i/%d.jpg 1x, /i/%d@2x.jpg 2x" alt="%s">'
                         % (rng.randint(1, 99), rng.randint(1, 99), rng.randint(1, 99),
                            words(rng, 1, 4)))
        elif roll < 0.96:
            parts.append("<br>")
        else:
            # mis-nesting the adoption agency repairs
            parts.append("<b>%s<i>%s</b>%s</i>" % (words(rng, 1, 3), words(rng, 1, 3),
                                                    words(rng, 1, 3)))
    return " ".join(parts)


def navigation(rng):
    items = []
    for _ in range(rng.randint(5, 40)):
        end = "</li>" if rng.random() < 0.8 else ""
        items.append('<li class="nav__item"><a class="nav__link" href="/%s/">%s</a>%s'
                     % (rng.choice(WORDS), words(rng, 1, 3), end))
    return '<nav><ul class="nav">%s</ul></nav>' % "\n".join(items)


def table(rng):
    rows = []
    columns = rng.randint(2, 6)
    head = "".join("<th>%s</th>" % words(rng, 1, 2) for _ in range(columns))
    for _ in range(rng.randint(2, 15)):
        cells = []
        for _ in range(columns):
            span = ' rowspan="2"' if rng.random() < 0.05 else ""
            cells.append("<td%s>%s" % (span, inline(rng, 2)) +
                         ("</td>" if rng.random() < 0.7 else ""))
        rows.append("<tr>" + "".join(cells) + ("</tr>" if rng.random() < 0.7 else ""))
    body = "<tbody>" + "\n".join(rows) + "</tbody>" if rng.random() < 0.5 else "\n".join(rows)
    return "<table class=data><thead><tr>%s</tr></thead>%s</table>" % (head, body)


def form(rng):
    fields = []
    for i in range(rng.randint(1, 6)):
        kind = rng.choice(("text", "email", "checkbox", "hidden", "submit"))
        fields.append('<label for="f%d">%s</label><input type=%s id="f%d" name="n%d" value="%s">'
                      % (i, words(rng, 1, 2), kind, i, i, words(rng, 0, 2)))
    options = "".join("<option value=%d>%s" % (i, words(rng, 1, 2)) for i in range(4))
    return ('<form action="/search" method=get>%s<select name=s>%s</select>'
            '<textarea name=t>\n%s</textarea><button type=submit>Go</button></form>'
            % ("".join(fields), options, words(rng, 3, 10)))


def microdata(rng):
    return ('<div itemscope itemtype="https://schema.org/Product"><h2 itemprop=name>%s</h2>'
            '<span itemprop="offers" itemscope itemtype="https://schema.org/Offer">'
            '<meta itemprop="priceCurrency" content="EUR"><span itemprop=price>%d.%02d</span>'
            '</span><a itemprop=url href="/p/%d">%s</a></div>'
            % (words(rng, 2, 5), rng.randint(1, 99), rng.randint(0, 99), rng.randint(1, 999),
               words(rng, 1, 3)))


def svg(rng):
    paths = "".join('<path d="M%d %d L%d %d Z" fill="#%06x"/>'
                    % (rng.randint(0, 99), rng.randint(0, 99), rng.randint(0, 99),
                       rng.randint(0, 99), rng.randint(0, 0xFFFFFF))
                    for _ in range(rng.randint(1, 8)))
    return ('<svg viewBox="0 0 100 100" xmlns:xlink="http://www.w3.org/1999/xlink">'
            '<g><title>%s</title>%s</g><foreignObject><p>%s</p></foreignObject></svg>'
            % (words(rng, 1, 3), paths, words(rng, 1, 5)))


def document(rng):
    head = ['<meta charset="utf-8">', "<title>%s</title>" % words(rng, 2, 8),
            '<meta name="description" content="%s">' % words(rng, 5, 15),
            '<meta property="og:title" content="%s">' % words(rng, 2, 6),
            '<link rel=stylesheet href="/s/%d.css">' % rng.randint(1, 9)]
    if rng.random() < 0.6:
        head.append("<style>\n%s</style>" % "\n".join(
            ".c-%s { color: #%06x; margin: %dpx }" % (rng.choice(WORDS), rng.randint(0, 0xFFFFFF),
                                                      rng.randint(0, 40))
            for _ in range(rng.randint(5, 200))))
    if rng.random() < 0.6:
        head.append('<script type="application/ld+json">{"@context": "https://schema.org", '
                    '"@type": "Article", "headline": "%s", "author": {"@type": "Person", '
                    '"name": "%s"}, "wordCount": %d}</script>'
                    % (words(rng, 2, 6), words(rng, 2, 3), rng.randint(100, 5000)))
    body = [navigation(rng)]
    for _ in range(rng.randint(3, 40)):
        roll = rng.random()
        if roll < 0.45:
            end = "</p>" if rng.random() < 0.7 else ""
            body.append("<p>%s%s" % (inline(rng), end))
        elif roll < 0.55:
            body.append("<h%d>%s</h%d>" % (rng.randint(1, 4), words(rng, 2, 8), 2))
        elif roll < 0.65:
            body.append(table(rng))
        elif roll < 0.72:
            body.append(form(rng))
        elif roll < 0.8:
            body.append(microdata(rng))
        elif roll < 0.85:
            body.append(svg(rng))
        elif roll < 0.9:
            body.append("<!-- %s -->" % words(rng, 1, 8))
        elif roll < 0.95:
            body.append("<script>var x = %d; if (x < 3 && x > 1) { document.title = '</b>'; }"
                        "</script>" % rng.randint(0, 9))
        else:
            body.append('<div class="card"><div class="card__body">%s</div></div></div>'
                        % inline(rng))
    text = ("<!DOCTYPE html>\n<html lang=en><head>%s</head>\n<body class=page>\n%s\n"
            "<footer><p>%s</footer></body></html>\n"
            % ("\n".join(head), "\n".join(body), words(rng, 3, 9)))
    roll = rng.random()
    if roll < 0.1:
        return text.replace("\n", "\r\n").encode("utf-8")
    if roll < 0.2:
        declared = text.replace('<meta charset="utf-8">', '<meta charset="windows-1252">')
        return declared.encode("windows-1252", "xmlcharrefreplace")
    if roll < 0.25:
        return text.upper().encode("utf-8")
    return text.encode("utf-8")


def run(seconds):
    import lexpy
    rng = random.Random(20261206)
    pages = [document(rng) for _ in range(120)]

    def edit(element):
        element.set_attribute("data-seen", "1")

    operations = [
        lambda page, doc: doc.to_html(),
        lambda page, doc: [e.get_attribute("href") for e in doc.query_selector_all("a[href]")],
        lambda page, doc: doc.query_selector_all("div.card > .card__body, li:nth-child(2n+1)"),
        lambda page, doc: doc.text_content,
        lambda page, doc: lexpy.extract_text(doc),
        lambda page, doc: lexpy.to_markdown(doc),
        lambda page, doc: lexpy.structured_data(doc),
        lambda page, doc: list(lexpy.iter_links(doc, base_url="https://example.org/a/")),
        lambda page, doc: lexpy.read_tables(doc),
        lambda page, doc: doc.xpath("//a/@href"),
        lambda page, doc: lexpy.parse(page.decode("utf-8", "replace")),
        lambda page, doc: lexpy.rewrite(page, lexpy.Rewriter().on("a[href]", element=edit)),
        lambda page, doc: lexpy.sanitize(doc.to_html()),
    ]
    failed = set()
    deadline = time.perf_counter() + seconds
    rounds = 0
    while rounds < 2 or time.perf_counter() < deadline:
        for page in pages:
            doc = lexpy.parse(page)
            for index, operation in enumerate(operations):
                if index in failed:
                    continue
                try:
                    operation(page, doc)
                except Exception:  # noqa: BLE001 - a training run skips what fails
                    failed.add(index)
        rounds += 1
    return rounds, failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    rounds, failed = run(args.seconds)
    print("pgo_train: %d rounds%s" % (
        rounds, "; skipped operations %s" % sorted(failed) if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
