"""The README's curl examples in Chinese, run as written by curl against a real gunicorn on the loopback,
answer what their comments say (tests/api/test_readme.py replays every curl command through the test
client; this runs the Chinese ones for real: the headers and the UTF-8 on the wire)."""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest

from tests.api.test_readme import CURLS, claims, values_of

CHINESE = [(command, comment) for command, comment in CURLS if "Accept-Language: zh-" in command]


def test_the_readme_shows_a_curl_example_in_each_chinese():
    asked = {
        language
        for command, _ in CHINESE
        for language in ("zh-TW", "zh-CN")
        if f"Accept-Language: {language}'" in command
    }
    assert asked == {"zh-TW", "zh-CN"}
    assert all(claims(comment) for _, comment in CHINESE)


@pytest.mark.parametrize(("command", "comment"), CHINESE, ids=[c.split()[2].split("8000")[1] for c, _ in CHINESE])
def test_a_chinese_curl_example_answers_what_it_says(tools, live_server, command, comment):
    words = shlex.split(command.replace("http://127.0.0.1:8000", live_server.base_url))
    result = subprocess.run(words, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    for key, value in claims(comment):
        assert value in list(values_of(answer, key)), (key, value, answer)
