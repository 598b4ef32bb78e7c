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
            found[name] = version_on_path(name) or "not installed"
    return found


def version_on_path(name: str) -> str | None:
    """The version of a command installed in an environment of its own (the peer, kept apart
    from printgen's dependencies), asked of that environment's Python."""
    import shutil
    import subprocess

    command = shutil.which(name)
    python = Path(command).resolve().parent / "python" if command else None
    if python is None or not python.exists():
        return None
    asked = subprocess.run([str(python), "-c", f"from importlib import metadata; print(metadata.version({name!r}))"],
                           capture_output=True, text=True, timeout=30)
    return f"{asked.stdout.strip()} (its own environment)" if asked.returncode == 0 else None


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
