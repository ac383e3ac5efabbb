"""Tests of lexpy/encoding: labels, sniffing, decoders, changing the encoding."""
