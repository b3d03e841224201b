"""The layers import only downward: nothing under service/rules imports the web layer (the rules core is a
library), and nothing under service/api imports the server that runs it (the worker reads what the two
share, such as ``errors.SERVER_PROBLEM_TYPES``, from the HTTP layer)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"
RULES = SERVICE / "rules"
FORBIDDEN = ("flask", "marshmallow", "werkzeug", "gunicorn", "service.api")
ABOVE_THE_API = ("service.gunicorn_worker", "gunicorn")


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports: by import statements, and by name (``importlib.import_module``,
    ``__import__``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if function in ("import_module", "__import__"):
                names.add(str(node.args[0].value))
    return names


def offenders(folder: Path, forbidden: tuple[str, ...]) -> set[str]:
    return {
        f"{path.relative_to(SERVICE)}: {name}"
        for path in folder.rglob("*.py")
        for name in imported_modules(path)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    }


def test_rules_core_has_no_web_imports():
    assert not offenders(RULES, FORBIDDEN)


def test_the_http_layer_imports_nothing_above_it():
    assert not offenders(SERVICE / "api", ABOVE_THE_API)


def test_the_check_sees_every_rules_module():
    assert {"cards.py", "poker.py", "board.py"} <= {p.name for p in RULES.rglob("*.py")}


def test_the_check_would_catch_a_web_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from flask import request\nimport service.api.common\n")
    assert imported_modules(bad) == {"flask", "service.api.common"}


def test_the_check_would_catch_an_import_by_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import importlib\nworker = importlib.import_module('service.gunicorn_worker')\n")
    assert "service.gunicorn_worker" in imported_modules(bad)


def test_the_worker_answers_the_types_registered_in_the_http_layer():
    from service.api.errors import SERVER_PROBLEM_TYPES
    from service.gunicorn_worker import problem_bytes

    for status, urn in SERVER_PROBLEM_TYPES.items():
        assert f'"type": "{urn}"'.encode() in problem_bytes(status, "detail")
