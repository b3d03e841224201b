"""The answer's language: ``Accept-Language`` negotiation and the human text of every answer.

Two languages: ``en`` (the default) and ``zh-TW``. Only human text follows the language (a hand's ``label``,
a violation's or an error's ``message``, a problem's ``title`` and ``detail``, a Big Two factor's
``reason``, a deck's ``description``); codes, cards, field names and enum values never do. Every answer
says ``Content-Language`` (the language its text is in) and ``Vary: Accept-Language``.

Negotiation (RFC 9110 section 12.5.4), in ``negotiate``:

* each range's ``q`` (default 1) is honoured; ``q=0`` excludes; an entry with an unreadable range or ``q``
  is skipped, never an error;
* ``en`` and every ``en-*`` range choose English;
* ``zh``, ``zh-TW``, ``zh-HK``, ``zh-MO``, ``zh-Hant`` and ``zh-Hant-*`` (and any other ``zh-*`` range) choose
  ``zh-TW``; ``zh-CN``, ``zh-SG``, ``zh-MY``, ``zh-Hans`` and ``zh-Hans-*`` also choose ``zh-TW``, the only
  Chinese the service has, but as a weaker match: a Traditional Chinese range of the same header decides
  Chinese's ``q`` (``zh-TW;q=0, zh-CN`` is English), and an ``en`` range with a higher ``q`` wins;
* ``*`` gives its ``q`` to whichever of the two no other range names;
* the higher ``q`` wins; on equal ``q`` the range written first wins (``*`` counts as English);
  no header, nothing acceptable or nothing known: English.

The texts themselves are the rules core's catalog (``service/rules/messages.py``); the rules core gives
each violation and input problem its ``code`` and ``params`` and its English ``message``, and this module
renders the same entry in the negotiated language. Marshmallow's messages, werkzeug's descriptions and the
JSON decoder's messages arrive as English strings and are recognised by their catalog templates.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Self

from flask import Response, has_request_context, request

from service.rules import messages
from service.rules.errors import InputProblem, Violation
from service.rules.games import GAMES
from service.rules.hand_value import HandValue
from service.rules.messages import EN, ZH_TW

LANGUAGE_KEY = "card_rules.language"  # WSGI environ key: the negotiated language, once per request
HEADER_LIMIT = 4096  # an Accept-Language longer than this is read up to here (no real one comes close)

GAME_BY_BLUEPRINT = {game.blueprint: game.domain for game in GAMES}
"""The catalog domain of each game's blueprint, from the registry."""
UNTRANSLATED = frozenset({"meta.openapi_yaml", "meta.openapi_json", "observability.metrics"})
UNTRANSLATED_BLUEPRINTS = frozenset({"docs"})
"""Answers whose content is English whatever the client asks (the contract, the documentation page,
metrics): their successful answers say ``Content-Language: en``."""

# --- negotiation -------------------------------------------------------------------------------------

_RANGE = re.compile(r"\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_QVALUE = re.compile(r"0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?")
_TRADITIONAL = frozenset({"hant", "tw", "hk", "mo"})
_SIMPLIFIED = frozenset({"hans", "cn", "sg", "my"})
_WILDCARD, _APPROXIMATE, _PROPER = 0, 1, 2  # how closely a range names one of our languages


def _targets(language_range: str) -> list[tuple[str, int]]:
    """Which of our languages a range names, and how closely (RFC 9110: the most specific range decides)."""
    subtags = language_range.lower().split("-")
    if subtags == ["*"]:
        return [(EN, _WILDCARD), (ZH_TW, _WILDCARD)]
    primary, rest = subtags[0], subtags[1:]
    if primary == "en":
        return [(EN, _PROPER + len(rest))]
    if primary == "zh":
        script = next((t for t in rest if t in ("hant", "hans")), None)
        simplified = script == "hans" or (script is None and any(t in _SIMPLIFIED for t in rest))
        return [(ZH_TW, _APPROXIMATE if simplified else _PROPER + len(rest))]
    return []


def parse_accept_language(header: str) -> list[tuple[str, float]]:
    """The ``(range, q)`` entries of an ``Accept-Language`` value, in order; unreadable entries skipped."""
    entries = []
    for item in header[:HEADER_LIMIT].split(","):
        parts = [part.strip() for part in item.split(";")]
        if not parts[0] or not _RANGE.fullmatch(parts[0]):
            continue
        q: float | None = 1.0
        for param in parts[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                q = float(value) if _QVALUE.fullmatch(value) else None
        if q is not None:
            entries.append((parts[0], q))
    return entries


@lru_cache(maxsize=1024)
def negotiate(header: str | None) -> str:
    """``en`` or ``zh-TW`` for an ``Accept-Language`` value (see the module's docstring)."""
    if not header:
        return EN
    best: dict[str, tuple[int, float, int]] = {}  # language -> (closeness, q, position)
    for position, (language_range, q) in enumerate(parse_accept_language(header)):
        for language, closeness in _targets(language_range):
            found = best.get(language)
            if found is None or closeness > found[0] or (closeness == found[0] and q > found[1]):
                best[language] = (closeness, q, position)
    ranked = sorted(
        ((q, -position, -messages.LANGUAGES.index(language), language) for language, (_, q, position) in best.items() if q > 0),
        reverse=True,
    )
    return ranked[0][3] if ranked else EN


# --- the current request -----------------------------------------------------------------------------


def language() -> str:
    """The language of this request's answer (``en`` outside a request)."""
    if not has_request_context():
        return EN
    environ = request.environ
    found = environ.get(LANGUAGE_KEY)
    if found is None:
        found = environ[LANGUAGE_KEY] = negotiate(request.headers.get("Accept-Language"))
    return found


def domain() -> str:
    """The catalog domain of this request: its game, or ``cards`` outside the games' paths."""
    if not has_request_context():
        return "cards"
    return GAME_BY_BLUEPRINT.get(request.blueprint or "", "cards")


def set_headers(response: Response) -> Response:
    """``Content-Language`` (the language of the answer's text) and ``Vary: Accept-Language``."""
    untranslated = response.status_code < 400 and (
        request.endpoint in UNTRANSLATED or request.blueprint in UNTRANSLATED_BLUEPRINTS
    )
    response.headers["Content-Language"] = EN if untranslated else language()
    response.vary.add("Accept-Language")
    return response


# --- rendering ---------------------------------------------------------------------------------------


def render(game: str, code: str, params: Mapping[str, Any] | None, english: str, lang: str | None = None) -> str:
    """The text of ``code`` with ``params`` in ``lang`` (the request's by default); ``english`` when the
    language is English or, defensively, when the catalog lacks the text (a test keeps it complete)."""
    lang = lang or language()
    if lang == EN:
        return english
    try:
        return messages.render(game, code, params, lang)
    except (KeyError, IndexError, ValueError):
        return english


_LABEL_KEYS = {domain: messages.label_keys(domain) for domain in messages.GAME_DOMAINS}


def label(hand: HandValue, game: str | None = None, lang: str | None = None) -> str:
    """A hand value's label in the answer's language."""
    lang = lang or language()
    if lang == EN:
        return hand.label
    game = game or domain()
    key = _LABEL_KEYS.get(game, {}).get(hand.label)
    return hand.label if key is None else messages.CATALOG[game][key].in_(lang)


def violation_message(v: Violation, game: str | None = None) -> str:
    return render(game or domain(), v.code, v.params, v.message)


def problem_message(p: InputProblem, game: str | None = None) -> str:
    return render(game or domain(), p.code, p.params, p.message)


def factor_reason(code: str, params: Mapping[str, Any], english: str, game: str = "big-two") -> str:
    return render(game, f"factor.{code}", params, english)


def text(key: str, lang: str | None = None, **params: Any) -> str:
    """An HTTP-layer text (``title.404``, ``detail.schema`` ...) in the answer's language."""
    return messages.render("http", key, params, lang or language())


def title(status: int) -> str:
    key = f"title.{status}"
    return text(key if key in messages.HTTP else "title.other")


def translate(english: str, lang: str | None = None) -> str:
    """A text that arrives as an English string (marshmallow, werkzeug, the JSON decoder, other modules of
    this layer), in the answer's language when the catalog knows it, else as it is."""
    return messages.translate(english, lang or language())


class LocalizedMessage(str):
    """A marshmallow error message that knows its catalog entry: it *is* the English text (so marshmallow
    and every ``str`` use see the same message), and ``schema_message`` renders it in the answer's language."""

    game: str
    code: str
    params: Mapping[str, Any]

    def __new__(cls, english: str, game: str, code: str, params: Mapping[str, Any] | None = None) -> Self:
        message = super().__new__(cls, english)
        message.game, message.code, message.params = game, code, params or {}
        return message

    @classmethod
    def of(cls, problem: InputProblem, game: str) -> Self:
        return cls(problem.message, game, problem.code, problem.params)

    @classmethod
    def text(cls, game: str, code: str, **params: Any) -> Self:
        return cls(messages.render(game, code, params), game, code, params)


def schema_message(message: Any, lang: str | None = None) -> str:
    """One message of a marshmallow ``ValidationError`` in the answer's language."""
    lang = lang or language()
    if isinstance(message, LocalizedMessage):
        return render(message.game, message.code, message.params, str(message), lang)
    return messages.translate(str(message), lang)


def join_errors(key: str, errors: Iterable[Mapping[str, str]], lang: str | None = None) -> str:
    """A 422's ``detail``: ``key``'s text around every error as ``pointer: message``."""
    lang = lang or language()
    listed = messages.MESSAGE_SEPARATOR[lang].join(
        messages.render("http", "detail.error" if e["pointer"] else "detail.error_root", {"pointer": e["pointer"], "message": e["message"]}, lang)
        for e in errors
    )
    return text(key, lang, errors=listed)
