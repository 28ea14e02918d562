"""What every benchmark prints about the machine it ran on (docs/benchmarks.md records it).

Imported by the scripts beside it (``python benchmarks/bench_x.py`` puts this folder first on
the path).
"""

from __future__ import annotations

import os
import platform
from importlib.metadata import PackageNotFoundError, version


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_lines(*distributions: str) -> list[str]:
    """Platform, CPU, cores (usable), load average now, Python, and the installed versions of
    ``distributions`` (those not installed are left out)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        f"platform: {platform.platform()}",
        f"CPU: {cpu_model()}, {os.cpu_count()} logical cores ({usable} usable); "
        f"load average at start {load:.2f}",
        f"Python: {platform.python_implementation()} {platform.python_version()}",
    ]
    installed = []
    for name in distributions:
        try:
            installed.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    if installed:
        lines.append("libraries: " + ", ".join(installed))
    return lines
