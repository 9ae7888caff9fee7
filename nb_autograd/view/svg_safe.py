"""Graphviz SVG -> the fragment the widget shows. Labels are escaped before layout; this is
the second line of defence: the SVG must parse as XML and hold only the elements and
attributes Graphviz draws with, or it is refused."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
TAGS = {"svg", "g", "path", "polygon", "polyline", "ellipse", "text"}
ATTRS = {"id", "class", "width", "height", "viewBox", "transform", "fill", "stroke", "stroke-width",
         "stroke-dasharray", "d", "points", "cx", "cy", "rx", "ry", "x", "y", "text-anchor",
         "font-family", "font-size", "font-weight", "font-style", "fill-opacity", "stroke-opacity",
         "{http://www.w3.org/XML/1998/namespace}space"}
_DROP = re.compile(r"<\?xml.*?\?>|<!DOCTYPE.*?>|<!--.*?-->|<title>.*?</title>", re.S)


class UnsafeSvg(ValueError):
    pass


def check(svg: str) -> None:
    """Raise UnsafeSvg unless every element and attribute is one Graphviz draws with."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise UnsafeSvg(f"not well-formed: {exc}") from None
    for el in root.iter():
        tag = el.tag[len(SVG_NS):] if el.tag.startswith(SVG_NS) else el.tag
        if tag not in TAGS:
            raise UnsafeSvg(f"element {tag!r}")
        for name in el.attrib:
            if name not in ATTRS:
                raise UnsafeSvg(f"attribute {name!r} on {tag!r}")


def clean_svg(svg: str) -> str:
    """Drop the prolog, comments and tooltips (<title>), then check what is left."""
    out = _DROP.sub("", svg).strip()
    out = out.replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    check(out)
    return out
