"""How a request's JSON is read (``service/api/common.py``; docs/rulings.md, "Parsing"): jiter first, with
its documented options refusing a repeated key and NaN or Infinity, and the standard decoder for whatever
jiter refuses. Whatever jiter takes, the standard decoder (with its hook refusing a repeated key) takes too,
as an equal value of the same types; so the answer never depends on which of the two read the body."""

from __future__ import annotations

import json
from typing import Any

import jiter
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.api.common import MANY_OBJECTS, decode_json, read_json
from service.api.errors import ApiProblem

CLASSIFY = "/v1/big-two/plays/classify"  # "cards": 1 to 13 of them


def outcome(read: Any, raw: bytes) -> tuple[Any, ...]:
    """What ``read`` makes of ``raw``: its value's repr (types included: 1 and 1.0, -0.0), or its problem."""
    try:
        return ("value", repr(read(raw)))
    except ApiProblem as problem:
        return ("problem", problem.code, problem.detail.code, problem.detail.params)


def jiters(raw: bytes) -> str | None:
    """repr of jiter's value of ``raw`` as the service reads it, None when jiter refuses it."""
    try:
        return repr(jiter.from_json(raw, allow_inf_nan=False, catch_duplicate_keys=True))
    except ValueError:
        return None


def json_texts() -> st.SearchStrategy[str]:
    """JSON texts as a client may write them, and not quite: odd spacing, repeated keys (also spelled with
    escapes), escapes, lone surrogates, long and huge numbers, NaN and Infinity, stray bytes."""
    keys = st.sampled_from(["a", "b", "cards", "x:y", "é", '\\"q', "\\u003a", "\\u0061", ""])
    scalars = st.one_of(
        st.integers(-(10**25), 10**25).map(str),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.sampled_from(['"Ah"', '"\\u003a"', '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '"\\n"', '"\\u0000"',
                         '"😀"', "true", "false", "null", "1e400", "-1e400", "1E5", "-0", "-0.0", "1.", ".5", "01",
                         "NaN", "Infinity", "-Infinity", "9" * 4300, "9" * 4301, "1" * 4400 + ".5"]),
    )  # fmt: skip

    def containers(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        space = st.sampled_from(["", " ", "\n", "\t", "\r\n", "\f", "\u00a0"])
        arrays = st.builds(lambda items, s: "[" + f",{s}".join(items) + "]", st.lists(inner, max_size=4), space)
        objects = st.builds(
            lambda pairs, s: "{" + f",{s}".join(f'"{k}"{s}:{s}{v}' for k, v in pairs) + "}",
            st.lists(st.tuples(keys, inner), max_size=4),
            space,
        )
        return arrays | objects

    return st.recursive(scalars, containers, max_leaves=12)


def bodies() -> st.SearchStrategy[bytes]:
    """A JSON text as UTF-8, now and then with a byte order mark, in UTF-16, or with a stray byte."""
    return st.builds(
        lambda text, how: {
            "utf-8": text.encode(),
            "bom": text.encode("utf-8-sig"),
            "utf-16": text.encode("utf-16-le", "surrogatepass"),
            "stray": text.encode()[:1] + b"\xff" + text.encode()[1:],
            "trailing": text.encode() + b" x",
        }[how],
        json_texts(),
        st.sampled_from(["utf-8"] * 6 + ["bom", "utf-16", "stray", "trailing"]),
    )


@settings(max_examples=1000)
@given(raw=bodies())
@example(raw=b'{"a":1,"\\u0061":2}')
@example(raw=b'{"a":{"b":1,"b":2},"a":3}')
@example(raw=b"[" * 300 + b"]" * 300)
def test_what_jiter_takes_the_standard_decoder_takes_alike(raw):
    taken = jiters(raw)
    if taken is not None:
        assert outcome(decode_json, raw) == ("value", taken)
    assert outcome(read_json, raw) == outcome(decode_json, raw)


@pytest.mark.parametrize(
    "text",
    ['{"a":1,"a":2}', '{"a":[{"b":1,"b":1}]}', '{"a":1,"\\u0061":2}', '{"a":{"b":1,"b":2},"a":3}', '{"":1,"":2}'],
)
def test_a_repeated_key_at_any_depth_is_refused_naming_it(text):
    assert jiters(text.encode()) is None
    found = outcome(read_json, text.encode())
    assert found[:3] == ("problem", 400, "detail.duplicate_key") and found == outcome(decode_json, text.encode())


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(constant):
    raw = f'{{"base": {constant}}}'.encode()
    assert jiters(raw) is None
    assert outcome(read_json, raw) == ("problem", 400, "detail.not_a_number", {"constant": constant})


@pytest.mark.parametrize(
    "text", ['["\\ud800"]', "[" + "9" * 4300 + "]", "[" + "1" * 4400 + ".5]", "[" * 300 + "]" * 300, "[1e400]"]
)
def test_what_jiter_leaves_the_standard_decoder_reads(text):
    assert outcome(read_json, text.encode()) == ("value", repr(json.loads(text)))


def test_a_number_past_the_digit_limit_is_refused_by_both():
    raw = b"[" + b"9" * 4301 + b"]"
    assert jiters(raw) is None and outcome(read_json, raw)[:3] == ("problem", 400, "detail.number_too_long")


# --- which fault a large body is answered: a list past its maximum first -----------------------------------


def post(client: Any, text: str) -> tuple[int, str]:
    response = client.post(CLASSIFY, data=text, content_type="application/json")
    return response.status_code, response.get_json()["detail"]


LONG = json.dumps(["3C"] * 20)
OBJECTS = ",".join(["{}"] * (MANY_OBJECTS + 1))


def test_a_small_body_is_answered_its_json_fault_first(client):
    assert post(client, f'{{"cards": {LONG}, "x": 1, "x": 2}}') == (
        400,
        'The body is not valid JSON for this service: the key "x" appears twice in one object.',
    )


@pytest.mark.parametrize(
    "text",
    [
        f'{{"cards": {LONG}, "x": [{OBJECTS}], "x": 2}}',  # many objects
        f'{{"cards": {LONG}, "x": "{"a" * 17_000}", "x": 2}}',  # many bytes
        f'{{"cards": ["3C"], "x": [{OBJECTS}], "cards": {LONG}}}',  # the list past its maximum is the last "cards"
    ],
    ids=["many-objects", "many-bytes", "the-repeated-key-itself"],
)
def test_a_large_body_is_answered_its_list_past_its_maximum_first(client, text):
    status, detail = post(client, text)
    assert status == 422 and "/cards: Length must be between 1 and 13." in detail


def test_a_large_body_that_only_orjson_cannot_read_is_answered_its_json_fault(client):
    """The lengths are read by orjson, which refuses NaN as the service does: nothing to check before it."""
    status, detail = post(client, f'{{"cards": {LONG}, "x": [{OBJECTS}], "y": NaN}}')
    assert (status, detail) == (400, "The body is not valid JSON: NaN is not a JSON number.")
