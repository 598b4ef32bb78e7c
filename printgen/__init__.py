"""printgen: print-and-play PDFs and SVGs from YAML game definitions."""
import os

from reportlab import rl_config

__version__ = "0.1.0"

# reportlab type-checks every attribute set on a drawing shape. printgen sets some 30,000 of them in
# `printgen build omiga`, from tested code, and the checks cost a sixth of the drawing time; the
# output is byte-identical without them. PRINTGEN_SHAPE_CHECKS=1 keeps them (this has to run before
# reportlab.graphics.shapes is first imported, which is why it sits here).
if os.environ.get("PRINTGEN_SHAPE_CHECKS") != "1":
    rl_config.shapeChecking = 0
