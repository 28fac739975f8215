"""The code base stays ruff-clean (the rules are in pyproject.toml), and the package
carries no measured figures in its comments, docstrings and messages."""

import ast
import bisect
import io
import itertools
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it comes with the test extra)")
    proc = subprocess.run([ruff, "check", "--quiet", str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --- No measured figures in the package -------------------------------------------------
# House rule: a number that came from a run (a time, a speed ratio, an accuracy, a count of
# a run) lives in benchmarks/results and in the docs pages that cite it, never in a comment,
# docstring or message, where it goes stale silently.  The package says why a constant is
# what it is and names the results file that holds the measurement.
_NUMBER = r"\d+(?:[.,]\d+)*(?:e-?\d+)?"
MEASURED_FIGURE_PATTERNS = {
    # a number followed by a time unit or "CPU": "1.5 s", "0.1-0.7 s CPU", "7.2 CPU seconds"
    "time": re.compile(rf"\b{_NUMBER}\s?(?:ms|s|secs?|seconds?|mins?|minutes?|CPU)\b(?!\()"),
    # a comparison of two decimals: "0.15 vs 0.36", "1.41 -> 1.10", "0.86 against 0.75"
    "comparison": re.compile(r"\b\d*\.\d+\s*(?:vs\.?|versus|->|→|against)\s*\d*\.?\d+"),
    # a speed ratio: "100x slower", "3.2 times faster"
    "ratio": re.compile(rf"\b{_NUMBER}\s?(?:x|times)\s+(?:slower|faster)\b"),
    # "measured" / "measuring" next to a number (same clause, either side; a digit inside a
    # name such as "aix360" is not a number)
    "measured": re.compile(r"\bmeasur(?:ed|ing)\b[^.;:\n]{0,40}?(?<![\w.])\d"
                           r"|(?<![\w.])\d[^.;:\n]{0,40}?\bmeasur(?:ed|ing)\b", re.IGNORECASE),
}
# Text that matches a pattern and is not a measurement: (path relative to the repo, text).
# Prefer rewording over adding here.
MEASURED_FIGURE_ALLOWLIST: set[tuple[str, str]] = set()


def _texts(path: Path):
    """(line, text) of every comment block and string literal of one module; comment lines
    in a row are joined, and runs of whitespace become one space."""
    source = path.read_text(encoding="utf-8")
    comments: list[tuple[int, str]] = []
    with io.StringIO(source) as stream:
        for tok in tokenize.generate_tokens(stream.readline):
            if tok.type == tokenize.COMMENT:
                text = tok.string.lstrip("#").lstrip(":!")
                line = tok.start[0]
                if comments and comments[-1][0] + comments[-1][1].count("\n") == line - 1:
                    comments[-1] = (comments[-1][0], comments[-1][1] + "\n" + text)
                else:
                    comments.append((line, text))
    yield from comments
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_measured_figures_in_the_package():
    hits = []
    for path in sorted((ROOT / "optirules").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for line, text in _texts(path):
            words = [(m.group(), text.count("\n", 0, m.start())) for m in re.finditer(r"\S+", text)]
            flat = " ".join(word for word, _ in words)
            starts = list(itertools.accumulate((len(w) + 1 for w, _ in words[:-1]), initial=0))
            for name, pattern in MEASURED_FIGURE_PATTERNS.items():
                for match in pattern.finditer(flat):
                    if (rel, match.group()) not in MEASURED_FIGURE_ALLOWLIST:
                        at = line + words[bisect.bisect_right(starts, match.start()) - 1][1]
                        hits.append(f"{rel}:{at}: [{name}] {match.group()!r}")
    assert not hits, ("measured figures belong in benchmarks/results and the docs pages "
                      "that cite them, not in the package:\n" + "\n".join(hits))


def test_no_package_file_over_800_lines_and_no_function_over_100():
    """A module holds one job and a function one step: no file of the package is over 800
    lines and no function's body (its docstring left out) over 100."""
    import ast
    from pathlib import Path

    import optirules

    root = Path(optirules.__file__).parent
    big, long = [], []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        if text.count("\n") > 800:
            big.append(f"{path.relative_to(root)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = node.body[0]
                start = first.lineno
                if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                        and isinstance(first.value.value, str)):
                    start = node.body[1].lineno if len(node.body) > 1 else node.end_lineno
                if node.end_lineno - start + 1 > 100:
                    long.append(f"{path.relative_to(root)}: {node.name}")
    assert not big and not long, "\n".join(big + long)
