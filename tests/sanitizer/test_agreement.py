"""tools/sanitizer_agreement.py: one line per set, with the exact
agreements of the total and a count per class that adds up; the classes'
building blocks decide as their rules say."""
import io

import lexpy.bleach as bleach

from tests.sanitizer.support import AGREEMENT, data_dir

SETS = ("dompurify", "bleach", "html5lib", "justhtml", "nh3")


def test_every_set_is_reported_with_its_classes(capsys):
    assert AGREEMENT.main(["--data", str(data_dir())]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(SETS)
    for line in lines:
        head, _, classes = line.partition("; ")
        _name, _exact, agree, _of, total = head.split()
        counts = [int(part.rsplit(" ", 1)[1]) for part in classes.split(", ") if part]
        assert int(agree) + sum(counts) == int(total), line


def test_report_lists_each_disagreement():
    results = AGREEMENT.html5lib_results()
    out = io.StringIO()
    counts = AGREEMENT.report("html5lib", results, show_cases=True, out=out)
    listed = out.getvalue().splitlines()[1:]
    assert len(listed) == len(results) - counts.get("exact", 0)
    assert all(line.split()[0] in AGREEMENT.CLASSES for line in listed)


def test_the_serialization_rule():
    same = AGREEMENT.same_tree_as_written
    assert same("it&#39;s", "it's") and same('<a title="a>b">x</a>', "<a title='a&gt;b'>x</a>")
    assert same("a&#13;b", "a\nb")          # a raw U+000D reparses as U+000A
    assert not same("<b>x</b>", "<i>x</i>") and not same("x", "y")
    svg = '<svg><a xlink:href="#x"></a></svg>'
    assert same(svg, '<svg><a href="#x"></a></svg>', local_names=True)
    assert not same(svg, '<svg><a href="#x"></a></svg>')


def test_the_parser_classes_compare_real_trees():
    # html5lib 1.1 keeps </p> inside math; the Standard breaks out.
    text = "<math></p><b>x</b>"
    assert AGREEMENT.html5lib_tree(text) != AGREEMENT.parse_tree(text)
    assert AGREEMENT.html5lib_tree("<p>a<b>b</b></p>") == AGREEMENT.parse_tree("<p>a<b>b</b></p>")
    assert AGREEMENT.parser_rule(AGREEMENT.html5lib_tree(text),
                                 AGREEMENT.parse_tree(text)) == "breakout"
    text = "<noscript><b>x</b></noscript>"
    assert AGREEMENT.parser_rule(AGREEMENT.html5lib_tree(text),
                                 AGREEMENT.parse_tree(text)) == "noscript"
    # DOMPurify's document parse puts a leading style in head.
    text = "<style>x</style><b>y</b>"
    assert AGREEMENT.parser_rule(AGREEMENT._document_body(text),
                                 AGREEMENT.parse_tree(text)) == "head"
    assert set(AGREEMENT.PARSER_RULES) >= {"breakout", "noscript", "head", "table"}


def test_the_tokenizer_class_needs_the_replay_to_agree():
    # bleach escapes <script> as a source token, so </li></ul> stays markup;
    # the Standard puts it inside the script element.
    case = {"id": "t", "input": "<ul><li><script></li></ul>", "kwargs": {},
            "expected": {"output": "<ul><li>&lt;script&gt;</li></ul>"}}
    assert AGREEMENT.classify_bleach(case, bleach.clean)[0] == "tokenizer"
    # A shim that drops the script instead of escaping it is unexplained.
    dropping = lambda text, **kwargs: bleach.clean(text, strip=True, **kwargs)  # noqa: E731
    assert AGREEMENT.classify_bleach(case, dropping)[0] == "unexplained"


def test_the_nh3_rules_hold_only_where_they_explain():
    assert AGREEMENT.nh3_class("<div><mglyph>", "<div><mglyph></mglyph></div>",
                               "<div></div>") == "namespace-by-name"
    assert AGREEMENT.nh3_class("<script>x</script>", "", "x") == "baseline"
    assert AGREEMENT.nh3_class("<b>x</b>", "<b>x</b>", "x") is None
    assert AGREEMENT.nh3_class("<i>x</i>", "", "x") is None
    counts = {}
    for _case, klass, _detail in AGREEMENT.nh3_results():
        counts[klass] = counts.get(klass, 0) + 1
    assert "unexplained" not in counts, counts
