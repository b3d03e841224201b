"""docs/rulings.md names the test that holds each ruling: every test and test file it names exists, so a
renamed or deleted test cannot leave a ruling pointing at nothing."""

from __future__ import annotations

import re

from tests.conftest import ROOT

RULINGS = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
TEST_FILES = sorted((ROOT / "tests").rglob("*.py"))
DEFINED = {
    name
    for path in TEST_FILES
    for name in re.findall(r"^\s*(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
}


def test_every_test_a_ruling_names_exists():
    """A name ending in ``_`` (written ``test_example_…``) names a family: some test starts with it."""
    named = set(re.findall(r"\b(test_\w+)", RULINGS)) - {path.stem for path in TEST_FILES}
    assert len(named) > 50
    missing = [n for n in named if (not any(d.startswith(n) for d in DEFINED) if n.endswith("_") else n not in DEFINED)]
    assert sorted(missing) == []


def test_every_test_file_a_ruling_names_exists():
    files = set(re.findall(r"\b(tests/[\w/]+\.py)\b", RULINGS))
    assert files and sorted(f for f in files if not (ROOT / f).is_file()) == []
