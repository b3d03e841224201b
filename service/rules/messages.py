"""The catalog of every human text of the rules core, English (``en``), Traditional Chinese (``zh-TW``) and
Simplified Chinese (``zh-CN``), and the one engine that renders a catalog's texts (the HTTP layer's own
catalog, ``service/api/texts.py``, is another ``Catalog``).

Pure data and formatting, no web imports. Texts travel as keys: the rules core builds each ``Violation``,
``InputProblem``, hand label and Big Two factor with its catalog ``domain``, a machine ``code`` and named
``params`` (a ``Message``), and the HTTP layer renders that key once, in the language the client
negotiated (``service/api/i18n.py``). ``message`` on those objects renders the English text on demand, so
the core stays a usable library; nothing on the answering path calls it.

The catalog is ``CATALOG[domain][key][language]``. Domains: one per game (``ofc-pineapple``, the texts of
both OFC games; ``joker-thirteen``; ``big-two``), ``cards`` (card notation and "a card twice", shared by
the games; a game's look-ups fall back to it) and ``games`` (the games list: decks and rule sets). Keys:

* ``code``: a violation or input-problem code, exactly as answered;
* ``code/case``: one of several texts of one code, chosen by the ``case`` parameter (an ICU-style select:
  Big Two's ``wrong_card_count`` names a play, a loser's cards, a seat's deal or a hand);
* ``label.<category>``: a hand value's label (``label.pair_flush/two_pairs`` for Joker Thirteen's variant);
* ``term.<name>``, ``reason.<code>``, ``factor.<code>``: row and dun names, Big Two's compare reasons and
  its multiplier factors' reasons.

Templates use ``{name}`` placeholders; ``{name:label}``, ``{name:term}`` and ``{name:reason}`` render a code
(or a list of codes) through the domain's ``label.``/``term.``/``reason.`` entries in the same language,
``{name:messages}`` renders a list of ``(code, params)`` pairs (nested violations) and ``{name:<domain>}``
renders a ``(key, params)`` pair of another domain of the same catalog (``{message:json}``, a JSON decoder
message). Some English templates show a code raw where the Chinese one names it (``the {row} row`` /
``{row:term}``): the English wording is the service's established text.

The texts are data, each game's beside its rules (``TEXTS`` says where): ``ofc/messages.json``,
``thirteen/messages.json``, ``big_two/messages.json``, and ``messages.json`` beside this module for the
shared domains. Each entry there is keyed by language tag, ``{"en": ..., "zh-TW": ...}``: the two
languages written by hand, side by side, since the rule books are Traditional (the HTTP layer writes its
own entries in Python, ``T(en, zh_tw)``). Every other language is an addition: a data file beside, with the
same stem, ``<stem>.<tag>.json``, keyed by domain and key, merged into the entries when the catalog is
built. The ``messages.zh-CN.json`` files are generated from the zh-TW templates by ``scripts/build-zh-cn``
(``make zh-cn``: OpenCC's Taiwan-to-mainland conversion, then the reviewed term table
``scripts/zh-cn-terms.toml``), so a new entry needs no Simplified Chinese by hand; the tests fail, saying to
run ``make zh-cn``, while an entry lacks it. At run time a missing added text falls back to
``FALLBACK_LANGUAGE`` (zh-CN to zh-TW), never to an error.

The Chinese words are each rule book's own: OFC 頭道/中道/尾道, 爆牌, 獎分, 范特西; Joker Thirteen
頭墩/中墩/尾墩, 相公, 正五枚, 鬼五枚, 對子同花, 鬼三條, 烏龍; Big Two 單張/對子/順子/葫蘆/鐵支/同花順,
一條龍/一條青龍, 怪物, 起牌/跟牌, PASS, 大滿貫, 梅花 3 收尾, 老二收尾, 怪物收尾, 老二未出, 怪物未出.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

EN = "en"
ZH_TW = "zh-TW"
ZH_CN = "zh-CN"
LANGUAGES = (EN, ZH_TW, ZH_CN)
"""Every language the service answers in; the first is the default, and on a tie in negotiation the earlier wins."""
DEFAULT_LANGUAGE = EN
WRITTEN = (EN, ZH_TW)
"""The languages written by hand (in ``<stem>.json``, or in the HTTP layer's module); every other one is a
data file made from them (``ADDED``)."""
ADDED = tuple(language for language in LANGUAGES if language not in WRITTEN)
FALLBACK_LANGUAGE = {ZH_CN: ZH_TW}
"""Where an added language's look-up goes when its data file lacks an entry (a test keeps that from happening)."""

CASE = "case"  # the parameter that selects among a code's texts; never shown
NO_PARAMS: Mapping[str, Any] = MappingProxyType({})

Entry = dict[str, str]
"""One text: language tag -> template."""


def T(en: str, zh_tw: str) -> Entry:
    """An entry in the two languages written by hand (added languages join it from their data files)."""
    return {EN: en, ZH_TW: zh_tw}


def data_path(stem: Path, language: str | None = None) -> Path:
    """A data file of texts: ``<stem>.json`` (the languages written by hand) or ``<stem>.<tag>.json`` (an
    added language)."""
    return stem.with_name(f"{stem.name}.json" if language is None else f"{stem.name}.{language}.json")


def load_written(path: Path) -> dict[str, dict[str, Entry]]:
    """The entries of a data file of the languages written by hand, ``{domain: {key: {tag: template}}}``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {domain: {key: dict(entry) for key, entry in texts.items()} for domain, texts in data["texts"].items()}


LIST_SEPARATOR = {EN: ", ", ZH_TW: "、", ZH_CN: "、"}
MESSAGE_SEPARATOR = {EN: "; ", ZH_TW: "；", ZH_CN: "；"}
REFERENCES = ("label", "term", "reason")


# --- the engine: a catalog of entries keyed by domain, key and language tag ----------------------------


def message_key(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The catalog key of a code with these parameters: ``code``, or ``code/case`` when a case is given."""
    case = params.get(CASE) if params else None
    return code if case is None else f"{code}/{case}"


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses (without their ``:label``-style formats)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def load_added(path: Path, language: str) -> dict[str, dict[str, str]]:
    """An added language's templates from its data file, ``{domain: {key: template}}``. The file keeps, per
    entry, the zh-TW template it was made from (``scripts/build-zh-cn`` and the tests read that); the service
    reads only the language's own text. No file (before its first ``make zh-cn``): no texts, so every one
    falls back."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {domain: {key: entry[language] for key, entry in texts.items()} for domain, texts in data["texts"].items()}


CATALOGS: dict[str, Catalog] = {}
"""Every catalog built, by each of its domains (a domain belongs to one catalog): where a ``Message`` is rendered."""


class Catalog(Mapping[str, dict[str, Entry]]):
    """Texts by domain, key and language tag, and their rendering. ``stem`` is where the added languages'
    data files are, the path without ``.<tag>.json``: one for every domain (``service/api/texts`` ->
    ``texts.zh-CN.json``) or one per domain (``from_files``). ``fallback`` names, per domain, the domains its
    look-ups continue in."""

    def __init__(
        self,
        domains: Mapping[str, dict[str, Entry]],
        stem: Path | Mapping[str, Path],
        fallback: Mapping[str, tuple[str, ...]] | None = None,
    ):
        self.domains = dict(domains)
        for domain in self.domains:
            if CATALOGS.setdefault(domain, self) is not self:
                raise ValueError(f"the domain {domain!r} is already another catalog's")
        self.stems = dict.fromkeys(self.domains, stem) if isinstance(stem, Path) else {d: stem[d] for d in self.domains}
        self.fallback = dict(fallback or {})
        for language in ADDED:
            for path in self.added_paths(language):
                for domain, texts in load_added(path, language).items():
                    for key, template in texts.items():
                        entry = self.domains.get(domain, {}).get(key)
                        if entry is not None:
                            entry[language] = template

    @classmethod
    def from_files(cls, stems: Mapping[str, Path], fallback: Mapping[str, tuple[str, ...]] | None = None) -> Catalog:
        """A catalog whose every language is data: each domain's hand-written entries in ``<stem>.json``
        (``stems`` in catalog order), its added languages in ``<stem>.<tag>.json``."""
        written: dict[str, dict[str, Entry]] = {}
        for stem in dict.fromkeys(stems.values()):
            written.update(load_written(data_path(stem)))
        return cls({domain: written[domain] for domain in stems}, stems, fallback)

    __eq__ = object.__eq__  # one catalog is itself, not its contents (so it can key a dict)
    __hash__ = object.__hash__

    # a read-only mapping of domain -> {key: entry}
    def __getitem__(self, domain: str) -> dict[str, Entry]:
        return self.domains[domain]

    def __iter__(self) -> Iterator[str]:
        return iter(self.domains)

    def __len__(self) -> int:
        return len(self.domains)

    def added_paths(self, language: str) -> dict[Path, tuple[str, ...]]:
        """Each data file of an added language, ``<stem>.<tag>.json``, with the domains it holds (in catalog
        order)."""
        files: dict[Path, list[str]] = {}
        for domain, stem in self.stems.items():
            files.setdefault(data_path(stem, language), []).append(domain)
        return {path: tuple(domains) for path, domains in files.items()}

    def entries(self) -> Iterator[tuple[str, str, Entry]]:
        """(domain, key, entry) of every entry, in catalog order."""
        for domain, texts in self.domains.items():
            for key, entry in texts.items():
                yield domain, key, entry

    def lookup(self, domain: str, key: str) -> tuple[str, Entry] | None:
        """(domain, entry) of ``key`` in ``domain`` or in the domains it falls back to; None when there is none."""
        for name in (domain, *self.fallback.get(domain, ())):
            entry = self.domains.get(name, {}).get(key)
            if entry is not None:
                return name, entry
        return None

    def text(self, domain: str, key: str, language: str = EN) -> str:
        """The bare template of an entry (``KeyError`` when there is none): for fixed texts like labels."""
        found = self.lookup(domain, key)
        if found is None:
            raise KeyError(f"no text {key!r} in {domain!r}")
        entry = found[1]
        template = entry.get(language)
        while template is None:
            language = FALLBACK_LANGUAGE[language]
            template = entry.get(language)
        return template

    def render(self, domain: str, code: str, params: Mapping[str, Any] | None = None, language: str = EN) -> str:
        """The text of ``code`` (with its ``case``) and ``params`` in ``language``.

        ``KeyError`` when the catalog has no such text: every code the cores emit has one (tests/test_i18n.py).
        """
        params = params or NO_PARAMS
        template = self.text(domain, message_key(code, params), language)
        return _Formatter(self, domain, language).vformat(template, (), params)


class _Formatter(string.Formatter):
    def __init__(self, catalog: Catalog, domain: str, language: str):
        super().__init__()
        self.catalog = catalog
        self.domain = domain
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in REFERENCES:
            items = value if isinstance(value, (list, tuple)) else (value,)
            return LIST_SEPARATOR[self.language].join(
                self.catalog.text(self.domain, f"{format_spec}.{v}", self.language) for v in items
            )
        if format_spec == "messages":
            return MESSAGE_SEPARATOR[self.language].join(
                self.catalog.render(self.domain, code, params, self.language) for code, params in value
            )
        if format_spec in self.catalog.domains:  # a (key, params) pair of another domain
            key, params = value
            return self.catalog.render(format_spec, key, params, self.language)
        if isinstance(value, (list, tuple)):
            return LIST_SEPARATOR[self.language].join(str(v) for v in value)
        return format(value, format_spec)


class Message(NamedTuple):
    """A text as it travels from where it arises to the edge that renders it: its catalog ``domain``, its
    ``code`` (with ``params[case]``, the catalog key) and its ``params``. ``str()`` is the English text."""

    domain: str
    code: str
    params: Mapping[str, Any] | None = None  # None, not {}: a label without parameters stays hashable

    def render(self, language: str = EN) -> str:
        return CATALOGS[self.domain].render(self.domain, self.code, self.params, language)

    def __str__(self) -> str:
        return self.render()


# --- the rules core's catalog ---------------------------------------------------------------------------

_RULES = Path(__file__).resolve().parent
TEXTS = {
    "cards": _RULES / "messages",
    "ofc-pineapple": _RULES / "ofc" / "messages",
    "joker-thirteen": _RULES / "thirteen" / "messages",
    "big-two": _RULES / "big_two" / "messages",
    "games": _RULES / "messages",
}
"""Where each domain's texts are, in catalog order: ``<stem>.json`` and ``<stem>.<tag>.json`` (a game's
beside its rules, the shared domains beside this module)."""
GAME_DOMAINS = ("ofc-pineapple", "joker-thirteen", "big-two")
"""The games' own texts (a game of the registry, service/rules/games.py, names its domain)."""
CATALOG = Catalog.from_files(TEXTS, fallback=dict.fromkeys(GAME_DOMAINS, ("cards",)))
FALLBACK = CATALOG.fallback
"""Where a domain's look-up continues when the domain has no such key."""


def lookup(domain: str, key: str) -> Entry | None:
    found = CATALOG.lookup(domain, key)
    return None if found is None else found[1]


def text(domain: str, key: str, language: str = EN) -> str:
    """The bare template of a rules-core entry (``KeyError`` when there is none)."""
    return CATALOG.text(domain, key, language)


def render(domain: str, code: str, params: Mapping[str, Any] | None = None, language: str = EN) -> str:
    """A rules-core text of ``code`` with ``params`` in ``language`` (``Catalog.render``)."""
    return CATALOG.render(domain, code, params, language)


def label(domain: str, category: str) -> Message:
    """The label of a hand value of ``category`` (``label.<category>`` in the game's domain): a key, not a text."""
    return Message(domain, f"label.{category}")
