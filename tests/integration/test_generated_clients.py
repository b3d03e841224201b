"""Clients generated from openapi.yaml by the two common generators work: openapi-python-client (the test
extra) makes a Python package that imports and answers one call per game against gunicorn exactly; and
openapi-typescript (npm, exact version, installed by scripts/install-test-tools into .tools/node) makes
types under which every request and 200-answer example of the contract type-checks with ``tsc --strict``,
and wrong requests do not."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.integration.contract import GAME_TAGS, OPERATIONS, POST_OPERATIONS, SPEC

VENV_BIN = Path(sys.executable).parent
NODE_BIN = ROOT / ".tools" / "node" / "node_modules" / ".bin"
PACKAGE = "card_rules_client"
# The one part of the contract a JSON client cannot use: /openapi.yaml answers YAML (/openapi.json is the same).
EXPECTED_GENERATOR_WARNINGS = {"WARNING parsing GET /openapi.yaml within service."}


def example(operation_id: str) -> Any:
    return next(op.request_example for op in POST_OPERATIONS if op.operation_id == operation_id)


# --- Python: openapi-python-client -------------------------------------------------------------------


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("python-client")
    config = where / "config.yaml"
    config.write_text(f"project_name_override: card-rules-client\npackage_name_override: {PACKAGE}\n")
    result = subprocess.run(
        [str(VENV_BIN / "openapi-python-client"), "generate", "--path", str(ROOT / "openapi.yaml"),
         "--config", str(config), "--meta", "none", "--output-path", str(where / PACKAGE)],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, PATH=f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"),
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    warnings = {line.strip() for line in output.splitlines() if line.startswith("WARNING")}
    assert warnings <= EXPECTED_GENERATOR_WARNINGS, output
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_python_client_has_a_function_for_every_operation(python_client):
    for op in OPERATIONS:
        module_name = "".join("_" + c.lower() if c.isupper() else c for c in op.operation_id)
        module = importlib.import_module(f"{PACKAGE}.api.{op.tag.replace('-', '_')}.{module_name}")
        assert callable(module.sync_detailed), op.operation_id


def test_python_client_one_call_per_game_against_gunicorn(python_client, live_server):
    from card_rules_client import Client
    from card_rules_client.api.big_two import big_two_classify_play
    from card_rules_client.api.joker_thirteen import joker_thirteen_evaluate_dun
    from card_rules_client.api.ofc_pineapple import ofc_evaluate_row, ofc_score_hand
    from card_rules_client.models import (
        BigTwoClassification,
        BigTwoClassifyRequest,
        HandScore,
        HandScoreRequest,
        JokerThirteenDunEvaluateRequest,
        JokerThirteenDunValue,
        Problem,
        RowEvaluateRequest,  # fmt: skip
    )

    client = Client(base_url=live_server.base_url, raise_on_unexpected_status=True)
    with client:
        # Pineapple OFC: the rule book's 3-player showdown, +7 / +17 / -24.
        response = ofc_score_hand.sync_detailed(client=client, body=HandScoreRequest.from_dict(example("ofcScoreHand")))
        assert response.status_code == 200 and isinstance(response.parsed, HandScore)
        assert [p.total for p in response.parsed.players] == [7, 17, -24]
        assert [(m.a, m.b, m.points_a) for m in response.parsed.matchups] == [(0, 1, -3), (0, 2, 10), (1, 2, 14)]
        assert response.parsed.to_dict() == json.loads(response.content)  # the models keep every field

        # Joker Thirteen: A-K of spades and three jokers on the tail is a straight flush to the ace.
        response = joker_thirteen_evaluate_dun.sync_detailed(
            client=client, body=JokerThirteenDunEvaluateRequest.from_dict(example("jokerThirteenEvaluateDun"))
        )
        assert response.status_code == 200 and isinstance(response.parsed, JokerThirteenDunValue)
        assert response.parsed.to_dict() == {
            "hand": {"category": "straight_flush", "label": "Straight flush", "strength": [11, 14],
                     "cards": ["As", "Ks", "JK", "JK", "JK"], "resolved": ["Qs", "Js", "Ts"]},
            "bonus": 1,
        }  # fmt: skip

        # Taiwanese Big Two: four nines with a kicker is a monster.
        response = big_two_classify_play.sync_detailed(
            client=client, body=BigTwoClassifyRequest.from_dict(example("bigTwoClassifyPlay"))
        )
        assert response.status_code == 200 and isinstance(response.parsed, BigTwoClassification)
        assert response.parsed.to_dict() == {
            "valid": True, "combination": "four_of_a_kind", "monster": True, "violations": [],
            "hand": {"category": "four_of_a_kind", "label": "Four of a kind", "strength": [5, 6],
                     "cards": ["9s", "9h", "9d", "9c", "3h"]},
        }  # fmt: skip

        # A "no" comes back typed too: a 3-card middle row is a 422 problem pointing at the cards.
        response = ofc_evaluate_row.sync_detailed(
            client=client, body=RowEvaluateRequest.from_dict({"row": "middle", "cards": ["As", "Ks", "Qs"]})
        )
        assert response.status_code == 422 and isinstance(response.parsed, Problem)
        assert response.parsed.status == 422 and [e.pointer for e in response.parsed.errors] == ["/cards"]


def imported_modules(path: Path) -> set[str]:
    """The modules a Python file imports, read from its syntax tree (not its text: a docstring's line may
    begin with "from")."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


README = (ROOT / "README.md").read_text(encoding="utf-8")
README_CLIENTS = README[README.index("### Generated clients") : README.index("### Using the rules as a library")]


def test_readme_python_snippet_runs_from_any_folder(python_client, live_server, tmp_path, monkeypatch, capsys):
    """README, "Generated clients": the Python snippet, one call per game, run from a folder that is not the
    repository's, prints what each print's comment says; the third-party packages the README names are the
    ones the generated code imports."""
    clients = README_CLIENTS
    snippet = re.search(r"```python\n(.*?)```", clients, re.S).group(1)
    printed = re.findall(r"^print\(.*\)  # (.*)$", snippet, re.M)
    called = set(re.findall(r"^from card_rules_client\.api\.(\w+) import", snippet, re.M))
    assert called == {tag.replace("-", "_") for tag in GAME_TAGS}  # one call per game
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet.replace("http://127.0.0.1:8000", live_server.base_url), "README.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == printed

    package = Path(python_client.__file__).parent
    imported = {name.split(".")[0] for f in package.rglob("*.py") for name in imported_modules(f)}
    third_party = {m for m in imported - set(sys.stdlib_module_names) if m not in (PACKAGE, "")}
    assert third_party == {"httpx", "attrs"}, third_party
    named = clients[: clients.index("```")]
    assert "`httpx`" in named and "`attrs`" in named and "dateutil" not in named


def component(ref: dict[str, str]) -> str:
    return ref["$ref"].removeprefix("#/components/schemas/")


def test_readme_names_every_operations_module_request_and_answer_model(python_client):
    """README, "Generated clients": the table of models is the contract's, one row per game operation, and
    each name is in the generated package (the thirteen game's answers under names of their own)."""
    table = re.search(r"<!-- client-models -->\n(.*?)<!-- /client-models -->", README_CLIENTS, re.S).group(1)
    rows = re.findall(r"^\| `([\w-]+)` \| `(\w+)` \| `api\.(\w+)\.(\w+)` \| `(\w+)` \| `(\w+)` \|$", table, re.M)
    expected = []
    for op in POST_OPERATIONS:
        if op.tag in GAME_TAGS:
            spec_op = SPEC["paths"][op.path]["post"]
            request = component(spec_op["requestBody"]["content"]["application/json"]["schema"])
            answer = component(spec_op["responses"]["200"]["content"]["application/json"]["schema"])
            module = "".join("_" + c.lower() if c.isupper() else c for c in op.operation_id)
            expected.append((op.tag, op.operation_id, op.tag.replace("-", "_"), module, request, answer))
    assert sorted(rows) == sorted(expected)
    models = importlib.import_module(f"{PACKAGE}.models")
    for _, _, package, module, request, answer in rows:
        assert callable(importlib.import_module(f"{PACKAGE}.api.{package}.{module}").sync)
        assert isinstance(getattr(models, request), type) and isinstance(getattr(models, answer), type)
    assert {answer for tag, *_, answer in rows if tag == "thirteen"} == {
        "ThirteenDunValue", "ThirteenDunComparison", "ThirteenArrangementValidation", "ThirteenRoundScore",
        "ThirteenSuggestion", "ThirteenSpecials",
    }  # fmt: skip


# --- TypeScript: openapi-typescript + tsc -------------------------------------------------------------

TYPESCRIPT_USAGE = """\
import type { components, operations } from "./api";

type JsonBody<Op extends keyof operations> =
  operations[Op] extends { requestBody: { content: { "application/json": infer Body } } } ? Body : never;
type Answer<Op extends keyof operations> =
  operations[Op] extends { responses: { 200: { content: { "application/json": infer Body } } } } ? Body : never;

// An integrator's typed call: the body and the answer come from the contract.
export async function scoreHand(baseUrl: string, body: JsonBody<"ofcScoreHand">): Promise<number[]> {
  const response = await fetch(`${baseUrl}/v1/ofc-pineapple/hands/score`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) {
    const problem = (await response.json()) as components["schemas"]["Problem"];
    throw new Error(`${problem.status} ${problem.title}: ${problem.errors.map((e) => e.pointer).join(", ")}`);
  }
  const answer = (await response.json()) as Answer<"ofcScoreHand">;
  return answer.players.map((player) => player.total);
}

export const bonus = (value: Answer<"jokerThirteenEvaluateDun">): number => value.bonus;
export const isMonster = (value: Answer<"bigTwoClassifyPlay">): boolean => value.monster;

// Wrong requests do not compile.
// @ts-expect-error a row is top, middle or bottom
export const wrongRow: JsonBody<"ofcEvaluateRow"> = { row: "side", cards: ["Kh", "Kd", "As"] };
// @ts-expect-error the cards are required
export const noCards: JsonBody<"ofcEvaluateRow"> = { row: "top" };
// @ts-expect-error a dun is head, middle or tail
export const wrongDun: JsonBody<"jokerThirteenEvaluateDun"> = { dun: "neck", cards: ["5h", "7c", "JK"] };
// @ts-expect-error unknown fields are rejected (additionalProperties: false)
export const extraField: JsonBody<"bigTwoClassifyPlay"> = { cards: ["3c"], colour: "red" };

// Every request example and every JSON 200-answer example of the contract, typed.
"""


def typescript_examples() -> str:
    lines = []
    for item in SPEC["paths"].values():
        for method, op in item.items():
            name = op["operationId"]
            if method == "post":
                body = op["requestBody"]["content"]["application/json"]["example"]
                lines.append(
                    f"export const {name}Request: JsonBody<{json.dumps(name)}> = {json.dumps(body, ensure_ascii=False)};"
                )
            answer = op["responses"]["200"].get("content", {}).get("application/json", {})
            if "example" in answer:
                lines.append(
                    f"export const {name}Answer: Answer<{json.dumps(name)}> = {json.dumps(answer['example'], ensure_ascii=False)};"
                )
    return "\n".join(lines) + "\n"


@pytest.mark.usefixtures("tools")
def test_typescript_types_compile_with_every_example(tmp_path):
    result = subprocess.run([str(NODE_BIN / "openapi-typescript"), str(ROOT / "openapi.yaml"), "--output", str(tmp_path / "api.d.ts")],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    types = (tmp_path / "api.d.ts").read_text(encoding="utf-8")
    for op in OPERATIONS:
        assert f'operations["{op.operation_id}"]' in types, op.operation_id
    (tmp_path / "usage.ts").write_text(TYPESCRIPT_USAGE + typescript_examples(), encoding="utf-8")
    result = subprocess.run(
        [str(NODE_BIN / "tsc"), "--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom",
         "--module", "esnext", "--moduleResolution", "bundler", "usage.ts"],
        capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
