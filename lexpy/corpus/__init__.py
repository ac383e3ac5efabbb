"""lexpy.corpus: from a folder of WARC files to extracted records, the same
on a laptop and a cluster (extras lexpy[warc], lexpy[dask]).

iter_warc() and iter_files() read Records (url, HTTP status, headers, body,
and the file and offset they came from); extract_record() is the default
extraction (title, lang, description, canonical link, absolute links, text,
parse-error count); process() runs an extraction over inputs on threads,
processes or a Dask cluster, with failures as RecordErrors in the results.
"""
from lexpy.corpus.engines import ENGINES, apply, apply_batch, process
from lexpy.corpus.extract import content_type, extract_record, parse_record
from lexpy.corpus.readers import is_warc, iter_files, iter_inputs, iter_warc, warc_backend
from lexpy.corpus.records import NotAPage, Record, RecordError

__all__ = [
    "ENGINES",
    "NotAPage",
    "Record",
    "RecordError",
    "apply",
    "apply_batch",
    "content_type",
    "extract_record",
    "is_warc",
    "iter_files",
    "iter_inputs",
    "iter_warc",
    "parse_record",
    "process",
    "warc_backend",
]
