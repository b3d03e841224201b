"""The operations of openapi.yaml, as the integration tests and ``examples/`` see them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from service.rules.games import GAMES
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
EXAMPLES_DIR = ROOT / "examples"
GAME_TAGS = tuple(game.id for game in GAMES)  # from the registry


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    tag: str
    request_example: Any = None  # the JSON request body's example; None for operations without a body

    @property
    def example_file(self) -> Path:
        return EXAMPLES_DIR / f"{self.operation_id}.json"


def operations() -> list[Operation]:
    found = []
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            found.append(Operation(op["operationId"], method.upper(), path, op["tags"][0], body.get("example")))
    return found


OPERATIONS = operations()
POST_OPERATIONS = [op for op in OPERATIONS if op.method == "POST"]
GAME_OPERATIONS = [op for op in OPERATIONS if op.tag in GAME_TAGS]


def example_text(example: Any) -> str:
    """How an example is written to ``examples/NAME.json``: indented JSON with each list of cards (any list
    of plain values) on one line, UTF-8, a final newline."""
    return _json(example, "") + "\n"


def _json(value: Any, indent: str) -> str:
    inner = indent + "  "
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if (
        isinstance(value, dict)
        and len(indent + flat) <= 100
        and not any(
            isinstance(v, dict) or (isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v))
            for v in value.values()
        )
    ):
        return flat  # a small record of plain values (and lists of them) on one line
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + _json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)
