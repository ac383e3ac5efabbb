"""Issue 35 point 4 in the selectors: the HTML standard's submit button
(whatwg/html#10960, #11048: a button in the Auto state with a command or
commandfor attribute, or whose parent is a select, is not a submit button,
so never the form's :default) and :contains() as :-soup-contains()."""
import lexpy


def _defaults(html):
    return [e.id for e in lexpy.parse(html).query_selector_all(":default")]


def test_auto_state_buttons_with_command_or_commandfor_are_not_submit_buttons():
    html = ("<form><button id=a commandfor=x></button><button id=b command=show-modal>"
            "</button><button id=c></button></form>")
    assert _defaults(html) == ["c"]


def test_explicit_submit_type_stays_a_submit_button():
    assert _defaults("<form><button id=a type=submit commandfor=x></button></form>") == ["a"]
    assert _defaults("<form><button id=a type=bogus commandfor=x></button>"
                     "<button id=b type=bogus></button></form>") == ["b"]


def test_a_button_whose_parent_is_a_select_is_not_a_submit_button():
    html = "<form><select><button id=a></button><option>x</select><button id=b></button></form>"
    document = lexpy.parse(html)
    assert document.get_element_by_id("a").parent.local_name == "select"
    assert _defaults(html) == ["b"]


def test_contains_is_an_alias_of_soup_contains():
    # issue 35 point 4: parsel users write :contains()
    document = lexpy.parse("<p id=a>Hello world</p><p id=b>Bye</p><p id=c>hello</p>")
    for text in ('"Hello"', '"Hello", "Bye"', "'o w'"):
        assert [e.id for e in document.query_selector_all("p:contains(%s)" % text)] == \
            [e.id for e in document.query_selector_all("p:-soup-contains(%s)" % text)]
    assert [e.id for e in document.query_selector_all('p:contains("Hello", "Bye")')] == ["a", "b"]
