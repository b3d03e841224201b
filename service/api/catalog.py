"""The catalog of every "no" the service answers, generated into ``docs/errors.md``.

    python -m service.api.catalog            # rewrite docs/errors.md
    python -m service.api.catalog --check    # exit 1 when docs/errors.md is not current

Everything comes from the code's registries, so the document cannot drift (``tests/api/test_catalog.py``
holds it current and complete): the problem types (the application's ``errors.PROBLEM_TYPES`` and
``errors.SERVER_PROBLEM_TYPES``, answered before the application), the request schema's error codes
(``errors.SCHEMA_ERROR_CODES``), and, for every operation of ``openapi.yaml``, the violation and error codes
its route declares (``common.rule_codes``); every text is a catalog's (the games' in
``service/rules/messages.py``, the HTTP layer's in ``service/api/texts.py``), in English and Traditional Chinese.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml
from flask import Flask
from werkzeug.exceptions import HTTPException

from service.api import errors, texts
from service.api.common import RuleCodes
from service.rules import messages
from service.rules.messages import EN, ZH_TW, Entry

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    codes: RuleCodes | None


def problem_types() -> dict[str, int]:
    """Every problem type the service can send -> its status: the application's and the server's."""
    found = {urn: status for status, urn in errors.PROBLEM_TYPES.items()} | errors.OTHER_PROBLEM_TYPES
    for status, urn in errors.SERVER_PROBLEM_TYPES.items():
        found.setdefault(urn, status)
    return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))


def operations(app: Flask) -> list[Operation]:
    """Every operation of the contract with the codes its route declares (None when the path has no route)."""
    spec = yaml.safe_load(Path(app.config["OPENAPI_PATH"]).read_text(encoding="utf-8"))
    adapter = app.url_map.bind("localhost")
    found = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            try:
                endpoint, _ = adapter.match(path, method=method.upper())
            except HTTPException:
                endpoint = None
            view = app.view_functions.get(endpoint) if endpoint else None
            found.append(Operation(method.upper(), path, op["operationId"], getattr(view, "rule_codes", None)))
    return found


def codes_of(app: Flask, method: str, path: str) -> RuleCodes | None:
    """The codes the route answering ``method path`` declares (None for no route or no declaration)."""
    try:
        endpoint, _ = app.url_map.bind("localhost").match(path, method=method)
    except HTTPException:
        return None
    return getattr(app.view_functions.get(endpoint), "rule_codes", None)


# --- texts --------------------------------------------------------------------------------------------


def variants(domain: str, code: str) -> list[tuple[str | None, Entry]]:
    """(case, text) of a code: its one text, or one per ``code/case`` entry."""
    for name in (domain, *messages.FALLBACK.get(domain, ())):
        table = messages.CATALOG[name]
        if code in table:
            return [(None, table[code])]
        cases: list[tuple[str | None, Entry]] = [
            (key.split("/", 1)[1], text) for key, text in table.items() if key.startswith(code + "/")
        ]
        if cases:
            return cases
    raise KeyError(f"no text for {code!r} in {domain!r}")


def parameters(entries: list[Entry]) -> list[str]:
    names: set[str] = set()
    for entry in entries:
        names |= messages.placeholders(entry[EN]) | messages.placeholders(entry[ZH_TW])
    return sorted(names)


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def meaning(cases: list[tuple[str | None, Entry]], language: str) -> str:
    return "<br>".join(cell(("" if case is None else f"*{case}*: ") + entry[language]) for case, entry in cases)


def code_rows(domain: str, codes: tuple[str, ...] | list[str]) -> Iterator[str]:
    for code in codes:
        cases = variants(domain, code)
        params = ", ".join(f"`{p}`" for p in parameters([t for _, t in cases])) or "—"
        yield f"| `{code}` | {meaning(cases, EN)} | {meaning(cases, ZH_TW)} | {params} |"


CODE_HEAD = ["| code | meaning | 意思 | parameters |", "|---|---|---|---|"]


def schema_error_rows() -> Iterator[str]:
    by_code: dict[str, list[tuple[str | None, Entry]]] = {}
    for key, code in errors.SCHEMA_ERROR_CODES.items():
        by_code.setdefault(code, []).append((None, texts.SCHEMA[key]))
    by_code.setdefault(errors.INVALID, [])
    by_code[errors.TOO_DEEP_CODE] = []
    for code in sorted(by_code):
        meaning_text = texts.HTTP[f"error.{code}"]
        examples = by_code[code]
        params = ", ".join(f"`{p}`" for p in parameters([t for _, t in examples])) or "—"
        shown_en = " ".join(f"“{cell(t[EN])}”" for _, t in examples)
        shown_zh = " ".join(f"「{cell(t[ZH_TW])}」" for _, t in examples)
        yield (f"| `{code}` | {cell(meaning_text[EN])}{' Messages: ' + shown_en if shown_en else ''} | "
               f"{cell(meaning_text[ZH_TW])}{' 訊息：' + shown_zh if shown_zh else ''} | {params} |")  # fmt: skip  # a line per language


def document(app: Flask) -> str:
    ops = operations(app)
    lines = [
        "# Problem types, error codes and violation codes",
        "",
        "<!-- Generated by `python -m service.api.catalog` from the code's registries; do not edit by hand.",
        "     tests/api/test_catalog.py fails when this file is not current. -->",
        "",
        'Every "no" the service answers, for programs to act on: the problem `type` of every 4xx/5xx answer',
        "(`application/problem+json`), the `code` of every entry of a 422's `errors`, and the `code` of every",
        "violation of every operation (a `200` with `legal: false` or `valid: false`). Codes never change with",
        "the answer's language; the texts below are the `message`s the service writes, in English and in",
        "Traditional Chinese (`Accept-Language: zh-TW`), with their parameters in braces. Within `/v1` codes and",
        'types are only ever added (README, "Versions and compatibility").',
        "",
        "## Problem types",
        "",
        "| type | status | meaning | 意思 |",
        "|---|---|---|---|",
    ]
    for urn, status in problem_types().items():
        entry = texts.HTTP[f"problem.{urn.removeprefix(errors.PROBLEM_URN)}"]
        lines.append(f"| `{urn}` | {status} | {cell(entry[EN])} | {cell(entry[ZH_TW])} |")
    lines += [
        "",
        "## Error codes of a 422 (`errors[].code`)",
        "",
        'Each entry of a 422\'s `errors` has a `pointer` (a JSON Pointer into the request; `""` for the body',
        "itself), a `code` from these tables and a `message`.",
        "",
        "### Every operation: the request schema",
        "",
        *CODE_HEAD,
        *schema_error_rows(),
    ]
    by_domain: dict[str, list[Operation]] = {}
    for op in ops:
        if op.codes is not None and op.codes.errors:
            by_domain.setdefault(op.codes.domain, []).append(op)
    for domain, domain_ops in by_domain.items():
        codes = list(dict.fromkeys(code for op in domain_ops if op.codes is not None for code in op.codes.errors))
        names = ", ".join(f"`{op.operation_id}`" for op in domain_ops)
        lines += ["", f"### `{domain}`", "", f"Answered by {names}.", "", *CODE_HEAD, *code_rows(domain, codes)]
    lines += [
        "",
        "### Refusals only the rules can decide, per operation",
        "",
        "A request valid against `openapi.yaml` can still be refused with a 422, but only for one of these",
        "codes: what the contract cannot state (a size that depends on another field, a card twice across",
        "lists or in two spellings such as `As` and `AS`, how many copies the deck holds, the game's state, the",
        "rule set named). Any other 422 to such a request is a gap in the contract",
        "(`tests/api/test_contract_schemathesis.py` checks this on every operation).",
        "",
        "| operation | codes |",
        "|---|---|",
    ]
    for op in ops:
        if op.codes is None or not op.codes.errors:
            continue
        refusals = [f"`{code}`" for code in op.codes.rules_only]
        refusals += [
            f"`wrong_length` at `{pointer}` (its length depends on the rule set named)"
            for pointer in op.codes.lengths_by_rule_set
        ]
        lines.append(f"| `{op.method} {op.path}` (`{op.operation_id}`) | {', '.join(refusals) or 'none'} |")
    lines += [
        "",
        "## Violation codes, per operation",
        "",
        "A violation is a rule broken by well-formed input: part of a `200` answer, with the `cards` involved and,",
        "in a whole record, the action's `index`.",
    ]
    for op in ops:
        if op.codes is None or not op.codes.violations:
            continue
        lines += [
            "",
            f"### `{op.method} {op.path}` (`{op.operation_id}`)",
            "",
            *CODE_HEAD,
            *code_rows(op.codes.domain, op.codes.violations),
        ]
    without = [f"`{op.operation_id}`" for op in ops if op.codes is None or not op.codes.violations]
    lines += ["", "Operations that answer no violations: " + ", ".join(without) + ".", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    from service.api import create_app

    text = document(create_app({"TESTING": True}))
    if argv[1:] == ["--check"]:
        current = DOCUMENT.read_text(encoding="utf-8") if DOCUMENT.exists() else ""
        if current != text:
            print(f"{DOCUMENT} is not current: run python -m service.api.catalog", file=sys.stderr)
            return 1
        return 0
    DOCUMENT.write_text(text, encoding="utf-8")
    print(f"wrote {DOCUMENT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
