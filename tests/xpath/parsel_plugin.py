"""A pytest plugin that makes parsel's own test suite test lexpy.parsel:
`parsel.Selector` and `parsel.SelectorList` become lexpy's subclasses
before the suite's modules import them."""
import parsel
import parsel.selector

import lexpy.parsel

parsel.Selector = lexpy.parsel.Selector  # type: ignore[misc]
parsel.SelectorList = lexpy.parsel.SelectorList  # type: ignore[misc]
