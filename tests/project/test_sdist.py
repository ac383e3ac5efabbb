"""The source distribution holds what a build needs: every .pyx, .pxi,
.pxd, .h and .pyi of the package, py.typed, LICENSE and README.md -- and no
C written by cythonize nor a built module."""
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (".pyx", ".pxi", ".pxd", ".h", ".pyi", ".py")


def test_sdist_holds_every_source_and_nothing_built(tmp_path):
    # (No isolation: this machine may have no network. An sdist needs none
    # of the build requirements but setuptools, which the tests run with:
    # the check for the others -- wheel -- is skipped.)
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                            "--skip-dependency-check", "--outdir", str(tmp_path),
                            str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (archive,) = tmp_path.glob("lexpy-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    expected = {str(path.relative_to(ROOT)) for path in (ROOT / "lexpy").rglob("*")
                if path.suffix in SOURCES and "__pycache__" not in path.parts}
    expected |= {"lexpy/py.typed", "LICENSE", "README.md", "pyproject.toml", "setup.py",
                 "examples/example.html", "tools/conformance.py"}
    assert expected - names == set()
    built = sorted(name for name in names if name.endswith((".c", ".so")))
    assert built == []
