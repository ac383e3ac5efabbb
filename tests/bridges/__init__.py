"""Tests of the bridges: lexpy.bs4, lexpy.html5lib, lexpy.etree."""
