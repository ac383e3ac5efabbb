"""A template in body unwrapped (remove_and_keep_content) when its contents
are text alone (Element._template_text_unwrap): its text goes by the "in
body" rules with the template's marker on the list of active formatting
elements, reconstructing nothing; without its tags, the same text goes
into its parent by the same rules, when nothing was to be reconstructed
before its start tag. Near cases (markup or NUL in it, reconstruction
pending, in the head, in a table, at the end of input, a later frameset)
are refused or reparse equal."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data", [
    "<body><template>Hello</template>",
    "<div><template>a&amp;b</template>c</div>",
    "<b><template>x</template></b>y",
    "<p><template>x</template>",
    "<body><template> </template><frameset>",
    "<ul><li><template>a\nb</template></li></ul>",
])
def test_text_only_template_unwrapped(data):
    assert_accepted(data, "template", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<p><b></p><template>x</template>",
    "<div><template>x</div>y",
    "<template>x</template><frameset>",
    "<body><template>x</template><frameset>",
    "<div><template> </template></div><frameset>",
    "<table><td><template>x</template>",
    "<template>x<template>y</template></template>",
    "<body><template>Hello",
    "<body><template><em>Hello</em></template>",
    "<body><template>a\x00b</template>",
    "<body><template>a<!--c-->b</template>",
    "<table><template>x</template></table>",
    "<select><template>x</template></select>",
    "<body><template>a</template><template>b</template>",
    "<a><p><a><template>x</template>",
])
def test_no_accepted_unwrap_reparses_otherwise(data):
    assert_reparses(data, "remove_and_keep_content")
    assert_reparses(data, "remove_and_keep_content", chunked=True)
