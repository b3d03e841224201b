"""The rules core is a library: nothing under service/rules imports the web layer."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "service" / "rules"
FORBIDDEN = ("flask", "marshmallow", "werkzeug", "gunicorn", "service.api")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_rules_core_has_no_web_imports():
    offenders = {
        f"{path.name}: {name}"
        for path in RULES.rglob("*.py")
        for name in imported_modules(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }
    assert not offenders


def test_the_check_sees_every_rules_module():
    assert {"cards.py", "poker.py", "board.py"} <= {p.name for p in RULES.rglob("*.py")}


def test_the_check_would_catch_a_web_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from flask import request\nimport service.api.common\n")
    assert imported_modules(bad) == {"flask", "service.api.common"}
