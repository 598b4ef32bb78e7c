"""printgen: print-and-play PDFs and SVGs from YAML game definitions.

Importing printgen sets nothing up: no settings of other libraries change, no file is read.
"""

__version__ = "0.1.0"
