"""printgen: print-and-play PDFs and SVGs from YAML game definitions."""
import os
import sys

__version__ = "0.1.0"

# reportlab type-checks every attribute set on a drawing shape. printgen sets some 30,000 of them in
# `printgen build omiga`, from tested code, and the checks cost a sixth of the drawing time; the
# output is byte-identical without them. PRINTGEN_SHAPE_CHECKS=1 keeps them. reportlab reads the
# setting once, when it starts: from RL_shapeChecking in the environment (importing reportlab here to
# set it would cost `printgen --help` 40 ms), or, if reportlab has started already, from rl_config.
if os.environ.get("PRINTGEN_SHAPE_CHECKS") != "1":
    if "reportlab.rl_config" in sys.modules:
        setattr(sys.modules["reportlab.rl_config"], "shapeChecking", 0)
    else:
        os.environ.setdefault("RL_shapeChecking", "0")
