"""printgen: print-and-play PDFs and SVGs from YAML game definitions."""

__version__ = "0.1.0"
