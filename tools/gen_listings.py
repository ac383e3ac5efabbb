#!/usr/bin/env python3
"""Seeded generator of the scraping benchmark's pages, with their ground truth
(tools/bench_scrape.py; issue 36 point 6).

W1, book listings (about 50 KB): header, nav, a sidebar of about 50
category links, 20 product cards (title, price, rating, availability,
detail URL), a pager, a footer, scripts and one JSON-LD ItemList. A
"broken" page carries the mis-nesting HTML parsing resolves (the ground
truth is what the tree the HTML standard builds says):

- `<p class=price_color>` left open before a `<div>` (the div closes it:
  "in body", a start tag whose tag name is "div" closes a p element in
  button scope);
- `<li>` without end tags (the next li start tag closes it);
- stray `</div>` where no div is in scope (ignored);
- raw `&` in URLs (not a character reference: kept as written);
- unquoted attribute values;
- a `<form>` misplaced in a `<table>` ("in table": the form is inserted
  and popped at once; the rows go into an implied tbody).

W2, search results (300-600 KB): an inline SVG sprite, hundreds of nav
links, a 100 KB JSON state script and 27 result cards with data-* on
every card (sponsored cards mixed in that are not results).

    records = truth of a page: [{field: value}] in document order,
    values as normalise() makes them from what an engine reads.

    python tools/gen_listings.py OUTDIR [--w1 N] [--w2 N] [--seed S]

writes the pages and truth.json (used by nothing in CI: the benchmark and
the tests generate in memory).
"""
import json
import os
import random
import sys
from urllib.parse import urljoin

W1_BASE = "https://books.example.com/catalogue/"
W2_BASE = "https://shop.example.com/s"
W1_FIELDS = ("title", "price", "rating", "availability", "url")
W2_FIELDS = ("asin", "title", "price", "rating", "url")
RATINGS = ("One", "Two", "Three", "Four", "Five")
WORDS = ("light", "attic", "velvet", "secret", "river", "stone", "garden", "history", "night",
         "silent", "empire", "glass", "winter", "ocean", "machine", "house", "dark", "little",
         "road", "shadow", "fire", "city", "code", "wolf", "summer", "crown", "paper", "star")
CATEGORIES = ("Travel", "Mystery", "Historical Fiction", "Sequential Art", "Classics",
              "Philosophy", "Romance", "Womens Fiction", "Fiction", "Childrens", "Religion",
              "Nonfiction", "Music", "Default", "Science Fiction", "Sports and Games",
              "Add a comment", "Fantasy", "New Adult", "Young Adult", "Science", "Poetry",
              "Paranormal", "Art", "Psychology", "Autobiography", "Parenting", "Adult Fiction",
              "Humor", "Horror", "History", "Food and Drink", "Christian Fiction",
              "Business", "Biography", "Thriller", "Contemporary", "Spirituality",
              "Academic", "Self Help", "Historical", "Christian", "Suspense",
              "Short Stories", "Novels", "Health", "Politics", "Cultural", "Erotica", "Crime")


def slug(text):
    return "-".join(text.lower().split())


def title_of(rnd):
    words = [rnd.choice(WORDS) for _ in range(rnd.randint(2, 6))]
    return " ".join(w.capitalize() for w in words)


def normalise(field, value, base):
    """An engine's raw value of a field (attribute or text as read) -> the
    ground truth's form: text stripped, the rating's class list -> its word,
    a URL resolved against the page's base."""
    if value is None:
        return None
    if field == "url":
        return urljoin(base, value.strip())
    if field == "rating" and "star-rating" in value.split():
        words = [w for w in value.split() if w != "star-rating"]
        return words[0] if words else None
    return " ".join(value.split())


# ---------------------------------------------------------------------------
# W1: book listings
# ---------------------------------------------------------------------------

def w1_page(seed, broken):
    rnd = random.Random("w1-%d" % seed)
    q = (lambda v: v) if broken else (lambda v: '"%s"' % v)   # unquoted attributes
    endli = "" if broken else "</li>"
    amp = "&" if broken else "&amp;"
    out = ['<!DOCTYPE html>\n<html lang=en-us class=no-js><head>\n<meta charset=utf-8>\n'
           '<title>All products | Books to Scrape - Sandbox</title>\n'
           '<meta name=description content="Books to scrape, page %d">\n'
           '<meta name=viewport content="width=device-width">\n'
           '<link rel=stylesheet href=../static/oscar/css/styles.css>\n' % seed]
    books = []
    for i in range(20):
        title = title_of(rnd)
        path = "%s_%d/index.html" % (slug(title), rnd.randint(1, 999))
        if broken and i % 3 == 0:
            href = path + "?src=list&pos=%d" % i           # raw &
            written = path + "?src=list" + amp + "pos=%d" % i
        else:
            href = written = path
        books.append({"title": title, "price": "£%d.%02d" % (rnd.randint(10, 59), rnd.randint(0, 99)),
                      "rating": rnd.choice(RATINGS),
                      "availability": "In stock" if rnd.random() < 0.8 else "Out of stock",
                      "href": href, "written": written})
    ld = {"@context": "https://schema.org", "@type": "ItemList",
          "itemListElement": [{"@type": "ListItem", "position": i + 1, "name": b["title"],
                               "url": urljoin(W1_BASE, b["href"])} for i, b in enumerate(books)]}
    out.append('<script type="application/ld+json">%s</script>\n</head>\n' % json.dumps(ld))
    out.append('<body id=default class="default">\n')
    if broken:
        out.append("</div>\n")                                     # stray, no div in scope
    out.append('<header class="header container-fluid"><div class=page_inner><div class=row>'
               '<div class="col-sm-8 h1"><a href=../index.html>Books to Scrape</a>'
               '<small> We love being scraped!</small></div></div></div></header>\n'
               '<nav class=navbar><ul class=nav>')
    for name in ("Home", "Catalogue", "Offers", "Basket", "Account", "Help"):
        out.append('<li><a href=%s>%s</a>%s' % (q("../%s/" % slug(name)), name, endli))
    out.append('</ul></nav>\n<div class="container-fluid page"><div class=page_inner>\n'
               '<ul class=breadcrumb><li><a href=../index.html>Home</a></li>'
               '<li class=active>All products</li></ul>\n<div class=row>\n'
               '<aside class="sidebar col-sm-4 col-md-3"><div id=promotions_left></div>'
               '<div class=side_categories><ul class="nav nav-list"><li>'
               '<a href=category/books_1/index.html>Books</a><ul>\n')
    for k, name in enumerate(CATEGORIES):
        out.append('<li>\n<a href=%s>\n  %s\n</a>\n%s' % (
            q("category/books/%s_%d/index.html" % (slug(name), k + 2)), name, endli))
    out.append('</ul></li></ul></div></aside>\n<div class="col-sm-8 col-md-9">\n'
               '<div class=page-header action><h1>All products</h1></div>\n'
               '<div id=messages></div><div id=promotions></div>\n'
               '<form method=get class=form-horizontal><div style="display:none"></div>'
               '<strong>1000</strong> results - showing <strong>%d</strong> to <strong>%d</strong>.'
               '</form>\n<section><div class=alert alert-warning role=alert>'
               '<strong>Warning!</strong> This is a demo website for web scraping purposes.'
               '</div>\n<div><ol class=row>\n' % (seed * 20 + 1, seed * 20 + 20))
    for i, b in enumerate(books):
        img = "../media/cache/%02x/%02x/%032x.jpg" % (rnd.randrange(256), rnd.randrange(256),
                                                      rnd.getrandbits(128))
        out.append('<li class="col-xs-6 col-sm-4 col-md-3 col-lg-3">\n'
                   '<article class=product_pod>\n<div class=image_container>'
                   '<a href=%s><img src=%s alt="%s" class=thumbnail></a></div>\n'
                   '<p class="star-rating %s"><i class=icon-star></i><i class=icon-star></i>'
                   '<i class=icon-star></i><i class=icon-star></i><i class=icon-star></i></p>\n'
                   '<h3><a href=%s title="%s">%s</a></h3>\n<div class=product_price>\n'
                   % (q(b["written"]), q(img), b["title"], b["rating"], q(b["written"]),
                      b["title"], b["title"][:20] + ("..." if len(b["title"]) > 20 else "")))
        avail = ('<p class="%s availability"><i class=icon-%s></i>\n    %s\n</p>\n'
                 % ("instock" if b["availability"] == "In stock" else "outofstock",
                    "ok" if b["availability"] == "In stock" else "remove", b["availability"]))
        if broken:
            # The price's p left open: the div's start tag closes it.
            out.append(avail + '<p class=price_color>%s\n<div class=tax>incl. VAT</div>\n'
                       % b["price"])
            # A form misplaced in a table, with a stray </div> in the cell.
            out.append('<table class=basket><form action=../basket/add/%d/ method=post>'
                       '<tr><td><input type=hidden name=quantity value=1></div>'
                       '<button type=submit class="btn btn-primary btn-block">Add to basket'
                       '</button></td></tr></form></table>\n' % i)
        else:
            out.append('<p class="price_color">%s</p>\n' % b["price"] + avail)
            out.append('<form action="../basket/add/%d/" method="post"><table class="basket">'
                       '<tr><td><input type="hidden" name="quantity" value="1">'
                       '<button type="submit" class="btn btn-primary btn-block">Add to basket'
                       '</button></td></tr></table></form>\n' % i)
        out.append('</div>\n</article>\n%s\n' % endli)
    out.append('</ol>\n<div><ul class=pager><li class=current>Page %d of 50</li>'
               '<li class=next><a href=page-%d.html>next</a></li></ul></div>\n'
               '</div></section></div></div></div></div>\n' % (seed + 1, seed + 2))
    out.append('<footer class="footer container-fluid">')
    for k in range(40):
        out.append('<a href="../about/%d/" class=footer-link>About item %d</a> ' % (k, k))
    out.append('<p>Data is random. Prices and ratings were assigned randomly.</p></footer>\n')
    if broken:
        out.append("</div></div>\n")
    out.append('<script src=../static/oscar/js/bootstrap3/bootstrap.min.js></script>\n<script>\n')
    # Inline scripts to about 50 KB.
    size = sum(map(len, out))
    filler = []
    n = 0
    while size < 48000 + rnd.randint(0, 4000):
        line = ("  oscar.analytics.track('impression', {id: %d, list: 'catalogue', "
                "position: %d, ts: %d}); // <p>not markup</p>\n"
                % (rnd.randint(1, 10 ** 6), n, rnd.randint(10 ** 9, 2 * 10 ** 9)))
        filler.append(line)
        size += len(line)
        n += 1
    out.extend(filler)
    out.append('</script>\n</body>\n</html>\n')
    page = "".join(out).encode("utf-8")
    truth = [{"title": b["title"], "price": b["price"], "rating": b["rating"],
              "availability": b["availability"], "url": urljoin(W1_BASE, b["href"])}
             for b in books]
    return page, truth


# ---------------------------------------------------------------------------
# W2: search results
# ---------------------------------------------------------------------------

def w2_page(seed):
    rnd = random.Random("w2-%d" % seed)
    target = rnd.randint(310, 590) * 1000
    out = ['<!doctype html><html lang="en-us" class="a-no-js" data-19ax5a9jf="dingo"><head>'
           '<meta charset="utf-8"><title>Amazing.example : search "%s"</title>'
           '<link rel="stylesheet" href="https://static.example.com/css/search.css">'
           '</head><body class="a-m-us a-aui_72554-c s-search">\n' % rnd.choice(WORDS)]
    # Inline SVG sprite.
    out.append('<svg xmlns="http://www.w3.org/2000/svg" style="display:none">')
    for k in range(60):
        points = " ".join("%s%d.%d %d.%d" % (rnd.choice("MLCQ"), rnd.randint(0, 99),
                                               rnd.randint(0, 9), rnd.randint(0, 99),
                                               rnd.randint(0, 9)) for _ in range(40))
        out.append('<symbol id="icon-%d" viewBox="0 0 24 24"><title>icon %d</title>'
                   '<path fill-rule="evenodd" d="%sZ"/></symbol>' % (k, k, points))
    out.append('</svg>\n<header id="navbar"><nav class="nav-main" role="navigation">')
    for k in range(rnd.randint(300, 500)):
        out.append('<a class="nav-a nav-link" data-nav-ref="nav_cs_%d" href="/b/?node=%d&amp;ref_=nav_cs_%d">'
                   '%s %s</a>' % (k, rnd.randint(10 ** 6, 10 ** 7), k, rnd.choice(WORDS).capitalize(),
                                  rnd.choice(WORDS)))
    out.append('</nav></header>\n<div id="search" class="s-desktop-width-max">'
               '<div class="s-main-slot s-result-list s-search-results sg-row">\n')
    truth = []
    sponsored = set(rnd.sample(range(33), 6))
    index = 0
    for k in range(33):
        asin = "B0%08X" % rnd.getrandbits(32)
        title = title_of(rnd) + " " + title_of(rnd)
        price = "$%d.%02d" % (rnd.randint(5, 300), rnd.randint(0, 99))
        stars = "%d.%d out of 5 stars" % (rnd.randint(1, 4), rnd.randint(0, 9))
        href = "/%s/dp/%s/ref=sr_1_%d?keywords=%s&qid=%d&sr=8-%d" % (
            slug(title), asin, k, rnd.choice(WORDS), rnd.randint(10 ** 9, 2 * 10 ** 9), k)
        kind = "sp-sponsored-result" if k in sponsored else "s-search-result"
        out.append('<div data-asin="%s" data-index="%d" data-uuid="%032x" data-component-type="%s" '
                   'data-component-id="%d" data-cel-widget="search_result_%d" '
                   'class="sg-col-4-of-24 s-result-item s-asin sg-col s-widget-spacing-small">'
                   '<div class="sg-col-inner"><div cel_widget_id="MAIN-SEARCH_RESULTS-%d" '
                   'data-csa-c-type="item" data-csa-c-item-id="amzn1.asin.%s" class="s-widget-container">'
                   '<div class="puis-card-container s-card-container" data-action="puis-card-container-declarative">'
                   % (asin, k, rnd.getrandbits(128), kind, k, k, k, asin))
        out.append('<span class="rush-component" data-component-type="s-product-image">'
                   '<a class="a-link-normal s-no-outline" href="%s"><div class="a-section aok-relative">'
                   '<img class="s-image" src="https://m.media.example.com/images/I/%016x._AC_UL320_.jpg" '
                   'srcset="https://m.media.example.com/images/I/%016x._AC_UL320_.jpg 1x, '
                   'https://m.media.example.com/images/I/%016x._AC_UL480_.jpg 1.5x" alt="%s" '
                   'data-image-index="%d" data-image-load="" data-image-latency="s-product-image">'
                   '</div></a></span>' % (href.replace("&", "&amp;"), rnd.getrandbits(64),
                                          rnd.getrandbits(64), rnd.getrandbits(64), title, k))
        out.append('<div class="a-section a-spacing-small puis-padding-left-small">'
                   '<div data-cy="title-recipe" class="a-section a-spacing-none">'
                   '<h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-4">'
                   '<a class="a-link-normal s-underline-text s-link-style a-text-normal" href="%s">'
                   '<span class="a-size-base-plus a-color-base a-text-normal">%s</span></a></h2></div>'
                   % (href.replace("&", "&amp;"), title))
        out.append('<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro">'
                   '<div class="a-row a-size-small"><span aria-label="%s" data-rt="%s">'
                   '<svg class="a-icon" width="80" height="16"><use href="#icon-%d"/></svg>'
                   '<span class="a-icon-alt">%s</span></span>'
                   '<span aria-label="%d" data-ct="1"><a class="a-link-normal s-underline-text" '
                   'href="%s#customerReviews"><span class="a-size-base s-underline-text">%d</span>'
                   '</a></span></div></div>' % (stars, stars, rnd.randrange(60), stars,
                                                rnd.randint(1, 90000), href.replace("&", "&amp;"),
                                                rnd.randint(1, 90000)))
        out.append('<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-small">'
                   '<a class="a-link-normal s-no-hover" href="%s"><span class="a-price" '
                   'data-a-size="xl" data-a-color="base"><span class="a-offscreen">%s</span>'
                   '<span aria-hidden="true"><span class="a-price-symbol">$</span>'
                   '<span class="a-price-whole">%s</span></span></span></a></div>'
                   % (href.replace("&", "&amp;"), price, price[1:].split(".")[0]))
        out.append('<div class="a-row a-size-base a-color-secondary s-align-children-center">'
                   '<span aria-label="FREE delivery">FREE delivery <span class="a-text-bold">Tue, '
                   'Dec %d</span></span><svg class="a-icon"><use href="#icon-%d"/></svg>'
                   '</div></div></div></div></div></div>\n' % (rnd.randint(1, 28), rnd.randrange(60)))
        if kind == "s-search-result":
            truth.append({"asin": asin, "title": title, "price": price, "rating": stars,
                          "url": urljoin(W2_BASE, href)})
            index += 1
    out.append('</div></div>\n')
    # The JSON state script: about 100 KB.
    state = {"query": rnd.choice(WORDS), "widgets": []}
    size = 0
    while size < 100000:
        widget = {"id": "%032x" % rnd.getrandbits(128), "type": rnd.choice(WORDS),
                  "weblab": {"T%d" % j: rnd.randint(0, 2) for j in range(8)},
                  "html": "<div class=\"x\">%s</div>" % title_of(rnd)}
        size += len(json.dumps(widget))
        state["widgets"].append(widget)
    out.append('<script type="application/json" id="__STATE__">%s</script>\n'
               % json.dumps(state).replace("</", "<\\/"))
    out.append('<footer class="navLeftFooter"><div class="navFooterLinkCol">')
    size = sum(map(len, out))
    k = 0
    while size < target:
        line = ('<li class="nav_first"><a href="/gp/help/%d/?ie=UTF8&amp;ref_=footer_%d" '
                'class="nav_a" data-nav-id="%d">%s %s help</a></li>\n'
                % (rnd.randint(1, 10 ** 6), k, k, rnd.choice(WORDS).capitalize(), rnd.choice(WORDS)))
        out.append(line)
        size += len(line)
        k += 1
    out.append('</div></footer>\n<script>window.ue_t0 = +new Date();</script></body></html>\n')
    return "".join(out).encode("utf-8"), truth


def w1_pages(n, seed=0):
    """n W1 pages, every other one broken: [(page bytes, truth)]."""
    return [w1_page(seed * 100000 + i, broken=(i % 2 == 1)) for i in range(n)]


def w2_pages(n, seed=0):
    return [w2_page(seed * 100000 + i) for i in range(n)]


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--w1", type=int, default=20)
    parser.add_argument("--w2", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    truth = {}
    for name, pages in (("w1", w1_pages(args.w1, args.seed)), ("w2", w2_pages(args.w2, args.seed))):
        for i, (page, records) in enumerate(pages):
            file = "%s-%03d.html" % (name, i)
            with open(os.path.join(args.outdir, file), "wb") as f:
                f.write(page)
            truth[file] = records
    with open(os.path.join(args.outdir, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
