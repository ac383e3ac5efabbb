"""Coverage-guided fuzzing of lexpy with atheris (libFuzzer for Python).

Each input is split by atheris' FuzzedDataProvider into how to parse (str or
bytes, an encoding label, a fragment context, the scripting and
processing-instruction flags, chunk sizes for Parser.feed) and the markup;
then every invariant of tools/fuzz_malformed.py is checked: no exception from
parse / parse_fragment / Parser.feed / close / dump / to_html / serialize,
the serialization round trip, chunked = whole (str and bytes) with the same
parse errors. A broken invariant is an uncaught exception, which libFuzzer
reports with the input saved as crash-*; a case slower than -timeout is
saved as timeout-*; a crash of the interpreter is caught by libFuzzer's
signal handlers.

How to run (from the repository root, in the venv):

    pip install atheris
    python tools/fuzz_atheris.py --make-seeds fuzz-seeds     # once: small inputs
                                                             # from the test data
    nice -n 10 python tools/fuzz_atheris.py -timeout=5 -max_len=4096 \\
        -max_total_time=3600 -rss_limit_mb=4096 fuzz-corpus fuzz-seeds

The Python layers (lexpy's driver, serializer options, the invariants) are
instrumented by atheris itself. For coverage feedback from the compiled
core, build the extensions with clang's sanitizer coverage first; this
script loads libFuzzer with RTLD_GLOBAL so that they find its callbacks:

    CC=clang LDSHARED="clang -shared" \\
        CFLAGS="-fsanitize=fuzzer-no-link" python setup.py build_ext --inplace --force

(and rebuild normally afterwards). Reproduce a saved input with
`python tools/fuzz_atheris.py crash-...`.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

# atheris loads libFuzzer during Setup(); with RTLD_GLOBAL its coverage
# callbacks are there for the extension modules imported after it.
sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
import atheris  # noqa: E402

lexpy = fuzz_malformed = None


def _import_lexpy() -> None:
    """Import lexpy (and the invariants) instrumented, once libFuzzer is
    loaded (at the first input)."""
    global lexpy, fuzz_malformed
    with atheris.instrument_imports(include=["lexpy", "fuzz_malformed"]):
        import lexpy as _lexpy
        import fuzz_malformed as _fuzz_malformed
    lexpy, fuzz_malformed = _lexpy, _fuzz_malformed


LABELS = [None, None, None, "utf-8", "windows-1252", "utf-16le", "utf-16be",
          "shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "big5", "euc-kr",
          "koi8-r", "iso-8859-2", "windows-1251"]


def case_of(data: bytes):
    """The fuzz input as a case: the options (taken from the end of the
    input), then the markup."""
    fdp = atheris.FuzzedDataProvider(data)
    flags = fdp.ConsumeIntInRange(0, 255)
    context_index = fdp.ConsumeIntInRange(0, 255)
    label_index = fdp.ConsumeIntInRange(0, 255)
    chunk_sizes = [fdp.ConsumeIntInRange(1, 64) for _ in range(fdp.ConsumeIntInRange(1, 8))]
    chunk_window = fdp.ConsumeIntInRange(0, 3) / 4
    markup = fdp.ConsumeBytes(atheris.ALL_REMAINING)
    case = fuzz_malformed.Case(seed=-1, data=markup, scripting=bool(flags & 1),
                              processing_instructions=not flags & 2,
                              chunk_sizes=chunk_sizes,
                              chunk_window=chunk_window,
                              serializer_options=bool(flags & 64))
    if flags & 4:
        case.data = markup.decode("utf-8", "surrogateescape" if flags & 8 else "replace")
        if flags & 8:
            # Lone surrogates stand in for the undecodable bytes.
            case.data = case.data.encode("utf-8", "surrogateescape").decode(
                "utf-8", "replace") if flags & 16 else case.data.replace(
                "\udcff", "\ud800")
    else:
        labels = LABELS + [label for _, label in fuzz_malformed.ENCODINGS[16:]]
        case.encoding = labels[label_index % len(labels)]
    if flags & 32 and context_index < len(fuzz_malformed.CONTEXTS) * 2:
        case.context = fuzz_malformed.CONTEXTS[context_index % len(fuzz_malformed.CONTEXTS)]
    return case


def test_one_input(data: bytes) -> None:
    if lexpy is None:
        _import_lexpy()
    fuzz_malformed.check(case_of(data))


# FuzzedDataProvider takes numbers from the end of the input: a seed is the
# markup, then (read backwards) flags 1 (bytes, scripting on), context 0,
# label 0 (sniffed), one chunk size of 64, window 0.
SEED_OPTIONS = bytes([0, 63, 0, 0, 0, 1])


def make_seeds(folder: str) -> int:
    """Small seed inputs: the #data blocks of the tree-construction tests,
    with neutral options (a whole document as bytes)."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    from conformance import data as test_data
    os.makedirs(folder, exist_ok=True)
    seen = set()
    for test in test_data.tree_cases():
        markup = test.data.encode("utf-8", "surrogatepass")
        if markup in seen:
            continue
        seen.add(markup)
        with open(os.path.join(folder, "seed-%05d" % len(seen)), "wb") as out:
            out.write(markup + SEED_OPTIONS)
    return len(seen)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make-seeds":
        print("%d seeds in %s" % (make_seeds(sys.argv[2]), sys.argv[2]))
        return
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
