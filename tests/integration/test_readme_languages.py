"""The README's "Languages" section: its curl examples, run as written by bash and curl against a real
gunicorn on the loopback, answer what their comments say (the zh-TW and the zh-CN one)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
EXPECTED = re.compile(r'#\s*"(\w+)": "([^"]*)"')


def languages_block() -> str:
    section = README.split("\n## Languages\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)  # type: ignore[union-attr]


def values(node: Any, name: str) -> list[Any]:
    if isinstance(node, list):
        return [v for item in node for v in values(item, name)]
    if isinstance(node, dict):
        return ([node[name]] if name in node else []) + [v for item in node.values() for v in values(item, name)]
    return []


def test_the_languages_section_shows_each_chinese():
    block = languages_block()
    assert "Accept-Language: zh-TW" in block and "Accept-Language: zh-CN" in block
    assert block.count("curl ") == len(EXPECTED.findall(block))


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_languages_curl_examples_answer_what_they_say(live_server):
    block = languages_block()
    script = block.replace("http://127.0.0.1:8000", live_server.base_url)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answers, text, decoder = [], result.stdout.strip(), json.JSONDecoder()
    while text:
        answer, end = decoder.raw_decode(text)
        answers.append(answer)
        text = text[end:].strip()
    expected = EXPECTED.findall(block)
    assert len(answers) == len(expected) == block.count("curl ")
    for answer, (name, value) in zip(answers, expected):
        assert value in values(answer, name), (name, value, answer)
