"""Print pip constraints that pin every dependency of pyproject.toml to its declared floor.

``python .ci/lowest_constraints.py > lowest.txt`` then ``pip install -c lowest.txt -e .``
installs the lowest versions optirules declares (``name>=X`` becomes ``name==X``; an exact
pin stays; a dependency without a floor is left free), so the lowest-versions CI job tests
that the floors are true.  Extras of the optional groups named on the command line
(default: ``test``) are pinned too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent


def floor_pin(requirement: str) -> str | None:
    """``"dask[distributed]>=2024.8"`` -> ``"dask==2024.8"``; None without a floor."""
    req = requirement.split(";")[0].strip()          # environment markers are not used here
    match = re.match(r"^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)$", req)
    if match is None:
        raise SystemExit(f"cannot read the requirement {requirement!r}")
    name, _, spec = match.groups()
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        op, version = re.match(r"^(>=|==|~=)?\s*(.*)$", clause).groups()
        if op in (">=", "==", "~="):
            return f"{name}=={version}"
    return None


def main(groups: list[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for group in groups:
        requirements += project.get("optional-dependencies", {}).get(group, [])
    for requirement in requirements:
        pin = floor_pin(requirement)
        if pin is not None:
            print(pin)


if __name__ == "__main__":
    main(sys.argv[1:] or ["test"])
