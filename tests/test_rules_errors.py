"""The rules core's refusal reads as the service's 422 does: each problem's JSON pointer, then its text."""

from __future__ import annotations

import pytest

from service.rules.cards import cards
from service.rules.errors import InputProblem, InvalidInputError


def test_a_refusal_of_the_whole_input_is_its_text_alone():
    with pytest.raises(InvalidInputError) as error:
        cards("Zz")
    assert str(error.value) == "\"Zz\" is not a card: use rank 2-9/T/J/Q/K/A then suit c/d/h/s, e.g. 'As'"


def test_a_refusal_inside_the_input_starts_with_its_json_pointer():
    with pytest.raises(InvalidInputError) as error:
        cards("Zz")
    nested = error.value.at("players", 2, "head", 0)
    assert str(nested).startswith('/players/2/head/0: "Zz" is not a card: ')


def test_every_problem_is_written_and_a_pointer_escapes_its_parts():
    problems = [
        InputProblem(("a/b", "c~d"), "not_a_card", {"text": '"x"'}),
        InputProblem((), "not_a_card", {"text": '"y"'}),
    ]
    assert str(InvalidInputError(problems)) == (
        "/a~1b/c~0d: \"x\" is not a card: use rank 2-9/T/J/Q/K/A then suit c/d/h/s, e.g. 'As'; "
        "\"y\" is not a card: use rank 2-9/T/J/Q/K/A then suit c/d/h/s, e.g. 'As'"
    )
