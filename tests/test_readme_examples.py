"""The README's examples and the reference's in docs/ (README first, then each page it
links to, in its order), run as a newcomer would: every `companion ...` line of their sh
blocks, in the order shown, in an empty folder, with the files it shows (a toml block
whose first line is `# NAME`) written out where they appear. A line that stays running
(`--watch`, `serve`) is started, and stopped with Ctrl+C once it says it is ready."""

import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


README = Path(__file__).resolve().parent.parent / "README.md"
# The pages whose examples run after README's, in this order (a file one shows is there
# for the next).
PAGES = [README] + [README.parent / "docs" / f"{name}.md"
                    for name in ("commands", "own-game", "phones", "pdfx")]


def examples() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
FILE_NAME = re.compile(r"#\s*([\w.-]+\.toml)\s*$")

# What a person types at the prompts of the two commands that ask (the README's own
# game.toml, typed in; one Coverta round).
TYPED = {
    ("score", "covenia", "--save", "typed.toml"):
        "2\nEmma\nLaurence\nA\n1 4 6\n2 8\n3\n4 5\n1 2 3\n\n5\n\n4 7\n6\n\n\n",
    ("coverta", "round", "ledger.toml"): "Ana, Bo, Cy\n0\n3\n5\n\n",
}
# The line a command that stays running prints once it is ready for Ctrl+C.
READY = {"--watch": "watching ", "serve": "Table data: "}


def steps(text: str) -> list[tuple[str, object]]:
    """("file", (name, text)) and ("run", argv) in the README's order."""
    out, block, lang = [], None, ""
    for line in text.splitlines():
        fence = FENCE.match(line)
        if fence and block is None:
            block, lang, indent = [], fence.group(2), len(fence.group(1))
            continue
        if fence:
            if lang == "toml" and block and FILE_NAME.fullmatch(block[0].strip()):
                name = FILE_NAME.fullmatch(block[0].strip()).group(1)
                out.append(("file", (name, "\n".join(block[1:]) + "\n")))
            block = None
            continue
        if block is None:
            continue
        block.append(line[indent:])
        if lang == "sh" and line.strip().startswith("companion"):
            out.append(("run", shlex.split(line.strip(), comments=True)[1:]))
    return out


def lasting(argv: list[str]) -> str | None:
    """What a command that keeps running says once it is ready; None for one that ends."""
    if "--watch" in argv:
        return READY["--watch"]
    return READY["serve"] if argv[:1] == ["serve"] else None


def run_until_ready(argv: list[str], cwd: Path, ready: str, env: dict) -> tuple[int, str]:
    """Starts the command, waits (on its output, 120 s at most) for the line saying it is
    ready, then sends Ctrl+C and waits for it to stop: nothing is left running."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", *argv], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    lines: queue.Queue = queue.Queue()
    def read() -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # its output closed: it ended

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen, deadline = [], time.monotonic() + 120
    try:
        while True:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                break  # it ended by itself: a failure, reported below
            seen.append(line)
            if line.startswith(ready) or line.startswith(f"companion: {ready}"):
                proc.send_signal(signal.SIGINT)
                break
    except queue.Empty:
        pass
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    while not lines.empty():
        seen.append(lines.get() or "")
    said = "".join(seen)
    return (0 if ready in said else 1), said


def test_the_readme_shows_its_files_before_the_commands_that_read_them():
    text = README.read_text(encoding="utf-8")
    order = steps(examples())
    shown = {what[0]: i for i, (kind, what) in enumerate(order) if kind == "file"}
    assert {"game.toml", "row.toml", "scores.toml"} <= set(shown)
    for name, at in shown.items():
        first = min(i for i, (kind, what) in enumerate(order) if kind == "run" and name in what)
        assert at < first, f"{name} is used before the README shows it"
    # The two set-up commands stay exactly as they are.
    assert ('python3 -m venv .venv && . .venv/bin/activate && pip install -e . && '
            'companion build all') in text
    assert ('python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && '
            'python -m pytest') in text


def test_every_readme_example_runs_in_order_in_an_empty_folder(tmp_path):
    from companion.web import network

    # printer profiles (companion calibrate) kept in the test's folder, not the user's
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "TABLE_COMPANION_CONFIG": str(tmp_path / "config")}
    done = []
    for kind, what in steps(examples()):
        if kind == "file":
            name, body = what
            (tmp_path / name).write_text(body, encoding="utf-8")
            continue
        argv = list(what)
        if argv[:1] == ["serve"] and not network.candidates():  # a machine with no LAN
            argv += ["--host", "127.0.0.1"]
        ready = lasting(argv)
        if ready:
            code, said = run_until_ready(argv, tmp_path, ready, env)
        else:
            r = subprocess.run([sys.executable, "-m", "companion", *argv], cwd=tmp_path,
                               env=env, input=TYPED.get(tuple(argv), ""), text=True,
                               capture_output=True, timeout=600)
            code, said = r.returncode, r.stdout + r.stderr
        assert code == 0, f"companion {shlex.join(argv)} (after {len(done)} examples):\n{said}"
        done.append(argv)
    assert len(done) > 30


def test_the_readme_is_a_short_guide_linking_every_reference_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) < 15_000
    assert "## Contents" in text
    for page in [*PAGES[1:], README.parent / "docs" / "map.md",
                 README.parent / "docs" / "layout-reference.md",
                 README.parent / "docs" / "scoring-reference.md"]:
        assert f"](docs/{page.name})" in text, page.name
        assert page.exists()


def test_the_index_pages_description_has_no_link_that_works_only_in_the_repository():
    import re
    import tomllib

    root = README.parent
    readme = tomllib.loads((root / "pyproject.toml").read_text())["project"]["readme"]
    text = (root / readme).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert all(re.match(r"https?://", link) for link in links), links


def test_the_map_names_every_file_of_the_package():
    """docs/map.md: every module and data file has its row (a folder's `__init__.py`
    aside, unless it holds more than a docstring)."""
    root = README.parent
    text = (root / "docs" / "map.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted((root / "companion").rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
            continue
        rel = path.relative_to(root / "companion")
        if rel.parts[:2] == ("web", "page"):  # the phone page's files: one row, the folder
            continue
        if path.name == "__init__.py" and len(path.read_text().strip().splitlines()) <= 3:
            continue
        if path.parent.name == "fontfiles" and path.suffix == ".ttf":
            continue  # the fonts, one row
        if path.parent.name in ("starter", "icons") and path.suffix in (".csv", ".svg"):
            continue  # what `companion new` copies, one row
        name = path.name
        if f"`{name}`" not in text and f"`{rel}`" not in text and f"{rel.parent}/{name}" not in text:
            missing.append(str(rel))
    assert not missing, missing
