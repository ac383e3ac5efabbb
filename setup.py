"""Build of lexpy's compiled modules: one extension per subpackage.

Set LEXPY_DEBUG=1 to build with bounds checks, wraparound checks and line
tracing (for coverage and debugging), LEXPY_TEST_BUILD=1 to build the
test-only modules beside the others (what the tests need; the symbol tables
are kept); any other value, or none, is a release build: optimized, without
debug information, and (on Linux) with the symbol tables stripped, as the
release wheels ship.
"""
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("LEXPY_DEBUG", "") == "1"
# A test build adds the test-only modules (lexpy/*/_testing.pyx: the hooks
# and Python views the tests and tools use); a release build has none.
TEST_BUILD = os.environ.get("LEXPY_TEST_BUILD", "") == "1"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    "embedsignature": True,
    "linetrace": DEBUG,
    "profile": False,
}

MACROS = [("CYTHON_TRACE_NOGIL", "1")] if DEBUG else []
# MSVC (CPython's compiler on Windows) writes no debug information unless
# asked; GCC and Clang get -g from Python's own CFLAGS, which -g0 undoes.
MSVC = sys.platform == "win32"
if DEBUG:
    CFLAGS = ["/Od", "/Zi"] if MSVC else ["-O0", "-g"]
else:
    CFLAGS = ["/O2"] if MSVC else ["-O2", "-g0"]
# Release builds are stripped on Linux; a test build keeps the symbol tables
# (the instruction-counted tests name functions for callgrind).
LDFLAGS = ["-s"] if not DEBUG and not TEST_BUILD and sys.platform.startswith("linux") else []


def extension(module, uses=(), depends=()):
    """One compiled module; `depends` lists the .pxi/.h files it includes,
    `uses` the packages below it whose headers it includes (on its include
    path; tests/project/test_architecture.py checks they are below it)."""
    source = module.replace(".", "/") + ".pyx"
    package_dir = os.path.dirname(source)
    include_dirs = [package_dir] + ["lexpy/" + package for package in uses]
    headers = [os.path.join(d, h) for d in include_dirs[1:] for h in files(d, ".h")]
    return Extension(
        module,
        [source],
        depends=sorted(set([os.path.join(package_dir, d) for d in depends] + headers)),
        include_dirs=include_dirs,
        define_macros=MACROS,
        extra_compile_args=CFLAGS,
        extra_link_args=LDFLAGS,
    )


def files(package, pattern_suffix):
    return sorted(
        os.path.relpath(os.path.join(root, name), package)
        for root, _, names in os.walk(package)
        for name in names
        if name.endswith(pattern_suffix)
    )


# In the layers' order (README, Layout): each module after those it cimports.
EXTENSIONS = [
    extension("lexpy.core.core", depends=files("lexpy/core", ".pxi") + files("lexpy/core", ".h")),
    extension("lexpy.tokenizer.tokenizer", uses=["core"],
              depends=files("lexpy/tokenizer", ".pxi") + files("lexpy/tokenizer", ".h")),
    extension("lexpy.encoding.encoding", uses=["core"],
              depends=files("lexpy/encoding", ".pxi") + files("lexpy/encoding", ".h")),
    extension("lexpy.dom.dom", uses=["core"],
              depends=files("lexpy/dom", ".pxi") + files("lexpy/dom", ".h")),
    extension("lexpy.treebuilder.treebuilder", uses=["core"],
              depends=files("lexpy/treebuilder", ".pxi")),
    extension("lexpy.driver.driver", uses=["core"], depends=files("lexpy/driver", ".pxi")),
    extension("lexpy.selectors.selectors", uses=["core"],
              depends=files("lexpy/selectors", ".pxi") + files("lexpy/selectors", ".h")),
    extension("lexpy.text.text", uses=["core"], depends=files("lexpy/text", ".pxi")),
    extension("lexpy.xpath.xpath", uses=["core"], depends=files("lexpy/xpath", ".pxi")),
    extension("lexpy.extract.tables", uses=["core"]),
    extension("lexpy.extract.extractor", uses=["core"], depends=files("lexpy/extract", ".pxi")),
    extension("lexpy.sanitizer.walk", uses=["core"], depends=files("lexpy/sanitizer", ".pxi")),
    extension("lexpy.rewriter.engine", uses=["core"]),
    extension("lexpy.rewriter.decoding", uses=["core"]),
    extension("lexpy.corpus.urls", uses=["core"]),
    extension("lexpy.corpus.members", uses=["core"]),
]

# The test-only modules, each beside the module whose C API it drives.
TEST_EXTENSIONS = [
    extension("lexpy.core._testing"),
    extension("lexpy.tokenizer._testing", uses=["core"]),
    extension("lexpy.dom._testing", uses=["core"]),
    extension("lexpy.driver._testing", uses=["core"]),
]


# Only when run as the build script (pip, python setup.py ...): the tests
# read EXTENSIONS without building.
if __name__ == "__main__":
    setup(
        ext_modules=cythonize(
            EXTENSIONS + (TEST_EXTENSIONS if TEST_BUILD else []),
            compiler_directives=COMPILER_DIRECTIVES,
            include_path=["."],
        ),
    )
