"""Functions for running lexpy inside other engines, importable without
them (tests call them directly; README "Corpus scale" shows the engines).

- spark_partition: the body of a PySpark ``rdd.mapPartitions`` over WARC
  paths, as cc-pyspark runs its jobs.
- datatrove_extract: the ``extract(text)`` of a datatrove extractor step
  (a BaseExtractor subclass, as FineWeb's pipeline uses trafilatura).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator

import lexpy
from lexpy.corpus.engines import apply
from lexpy.corpus.extract import extract_record
from lexpy.corpus.readers import iter_inputs
from lexpy.corpus.records import Record, RecordError


def spark_partition(paths: Iterable[str],
                    fn: Callable[[Record], Any] = extract_record) -> Iterator[Dict[str, Any]]:
    """The JSON-ready results of `fn` over the records of the WARC (or HTML)
    files of one Spark partition, errors as error dicts:
    ``sc.parallelize(paths, n).mapPartitions(spark_partition)``."""
    for result in map(lambda item: apply(fn, item), iter_inputs(list(paths))):
        yield result.to_dict() if isinstance(result, RecordError) else result


def datatrove_extract(text: str) -> str:
    """The text of an HTML page given as str (what a datatrove extractor's
    ``extract`` receives), as extract_record makes it:
    lexpy.extract_text(main_content=True) of its body."""
    from lexpy.corpus.extract import _text
    if not isinstance(text, str):
        raise TypeError("text must be a str, not %s" % type(text).__name__)
    return _text(lexpy.parse(text))
