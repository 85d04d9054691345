"""What a PDF page really draws, read from its content stream (pikepdf): every rectangle
and path with the matrix it was drawn under, on the page (forms are not entered)."""

import pikepdf
from reportlab.graphics.transform import mmult, transformPoint


def _ops(page):
    return pikepdf.parse_content_stream(page)


def drawn(page) -> list[dict]:
    """Each path drawn on the page: {"kind": "re"|"path", "local": its points as written,
    "ops": a path's operators on the page ("M"/"L", point; "C", three points; "Z"),
    "points": on the page, "paint": the operator that ended it (S, f..., "clip" for W n), "dash"}."""
    ctm = (1, 0, 0, 1, 0, 0)
    stack, out, current, dash, clipping = [], [], [], None, False
    for operands, op in _ops(page):
        op = str(op)
        nums = [float(v) for v in operands if _is_num(v)]
        if op == "q":
            stack.append((ctm, dash))
        elif op == "Q":
            ctm, dash = stack.pop()
        elif op == "cm":
            ctm = mmult(ctm, tuple(nums))
        elif op == "d":
            dash = [float(v) for v in operands[0]]
        elif op == "re":
            x, y, w, h = nums
            local = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            current.append(("re", local, (w, h)))
        elif op in ("m", "l"):
            if op == "m":
                current.append(("path", [], []))
            current[-1][1].append(tuple(nums))
            current[-1][2].append((op.upper(), transformPoint(ctm, nums)))
        elif op == "c":
            pts = [tuple(nums[0:2]), tuple(nums[2:4]), tuple(nums[4:6])]
            current[-1][1].extend(pts)
            current[-1][2].append(("C", *[transformPoint(ctm, p) for p in pts]))
        elif op == "h" and current:
            current[-1][2].append(("Z",))
        elif op in ("S", "s", "f", "f*", "B", "b", "n", "W", "W*"):
            if op in ("W", "W*"):
                clipping = True
                continue
            if op == "n" and clipping:
                op, clipping = "clip", False
            for kind, local, extra in current:
                size, ops = (extra, None) if kind == "re" else (None, extra)
                out.append({"kind": kind, "local": local, "size": size, "paint": op, "ops": ops,
                            "dash": dash, "points": [transformPoint(ctm, p) for p in local]})
            current = []
    return out


def _is_num(v) -> bool:
    if isinstance(v, (pikepdf.Array, pikepdf.Name, pikepdf.String)):
        return False
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def pages(path) -> list:
    pdf = pikepdf.open(path)
    return [drawn(p) for p in pdf.pages]
