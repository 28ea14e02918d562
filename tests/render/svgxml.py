"""Reading SVG documents in the render tests."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Elements ``tag`` whose class list contains ``cls``."""
    return [e for e in root.iter(f"{SVG}{tag}") if cls in e.get("class", "").split()]
