"""The answer's language: ``Accept-Language`` negotiation and the human text of every answer.

Three languages: ``en`` (the default), ``zh-TW`` (Traditional Chinese, the rule books' own) and ``zh-CN``
(Simplified Chinese, mainland words). Only human text follows the language (a hand's ``label``, a
violation's or an error's ``message``, a problem's ``title`` and ``detail``, a Big Two factor's ``reason``,
a deck's ``description``); codes, cards, field names and enum values never do. Every answer says
``Content-Language`` (the language its text is in) and ``Vary: Accept-Language``.

Negotiation (RFC 9110 section 12.5.4), in ``negotiate``; which range names which language is one table,
``PRIMARY`` and ``CHINESE``:

* each range's ``q`` (default 1) is honoured; ``q=0`` excludes; an entry with an unreadable range or ``q``
  is skipped, never an error;
* ``en`` and every ``en-*`` range choose English;
* ``zh-TW``, ``zh-HK``, ``zh-MO``, ``zh-Hant`` and ``zh-Hant-*`` choose ``zh-TW``; ``zh-CN``, ``zh-SG``,
  ``zh-MY``, ``zh-Hans`` and ``zh-Hans-*`` choose ``zh-CN`` (a script subtag decides before a region:
  ``zh-Hans-TW`` is ``zh-CN``); ``zh`` alone and any other ``zh-*`` range choose ``zh-TW``, the rule books'
  script, and name ``zh-CN`` as a weaker match (``zh-TW;q=0, zh`` is ``zh-CN``);
* the most specific range naming a language decides its ``q`` (``zh;q=0, zh-TW`` is ``zh-TW``);
* ``*`` gives its ``q`` to whichever language no other range names;
* the higher ``q`` wins; on equal ``q`` the range written first wins, then the order of
  ``messages.LANGUAGES`` (``*`` and ``zh`` count as English and zh-TW); no header, nothing acceptable or
  nothing known: English.

The texts themselves are two catalogs (``service/rules/messages.py``, the games' texts, and
``service/api/texts.py``, this layer's), zh-CN from their data files. Every text reaches this module as a
key: a domain, a code and its parameters (a violation, an input problem, a hand's label, a Big Two factor,
an ``ApiProblem``, a marshmallow message that keeps its key); ``render`` turns it into words once, in the
negotiated language. Nothing is written in English first and recognised later.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from flask import request

from service.api import texts
from service.rules import messages
from service.rules.errors import InputProblem, Violation
from service.rules.hand_value import HandValue
from service.rules.messages import EN, ZH_CN, ZH_TW, Message

LANGUAGE_KEY = "card_rules.language"  # WSGI environ key: the negotiated language, once per request
HEADER_LIMIT = 4096  # an Accept-Language longer than this is read up to here (no real one comes close)

UNTRANSLATED = frozenset({"meta.openapi_yaml", "meta.openapi_json", "observability.metrics"})
UNTRANSLATED_BLUEPRINTS = frozenset({"docs"})
"""Answers whose content is English whatever the client asks (the contract, the documentation page,
metrics): their successful answers say ``Content-Language: en``."""

# --- negotiation -------------------------------------------------------------------------------------

_RANGE = re.compile(r"\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_QVALUE = re.compile(r"0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?")

PRIMARY = {"en": EN, "zh": ZH_TW}
"""A range's primary subtag -> the language it chooses (``zh`` alone: the rule books' Traditional Chinese)."""
CHINESE = {
    "hant": ZH_TW, "tw": ZH_TW, "hk": ZH_TW, "mo": ZH_TW,
    "hans": ZH_CN, "cn": ZH_CN, "sg": ZH_CN, "my": ZH_CN,
}  # fmt: skip  # two rows: the subtags of Traditional Chinese, then those of Simplified
"""A ``zh-*`` range's script or region subtag -> the Chinese it chooses; a script subtag decides first."""
_SCRIPTS = frozenset({"hant", "hans"})
_WILDCARD, _APPROXIMATE, _PROPER = 0, 1, 2  # how closely a range names one of our languages


def _targets(language_range: str) -> list[tuple[str, int]]:
    """Which of our languages a range names, and how closely (RFC 9110: the most specific range decides)."""
    subtags = language_range.lower().split("-")
    if subtags == ["*"]:
        return [(language, _WILDCARD) for language in messages.LANGUAGES]
    primary, rest = subtags[0], subtags[1:]
    language = PRIMARY.get(primary)
    if language is None:
        return []
    closeness = _PROPER + len(rest)
    if primary != "zh":
        return [(language, closeness)]
    named = [CHINESE[t] for t in rest if t in _SCRIPTS] or [CHINESE[t] for t in rest if t in CHINESE]
    if named:
        return [(named[0], closeness)]
    # zh, or zh with subtags we do not know: the rule books' Chinese, and the other Chinese as a weaker match
    return [(language, closeness), *((other, _APPROXIMATE) for other in (ZH_TW, ZH_CN) if other != language)]


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


@lru_cache(maxsize=256)
def negotiate(header: str | None) -> str:
    """One of ``messages.LANGUAGES`` for an ``Accept-Language`` value (see the module's docstring)."""
    if not header:
        return EN
    best: dict[str, tuple[int, float, int]] = {}  # language -> (closeness, q, position)
    for position, (language_range, q) in enumerate(parse_accept_language(header)):
        for language, closeness in _targets(language_range):
            found = best.get(language)
            if found is None or closeness > found[0] or (closeness == found[0] and q > found[1]):
                best[language] = (closeness, q, position)
    ranked = sorted(
        (
            (q, -position, -messages.LANGUAGES.index(language), language)
            for language, (_, q, position) in best.items()
            if q > 0
        ),
        reverse=True,
    )
    return ranked[0][3] if ranked else EN


# --- the current request -----------------------------------------------------------------------------


def language() -> str:
    """The language of this request's answer (``en`` outside a request)."""
    try:
        environ = request.environ  # one look-up (a light answer's labels and messages each ask)
    except RuntimeError:  # outside a request
        return EN
    found = environ.get(LANGUAGE_KEY)
    if found is None:  # the header's value as the environ holds it, as ``answer_language`` reads it
        found = environ[LANGUAGE_KEY] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return found


UNTRANSLATED_KEY = "card_rules.untranslated"  # WSGI environ key: the request's route is one of UNTRANSLATED


def note_route(environ: dict[str, Any], rule: Any) -> None:
    """Before the view (``observability.install``'s hook): whether the matched route's answer is English."""
    note_endpoint(environ, rule.endpoint)


def note_endpoint(environ: dict[str, Any], endpoint: str) -> None:
    """Whether the answer of ``endpoint`` (a view's name, ``blueprint.function``) is English."""
    if endpoint in UNTRANSLATED or endpoint.rpartition(".")[0] in UNTRANSLATED_BLUEPRINTS:
        environ[UNTRANSLATED_KEY] = True


def answer_language(environ: dict[str, Any], status: int) -> str:
    """The ``Content-Language`` of an answer: the language of its text."""
    if status < 400 and environ.get(UNTRANSLATED_KEY):
        return EN
    found = environ.get(LANGUAGE_KEY)
    if found is None:
        found = environ[LANGUAGE_KEY] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return found


def set_headers(environ: dict[str, Any], status: int, headers: list[tuple[str, str]]) -> None:
    """``Content-Language`` (the language of the answer's text) and ``Vary: Accept-Language``, added to
    the WSGI header list of the answer (``service/api/__init__.py``)."""
    headers.append(("Content-Language", answer_language(environ, status)))
    for i, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            if "accept-language" not in value.lower():
                headers[i] = (name, f"{value}, Accept-Language")
            return
    headers.append(("Vary", "Accept-Language"))


# --- rendering: the one place a text's key becomes words ------------------------------------------------

CATALOGS = messages.CATALOGS
"""Which catalog holds each domain: the rules core's (the games, cards, the games list) or this layer's
(``texts.CATALOG``: http, schema, json)."""


def render(domain: str, code: str, params: Mapping[str, Any] | None = None, lang: str | None = None) -> str:
    """The text of ``code`` with ``params`` in ``domain``, in ``lang`` (the request's by default). A text
    the language lacks (a test keeps the catalogs complete) is answered in English rather than failing."""
    lang = lang or language()
    catalog = CATALOGS[domain]
    try:
        return catalog.render(domain, code, params, lang)
    except (KeyError, IndexError, ValueError):
        if lang == EN:
            raise
        return catalog.render(domain, code, params, EN)


def message(found: Message, lang: str | None = None) -> str:
    return render(found.domain, found.code, found.params, lang)


@lru_cache(maxsize=4096)
def _fixed(domain: str, key: str, lang: str) -> str:
    return CATALOGS[domain].text(domain, key, lang)


def label(hand: HandValue, lang: str | None = None) -> str:
    """A hand value's label (a key of its game's catalog, ``hand.label``) in the answer's language."""
    return _fixed(hand.label.domain, hand.label.code, lang or language())


def violation_message(v: Violation) -> str:
    return render(v.domain, v.code, v.params)


def problem_message(p: InputProblem) -> str:
    return render(p.domain, p.code, p.params)


def text(key: str, lang: str | None = None, **params: Any) -> str:
    """An HTTP-layer text (``title.404``, ``detail.schema`` ...) in the answer's language."""
    return render("http", key, params, lang)


def title(status: int) -> str:
    key = f"title.{status}"
    return text(key if key in texts.HTTP else "title.other")


def join_errors(key: str, errors: Iterable[Mapping[str, str]], lang: str | None = None) -> str:
    """A 422's ``detail``: ``key``'s text around every error as ``pointer: message``. The two templates of an
    entry are read once per answer and filled by ``str.format``: their fields are plain strings, which the
    catalog's formatter writes as they are, so a hundred entries cost one lookup, not a hundred."""
    lang = lang or language()
    at, at_root = _fixed("http", "detail.error", lang), _fixed("http", "detail.error_root", lang)
    listed = messages.MESSAGE_SEPARATOR[lang].join(
        (at if e["pointer"] else at_root).format(pointer=e["pointer"], message=e["message"]) for e in errors
    )
    return text(key, lang, errors=listed)
