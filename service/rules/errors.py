"""The two kinds of "no" the rules core can say.

``InvalidInputError`` is input that cannot be computed at all (a card twice on one table, a row of the
wrong size): the HTTP layer answers it with 422 and the JSON pointers of ``problems``.
``Violation`` is well-formed input that breaks a game rule: it is part of a normal answer
(``legal: false``), never an exception.

Both carry a stable ``code``, the named ``params`` of its text and the catalog ``domain`` that holds the text:
a key, not words. The HTTP layer renders it once, in the client's language (``service/api/i18n.py``);
``message`` renders the English text on demand for a library caller. Build them with ``problem``/``violation``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from service.rules import messages

if TYPE_CHECKING:
    from service.rules.cards import Card

PathPart = str | int
Path = tuple[PathPart, ...]


@dataclass(frozen=True, slots=True)
class InputProblem:
    """One reason input is impossible, at ``path`` inside the request (rendered as a JSON pointer): the
    text of ``code`` with ``params`` in the catalog's ``domain``."""

    path: Path
    code: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    domain: str = "cards"

    @property
    def message(self) -> str:
        """The English text (the HTTP layer renders the key in the client's language instead)."""
        return messages.render(self.domain, self.code, self.params)

    @property
    def text(self) -> messages.Message:
        return messages.Message(self.domain, self.code, self.params)


def _pointer(path: Path) -> str:
    """``path`` as a JSON pointer (RFC 6901): ``("players", 2, "head")`` is ``/players/2/head``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class RulesError(Exception):
    """Base of every exception the rules core raises on purpose."""


class InvalidInputError(RulesError):
    """Input that no rule can answer: malformed or impossible (HTTP 422)."""

    def __init__(self, problems: list[InputProblem] | InputProblem):
        self.problems = [problems] if isinstance(problems, InputProblem) else list(problems)
        super().__init__()

    def __str__(self) -> str:  # English, for a log or a library caller; never on the answering path
        """Each problem as the 422 writes it, its JSON pointer then its text; a problem of the whole input
        (an empty path) is its text alone."""
        return "; ".join(f"{_pointer(p.path)}: {p.message}" if p.path else p.message for p in self.problems)

    def at(self, *prefix: PathPart) -> InvalidInputError:
        """The same problems, with ``prefix`` put in front of every path (for nested requests)."""
        return type(self)([InputProblem(prefix + p.path, p.code, p.params, p.domain) for p in self.problems])


class CardNotationError(InvalidInputError):
    """A string that is not a card in the accepted notation."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by well-formed input: a stable ``code``, the ``params`` of its text in the catalog's
    ``domain``, and the cards involved."""

    code: str
    domain: str
    cards: tuple[Card, ...] = field(default=())
    index: int | None = None  # the action's index, for whole-record validation
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def message(self) -> str:
        """The English text (the HTTP layer renders the key in the client's language instead)."""
        return messages.render(self.domain, self.code, self.params)

    @property
    def text(self) -> messages.Message:
        return messages.Message(self.domain, self.code, self.params)

    def as_problem(self, *path: PathPart) -> InputProblem:
        """The same text as a reason input is impossible, at ``path``."""
        return InputProblem(path, self.code, self.params, self.domain)


QUOTED_MAX = 24  # characters of a client's text kept in a message


def quoted(value: Any) -> str:
    """A client's value as it may appear in a message: JSON-quoted, at most ``QUOTED_MAX`` characters
    (then an ellipsis), with ``< > &`` escaped, so that no answer or log carries it raw or whole."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > QUOTED_MAX:
        text = text[:QUOTED_MAX] + "\u2026"
    return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def problem(domain: str, path: Path, code: str, **params: Any) -> InputProblem:
    """An ``InputProblem``: the catalog's text of ``code`` in ``domain`` with ``params``."""
    return InputProblem(path, str(code), params, domain)  # str: a StrEnum member answers as its plain value


def violation(
    domain: str, code: str, cards: tuple[Card, ...] = (), index: int | None = None, **params: Any
) -> Violation:
    """A ``Violation``: the catalog's text of ``code`` in ``domain`` with ``params``."""
    return Violation(str(code), domain, cards, index, params)
