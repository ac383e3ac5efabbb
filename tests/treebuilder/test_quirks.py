"""The document's mode a DOCTYPE sets: the lists of the "initial" insertion
mode, as the standard has them since whatwg/html#12084 (2026-01-14), where
an empty system identifier counts as missing for the HTML 4.01 rows (the
cases of WPT's html/syntax/parsing/doctype-system-identifier-distinction).
https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode
"""
import pytest

import lexpy

FRAMESET = "-//W3C//DTD HTML 4.01 Frameset//EN"
TRANSITIONAL = "-//W3C//DTD HTML 4.01 Transitional//EN"


@pytest.mark.parametrize("public_id", [FRAMESET, TRANSITIONAL])
@pytest.mark.parametrize("system_id, mode", [
    (None, "quirks"),                      # missing
    ("", "quirks"),                        # empty: as missing (#12084)
    ("http://www.w3.org/TR/html4/loose.dtd", "limited-quirks"),
])
def test_html401_rows(public_id, system_id, mode):
    doctype = '<!DOCTYPE html PUBLIC "%s"' % public_id
    if system_id is not None:
        doctype += ' "%s"' % system_id
    assert lexpy.parse(doctype + "><p>").quirks_mode == mode
    # The same with single quotes and another case.
    single = doctype.replace('"', "'").upper()
    assert lexpy.parse(single + "><p>").quirks_mode == mode


@pytest.mark.parametrize("doctype, mode", [
    # An empty public identifier matches no prefix; the empty string is not
    # "html" either.
    ('<!DOCTYPE html PUBLIC "" "">', "no-quirks"),
    ('<!DOCTYPE html PUBLIC "">', "no-quirks"),
    ('<!DOCTYPE html SYSTEM "">', "no-quirks"),
    # The XHTML 1.0 rows do not depend on the system identifier.
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "">', "limited-quirks"),
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN">', "limited-quirks"),
    # Rows that give quirks whatever the system identifier.
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" "x">', "quirks"),
    ('<!DOCTYPE html PUBLIC "HTML" "">', "quirks"),
    ('<!DOCTYPE html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd">',
     "quirks"),
    ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "">', "no-quirks"),
    ("<!DOCTYPE html>", "no-quirks"),
    ("<!DOCTYPE htm>", "quirks"),
])
def test_other_rows(doctype, mode):
    assert lexpy.parse(doctype + "<p>").quirks_mode == mode
