"""The documents say what is true of the repository and of the served contract: every file they cite exists,
the contract's header names every game, the README's sizes of the compressed contract are the served ones,
docs/rulings.md quotes the contract word for word, and CONTRIBUTING's counts and class names are the code's."""

from __future__ import annotations

import ast
import gzip
import re
import subprocess
from functools import cache
from typing import Any

import pytest
import yaml

from service.api import texts
from service.rules import messages
from service.rules.games import GAMES
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


@cache
def tracked_files() -> tuple[str, ...]:
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return tuple(result.stdout.split())


def documents() -> list[str]:
    return [path for path in tracked_files() if path.endswith(".md")]


# --- every file a document cites exists -----------------------------------------------------------------

# A file name: path parts, then a name with an extension of the kinds the repository holds.
FILE_NAME = re.compile(
    r"(?<![\w/.:-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:md|py|ya?ml|json|toml|conf|txt|sh|ts|map|cfg|ini))\b"
)
URL = re.compile(r"\bhttps?://\S+")
# Files named without being in the repository, each for the reason given.
NOT_IN_THE_REPOSITORY = {
    # the rule books, in the design repository's rules folder: quoted, never read by the project
    "ofc-pineapple-background.en.txt",
    "ofc-background-forum.zh-CN.txt",
    # made by a command or at run time: the npm package's generated types, the metrics' rendered text
    "index.d.ts",
    "metrics.txt",
    # a pattern in the README's words ("NAME.json for the operationId NAME"), not a file
    "NAME.json",
}


def cited_files(path: str) -> set[str]:
    text = URL.sub("", (ROOT / path).read_text(encoding="utf-8"))
    return set(FILE_NAME.findall(text))


def ignored(name: str) -> bool:
    """A file the repository's .gitignore keeps out (one a command of the README makes, or a secret), at the
    path given or, for a bare name, in any folder of the repository."""
    folders = {path.rsplit("/", 1)[0] + "/" for path in tracked_files() if "/" in path} | {""}
    candidates = [name] if "/" in name else [folder + name for folder in sorted(folders)]
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(candidates),
        capture_output=True,
        text=True,
    )
    return bool(result.stdout.strip())


@pytest.mark.parametrize("document", documents())
def test_every_file_a_document_cites_is_in_the_repository(document):
    files = set(tracked_files())
    names = {path.rsplit("/", 1)[-1] for path in files}
    missing = sorted(
        name
        for name in cited_files(document)
        if name not in files and name.rsplit("/", 1)[-1] not in names
        and name not in NOT_IN_THE_REPOSITORY and not ignored(name)
    )  # fmt: skip
    assert not missing, f"{document} cites files the repository does not have: {missing}"


def test_the_citation_check_sees_a_missing_file():
    assert "API.md" in FILE_NAME.findall('rests on API.md "Two kinds of no"')
    assert "API.md" not in tracked_files() and not ignored("API.md")


# --- the contract's header --------------------------------------------------------------------------------


def test_the_contracts_header_names_every_game():
    """``info.description`` (the header of /docs) names each game of the registry, in bold, in its first
    paragraph, and no other."""
    first_paragraph = SPEC["info"]["description"].split("\n\n")[0]
    assert re.findall(r"\*\*(.+?)\*\*", first_paragraph) == [
        game.name for game in sorted(GAMES, key=lambda g: first_paragraph.find(f"**{g.name}**"))
    ]
    assert all(game.native_name in first_paragraph for game in GAMES)
    assert SPEC["info"]["summary"].startswith(f"The source of truth for {NUMBER_WORDS[len(GAMES)]} card games")


# --- the compressed contract's sizes ------------------------------------------------------------------


def readme_sizes() -> dict[str, tuple[int, int]]:
    """The README's "(41 KB instead of 207 KB for the JSON, ...)": format -> (gzip KB, plain KB)."""
    found = re.findall(r"(\d+) KB instead of (\d+) KB for the (JSON|YAML)", README)
    return {kind.lower(): (int(gzipped), int(plain)) for gzipped, plain, kind in found}


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_the_readmes_sizes_of_the_contract_are_the_served_ones(client, kind):
    """Within 10%, so that a small change of the contract does not fail it; a larger one does, and the README
    is updated with it."""
    plain = client.get(f"/openapi.{kind}")
    compressed = client.get(f"/openapi.{kind}", headers={"Accept-Encoding": "gzip"})
    assert compressed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.data) == plain.data
    gzipped_kb, plain_kb = readme_sizes()[kind]
    for said, served in ((gzipped_kb, len(compressed.data)), (plain_kb, len(plain.data))):
        assert abs(said * 1000 - served) <= 0.1 * served, f"README says {said} KB, /openapi.{kind} is {served} bytes"


# --- docs/rulings.md quotes the contract as it is ---------------------------------------------------------


def contract_texts() -> str:
    """Every string of the contract, its whitespace runs made single spaces."""

    def strings(node: Any) -> Any:
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, list):
            for value in node:
                yield from strings(value)

    return "\n".join(" ".join(text.split()) for text in strings(SPEC))


RULINGS = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
CONTRACT_QUOTES = re.findall(r"`openapi\.yaml` \([^|]*?\): \"(.+?)\"(?=;| \|)", RULINGS)


def test_the_rulings_quote_the_contract():
    assert len(CONTRACT_QUOTES) == 7


@pytest.mark.parametrize("quote", CONTRACT_QUOTES)
def test_a_rulings_quote_of_the_contract_is_in_it_word_for_word(quote):
    assert " ".join(quote.split()) in contract_texts()


# --- CONTRIBUTING's counts and names ----------------------------------------------------------------------


def test_contributing_counts_the_catalog_entries_a_new_language_translates():
    entries = sum(1 for catalog in (messages.CATALOG, texts.CATALOG) for _ in catalog.entries())
    said = re.search(r"another language's (\d+) entries are translated", CONTRIBUTING)
    assert said and int(said.group(1)) == entries


def test_contributing_counts_the_games_catalog_files():
    data_files = [path for path in tracked_files() if path.startswith("service/") and path.endswith("/messages.json")]
    said = re.search(r"beside each `messages.json` \((\w+)\s+today\)", CONTRIBUTING)
    assert said and said.group(1) == NUMBER_WORDS[len(data_files)]


@cache
def names_defined() -> dict[str, set[str]]:
    """Every class, and every name assigned at module level, in service/: name -> the files defining it."""
    defined: dict[str, set[str]] = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found = [node.name]
            elif isinstance(node, ast.Assign):
                found = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                found = [node.target.id]
            else:
                continue
            for name in found:
                defined.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    return defined


CLASS_NAMES = sorted(set(re.findall(r"`([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)`", CONTRIBUTING)))
# A name written as the code's, with the file that defines it: "`BigTwoRules` (`big_two/rules.py` ...".
NAMED_IN_A_FILE = re.findall(r"`([A-Z]\w+)` \(`([\w/]+\.py)`", CONTRIBUTING)
STANDARD_LIBRARY = {"StrEnum"}


def test_contributing_names_classes():
    assert {"OfcRules", "BigTwoRules", "InvalidInputError", "ProblemCode"} <= set(CLASS_NAMES)


@pytest.mark.parametrize("name", CLASS_NAMES)
def test_every_class_contributing_names_exists_in_the_code_or_the_contract(name):
    assert name in names_defined() or name in SPEC["components"]["schemas"] or name in STANDARD_LIBRARY, name


@pytest.mark.parametrize(("name", "file"), NAMED_IN_A_FILE)
def test_a_class_contributing_places_in_a_file_is_defined_there(name, file):
    assert any(path.endswith("/" + file) for path in names_defined().get(name, ())), (name, file)
