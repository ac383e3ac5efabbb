"""Scraping helpers over the DOM, the selectors and the text layer: the
structured data of a page (JSON-LD, microdata, OpenGraph, RDFa Lite, meta
tags: structured_data), its tables after the HTML standard's table model
(table_grid, read_tables) and its links (iter_links, make_links_absolute)."""
from lexpy.extract.structured import microdata_json, structured_data
from lexpy.extract.tables import form_table, read_tables, table_grid
from lexpy.extract.links import iter_links, make_links_absolute
from lexpy.extract.records import compile_extractor, extract_records

__all__ = ["compile_extractor", "extract_records", "form_table", "iter_links", "make_links_absolute", "microdata_json", "read_tables",
           "structured_data", "table_grid"]
