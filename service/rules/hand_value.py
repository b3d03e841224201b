"""``HandValue``: the one shape every game gives a hand (API.md "HandValue")."""

from __future__ import annotations

from typing import NamedTuple

from service.rules.cards import Card
from service.rules.messages import Message


class HandValue(NamedTuple):
    """A hand's category, its label, its strength and its cards in order of significance.

    ``label`` is a key of the game's catalog (``messages.Message``), rendered at the edge in the client's
    language; ``str(hand.label)`` is the English text.

    ``strength`` compares lexicographically across every hand of one game and row/dun size, its first
    number being the category's rung on the ladder; a shorter strength that is a prefix of a longer one
    is smaller, which is exactly "a kicker the 3-card hand lacks counts as smallest".
    ``resolved`` (Joker Thirteen) is what each joker stands for, in the order the jokers appear in ``cards``.

    A NamedTuple rather than a frozen dataclass: it is built once per evaluated hand on every hot path,
    and a tuple is cheaper to build (bench/encoding.py compares them). Compare hands by ``strength``, never as tuples.
    """

    category: str
    label: Message
    strength: tuple[int, ...]
    cards: tuple[Card, ...]
    resolved: tuple[Card, ...] | None = None


def winner(a: HandValue, b: HandValue) -> str:
    """``"a"``, ``"b"`` or ``"tie"`` by strength."""
    if a.strength > b.strength:
        return "a"
    if b.strength > a.strength:
        return "b"
    return "tie"
