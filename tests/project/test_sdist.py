"""The source distribution holds what a build needs: every .pyx, .pxi,
.pxd, .h and .pyi of the package, py.typed, LICENSE and README.md -- and no
C written by cythonize nor a built module."""
import tarfile

from tests.packaging import ROOT

SOURCES = (".pyx", ".pxi", ".pxd", ".h", ".pyi", ".py")


def test_sdist_holds_every_source_and_nothing_built(sdist):
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    expected = {str(path.relative_to(ROOT)) for path in (ROOT / "lexpy").rglob("*")
                if path.suffix in SOURCES and "__pycache__" not in path.parts}
    expected |= {"lexpy/py.typed", "LICENSE", "README.md", "pyproject.toml", "setup.py",
                 "examples/example.html", "tools/conformance.py"}
    assert expected - names == set()
    built = sorted(name for name in names if name.endswith((".c", ".so")))
    assert built == []
