"""``examples/``: one request file per POST operation, named after its operationId, equal to the request
example in openapi.yaml; and ``examples/run.py BASE_URL`` posts them all to a live server.

When the spec's examples change, rewrite the files from it:  .venv/bin/python -m tests.integration.test_examples --write
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.integration.contract import EXAMPLES_DIR, POST_OPERATIONS, example_text

REWRITE = "rewrite them with: .venv/bin/python -m tests.integration.test_examples --write"


def test_every_post_operation_has_an_example_file_and_nothing_else_is_there():
    files = {p.stem for p in EXAMPLES_DIR.glob("*.json")}
    wanted = {op.operation_id for op in POST_OPERATIONS}
    assert wanted - files == set(), f"missing example files; {REWRITE}"
    assert files - wanted == set(), "example files for no POST operation of openapi.yaml"


@pytest.mark.parametrize("op", POST_OPERATIONS, ids=[op.operation_id for op in POST_OPERATIONS])
def test_example_file_is_the_specs_request_example(op):
    assert op.request_example is not None, f"{op.operation_id} has no request example in openapi.yaml"
    assert op.example_file.exists(), REWRITE
    assert json.loads(op.example_file.read_text(encoding="utf-8")) == op.request_example, REWRITE


def test_run_py_posts_every_example_and_prints_each_answer(live_server, post):
    result = subprocess.run([sys.executable, str(EXAMPLES_DIR / "run.py"), live_server.base_url],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    output, _, summary = result.stdout.rstrip().rpartition("\n\n")
    assert summary == f"{len(POST_OPERATIONS)} requests, {len(POST_OPERATIONS)} answered 2xx"
    sections = output.split("\n### ")
    assert len(sections) == len(POST_OPERATIONS) + 1, result.stdout  # a header, then one section per example
    for op, section in zip(POST_OPERATIONS, sections[1:]):
        heading, _, printed = section.partition("\n")
        assert heading.split() == [op.operation_id, "POST", op.path, "->", "200"], heading
        assert json.loads(printed) == post(op.path.removeprefix("/v1"), op.request_example)[1]


def test_run_py_without_arguments_posts_to_the_default_url(live_server):
    """No argument is required: the URL defaults to $CARD_RULES_URL (here the test's server), else
    http://127.0.0.1:8000; a lone operation id is an operation, not a URL."""
    env = dict(os.environ, CARD_RULES_URL=live_server.base_url)
    for args in ([], ["bigTwoClassifyPlay"]):
        result = subprocess.run([sys.executable, str(EXAMPLES_DIR / "run.py"), *args],
                                capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
        count = len(args) or len(POST_OPERATIONS)
        assert result.stdout.rstrip().endswith(f"{count} requests, {count} answered 2xx")
        assert f"at {live_server.base_url}:" in result.stdout.splitlines()[0]
    usage = subprocess.run(
        [sys.executable, str(EXAMPLES_DIR / "run.py"), "--help"], capture_output=True, text=True, timeout=60
    )
    assert "[base_url] [operation_ids ...]" in usage.stdout and "http://127.0.0.1:8000" in usage.stdout


def write_examples() -> None:
    EXAMPLES_DIR.mkdir(exist_ok=True)
    wanted = {op.example_file for op in POST_OPERATIONS}
    for stale in set(EXAMPLES_DIR.glob("*.json")) - wanted:
        stale.unlink()
        print(f"removed {stale.relative_to(ROOT)}")
    for op in POST_OPERATIONS:
        text = example_text(op.request_example)
        if not op.example_file.exists() or op.example_file.read_text(encoding="utf-8") != text:
            op.example_file.write_text(text, encoding="utf-8")
            print(f"wrote {op.example_file.relative_to(ROOT)}")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write_examples()
