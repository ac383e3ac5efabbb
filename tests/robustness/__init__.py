"""Robustness: malformed and hostile input, limits, linearity, the differential tool."""
