"""The README, the licence and the changelog say what is true: the README's order of sections, its
`curl` commands (each answers 200 with the values its comment names), its operations and layout sections
(complete), the tests it says skip without root; the licence in its three places; the version in its three."""

from __future__ import annotations

import ast
import json
import re
import shlex
import subprocess
import tomllib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT
from tests.integration.contract import GAME_TAGS

README = (ROOT / "README.md").read_text(encoding="utf-8")
SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def section(title: str) -> str:
    """The text of the README's ``## title`` section, up to the next ``## ``."""
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert found, f"README has no section '## {title}'"
    return found.group(1)


def test_quick_start_then_concepts_then_operations():
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings[:3] == ["Quick start", "Concepts", "Operations"], headings


def test_quick_start_shows_the_list_of_games():
    assert "curl -s http://127.0.0.1:8000/v1/games" in section("Quick start")


# --- every curl command answers, and answers what its comment says ------------------------------------


def shell_commands(block: str) -> Iterator[tuple[str, str]]:
    """(command, comment text) for each command of a shell block: the comment is the comment lines just
    before the command and the comments after it on its own lines. Quotes span lines; ``#`` starts a comment
    only outside quotes at the start of a word."""
    command, comments, pending = "", [], []
    quote = None
    for line in block.splitlines():
        code, comment = "", ""
        for i, char in enumerate(line):
            if quote:
                quote = None if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "#" and (i == 0 or line[i - 1].isspace()):
                comment = line[i + 1 :]
                break
            code += char
        if not code.strip() and not command:
            pending.append(comment)
            continue
        command += code.rstrip().removesuffix("\\") + "\n"
        comments.append(comment)
        if quote is None and not code.rstrip().endswith("\\"):
            yield command, " ".join(pending + comments)
            command, comments, pending = "", [], []


def curl_commands() -> list[tuple[str, str]]:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    return [(cmd, comment) for block in blocks for cmd, comment in shell_commands(block)
            if cmd.lstrip().startswith("curl ") and "127.0.0.1:8000/" in cmd]  # fmt: skip


CURLS = curl_commands()


def claims(comment: str) -> list[tuple[str, Any]]:
    """The ``"key": value`` pairs a comment names (a JSON string or integer value)."""
    return [(key, json.loads(value)) for key, value in re.findall(r'"(\w+)": ("[^"]*"|-?\d+)', comment)]


def values_of(node: Any, key: str) -> Iterator[Any]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from values_of(v, key)
    elif isinstance(node, list):
        for item in node:
            yield from values_of(item, key)


def test_the_readme_has_curl_commands_for_every_game_and_the_games_list():
    paths = {re.search(r"127\.0\.0\.1:8000(/\S*)", cmd).group(1).rstrip("'") for cmd, _ in CURLS}
    assert "/v1/games" in paths
    for tag in GAME_TAGS:  # every game of the registry
        assert any(p.startswith(f"/v1/{tag}/") for p in paths), tag


@pytest.mark.parametrize(("command", "comment"), CURLS, ids=[c.split()[2].split("8000")[1] for c, _ in CURLS])
def test_readme_curl_answers_200_with_what_its_comment_says(client, command, comment):
    words = shlex.split(command)
    url = next(w for w in words if w.startswith("http://"))
    headers, body = {}, None
    for flag, value in zip(words, words[1:]):
        if flag == "-H":
            name, _, text = value.partition(":")
            headers[name.strip()] = text.strip()
        elif flag == "-d":
            body = (ROOT / value[1:]).read_bytes() if value.startswith("@") else value.encode()
    path = url.removeprefix("http://127.0.0.1:8000")
    response = client.post(path, data=body, headers=headers) if body is not None else client.get(path, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    for key, value in claims(comment):
        assert value in list(values_of(answer, key)), f"{command}: the comment says {key}: {value!r}; answer {answer}"
    wanted = Counter(claims(comment))
    found = Counter((key, v) for key, _ in wanted for v in values_of(answer, key))
    assert wanted - found == Counter(), (wanted, answer)


def test_the_joker_thirteen_example_is_called_what_it_answers(client):
    command, comment = next((c, m) for c, m in CURLS if "duns/evaluate" in c)
    assert ("category", "straight_flush") in claims(comment)
    assert "royal" not in comment.lower()


# --- complete sections ----------------------------------------------------------------------------------


def test_operations_section_lists_every_operation_of_the_contract():
    listed = section("Operations")
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            assert f"`{method.upper()} {path}` | `{op['operationId']}`" in listed, (
                f"add `{method.upper()} {path}` to the README's Operations table"
            )


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout.split()


def test_layout_section_names_every_top_level_entry_and_test_folder():
    layout = section("Layout")
    files = tracked_files()
    tops = {f.split("/")[0] + ("/" if "/" in f else "") for f in files}
    folders = {
        "/".join(f.split("/")[:2]) + "/" for f in files if f.startswith(("tests/", "service/")) and f.count("/") >= 2
    }
    for entry in sorted(tops | folders | {"service/wsgi.py"}):
        short = entry.rstrip("/").rsplit("/", 1)[-1] + ("/" if entry.endswith("/") else "")
        named = (
            (f"`{entry}", f"`{short}") if entry.endswith("/") else (f"`{entry}`", f"`{short}`")
        )  # a folder or a file in it
        assert any(n in layout for n in named), f"Layout does not name {entry}"


def functions_using_tools() -> set[str]:
    """Every test function that asks for the ``tools`` fixture (``usefixtures`` or a parameter)."""
    found = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                uses = any(a.arg == "tools" for a in node.args.args) or any(
                    isinstance(d, ast.Call) and getattr(d.func, "attr", "") == "usefixtures"
                    and any(isinstance(a, ast.Constant) and a.value == "tools" for a in d.args)
                    for d in node.decorator_list
                )  # fmt: skip
                if uses:
                    found.add(f"{path.relative_to(ROOT)}::{node.name}")
    return found


def test_testing_section_lists_exactly_the_tests_that_skip_without_root():
    testing = section("Testing")
    listed = re.search(r"<!-- tools-tests.*?-->\n(.*?)<!-- /tools-tests -->", testing, re.S)
    assert listed, "the Testing section has no tools-tests list"
    assert set(re.findall(r"^- `([^`]+)`$", listed.group(1), re.M)) == functions_using_tools()
    for needed in ("root", "chromium", "nginx", "npm", "openapi-typescript"):
        assert needed in testing


@pytest.mark.parametrize("path", [".schemathesis/state", "client-config.yaml", "card_rules_client/__init__.py",
                                  "card-rules.d.ts", ".venv/bin/python", ".tools/node/package.json",
                                  ".pytest_cache/README.md", ".hypothesis/examples/x"])  # fmt: skip
def test_what_the_tests_and_the_readme_commands_leave_behind_is_ignored(path):
    assert subprocess.run(["git", "check-ignore", "--quiet", "--no-index", path], cwd=ROOT).returncode == 0, path


# --- licence and versions -------------------------------------------------------------------------------


def test_apache_2_licence_in_its_three_places():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in licence
    assert SPEC["info"]["license"]["identifier"] == "Apache-2.0"
    assert PYPROJECT["project"]["license"] == "Apache-2.0"
    assert "LICENSE" in PYPROJECT["project"]["license-files"]


def test_contract_version_package_version_and_changelog_agree():
    version = SPEC["info"]["version"]
    assert version == PYPROJECT["project"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert all(
        path.startswith(("/v1/", "/healthz", "/readyz", "/openapi", "/docs", "/metrics")) for path in SPEC["paths"]
    )
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\S+)", changelog, re.M)
    assert releases[0] == "Unreleased" and releases[1] == version, releases


def test_readme_states_the_versioning_policy():
    concepts = section("Concepts")
    policy = concepts[concepts.index("### Versions and compatibility") :]
    for phrase in ("`/v1`", "additive", "`info.version`", "CHANGELOG.md", "deprecat", "`/v2`"):
        assert phrase in policy, phrase


def test_a_422_reports_the_faults_of_the_first_pass_that_finds_any_as_the_readme_says(post):
    """README, "Two kinds of "no"": the form's faults first; the rules' only once the form is right."""
    concepts = section("Concepts")
    said = re.search(r"So `(\{.*?\})` to `rows/evaluate` answers only\s+`(\w+)` at `(\S+)`; with `Zz` corrected to"
                     r" `(\w+)`, `(\w+)` at `(\S+)`\.", concepts)  # fmt: skip
    assert said, "the README's example of the two passes"
    body = json.loads(said.group(1))
    status, answer = post("ofc-pineapple/rows/evaluate", body)
    assert status == 422
    assert [(e["code"], e["pointer"]) for e in answer["errors"]] == [(said.group(2), said.group(3))]
    body["cards"] = [said.group(4) if card == "Zz" else card for card in body["cards"]]
    status, answer = post("ofc-pineapple/rows/evaluate", body)
    assert status == 422
    assert [(e["code"], e["pointer"]) for e in answer["errors"]] == [(said.group(5), said.group(6))]


CHANGELOG_GROUPS = ["Games", "Rule sets", "Operations", "Production", "Integration"]


def test_each_release_of_the_changelog_is_grouped_as_users_read_it():
    """Since 0.2.0: every release's entries under the five groups, in that order, each entry saying its kind;
    "Unreleased" may hold the same groups (or nothing)."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.split(r"^## ", changelog, flags=re.M)[1:]
    grouped = [r for r in releases if not r.startswith(("0.1.0", "Unreleased"))]
    assert grouped and grouped[-1].startswith("0.2.0")
    for release in grouped + [r for r in releases if r.startswith("Unreleased")]:
        groups = re.findall(r"^### (.+)$", release, re.M)
        assert groups == [g for g in CHANGELOG_GROUPS if g in groups], groups
        entries = re.findall(r"^- (.*)$", release[release.find("### ") :] if groups else "", re.M)
        assert all(re.match(r"\*\*(Added|Changed|Fixed|Deprecated|Removed)\*\* ", e) for e in entries), entries
    assert re.findall(r"^### (.+)$", grouped[-1], re.M) == CHANGELOG_GROUPS
    assert "Upgrading from 0.1.0" in grouped[-1] and "Nothing breaks within `/v1`" in grouped[-1]
