"""Renames the tree builder's rules for each name express exactly (issue
39, part E; the oracle renames to <abbr>, an ordinary element):

- a void element of the body whose start tag inserts and pops it and does
  nothing else (param, source, track, the head's elements the in body
  rules insert as in head, hr) when its start tag was clean (closed,
  implied and reconstructed nothing, with no formatting element left to
  reconstruct, which <abbr> would; an <hr> may have closed a <p> by
  implied end tags only, whose end tags are written before it): written
  as <abbr ...></abbr>;
- a formatting element without an end tag of its own that stays open to
  the end of input (nothing reconstructs it, no end tag looks for it by
  name): its new name's end tag is written at the end.

The near cases stay refused. Checked with the DOM-equivalence oracle on
the element with id="r", whole and in 7-byte chunks."""
import pytest

from tests.rewriter.test_form_pointer import _figures

ACCEPTED = [
    # Void elements of the body inserted and popped.
    '<!DOCTYPE html><body><param id="r">A',
    '<b><param id="r">x</b>y',
    '<div><source id="r"></div>',
    '<!DOCTYPE html><body><track id="r">A',
    '<!DOCTYPE html><body><link id="r" rel="x">A',
    '<!DOCTYPE html><body><base id="r">A',
    '<!DOCTYPE html><p>a</p><basefont id="r"><bgsound>b',
    '<p>a</p><hr id="r">b',
    # (<hr> closes the <p> by implied end tags only: </p> is written
    # before <abbr>.)
    '<p>a<hr id="r">b',
    '<p><hr id="r"></p>',
    '<ul><li><p>x<hr id="r">y',
    # (hr sets frameset-ok to "not ok", <abbr> does not: a <body> tag is
    # written before the <frameset> the parser ignored.)
    '<!doctype html><hr id="r"><frameset>',
    # A formatting element open to the end of input, the current node there.
    '<div> abc <b> def <i id="r"> ghi',
    '<div> abc <b> def <i id="r"> ghi <p> jkl',
    '<p><em id="r">a<span>b',
    '<u id="r"><div>a</div>b',
    # A template in body: the DOM's rename moves its children, not its
    # contents, so the new element is empty; its start tag is written with
    # the new name, its contents dropped (as set_inner_content drops them),
    # its end tag renamed (or written at the end of input).
    '<body><template id="r">Hello</template>x',
    '<div><template id="r"><div><span></template><b>',
    # (The </div> inside it is the template's: ignored there.)
    '<div><template id="r"></div>Hello',
    '<b><template id="r">x</template>y</b>',
    '<p>a</p><template id="r">t',
    # (Its start tag set frameset-ok to "not ok": a <body> tag is written
    # before the <frameset> the parser ignored.)
    '<!doctype html><div></div><template id="r"><b>x</template><frameset>',
]

REFUSED = [
    # (<abbr> would reconstruct the <b> first; <param> does not.)
    '<p><b>x</p><param id="r">y',
    # (<hr> closes the <p> and the <b> in it, which the parser then
    # reconstructs: no end tag written before <abbr> does that.)
    '<p><b>x<hr id="r">y',
    # (In <head>.)
    '<head><link id="r"></head><body>x',
    # (<meta> may change the encoding.)
    '<!DOCTYPE html><body><meta id="r">A',
    # (Closed by </p>: the parser reconstructs it in the next <p>.)
    '<p><b><i id="r"></p>x<p>y',
    # (An element of its name inside it.)
    '<i id="r">a<i>b',
    # (The adoption agency moves it.)
    '<b>1<i id="r">2<p>3</b>4',
    # (A template in a table: an ordinary start tag is foster-parented.)
    '<table><template id="r">x</template></table>',
    # (In head.)
    '<head><template id="r">x</template></head>',
    # (In a select.)
    '<select><template id="r"></template></select>',
]


@pytest.mark.parametrize("data", ACCEPTED)
def test_the_rename_is_written(data):
    figures = _figures(data, "rename", True)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


@pytest.mark.parametrize("data", REFUSED)
def test_the_near_cases_are_refused(data):
    figures = _figures(data, "rename", True)
    assert (figures.accepted, sum(figures.refused.values())) == (0, 1)
