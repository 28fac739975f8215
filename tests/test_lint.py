"""The code base stays ruff-clean (the rules are in pyproject.toml), and the package
carries no measured figures and no development diary in its comments, docstrings and
messages."""

import ast
import bisect
import functools
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

# Development diary: how a speed or a size changed over time ("halved the time per fold",
# "many times faster", "now takes", "missing from our copy") is history, which lives in the
# commits and the results pages; the package says what the code does and why.
DIARY_PATTERNS = {
    # a speed or size halved or multiplied: "nearly halves the fit time", "halved", "5x
    # faster", "many times faster" (the noun, "both halves and their sum", is not a verb)
    "halved": re.compile(r"\bhalv(?:ed|ing)\b|\bhalves\s+(?:the|its|their|a|an|each)\b",
                         re.IGNORECASE),
    "times faster": re.compile(rf"(?:\b{_NUMBER}\s?[x\u00d7]|\btimes)\s+(?:faster|slower|"
                               r"quicker|smaller|larger|fewer|less|more)\b", re.IGNORECASE),
    # a comparison with an earlier state: "faster than before", "now takes", "used to take"
    "than before": re.compile(r"\b(?:faster|slower|quicker|smaller|larger|fewer|more|less)"
                              r"\s+than\s+(?:before|it\s+used\s+to|earlier|previously)\b",
                              re.IGNORECASE),
    "now takes": re.compile(r"\bnow\s+(?:takes|needs|costs|runs\s+in)\b"
                            r"|\bused\s+to\s+(?:take|need|cost|run)\b"
                            r"|\b(?:took|takes|was|were)\s+(?:about\s+|nearly\s+)?"
                            rf"{_NUMBER}\s+(?:before|previously|earlier)\b", re.IGNORECASE),
    "our copy": re.compile(r"\bour\s+(?:copy|checkout|clone|tree)\b", re.IGNORECASE),
}


@functools.cache
def _dataset_count_pattern() -> re.Pattern:
    """A thousands-separated count (``12,332``) in the same clause as, and within a few
    words of, the name of a bundled data set: a size seen on one run, which goes stale.
    "UCI adult" is the source named by an experiment's protocol ("1,000 train / 5,000 test
    rows drawn from UCI adult"), whose counts are its inputs, not its results."""
    from optirules.data import list_datasets

    names = "|".join(sorted(map(re.escape, list_datasets()["name"]), key=len, reverse=True))
    name = rf"(?<!UCI )\b(?:{names})\b"
    count = r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w,])"
    return re.compile(rf"{name}[^.;\n]{{0,30}}?{count}|{count}[^.;\n]{{0,30}}?{name}",
                      re.IGNORECASE)


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


def figure_hits(text: str, patterns: dict[str, re.Pattern]) -> list[tuple[int, str, str]]:
    """(line offset in ``text``, pattern name, matched text) of every match of ``patterns``
    in ``text``, with runs of whitespace (line breaks too) read as one space."""
    words = [(m.group(), text.count("\n", 0, m.start())) for m in re.finditer(r"\S+", text)]
    flat = " ".join(word for word, _ in words)
    starts = list(itertools.accumulate((len(w) + 1 for w, _ in words[:-1]), initial=0))
    return [(words[bisect.bisect_right(starts, match.start()) - 1][1], name, match.group())
            for name, pattern in patterns.items() for match in pattern.finditer(flat)]


def _package_hits(patterns: dict[str, re.Pattern]) -> list[str]:
    hits = []
    for path in sorted((ROOT / "optirules").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for line, text in _texts(path):
            for offset, name, found in figure_hits(text, patterns):
                if (rel, found) not in MEASURED_FIGURE_ALLOWLIST:
                    hits.append(f"{rel}:{line + offset}: [{name}] {found!r}")
    return hits


def test_no_measured_figures_in_the_package():
    hits = _package_hits(MEASURED_FIGURE_PATTERNS)
    assert not hits, ("measured figures belong in benchmarks/results and the docs pages "
                      "that cite them, not in the package:\n" + "\n".join(hits))


def _diary_patterns() -> dict[str, re.Pattern]:
    return {**DIARY_PATTERNS, "data set count": _dataset_count_pattern()}


def test_no_development_diary_in_the_package():
    hits = _package_hits(_diary_patterns())
    assert not hits, ("say what the code does and why, and point to the results page for the "
                      "figure; how it changed over time belongs in the commits:\n"
                      + "\n".join(hits))


@pytest.mark.parametrize("text", [
    "On magic_gamma ``n_jobs=2`` nearly halves the fit time, with the same model",
    "On WDBC ``n_iter_no_change=1``\n    halved the time per fold",
    "one thread was many times faster than OpenBLAS's default",
    "the direct path is several times faster for every solver",
    "a 3.5x faster pricing pass",
    "the dual master is faster than before",
    "the refit now takes a fraction of the time",
    "pricing used to take most of the fit",
    "the gap was 0.05 before",
    "the data file is missing from our copy",
    "one per label-1 row (12,332 on magic_gamma, whose rows merge little)",
    "(magic_gamma: about 10,000 cover rows after merging)",
    "(adult, 48,842 rows: 1,600-5,200 changed per iteration)",
    "WDBC's 1,024 pairs",
])
def test_the_diary_lint_catches_a_planted_line(text):
    assert figure_hits(text, _diary_patterns()), text


@pytest.mark.parametrize("text", [
    "exact: both halves and their sum are doubles",
    "60 products of 20,000 x 58 matrices",
    "a column loop: far faster than ``sum(axis=1)``",
    "makes a depth-3 search slower or faster depending on the data",
    "SQLite and DuckDB: 1,000 levels",
    "``census`` = UCI adult: 1,000 train / 5,000 test rows drawn from all 48,842",
    "10,000 rows of UCI adult drawn without replacement",
    "every fractional clause was fixed to 0 since",
])
def test_the_diary_lint_passes_plain_lines(text):
    assert not figure_hits(text, _diary_patterns()), text


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
