"""lexpy/dom/dom.pyi describes the compiled module: every class, method and
property it declares exists at run time, and every public name of the
runtime classes is declared."""
import ast
from pathlib import Path

import lexpy.dom.dom as dom

STUB = Path(dom.__file__).with_name("dom.pyi")


def _stub_classes():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    classes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    names.add(item.target.id)
            classes[node.name] = names
    return classes


def test_stub_names_exist():
    for class_name, names in _stub_classes().items():
        runtime = getattr(dom, class_name)
        for name in names:
            assert hasattr(runtime, name), "%s.%s" % (class_name, name)


def test_public_names_are_in_the_stub():
    classes = _stub_classes()
    for class_name, names in classes.items():
        runtime = getattr(dom, class_name)
        inherited = set()
        for base in runtime.__mro__[1:]:
            inherited |= classes.get(base.__name__, set())
        public = {n for n in vars(runtime) if not n.startswith("_")}
        missing = public - names - inherited
        assert not missing, "%s: %s" % (class_name, sorted(missing))
