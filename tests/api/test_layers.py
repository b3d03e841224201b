"""The HTTP layer does not reach up into the server that runs it: no module of service/api imports the
gunicorn worker or gunicorn, by an import statement or by name (``importlib``). The worker reads what the
two share from the HTTP layer (``errors.SERVER_PROBLEM_TYPES``)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

API = ROOT / "service" / "api"
ABOVE = ("service.gunicorn_worker", "gunicorn")


def named_modules(path: Path) -> set[str]:
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


def test_the_http_layer_imports_nothing_above_it():
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in API.rglob("*.py")
        for name in named_modules(path)
        if any(name == above or name.startswith(above + ".") for above in ABOVE)
    }
    assert not offenders


def test_the_check_would_catch_either_kind_of_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('import importlib\nfrom gunicorn import util\nimportlib.import_module("service.gunicorn_worker")\n')
    assert {"gunicorn", "service.gunicorn_worker"} <= named_modules(bad)


def test_the_worker_answers_the_registered_types():
    from service.api.errors import SERVER_PROBLEM_TYPES
    from service.gunicorn_worker import problem_bytes

    for status, urn in SERVER_PROBLEM_TYPES.items():
        assert f'"type": "{urn}"'.encode() in problem_bytes(status, "detail")
