"""Where the scraping fixtures are: $LEXPY_SCRAPE, then ../shared/scrape/
(structured-data/ and tables/; see their READMEs). Missing data fails the
tests that need it, loudly."""
import json
import os
from pathlib import Path

from tests.conformance.data import ROOT, DataNotFound


def scrape_dir() -> Path:
    env = os.environ.get("LEXPY_SCRAPE")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "scrape"]
    for path in candidates:
        if (path / "structured-data" / "extruct" / "manifest.json").is_file() \
                and (path / "tables" / "cases.json").is_file():
            return path
    raise DataNotFound("scraping fixtures not found; tried: "
                       + ", ".join(map(str, candidates))
                       + ". Set LEXPY_SCRAPE to a copy of ../shared/scrape.")


def extruct_entries():
    manifest = scrape_dir() / "structured-data" / "extruct" / "manifest.json"
    return json.loads(manifest.read_text(encoding="utf-8"))["entries"]


def standard_microdata_entries():
    index = scrape_dir() / "structured-data" / "html-standard-microdata" / "index.json"
    return json.loads(index.read_text(encoding="utf-8"))


def table_cases():
    return json.loads((scrape_dir() / "tables" / "cases.json").read_text(encoding="utf-8"))["cases"]
