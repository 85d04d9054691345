"""The differential check (issue 41): what a build makes from kept work (the cache folder,
a watching process's kept drawings, an earlier export) must render exactly as a cold
build in a fresh cache. Every run here is `companion` in its own process, as a user runs
it (a process's own memos, a font registered, are part of what a warm run is); pages are
rendered small by pdfium and poppler, and either saying anything is a failure."""

import os
import re
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from tests import needs

# A time a run reports of itself (pdfx's manifest: "seconds_converting"): not its output.
TIMED = re.compile(r'("seconds[a-z_]*": )[0-9.e-]+')
SCALE = 0.15  # of 72 dpi: a card is ~25 x 35 pixels, enough to see a mark gone or moved


def run(*args, cache: Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`companion ARGS` in a process of its own, its cache folder `cache`."""
    env = {**os.environ, "TABLE_COMPANION_CACHE": str(cache), "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def outcome(r: subprocess.CompletedProcess) -> tuple:
    """What a run's result is, for comparing: its exit code, and its error line if it
    failed (a traceback is never an outcome: it fails the check)."""
    assert "Traceback" not in r.stderr, r.stderr
    return (r.returncode, r.stderr.strip().splitlines()[-1] if r.returncode else "")


@contextmanager
def _stderr_of_this_process():
    """What is written on this process's standard error (pdfium's own C code included)
    inside the block: `got()` once it ends."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 2)
        said: list[str] = []
        try:
            yield said
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            said.append(f.read().decode("utf-8", "replace"))


def pdf_pixels(pdf: Path) -> list[tuple]:
    """Each page of `pdf`, rendered small by pdfium: (size, its pixels); pdfium and
    poppler (pdftoppm) must print nothing about it."""
    with _stderr_of_this_process() as said:
        doc = pdfium.PdfDocument(str(pdf))
        pages = []
        for i in range(len(doc)):
            bitmap = doc[i].render(scale=SCALE)
            image = bitmap.to_pil()
            pages.append((image.size, image.tobytes()))
        doc.close()
    assert said == [""], f"pdfium on {pdf}: {said[0]}"
    with tempfile.TemporaryDirectory() as folder:
        r = subprocess.run([needs.tool("pdftoppm"), "-r", "8", "-png", str(pdf),
                            str(Path(folder) / "p")], capture_output=True, text=True,
                           check=False)
    assert r.returncode == 0 and r.stderr == "", f"poppler on {pdf}: {r.stderr}"
    return pages


def image_pixels(path: Path) -> tuple:
    with Image.open(path) as im:
        return im.size, im.mode, im.tobytes()


def seen(folder: Path) -> dict[str, object]:
    """What a kit or an export folder shows, file by file: a PDF's pages' pixels, a
    picture's pixels, a text file's text (its folder's path taken out, so two folders
    compare, the seconds it took out), and the files' names."""
    out: dict[str, object] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        suffix = path.suffix.lower()
        if suffix == ".pdf":
            out[rel] = pdf_pixels(path)
        elif suffix in (".png", ".jpg", ".jpeg", ".webp"):
            out[rel] = image_pixels(path)
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
            for place in (str(folder.resolve()), str(folder)):
                text = text.replace(place, "<out>")
            out[rel] = TIMED.sub(r"\1<s>", text)
    return out


def differences(warm: dict, cold: dict) -> list[str]:
    """The files that differ, each named with how (for an assertion's message)."""
    found = [f"{name}: only {'cold' if name in cold else 'warm'}"
             for name in sorted(set(warm) ^ set(cold))]
    for name in sorted(set(warm) & set(cold)):
        a, b = warm[name], cold[name]
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            pages = [i + 1 for i, (x, y) in enumerate(zip(a, b)) if x != y]
            found.append(f"{name}: {len(a)} pages warm, {len(b)} cold, pages differing "
                         f"{pages[:10]}")
        elif isinstance(a, str) and isinstance(b, str):
            import difflib

            lines = [d for d in difflib.unified_diff(b.splitlines(), a.splitlines(), "cold",
                                                     "warm", n=0, lineterm="")][2:8]
            found.append(f"{name}: differs: " + " | ".join(x[:160] for x in lines))
        else:
            found.append(f"{name}: differs")
    return found


def fresh(tmp: Path, name: str) -> Path:
    """A folder not used before under `tmp` (a cold run's cache, an output)."""
    n = 0
    while (tmp / f"{name}{n}").exists():
        n += 1
    return tmp / f"{name}{n}"


def cold(tmp: Path, *args, out_option: str = "--out") -> tuple[tuple, dict]:
    """`companion ARGS --out NEW` in a fresh cache: (its outcome, what it wrote)."""
    out = fresh(tmp, "cold-out")
    r = run(*args, out_option, out, cache=fresh(tmp, "cold-cache"))
    got = outcome(r)
    return got, seen(out) if out.exists() and got[0] == 0 else {}


def same_as_cold(tmp: Path, warm_outcome: tuple, warm_out: Path, *args,
                 what: str = "") -> None:
    """A warm run's outcome and output equal those of the same run made cold."""
    cold_outcome, cold_seen = cold(tmp, *args)
    assert warm_outcome == cold_outcome, (what, warm_outcome, cold_outcome)
    if cold_outcome[0] == 0:
        diff = differences(seen(warm_out), cold_seen)
        assert not diff, f"{what}: {diff}"
