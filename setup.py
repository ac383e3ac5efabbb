"""Build of lexpy's compiled modules: one extension per subpackage.

Set LEXPY_DEBUG=1 to build with bounds checks, wraparound checks and line
tracing (for coverage and debugging); any other value, or none, is a release
build: optimized, without debug information, and (on Linux) with the symbol
tables stripped, as the release wheels ship.
"""
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("LEXPY_DEBUG", "") == "1"

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
LDFLAGS = ["-s"] if not DEBUG and sys.platform.startswith("linux") else []


def extension(module, depends=()):
    """One compiled module; `depends` lists the .pxi/.h files it includes
    (the tokenizer's headers, on every module's include path, are added)."""
    source = module.replace(".", "/") + ".pyx"
    package_dir = os.path.dirname(source)
    shared = [os.path.join("lexpy/tokenizer", h) for h in files("lexpy/tokenizer", ".h")]
    return Extension(
        module,
        [source],
        depends=sorted(set([os.path.join(package_dir, d) for d in depends] + shared)),
        include_dirs=[package_dir, "lexpy/tokenizer"],
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


EXTENSIONS = [
    extension("lexpy.tokenizer.tokenizer",
              files("lexpy/tokenizer", ".pxi") + files("lexpy/tokenizer", ".h")),
    extension("lexpy.dom.dom", files("lexpy/dom", ".pxi") + files("lexpy/dom", ".h")),
    extension("lexpy.encoding.encoding",
              files("lexpy/encoding", ".pxi") + files("lexpy/encoding", ".h")),
    extension("lexpy.treebuilder.treebuilder", files("lexpy/treebuilder", ".pxi")),
    extension("lexpy.driver.driver", files("lexpy/driver", ".pxi")),
    extension("lexpy.selectors.selectors",
              files("lexpy/selectors", ".pxi") + files("lexpy/selectors", ".h")),
    extension("lexpy.text.text", files("lexpy/text", ".pxi")),
]


setup(
    ext_modules=cythonize(
        EXTENSIONS,
        compiler_directives=COMPILER_DIRECTIVES,
        include_path=["."],
    ),
)
