"""Read a drawn argument graph back: node boxes, edge polylines, and what crosses what."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

__all__ = ["boxes", "crossings", "edges", "headings", "labels"]

SVG = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]  # left, top, right, bottom


def boxes(svg: str) -> dict[str, Box]:
    root = ET.fromstring(svg)
    found = {}
    for group in root.iter(f"{SVG}g"):
        if (group.get("class") or "").startswith("node "):
            rect = group.find(f"{SVG}rect")
            x, y = float(rect.get("x")), float(rect.get("y"))
            found[group.get("data-id")] = (
                x,
                y,
                x + float(rect.get("width")),
                y + float(rect.get("height")),
            )
    return found


def edges(svg: str) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(source, target, points) of every straight-segment edge (a self-loop is a curve)."""
    root = ET.fromstring(svg)
    found = []
    for path in root.iter(f"{SVG}path"):
        if "edge" not in (path.get("class") or "").split() or "C" in path.get("d"):
            continue
        points = [
            (float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", path.get("d"))
        ]
        found.append((path.get("data-source"), path.get("data-target"), points))
    return found


def headings(svg: str) -> dict[str, str]:
    """Each node's heading: the first words drawn in its box."""
    root = ET.fromstring(svg)
    return {
        group.get("data-id"): group.find(f"{SVG}text").text or ""
        for group in root.iter(f"{SVG}g")
        if (group.get("class") or "").startswith("node ")
    }


def labels(svg: str) -> list[str]:
    """Every word drawn on the picture (not the tooltips, which are <title>s)."""
    return [text.text or "" for text in ET.fromstring(svg).iter(f"{SVG}text")]


def _segment_hits_box(a: tuple[float, float], b: tuple[float, float], box: Box) -> bool:
    """Liang-Barsky: does the segment a-b pass through the box's inside (1 px margin)?"""
    left, top, right, bottom = box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - left), (dx, right - a[0]), (-dy, a[1] - top), (dy, bottom - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def crossings(svg: str) -> list[str]:
    """Each edge drawn through a node box other than its own two ends."""
    found = []
    drawn = boxes(svg)
    for source, target, points in edges(svg):
        for node_id, box in drawn.items():
            if node_id in (source, target):
                continue
            if any(_segment_hits_box(a, b, box) for a, b in zip(points, points[1:], strict=False)):
                found.append(f"{source}->{target} crosses {node_id}")
    return found
