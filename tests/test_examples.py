"""Every ```python example of the README and of the documentation pages runs, on its own,
and prints what the page shows.

``tests/test_docs.py`` builds the site (and ``tests/test_notebooks.py`` executes the
notebooks); neither runs the code blocks of the Markdown pages: this file does.  Each
```python block runs in a fresh namespace (its own imports) in a temporary directory.  The
page shows what a block prints in one of two ways, and both are checked:

- a trailing comment on a one-line ``print(...)`` is what that call prints;
- a ```text block right after the ```python block (blank lines between only) is the
  whole output of the block.

A shown number matches to the digits it shows; ``...`` in a shown output stands for any
text.  Blocks not meant to run are fenced ```text or ```bash.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "user_guide").glob("*.md")),
         *sorted((ROOT / "docs" / "papers").glob("*.md"))]

_FENCE = re.compile(r"^(\s*)(`{3,})\s*([^\s`]*)")
_NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"


def _blocks(path: Path) -> list[dict]:
    """The fenced blocks of a Markdown page: language, first code line (1-based), source."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = match.groups()
        start, j = i + 1, i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence)
                                      and lines[j].strip().strip("`") == ""):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                for line in lines[start:j]]
        blocks.append({"lang": lang.lower(), "line": start + 1, "source": "\n".join(body),
                       "end": j})
        i = j + 1
    # a ```text block right after a ```python block is its output
    for prev, block in zip(blocks, blocks[1:]):
        gap = lines[prev["end"] + 1:block["line"] - 2]
        if prev["lang"] == "python" and block["lang"] == "text" and not any(
                g.strip() for g in gap):
            prev["output"] = block["source"]
    return blocks


def _examples():
    for path in PAGES:
        for block in _blocks(path):
            if block["lang"] in ("python", "py", "python3"):
                name = f"{path.relative_to(ROOT).as_posix()}:{block['line']}"
                yield pytest.param(block, id=name)


def _shown_prints(source: str) -> dict[int, str]:
    """Line number -> the output shown as the trailing comment of a one-line print."""
    shown = {}
    for number, line in enumerate(source.splitlines(), start=1):
        match = re.match(r"^\s*print\(.*\)\s*#\s?(.*)$", line)
        if match and _balanced(line[:line.rindex("#")]):
            shown[number] = match.group(1).rstrip()
    return shown


def _balanced(code: str) -> bool:
    depth, quote = 0, None
    for ch in code:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth == 0 and quote is None


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is ``shown``: the same text up to runs of white space, ``...``
    for any text, every shown number equal to the printed one rounded to its digits."""
    parts, pattern = re.split(rf"(\.\.\.|{_NUMBER})", shown.strip()), []
    numbers = []
    for k, part in enumerate(parts):
        if k % 2 == 0:
            pattern.append(r"\s+".join(re.escape(w) for w in re.split(r"\s+", part)))
        elif part == "...":
            pattern.append(r".*?")
        else:
            pattern.append(rf"({_NUMBER})")
            numbers.append(part)
    match = re.fullmatch("".join(pattern), printed.strip(), flags=re.DOTALL)
    if not match:
        return False
    for want, got in zip(numbers, match.groups()):
        digits = len(want.split(".")[1]) if "." in want and "e" not in want.lower() else None
        if digits is None:
            if float(want) != float(got):
                return False
        elif abs(float(got) - float(want)) > 0.5 * 10 ** -digits + 1e-12:
            return False
    return True


@pytest.mark.parametrize("block", list(_examples()))
def test_example_runs_and_prints_what_the_page_shows(block, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib").use("Agg")
    monkeypatch.chdir(tmp_path)
    code = compile(block["source"], f"<{block['line']}>", "exec")
    out = io.StringIO()
    by_line: dict[int, list[str]] = {}

    def capture(*args, sep=" ", end="\n", file=None, flush=False):
        """The page's ``print``, remembering what each line of the block printed."""
        if file is None:
            frame = sys._getframe(1)
            if frame.f_code.co_filename == code.co_filename:
                text = (" " if sep is None else sep).join(str(a) for a in args)
                by_line.setdefault(frame.f_lineno, []).append(text)
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)

    namespace = {"__name__": "__main__", "print": capture}
    with contextlib.redirect_stdout(out):
        exec(code, namespace)  # noqa: S102 - the page's own example
    for number, shown in _shown_prints(block["source"]).items():
        printed = "\n".join(by_line.get(number, []))
        assert matches(shown, printed), (
            f"line {block['line'] + number - 1} shows {shown!r}, prints {printed!r}")
    if "output" in block:
        assert matches(block["output"], out.getvalue()), (
            f"the page shows\n{block['output']}\nthe code prints\n{out.getvalue()}")


def test_matches_reads_numbers_to_their_digits_and_ellipses():
    assert matches("optimal 2.0 2.0", "optimal 2.0 2.0")
    assert matches("0.972", "0.97213")
    assert not matches("0.972", "0.9726")
    assert matches("[[0.083 0.126 0.791]]", "[[0.083 0.126 0.791]]")
    assert matches("a ... z", "a b c z")
    assert not matches("1 rule", "2 rule")
    assert not matches("optimal", "infeasible")


def test_python_blocks_are_found():
    ids = [p.id for p in _examples()]
    assert any(i.startswith("README.md:") for i in ids)
    assert any(i.startswith("docs/user_guide/learners.md:") for i in ids)


# What the command line's help and messages say is what it does.

def test_fit_help_says_the_target_may_have_more_than_two_classes(capsys):
    from optirules.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["fit", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(two classes)" not in text
    assert "two classes or more" in text and "one model per class" in text


def test_fit_takes_a_target_of_three_classes(tmp_path, capsys):
    from sklearn.datasets import load_wine

    from optirules.cli import main

    frame = load_wine(as_frame=True).frame
    frame.to_csv(tmp_path / "wine.csv", index=False)
    model = tmp_path / "wine.json"
    assert main(["fit", str(tmp_path / "wine.csv"), "--target", "target", "--param",
                 "max_degree=1", "--output", str(model)]) == 0
    assert "test accuracy" in capsys.readouterr().out and model.exists()


def test_export_of_a_monks_pair_writes_the_master_of_its_training_file(tmp_path, capsys):
    from optirules.cli import main

    assert main(["export", str(tmp_path / "pair.lp"), "--dataset", "monks1"]) == 0
    assert main(["export", str(tmp_path / "train.lp"), "--dataset", "monks1_train"]) == 0
    assert "split=" not in capsys.readouterr().out
    assert (tmp_path / "pair.lp").read_text() == (tmp_path / "train.lp").read_text()
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "monks1_train" in help_text and "split=" not in help_text


def test_nan_in_a_literal_matrix_reads_as_one_sentence():
    import numpy as np

    from optirules.errors import InputError
    from optirules.learners import BooleanRuleSetClassifier

    with pytest.raises(InputError) as err:
        BooleanRuleSetClassifier(binarizer=None).fit(np.array([[0, np.nan], [1, 0]]), [0, 1])
    message = str(err.value)
    assert message.startswith("Input X contains NaN; with binarizer=None X must be a 0/1 matrix")
    assert "\n" not in message and "NaN With" not in message
