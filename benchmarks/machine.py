"""What the figures were measured on: absolute times only mean something next to the machine."""
from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

PACKAGES = ("printgen", "reportlab", "pydantic", "ruamel.yaml", "click", "jinja2", "svgwrite",
            "pypdfium2", "pillow", "decksmith")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def load_average() -> str:
    try:
        return " / ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def describe() -> list[tuple[str, str]]:
    return [("CPU", cpu_model()), ("cores", str(os.cpu_count() or 1)),
            ("OS", f"{platform.system()} {platform.release()}"),
            ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
            ("packages", ", ".join(f"{k} {v}" for k, v in versions().items()))]
