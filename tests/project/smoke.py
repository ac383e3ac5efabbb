"""The smoke test of an installed lexpy (a wheel): each compiled module
imports, and each layer does its work once -- parsing with an encoding to
decode, incremental feeding, a fragment, the DOM, selectors, text and
Markdown, pickling, the corpus extraction and the command line.

`python tests/project/smoke.py`, run from a directory outside the checkout (so that
the installed lexpy is the one imported), checks that, prints results() as
JSON, with the compiled modules it found, and exits 0: it is
cibuildwheel's test-command, and tests/project/test_wheel.py runs it in a fresh
virtual environment and compares what it prints with results() of the
checkout's own build. Not collected by
pytest (no test_ prefix)."""
import importlib
import importlib.machinery
import json
import os
import pickle
import subprocess
import sys
import tempfile

# A page with a legacy encoding to decode (its <meta> names it), parse
# errors, a table, a template, a link and a main content to find.
PAGE = (b'<!DOCTYPE html><html lang="fr"><meta charset="windows-1252">'
        b'<title>Caf\xe9  cr\xe8me</title><base href="http://example.com/menu/">'
        b'<body><nav><a href="/">Accueil</a></nav><article><h1>La carte</h1>'
        b'<p class="x y">Un <b>caf\xe9</b> &amp; <i>un th\xe9</i>&copy <a href="plats">plats</a>'
        b'<table><tr><td>1<td>2</table><template><i>t</i></template>'
        b'<ul><li>un<li>deux</ul></article></body></html>')


def compiled_modules():
    """The compiled modules of the imported lexpy, by their files: names."""
    import lexpy
    package = os.path.dirname(os.path.abspath(lexpy.__file__))
    found = []
    for root, _, names in os.walk(package):
        for name in names:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                if name.endswith(suffix):
                    relative = os.path.relpath(os.path.join(root, name[:-len(suffix)]),
                                               os.path.dirname(package))
                    found.append(relative.replace(os.sep, "."))
                    break
    return sorted(found)


def results():
    """What each layer gives for PAGE, JSON-ready."""
    import lexpy
    from lexpy.corpus import Record, extract_record

    for module in compiled_modules():
        importlib.import_module(module)
    doc = lexpy.parse(PAGE, collect_errors=True)
    parser = lexpy.Parser()
    for start in range(0, len(PAGE), 7):
        parser.feed(PAGE[start:start + 7])
    fed = parser.close()
    fragment = lexpy.parse_fragment("<td>a<td>b", context="tr")
    article = doc.query_selector("article")
    article.query_selector("h1").set_attribute("id", "top")
    record = extract_record(Record("page.html", 0, "http://example.com/", 200,
                                   [("Content-Type", "text/html; charset=latin1")], PAGE))
    return {
        "encoding": doc.encoding,
        "dump": lexpy.dump(doc),
        "errors": [str(error) for error in doc.errors],
        "fed_equals_whole": lexpy.dump(fed) == lexpy.dump(lexpy.parse(PAGE)),
        "fragment": lexpy.dump(fragment),
        "html": doc.document_element.outer_html,
        "selected": [element.local_name for element in
                     doc.query_selector_all("article > :is(p, ul) :not(li:first-child)")],
        "compiled_selector": [element.text_content for element in
                              lexpy.compile_selector("td:nth-child(2n)").select(doc)],
        "inner_text": article.inner_text,
        "text": lexpy.extract_text(doc),
        "main_content": lexpy.extract_text(doc, main_content=True),
        "markdown": lexpy.to_markdown(doc.body),
        "pickled": lexpy.dump(pickle.loads(pickle.dumps(doc))) == lexpy.dump(doc),
        "record": record,
        "command_line": command_line(),
        "sanitized": lexpy.sanitize('<p onclick="x">a<script>b</script><svg><a href="'
                                    'javascript:c">d</a></svg></p>'),
    }


def command_line():
    """`python -m lexpy --dump` of PAGE in a file."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "page.html")
        with open(path, "wb") as f:
            f.write(PAGE)
        run = subprocess.run([sys.executable, "-m", "lexpy", "--dump", path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    return run.stdout.decode("utf-8")


def main():
    import lexpy
    here = os.path.realpath(os.getcwd())
    imported = os.path.realpath(lexpy.__file__)
    assert not imported.startswith(os.path.dirname(os.path.dirname(
        os.path.realpath(__file__))) + os.sep), \
        "lexpy came from the checkout (%s), not from the installation" % imported
    assert not imported.startswith(here + os.sep), imported
    found = results()
    # (which modules: tests/test_wheel.py compares them with the .pyx files)
    found["compiled_modules"] = compiled_modules()
    assert found["compiled_modules"], "no compiled module in %s" % imported
    assert found["encoding"] == "windows-1252" and "Caf\xe9" in found["dump"], found
    assert found["fed_equals_whole"] and found["pickled"], found
    assert found["record"]["links"] == ["http://example.com/", "http://example.com/menu/plats"]
    assert found["command_line"].startswith("| <!DOCTYPE html>\n| <html>\n"), \
        found["command_line"][:200]
    json.dump(found, sys.stdout, ensure_ascii=True, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
