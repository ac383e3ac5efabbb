"""lexpy's linkify (lexpy.sanitizer.linkify): URLs and addresses in text
outside a, pre and code become links, through callbacks."""
from lexpy.sanitizer.linkify import linkify, target_blank


def test_urls_addresses_and_skipped_elements():
    assert linkify("go to https://e.example/a?b=1, now") == \
        'go to <a href="https://e.example/a?b=1" rel="nofollow">https://e.example/a?b=1</a>, now'
    assert linkify("(see www.e.org)") == \
        '(see <a href="http://www.e.org" rel="nofollow">www.e.org</a>)'
    assert linkify("<a href=x>e.com</a><pre>e.com</pre><code>e.com</code>") == \
        '<a href="x">e.com</a><pre>e.com</pre><code>e.com</code>'
    assert linkify("me@e.org", parse_email=True) == '<a href="mailto:me@e.org">me@e.org</a>'
    assert linkify("me@e.org") == "me@e.org"            # an address is not a URL
    assert linkify("1 < 2 & e.com", callbacks=[]) == \
        '1 &lt; 2 &amp; <a href="http://e.com">e.com</a>'


def test_callbacks_change_or_drop_links():
    assert linkify("e.com", callbacks=[target_blank]) == \
        '<a href="http://e.com" target="_blank">e.com</a>'

    def shorten(attrs, new):
        attrs["_text"] = "link"
        return attrs
    assert linkify("e.com/long/path", callbacks=[shorten]) == \
        '<a href="http://e.com/long/path">link</a>'
    assert linkify("e.com", callbacks=[lambda attrs, new: None]) == "e.com"
