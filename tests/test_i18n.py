"""Languages, en and zh-TW: the catalogs (the games' and the HTTP layer's) are complete and consistent, every code the cores emit has its
texts, Accept-Language is negotiated as documented (zh-CN's ranges too), the rule books' terms are used, and
the same request in both languages answers the same JSON but for its human text, with Content-Language and
Vary. The third language, zh-CN (data generated from zh-TW), has the same checks in tests/test_zh_cn.py."""

from __future__ import annotations

import ast
import copy
import importlib
import pkgutil
import random
import re
import string
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
import yaml
from flask import Flask
from marshmallow import Schema, ValidationError, fields

import service.rules
from service.api import create_app, i18n, texts
from service.api.errors import SCHEMA_ERROR_CODES
from service.api.games import schemas_for
from service.api.limits import TOO_DEEP
from service.rules import big_two as b2
from service.rules import games, messages, ofc, poker  # samples below
from service.rules import thirteen as j13
from service.rules.big_two import plays as big_two_plays
from service.rules.cards import DECK, JOKER, NotationProblem, Suit, cards, parse_cards
from service.rules.errors import InvalidInputError
from service.rules.messages import CATALOG, EN, ZH_TW, Message, placeholders
from service.rules.ofc import moves as ofc_moves
from service.rules.ofc import outlook as ofc_outlook
from service.rules.ofc import rules as ofc_rules
from tests.big_two.players import deal, play_random_game
from tests.big_two.test_api import SLAM, SLAM_DEAL, move, pass_, play, record
from tests.big_two.test_api import WORKED as BIG_TWO_WORKED
from tests.conftest import ROOT
from tests.joker_thirteen.test_api import HAND as JOKER_HAND
from tests.joker_thirteen.test_api import JOKER_TABLE, seat, worked_table
from tests.joker_thirteen.test_scoring import WORKED as JOKER_WORKED
from tests.ofc_pineapple.records import BING, JIA, YI, showdown_record
from tests.thirteen.specials_reference import making

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
ZH = {"Accept-Language": "zh-TW"}
ONE_REQUEST = {"X-Request-ID": "same-request", "traceparent": f"00-{'a' * 32}-{'b' * 16}-01"}
"""Headers that make a request's problem name the same request (``instance``, ``trace_id``) in every language."""
GAMES = messages.GAME_DOMAINS


CATALOGS = (CATALOG, texts.CATALOG)
"""The rules core's catalog (the games' texts) and the HTTP layer's (service/api/texts.py)."""


def entries() -> Iterator[tuple[str, str, messages.Entry]]:
    for catalog in CATALOGS:
        yield from catalog.entries()


ENTRIES = list(entries())


def has_text(domain: str, code: str) -> bool:
    """The catalog has a text for ``code`` (any of its cases) in ``domain`` or where it falls back."""
    return any(
        key == code or key.startswith(code + "/")
        for name in (domain, *messages.FALLBACK.get(domain, ()))
        for key in CATALOG[name]
    )


# ---- the catalog itself --------------------------------------------------------------------------------


@pytest.mark.parametrize(("domain", "key", "entry"), ENTRIES, ids=[f"{d}:{k}" for d, k, _ in ENTRIES])
def test_every_entry_has_every_language_with_the_same_parameters(domain, key, entry):
    assert set(entry) == set(messages.LANGUAGES), f"{domain}:{key} lacks {set(messages.LANGUAGES) - set(entry)}"
    assert entry[EN].strip() and entry[ZH_TW].strip()
    assert placeholders(entry[EN]) == placeholders(entry[ZH_TW]), f"{domain}:{key}"
    assert messages.CASE not in placeholders(entry[EN])
    assert CJK.search(entry[ZH_TW]), f"{domain}:{key} has no Chinese"


def test_the_web_layers_texts_are_not_the_rules_cores():
    """HTTP, marshmallow and JSON-decoder texts live in service/api/texts.py; the core keeps the games'."""
    assert set(texts.CATALOG) == {"http", "schema", "json"} and not set(texts.CATALOG) & set(CATALOG)
    assert set(CATALOG) == {"cards", *GAMES, "games"}


def test_a_code_has_one_text_or_only_cased_texts():
    """A code's key is ``code`` or ``code/case``, never both: its ``case`` parameter picks exactly one text.
    (Labels are looked up by their own keys, so ``label.pair_flush`` and its variant may coexist.)"""
    for catalog in CATALOGS:
        for domain, table in catalog.items():
            plain = {key for key in table if "/" not in key and not key.startswith("label.")}
            cased = {key.split("/")[0] for key in table if "/" in key and not key.startswith("label.")}
            assert not plain & cased, f"{domain}: {plain & cased} are both plain and cased"


def test_labels_are_unique_within_a_game_so_each_names_one_category():
    for game in GAMES:
        labels = [entry for key, entry in CATALOG[game].items() if key.startswith("label.")]
        assert len({e[EN] for e in labels}) == len(labels) and len({e[ZH_TW] for e in labels}) == len(labels), game


def test_references_inside_templates_resolve():
    """``{x:label}``, ``{x:term}``, ``{x:reason}`` refer to entries of their own domain."""
    for domain, key, entry in ENTRIES:
        for template in entry.values():
            for _, _, spec, _ in string.Formatter().parse(template):
                if spec in messages.REFERENCES:
                    assert any(k.startswith(spec + ".") for k in messages.CATALOGS[domain][domain]), (
                        f"{domain}:{key} {spec}"
                    )


def test_catalog_sizes_per_game():
    for game in GAMES:
        assert len(CATALOG[game]) >= 25, game


# ---- every code the cores can emit has its text -----------------------------------------------------------

RULES_MODULES = [
    importlib.import_module(f"service.rules.{m.name}") for m in pkgutil.iter_modules(service.rules.__path__)
]
CODE_REGISTRIES = [("cards", NotationProblem)] + list(
    dict.fromkeys((module.DOMAIN, registry) for module in RULES_MODULES for registry in getattr(module, "CODES", ()))
)
"""Every code registry (``CODES``) of every rules module, with the catalog domain its texts live in."""


def test_every_game_of_the_registry_declares_its_codes():
    assert all(importlib.import_module(f"service.rules.{game.package}").CODES for game in games.GAMES)


@pytest.mark.parametrize(("domain", "registry"), CODE_REGISTRIES, ids=[f"{d}:{r.__name__}" for d, r in CODE_REGISTRIES])
def test_every_registered_code_has_a_text(domain, registry):
    missing = [code.value for code in registry if not has_text(domain, code.value)]
    assert not missing


def test_every_combination_factor_and_compare_reason_has_a_text():
    assert all(f"label.{c.value}" in CATALOG["big-two"] for c in b2.Combination)
    assert all(any(k.split("/")[0] == f"factor.{f.value}" for k in CATALOG["big-two"]) for f in b2.FactorCode)
    assert all(f"reason.{r.value}" in CATALOG["big-two"] for r in b2.CompareReason)
    assert all(has_text("big-two", r.value) for r in b2.CompareReason if r.value in ("duplicate_card",))


def test_every_category_of_every_game_has_a_label():
    assert {f"label.{c.value}" for c in poker.Category} <= set(CATALOG["ofc-pineapple"])
    assert {f"label.{c.value}" for c in j13.Category} <= set(CATALOG["joker-thirteen"])
    assert {f"label.{c.value}" for c in b2.Combination} <= set(CATALOG["big-two"])


def test_joker_thirteen_dun_size_codes_are_registered():
    assert {f"wrong_{d.value}_size" for d in j13.Dun} <= {c.value for c in j13.ArrangementViolation}


RULES = ROOT / "service" / "rules"


def test_the_cores_carry_keys_not_texts():
    """A Violation, an InputProblem, a Big Two factor and a hand's label hold a catalog key and parameters,
    never words: their English ``message``/``reason`` is rendered on demand, and nothing in the rules core
    renders one except those properties (``messages.render`` is called only by them and the catalog)."""
    from service.rules.errors import InputProblem, Violation

    for kind in (Violation, InputProblem, b2.Factor):
        assert not {"message", "reason", "text"} & set(kind.__dataclass_fields__), kind
    labels = [*poker.LABELS.values(), *j13.LABELS.values(), j13.TWO_PAIR_FLUSH_LABEL, *j13.SPECIAL_LABELS.values()]
    labels += b2.COMBINATION_LABELS.values()
    assert all(isinstance(label, Message) and label.code in CATALOG[label.domain] for label in labels)
    renderers = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("render", "text")
                and getattr(node.value, "id", None) == "messages"
            ):
                renderers.append(f"{path.relative_to(RULES)}:{node.lineno}")
    assert all(place.startswith(("errors.py:", "big_two/scoring.py:", "messages.py:")) for place in renderers), (
        renderers
    )
    assert len([p for p in renderers if p.startswith("big_two/scoring.py:")]) == 1  # Factor.reason


# ---- a broad sample of the cores' output: English from the catalog, Chinese for every one ------------------


def collect(found: list[tuple[str, Any]], game: str, function: Callable[..., Any], *args: Any) -> Any:
    """Call ``function(*args)`` and add the violations it answers, or the problems it raises, to ``found``."""
    try:
        result = function(*args)
    except InvalidInputError as error:
        found += [(game, p) for p in error.problems]
        return None
    for v in getattr(result, "violations", ()):
        found.append((game, v))
    return result


def big_two_sample(rng: random.Random, found: list) -> None:
    deck = list(DECK)
    for _ in range(400):
        size = rng.choice([0, 1, 2, 3, 4, 5, 5, 5, 6, 13, 13, 14])
        picked = [rng.choice(deck) for _ in range(size)] if rng.random() < 0.2 else rng.sample(deck, size)
        collect(found, "big-two", b2.classify, picked)
        table = rng.sample(deck, rng.choice([1, 2, 3, 5]))
        collect(found, "big-two", b2.compare, table, picked)
        hand = rng.sample(deck, rng.randint(0, 14))
        action = (
            b2.Action.pass_()
            if rng.random() < 0.2
            else b2.Action.play(rng.sample(hand, min(len(hand), rng.choice([1, 2, 5]))) if hand else [])
        )
        if rng.random() < 0.1:
            action = b2.Action(b2.ActionType.PASS, tuple(picked[:1]))
        shown = None if rng.random() < 0.3 else table + ([JOKER] if rng.random() < 0.05 else [])
        collect(found, "big-two", b2.validate_move, hand, shown, action)
    for _ in range(30):
        game = play_random_game(rng, deal(rng, rng.choice([None, None, "dragon", "green"])))
        result = collect(found, "big-two", b2.validate_game, 10, game.hands, game.actions)
        for factor in [*result.score.winner.factors, *(f for loser in result.score.losers for f in loser.factors)]:
            found.append(("big-two", factor))
        broken = list(game.actions)
        broken.insert(rng.randrange(len(broken) + 1), b2.Action.play([rng.choice(deck)], rng.randrange(4)))
        collect(found, "big-two", b2.validate_game, 10, game.hands, broken)
        collect(found, "big-two", b2.validate_game, 10, game.hands, [*game.actions, b2.Action.pass_(0)])
    for text in BIG_TWO_CLASSIFY:
        collect(found, "big-two", b2.classify, cards(text))
    for table_text, play_text in BIG_TWO_COMPARES:
        collect(found, "big-two", b2.compare, cards(table_text), cards(play_text))
    for hand_text, table_text, kind, play_text in BIG_TWO_MOVES:
        action = b2.Action(b2.ActionType(kind), tuple(cards(play_text or "")))
        collect(
            found,
            "big-two",
            b2.validate_move,
            cards(hand_text),
            None if table_text is None else cards(table_text),
            action,
        )
    hands = [cards(" ".join(h)) for h in SLAM_DEAL]
    slam = [b2.Action(b2.ActionType(a["type"]), tuple(cards(" ".join(a.get("cards", [])))), a["seat"]) for a in SLAM]
    collect(found, "big-two", b2.validate_game, 10, hands, [*slam, b2.Action.pass_(1)])
    collect(found, "big-two", b2.validate_game, 10, hands, [b2.Action.pass_(1)])
    collect(found, "big-two", b2.validate_game, 10, [hands[0][:12], *hands[1:]], [])
    collect(found, "big-two", b2.validate_game, 0, [cards("3c JK")] * 3, [b2.Action.pass_(7)])
    collect(found, "big-two", b2.score_game, True, cards("Ks Ah"), "no", [cards("3c"), []])  # type: ignore[arg-type]
    collect(found, "big-two", b2.score_game, 1, cards("Ks Kh"), True, [cards("3c"), cards("3d"), cards("3h")])
    collect(found, "big-two", b2.score_game, 1, cards("JK Kh"), False, [cards("Kh"), cards("3d"), cards("3h")])
    collect(found, "big-two", b2.score_game, 1, cards("Ks Ah"), False, [cards("3c"), cards("3d"), cards("3h")])
    collect(found, "big-two", b2.validate_move, cards("3c JK"), None, b2.Action.pass_())
    collect(found, "big-two", b2.validate_move, [], None, b2.Action.pass_())
    collect(found, "big-two", b2.Action.of, "fold")
    # the refusals and reasons of other tables: the common game's, and one without four of a kind
    no_quads = b2.TAIWAN.with_parameters(
        plays=(b2.Combination.SINGLE, b2.Combination.PAIR, b2.Combination.STRAIGHT, b2.Combination.FULL_HOUSE),
        five_card_order=(b2.Combination.STRAIGHT, b2.Combination.FULL_HOUSE), monsters=(),
        straights=b2.STRAIGHTS[:-1],
    )  # fmt: skip  # the parameters a few to a line
    for rules in (b2.HONG_KONG, no_quads):
        for text in ("5c 5d 6h", "9c 9d 9h 9s 3c", "3h 7h 9h Jh Kh", "3c 4d 5h 6s 8c", "2c 3d 4h 5s 6c", "3c 4c"):
            collect(found, "big-two", b2.classify, cards(text), rules)
        collect(found, "big-two", b2.classify, deck[:7], rules)
    collect(found, "big-two", b2.compare, cards("4c 5d 6h 7s 8c"), cards("9c 9d 9h 3c 3d"), b2.HONG_KONG)
    hk_score = b2.score_game(
        10, cards("2s"), False, [cards("3c"), cards("3d 4d 5d 6d 7d 8d 9d Td"), DECK[-13:]], b2.HONG_KONG
    )
    found += [("big-two", f) for loser in hk_score.losers for f in loser.factors]
    own_tiers = b2.HONG_KONG.with_parameters(cards_left_tiers=b2.cards_left_tiers([(13, 4), (2, 2), (1, 1)]))
    own_score = b2.score_game(10, cards("2s"), False, [cards("3c"), cards("3d 4d"), DECK[-13:]], own_tiers)
    found += [("big-two", f) for loser in own_score.losers for f in loser.factors]
    hk_move = partial(b2.validate_move, rules=b2.HONG_KONG)
    first = partial(hk_move, first_lead=True, passed=False)
    first_hand = cards("3d 4c 4h 6s 7d 8c 9s Th Jd Qc Ks Ah 2d")  # the 3 of diamonds' holder, before any play
    collect(found, "big-two", first, first_hand, None, b2.Action.play(cards("4c")))
    after_pass = partial(hk_move, first_lead=False, passed=True)
    collect(found, "big-two", after_pass, cards("3d 4c 9s"), cards("8c"), b2.Action.play(cards("9s")))
    collect(found, "big-two", first, cards("3d 4c"), cards("3c"), b2.Action.play(cards("4c")))
    collect(found, "big-two", hk_move, cards("3d 4c"), cards("3c"), b2.Action.play(cards("4c")))  # states needed
    collect(found, "big-two", b2.compare, cards("9c 9d 9h 3c 3d"), cards("4c 5d 6h 7s 8c"), b2.HONG_KONG)
    inconsistent: list[dict[str, Any]] = [
        {"suit_order": (Suit.CLUBS,)}, {"plays": (b2.Combination.SINGLE,) * 2}, {"five_card_order": ()},
        {"monsters": (b2.Combination.SINGLE,)}, {"straights": ((3, 4, 5, 6, 8),)},
        {"cards_left_tiers": ()}, {"two_held": 0}, {"colour": "red"},
    ]  # fmt: skip  # one inconsistency of each kind, a few to a line
    for changes in inconsistent:
        collect(found, "big-two", partial(b2.TAIWAN.with_parameters, **changes))
    written = {"suit_order": ["x"], "loser_multipliers": {"per_two_held": 100}}  # not a suit; payments inexact
    collect(found, "big-two", partial(b2.TAIWAN.with_description, written))
    collect(found, "big-two", partial(b2.TAIWAN.with_description, {"loser_multipliers": {"per_two_held": 100}}))


def ofc_sample(rng: random.Random, found: list) -> None:
    deck = list(DECK)
    for _ in range(300):
        round_ = rng.choice([1, 2, 3, 4, 5, ofc.FANTASYLAND_ROUND])
        board = ofc.Board(*(tuple(rng.sample(deck, rng.randint(0, n + 1))) for n in (3, 5, 5)))
        dealt = [rng.choice(deck) for _ in range(rng.randint(1, 17))]
        placement = {
            r: tuple(rng.sample(dealt, min(len(dealt), rng.randint(0, 4)))) for r in ofc.ROWS if rng.random() < 0.6
        }
        discard = rng.sample(dealt, min(len(dealt), rng.randint(0, 2))) + (
            [rng.choice(deck)] if rng.random() < 0.2 else []
        )
        seen = rng.sample(deck, rng.randint(0, 3))
        collect(found, "ofc-pineapple", ofc.validate_move, board, round_, dealt, placement, discard, seen)
    collect(found, "ofc-pineapple", ofc.evaluate_row, ofc.TOP, cards("As Ks Qs Js"))
    collect(found, "ofc-pineapple", ofc.evaluate_row, ofc.MIDDLE, cards("As Ks Qs Js As"))
    jia = ofc.Board.of({row: cards(" ".join(texts)) for row, texts in JIA.items()})
    collect(found, "ofc-pineapple", ofc.evaluate_board, ofc.Board(tuple(cards("As Ks")), (), ()), ofc.Fantasyland())
    collect(found, "ofc-pineapple", ofc.evaluate_board, jia, ofc.Fantasyland(True, 13))
    collect(found, "ofc-pineapple", ofc.evaluate_board, jia, ofc.Fantasyland(False, 14))
    seats = [ofc.Seat(ofc.Board.of({row: cards(" ".join(texts)) for row, texts in b.items()})) for b in (JIA, YI, JIA)]
    collect(found, "ofc-pineapple", ofc.score_hand, seats[:2])
    collect(found, "ofc-pineapple", ofc.score_hand, seats)
    collect(found, "ofc-pineapple", ofc.validate_hand, 5, [ofc.Fantasyland()] * 3, [])
    collect(found, "ofc-pineapple", ofc.validate_hand, 0, [ofc.Fantasyland()] * 2, [])
    showdown = [ofc_action(a) for a in showdown_record(0)["actions"]]
    normal = [ofc.Fantasyland()] * 3
    collect(found, "ofc-pineapple", ofc.validate_hand, 0, normal, [*showdown, showdown[0]])
    collect(found, "ofc-pineapple", ofc.validate_hand, 0, normal, [*showdown[:3], showdown[0]])
    collect(found, "ofc-pineapple", ofc.validate_hand, 0, normal, showdown[:-1])
    for fantasyland in ([ofc.Fantasyland()] * 3, [ofc.Fantasyland(True, 15), ofc.Fantasyland(), ofc.Fantasyland()]):
        collect(found, "ofc-pineapple", ofc.validate_hand, 0, fantasyland, [])
        wrong = ofc.Action(2 if fantasyland[0].active else 0, tuple(rng.sample(deck, 5)), {}, ())
        collect(found, "ofc-pineapple", ofc.validate_hand, 0, fantasyland, [wrong])
        first = ofc.Action(1 if not fantasyland[0].active else 0, tuple(deck[:14]), {ofc.TOP: tuple(deck[:3])}, ())
        collect(found, "ofc-pineapple", ofc.validate_hand, 0, fantasyland, [first, first])
    # the texts that name another rule set's counts (service/rules/ofc/rules.py)
    collect(found, "ofc-pineapple", ofc.validate_move, ofc.Board(), 10, deck[:1], {}, (), (), ofc_rules.CLASSIC)
    collect(found, "ofc-pineapple", ofc.validate_move, ofc.Board(), 6, deck[:1], {}, ())
    collect(found, "ofc-pineapple", ofc.evaluate_board, jia, ofc.Fantasyland(True, 15), (), ofc_rules.STANDARD)
    collect(found, "ofc-pineapple", ofc.evaluate_board, jia, ofc.Fantasyland(True, 14), (), ofc_rules.CLASSIC)
    collect(found, "ofc-pineapple", ofc.score_hand, seats[:1], ofc_rules.CLASSIC)
    collect(found, "ofc-pineapple", ofc.validate_hand, 4, [ofc.Fantasyland()] * 4, [], ofc_rules.CLASSIC)
    # moves/legal and boards/outlook's impossible requests
    full = ofc.Board(tuple(cards("As Ad Ah")), tuple(cards("2c 3c 4c 5c 6c")), tuple(cards("9d Td Jd Qd Kd")))
    collect(found, "ofc-pineapple", ofc_moves.legal_moves, full, cards("Kc Ks 2d"))
    collect(found, "ofc-pineapple", ofc_moves.legal_moves, ofc.Board(tuple(cards("As Ad Ah Ac"))), cards("Kc Ks 2d"))
    collect(found, "ofc-pineapple", ofc_moves.legal_moves, ofc.Board(), cards("Kc Ks 2d"))
    short = ofc.Board(tuple(cards("Qs Qd")), tuple(cards("7c 7d 4h")), tuple(cards("9d Td Jd")))
    collect(found, "ofc-pineapple", ofc_outlook.outlook, short, [c for c in deck if c not in short.cards()][:40])


def ofc_action(body: dict[str, Any]) -> ofc.Action:
    placement = {ofc.Row(row): tuple(cards(" ".join(texts))) for row, texts in body["placement"].items()}
    return ofc.Action(
        body["seat"], tuple(cards(" ".join(body["dealt"]))), placement, tuple(cards(" ".join(body["discard"])))
    )


def joker_thirteen_sample(rng: random.Random, found: list) -> None:
    deck = list(j13.GAME_DECK)
    for _ in range(300):
        duns = [[rng.choice(deck) for _ in range(rng.choice([n, n, n, n - 1, n + 1]))] for n in (3, 5, 5)]
        hand = None if rng.random() < 0.4 else [*duns[0], *duns[1], *duns[2], *rng.sample(deck, rng.choice([4, 4, 3]))]
        if hand and rng.random() < 0.3:
            hand[rng.randrange(len(hand))] = rng.choice(deck)
        collect(found, "joker-thirteen", j13.validate_arrangement, *duns, hand)
        for dun, held in zip(j13.DUNS, duns):
            collect(found, "joker-thirteen", j13.evaluate_dun, dun, held)
    table = [j13.Arrangement(cards(h), cards(m), cards(t)) for h, m, t in JOKER_WORKED]
    collect(found, "joker-thirteen", j13.score_round, table[:3])
    swapped = [table[0], j13.Arrangement(table[1].tail, table[1].middle, table[1].head), *table[2:]]
    collect(found, "joker-thirteen", j13.score_round, swapped)
    doubled = [*table[:3], j13.Arrangement(cards("8h 4d 2s"), table[3].middle, table[3].tail)]
    collect(found, "joker-thirteen", j13.score_round, doubled)
    collect(found, "joker-thirteen", parse_cards, ["As", "Zz", 10, "JK"])
    # arrange for me: a size neither game's deal takes, each game's text (17 dealt and 4 discarded, or 13)
    collect(found, "joker-thirteen", j13.suggest.check_hand, deck[:14])
    collect(found, "joker-thirteen", j13.suggest.check_hand, list(j13.ORDINARY_DECK.cards[:12]), j13.ORDINARY_DECK)
    # ordinary 十三支: one 52-card deck, 13 cards each; a card twice is a duplicate
    ordinary = list(j13.ORDINARY_DECK.cards)
    for _ in range(100):
        duns = [[rng.choice(ordinary) for _ in range(rng.choice([n, n, n, n - 1]))] for n in (3, 5, 5)]
        hand = None if rng.random() < 0.5 else rng.sample(ordinary, rng.choice([13, 13, 12]))
        collect(found, "joker-thirteen", j13.validate_arrangement, *duns, hand, j13.ORDINARY_DECK)
    for hand in (ordinary[:12], [*ordinary[:11], JOKER, ordinary[0]]):  # special hands: 13 cards of the 52
        collect(found, "joker-thirteen", j13.specials_of, hand)
    ordinary_table = [j13.Arrangement(*(rng.sample(ordinary, n) for n in (3, 5, 5))) for _ in range(4)]
    collect(found, "joker-thirteen", j13.score_round, ordinary_table, j13.ORDINARY)
    # a table of one's own that cannot be played, and declarations a table does not take (rulings T6, T10)
    for rules in (j13.GSCAS, j13.ORDINARY):
        for described in ({"specials": {"dragon": 3}}, {"sweep": "all_lost", "shot": 2}):
            collect(found, "joker-thirteen", rules.with_description, described)
    by_player = j13.ORDINARY.with_description(
        {"specials": {"dragon": 13}, "special_vs_special": "difference", "declare": "by_player"}
    )
    dealt = [ordinary[13 * seat : 13 * seat + 13] for seat in range(4)]
    for table, declared in ((by_player, ["dragon", "six_pairs", None, None]), (j13.SHISANSHUI, ["dragon"] * 4)):
        players = [j13.Arrangement(h[:3], h[3:8], h[8:], declare=d) for h, d in zip(dealt, declared, strict=True)]
        collect(found, "joker-thirteen", j13.score_round, players, table)
    collect(found, "big-two", parse_cards, ["JK", "jk"])  # no jokers in Big Two
    # plays/legal's impossible situations
    first = cards("3c 4d 5h 6s 7c 9d Th Js Qc Kd Ah 2s 2c")
    collect(found, "big-two", big_two_plays.list_plays, cards("3c 4c"), cards("5c 6d"))
    hk_list = partial(big_two_plays.list_plays, rules=b2.HONG_KONG, first_lead=True, passed=False)
    collect(found, "big-two", lambda: hk_list(first, cards("3c")))
    collect(found, "big-two", lambda: hk_list(cards("3d 4c")))
    collect(found, "big-two", lambda: big_two_plays.list_plays(cards("3c"), cards("4c"), table_seat=1))


@pytest.fixture(scope="module")
def core_sample() -> list[tuple[str, Any]]:
    rng = random.Random(20260922)
    found: list[tuple[str, Any]] = []
    big_two_sample(rng, found)
    ofc_sample(rng, found)
    joker_thirteen_sample(rng, found)
    return found


def sample_text(item: Any) -> tuple[str, str, dict]:
    if isinstance(item, b2.Factor):
        return f"factor.{item.factor.value}", item.reason, dict(item.params)
    return item.code, item.message, dict(item.params)


def test_the_sample_reaches_every_code(core_sample):
    seen = {(game, sample_text(item)[0]) for game, item in core_sample}
    missing = [
        f"{domain}:{code.value}"
        for domain, registry in CODE_REGISTRIES
        for code in registry
        if not any((g, code.value) in seen for g in (GAMES if domain == "cards" else (domain,)))
    ]
    assert not missing, "never emitted by the sample"
    keys = {(game, messages.message_key(*sample_text(item)[::2])) for game, item in core_sample}
    for game in GAMES:  # every case of every code too
        unreached = [
            k for k in CATALOG[game] if "/" in k and not k.startswith(("label.", "factor.")) and (game, k) not in keys
        ]
        assert not unreached, game


def test_every_emitted_text_is_the_catalogs_english_and_has_chinese(core_sample):
    assert len(core_sample) > 1000
    for game, item in core_sample:
        code, english, params = sample_text(item)
        assert messages.render(game, code, params, EN) == english, (game, code)
        chinese = messages.render(game, code, params, ZH_TW)
        assert chinese != english and CJK.search(chinese), (game, code, chinese)
        assert not re.search(r"\b(the|a|is|not|cards?)\b", CJK.sub("", chinese).replace("cards", "")), (code, chinese)


def test_every_label_the_cores_give_is_in_the_catalog():
    rng = random.Random(7)
    keys = {game: {key for key in CATALOG[game] if key.startswith("label.")} for game in GAMES}
    seen: dict[str, set[Message]] = {game: set() for game in GAMES}
    for _ in range(3000):
        hand = rng.sample(list(DECK), 5)
        seen["ofc-pineapple"].add(ofc.evaluate_row(ofc.MIDDLE, hand).hand.label)
        seen["ofc-pineapple"].add(ofc.evaluate_row(ofc.TOP, hand[:3]).hand.label)
        seen["joker-thirteen"].add(
            j13.evaluate_dun("tail", [*hand[: rng.randint(2, 5)], JOKER, JOKER, JOKER][:5]).label
        )
    for text in ("As Ks Qs Js Ts", "As Ad Ah Ac Ks", "As 2s 3s 4s 5s", "Kd Kh Kc 3s 3d"):
        seen["ofc-pineapple"].add(ofc.evaluate_row(ofc.MIDDLE, cards(text)).hand.label)
    for _, dun, text, *_ in [("", *row) for row in JOKER_TABLE]:
        seen["joker-thirteen"].add(j13.evaluate_dun(dun, cards(text)).label)
    for text in ("JK JK JK", "2c 2d 2h 2s 2s", "Ac Ad Ah JK JK", "As Ks 9s 5s 2s", "4c 4d 9h 9s 2c"):
        seen["joker-thirteen"].add(j13.evaluate_dun("tail" if len(text) > 8 else "head", cards(text)).label)
    for special in j13.SPECIALS:  # the special hands' names: a hand making each, every special it makes
        seen["joker-thirteen"].update(j13.SPECIAL_LABELS[s] for s in j13.specials_of(making(special, rng)))
    for text in ("3c", "3c 3d", "3c 4d 5h 6s 7c", "3c 3d 3h 4s 4c", "3c 3d 3h 3s 4c", "3c 4c 5c 6c 7c",
                 "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"):  # fmt: skip
        seen["big-two"].add(b2.classify(cards(text)).hand.label)
    for text in ("5c 5d 5h", "3h 7h 9h Jh Kh"):
        seen["big-two"].add(b2.classify(cards(text), b2.HONG_KONG).hand.label)
    for game in GAMES:
        assert {label.domain for label in seen[game]} == {game}, game
        assert {label.code for label in seen[game]} == keys[game], game


# ---- the rule books' own words ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "key", "words"),
    [
        ("ofc-pineapple", "label.quads", "鐵支"),
        ("ofc-pineapple", "label.trips", "三條"),
        ("ofc-pineapple", "label.royal_flush", "皇家同花順"),
        ("ofc-pineapple", "label.high_card", "高牌"),
        ("ofc-pineapple", "term.top", "頭道"),
        ("ofc-pineapple", "term.middle", "中道"),
        ("ofc-pineapple", "term.bottom", "尾道"),
        ("joker-thirteen", "label.three_jokers", "鬼三條"),
        ("joker-thirteen", "label.real_five", "正五枚"),
        ("joker-thirteen", "label.joker_five", "鬼五枚"),
        ("joker-thirteen", "label.pair_flush", "對子同花"),
        ("joker-thirteen", "label.pair_flush/two_pairs", "雙對的對子同花"),
        ("joker-thirteen", "label.high_card", "烏龍"),
        ("joker-thirteen", "term.head", "頭墩"),
        ("joker-thirteen", "term.middle", "中墩"),
        ("joker-thirteen", "term.tail", "尾墩"),
        ("joker-thirteen", "head_not_below_middle", "相公"),
        ("joker-thirteen", "middle_above_tail", "相公"),
        ("big-two", "label.single", "單張"),
        ("big-two", "label.pair", "對子"),
        ("big-two", "label.straight", "順子"),
        ("big-two", "label.full_house", "葫蘆"),
        ("big-two", "label.four_of_a_kind", "鐵支"),
        ("big-two", "label.straight_flush", "同花順"),
        ("big-two", "label.dragon", "一條龍"),
        ("big-two", "label.green_dragon", "一條青龍"),
        ("big-two", "factor.grand_slam", "大滿貫"),
        ("big-two", "factor.three_of_clubs_finish", "梅花 3 收尾"),
        ("big-two", "factor.twos_finish", "老二收尾"),
        ("big-two", "factor.monster_finish", "怪物收尾"),
        ("big-two", "factor.green_dragon_finish", "一條青龍"),
        ("big-two", "factor.twos_held", "老二未出"),
        ("big-two", "factor.monster_held", "怪物未出"),
        ("big-two", "reason.monster_beats_normal", "怪物"),
        ("big-two", "leader_cannot_pass", "PASS"),
    ],
)
def test_chinese_uses_the_rule_books_terms(game, key, words):
    assert words in CATALOG[game][key][ZH_TW]


def test_dun_and_row_names_inside_messages():
    assert messages.render(
        "joker-thirteen", "wrong_head_size", {"dun": "head", "size": 3, "actual": 4}, ZH_TW
    ).startswith("頭墩")
    assert messages.render(
        "joker-thirteen", "wrong_middle_size", {"dun": "middle", "size": 5, "actual": 4}, ZH_TW
    ).startswith("中墩")
    assert messages.render(
        "joker-thirteen", "wrong_tail_size", {"dun": "tail", "size": 5, "actual": 6}, ZH_TW
    ).startswith("尾墩")
    assert messages.render("ofc-pineapple", "row_overflow", {"row": "bottom", "size": 5}, ZH_TW).startswith("尾道")
    monsters = messages.render("big-two", "factor.monster_held", {"kinds": ["four_of_a_kind", "straight_flush"]}, ZH_TW)
    assert "鐵支、同花順" in monsters


def test_big_two_core_labels_come_from_the_catalog():
    assert b2.COMBINATION_LABELS[b2.Combination.DRAGON] == Message("big-two", "label.dragon")
    assert [b2.COMBINATION_LABELS[b2.Combination.DRAGON].render(lang) for lang in messages.LANGUAGES] == [
        "Dragon",
        "一條龍",
        "一条龙",
    ]
    assert (
        str(poker.LABELS[poker.Category.QUADS]) == "Four of a kind"
        and str(j13.TWO_PAIR_FLUSH_LABEL) == "Pair flush, two pairs"
    )


# ---- negotiation --------------------------------------------------------------------------------------------

NEGOTIATION = [
    (None, "en"),
    ("", "en"),
    ("en", "en"),
    ("en-US,en;q=0.9", "en"),
    ("zh-TW", "zh-TW"),
    ("zh-tw", "zh-TW"),
    ("ZH-TW", "zh-TW"),
    ("zh", "zh-TW"),
    ("zh-Hant", "zh-TW"),
    ("zh-Hant-TW", "zh-TW"),
    ("zh-Hant-HK", "zh-TW"),
    ("zh-HK", "zh-TW"),
    ("zh-MO", "zh-TW"),
    ("zh-CN", "zh-CN"),
    ("zh-cn", "zh-CN"),
    ("zh-Hans", "zh-CN"),
    ("zh-Hans-CN", "zh-CN"),
    ("zh-Hans-SG", "zh-CN"),
    ("zh-Hans-TW", "zh-CN"),  # the script subtag decides before the region
    ("zh-Hant-CN", "zh-TW"),
    ("zh-SG", "zh-CN"),
    ("zh-MY", "zh-CN"),
    ("zh-Latn", "zh-TW"),  # a zh-* range we cannot place: the rule books' script
    ("zh-CN, en;q=0.8", "zh-CN"),
    ("zh-CN;q=0.5, en;q=0.8", "en"),
    ("en;q=0.8, zh-Hans;q=0.9", "zh-CN"),
    ("zh-TW, zh-CN", "zh-TW"),
    ("zh-CN, zh-TW", "zh-CN"),
    ("zh-TW;q=0.5, zh-CN;q=0.6", "zh-CN"),
    ("zh-CN;q=0.9, zh-TW;q=0.9", "zh-CN"),  # equal q: the range written first
    ("zh-CN;q=0, zh", "zh-TW"),
    ("zh-TW;q=0, zh", "zh-CN"),  # zh also names zh-CN, more weakly
    ("zh;q=0, zh-CN", "zh-CN"),
    ("zh-CN;q=0, zh-TW;q=0, zh", "en"),
    ("zh-CN;q=0, *", "en"),
    ("en;q=0, zh-TW;q=0, *", "zh-CN"),
    ("fr, zh-Hans;q=0.1", "zh-CN"),
    ("zh-TW;q=0.5, en;q=0.8", "en"),
    ("en;q=0.5, zh-TW", "zh-TW"),
    ("zh-TW;q=0.9, en;q=0.9", "zh-TW"),  # equal q: the range written first
    ("en, zh-TW", "en"),
    ("en, zh-CN", "en"),
    ("zh-TW;q=0", "en"),
    ("zh-TW;q=0, zh-CN", "zh-CN"),  # excluding Traditional leaves Simplified
    ("zh;q=0, zh-TW", "zh-TW"),  # the more specific range wins
    ("en;q=0, zh-CN;q=0.1", "zh-CN"),
    ("en;q=0", "en"),  # nothing acceptable: the default, never a 406
    ("*", "en"),
    ("*;q=0.5", "en"),
    ("de, *;q=0.5", "en"),
    ("en;q=0, *", "zh-TW"),  # the wildcard gives its q to the language no other range names
    ("zh-TW;q=0, *", "en"),
    ("fr", "en"),
    ("fr, de;q=0.9", "en"),
    ("fr, zh;q=0.1", "zh-TW"),
    ("ja-JP, zh-Hant;q=0.8, en;q=0.5", "zh-TW"),
    ("en-GB;q=0.7, zh-TW;q=0.7", "en"),
    (" zh-TW ; q=0.8 , en ; q=0.3 ", "zh-TW"),
    ("zh-TW;Q=0.8, en;q=0.9", "en"),
    ("zh-TW;q=1.0", "zh-TW"),
    ("zh-TW;q=0.999, en;q=0.998", "zh-TW"),
]


@pytest.mark.parametrize(("header", "expected"), NEGOTIATION)
def test_negotiation(header, expected):
    assert i18n.negotiate(header) == expected


@pytest.mark.parametrize(
    "header",
    [
        "zh-TW;q=2",
        "zh-TW;q=abc",
        "zh-TW;q=-1",
        "zh-TW;q=0.1234",
        "zh_TW",
        "中文",
        "zh-TW-toolongsubtag",
        ";;,,",
        "q=1",
        "zh-TW;q",
        "\x00",
    ],
)
def test_unreadable_entries_are_skipped_never_an_error(header):
    assert i18n.negotiate(header) == "en"
    assert i18n.negotiate(header + ", zh-TW;q=0.5") == "zh-TW"
    assert i18n.negotiate(header + ", zh-CN;q=0.5") == "zh-CN"


def test_huge_header_is_read_up_to_the_limit():
    assert i18n.negotiate("fr;q=0.1, " * 2000 + "zh-TW") == "en"
    assert i18n.negotiate("zh-TW, " + "fr;q=0.1, " * 2000) == "zh-TW"


# ---- the HTTP answers ---------------------------------------------------------------------------------------


def operation_examples() -> list[tuple[str, Any]]:
    found = []
    for path, item in SPEC["paths"].items():
        op = item.get("post")
        if op:
            media = op["requestBody"]["content"]["application/json"]
            found.append((path, media["example"]))
            name = media["schema"]["$ref"].rsplit("/", 1)[1]
            found.append((path, SPEC["components"]["schemas"][name]["example"]))
    return found


def ofc_bodies() -> list[tuple[str, Any]]:
    board = {
        "top": ["Qh", "Qd", "2c"],
        "middle": ["Ts", "Th", "7c", "7d", "3s"],
        "bottom": ["Ah", "Jh", "8h", "6h", "4h"],
    }
    out_of_turn = showdown_record(2)
    out_of_turn["actions"][0], out_of_turn["actions"][1] = out_of_turn["actions"][1], out_of_turn["actions"][0]
    dealt_twice = showdown_record()
    dealt_twice["actions"][3]["dealt"][2] = "Ah"
    dealt_twice["actions"][3]["discard"] = ["Ah"]
    fantasyland = showdown_record(0)
    fantasyland["players"][1] = {"fantasyland": {"active": True, "cards": 15}}
    fantasyland_wrong = copy.deepcopy(fantasyland)
    fantasyland_wrong["actions"] = [
        {"seat": 1, "dealt": [*JIA["top"], *JIA["middle"], *JIA["bottom"], "2h"], "placement": JIA, "discard": ["2h"]}
    ]
    fantasyland_first = copy.deepcopy(fantasyland)
    fantasyland_first["actions"] = [{"seat": 1, "dealt": ["As"], "placement": {"top": ["As"]}}]
    over = showdown_record()
    over["actions"].append(over["actions"][0])
    p = "/v1/ofc-pineapple/"
    return [
        (p + "rows/evaluate", {"row": "top", "cards": ["kh", "K♦", "aS"]}),
        (p + "rows/evaluate", {"row": "middle", "cards": ["10s", "Js", "Qs", "Ks", "As"]}),
        (p + "rows/evaluate", {"row": "bottom", "cards": ["9s", "9h", "9d", "9c", "2s"]}),
        (p + "rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As", "2c", "3c"]}),
        (p + "rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "kh"]}),
        (p + "rows/evaluate", {"row": "top", "cards": ["Kh", "1d", "JK"]}),
        (p + "rows/evaluate", {"row": "side", "cards": ["Kh", "Kd", "As"], "colour": "red"}),
        (p + "rows/evaluate", {"cards": "Kh"}),
        (p + "rows/evaluate", ["As"]),
        (p + "rows/evaluate", {"row": 3, "cards": [1, None, ["x"]]}),
        (p + "rows/evaluate", {"row": None, "cards": None}),
        (p + "rows/compare", {"row": "top", "a": ["Kh", "Kd", "Ac"], "b": ["Ks", "Kc", "Qd"]}),
        (p + "rows/compare", {"row": "middle", "a": ["Kh", "Kd", "Ac"], "b": ["Ks", "Kc", "Qd", "2c", "3c", "4c"]}),
        (p + "boards/evaluate", {"board": board}),
        (p + "boards/evaluate", {"board": {**board, "top": ["As", "Ad", "2c"]}}),
        (p + "boards/evaluate", {"board": board, "fantasyland": {"active": True, "cards": 15}}),
        (p + "boards/evaluate", {"board": board, "fantasyland": {"active": False, "cards": 14}}),
        (p + "boards/evaluate", {"board": board, "fantasyland": {"active": "yes", "cards": 13}}),
        (p + "boards/evaluate", {"board": {**board, "middle": ["Ts", "Th", "7c", "7d", "Qh"]}}),
        (p + "boards/evaluate", {"board": {"top": ["Qh"], "middle": [], "bottom": []}}),
        (p + "boards/evaluate", {"board": "none"}),
        (
            p + "moves/validate",
            {
                "board": {"top": ["Kh", "Qh", "Jh"]},
                "round": 2,
                "dealt": ["Ks", "7c", "2d"],
                "placement": {"top": ["Ks"], "bottom": ["7c"]},
                "discard": ["2d"],
            },
        ),
        (
            p + "moves/validate",
            {
                "board": {"top": ["Kh"]},
                "round": 1,
                "dealt": ["Ks", "Ks", "Kh", "2d"],
                "placement": {"top": ["Ks", "Qs"]},
                "discard": ["Ks"],
                "seen": ["2d"],
            },
        ),
        (
            p + "moves/validate",
            {"board": {}, "round": "fantasyland", "dealt": ["Ks"] * 3, "placement": {}, "discard": []},
        ),
        (p + "moves/validate", {"board": {}, "round": 6, "dealt": ["Ks"], "placement": {}}),
        (p + "hands/score", {"players": [{"board": JIA}, {"board": YI}, {"board": BING}]}),
        (
            p + "hands/score",
            {"players": [{"board": JIA}, {"board": YI}, {"board": dict(BING, top=["Kd", "Qc", "6d"])}]},
        ),
        (p + "hands/score", {"players": [{"board": JIA}, {"board": YI}]}),
        (p + "hands/validate", showdown_record()),
        (p + "hands/validate", out_of_turn),
        (p + "hands/validate", dealt_twice),
        (p + "hands/validate", fantasyland),
        (p + "hands/validate", fantasyland_wrong),
        (p + "hands/validate", fantasyland_first),
        (p + "hands/validate", over),
        (p + "hands/validate", {"dealer": 0, "players": [{}, {}, {}], "actions": []}),
        (p + "hands/validate", {"dealer": 3, "players": [{}, {}], "actions": [{"seat": 5}] * 65}),
    ]


def joker_thirteen_bodies() -> list[tuple[str, Any]]:
    p = "/v1/joker-thirteen/"
    players = [seat(*row) for row in JOKER_WORKED]
    xianggong = copy.deepcopy(players)
    xianggong[2]["head"], xianggong[2]["middle"] = ["7h", "7d", "Ah"], ["5d", "5h", "2h", "3c", "4c"]
    swapped = copy.deepcopy(players)
    swapped[1]["middle"], swapped[1]["tail"] = swapped[1]["tail"], swapped[1]["middle"]
    not_held = worked_table()
    not_held[1]["head"] = ["8c", "8s", "6h"]
    four_jokers = copy.deepcopy(players)
    for player, suit in zip(four_jokers, "shdc"):
        player["tail"] = ["JK", f"T{suit}", f"J{suit}", f"Q{suit}", f"K{suit}"]
    return [
        *[(p + "duns/evaluate", {"dun": dun, "cards": text.split()}) for dun, text, *_ in JOKER_TABLE],
        (p + "duns/evaluate", {"dun": "head", "cards": ["JK", "jk", "Jk"]}),
        (p + "duns/evaluate", {"dun": "middle", "cards": ["2c", "2d", "2h", "2s", "2s"]}),
        (p + "duns/evaluate", {"dun": "middle", "cards": ["Ac", "Ad", "Ah", "JK", "JK"]}),
        (p + "duns/evaluate", {"dun": "tail", "cards": ["As", "as", "A♠", "Kd", "Qd"]}),
        (p + "duns/evaluate", {"dun": "middle", "cards": ["Ah", "Kd", "AH", "Qd", "Jc"]}),
        (p + "duns/evaluate", {"dun": "head", "cards": ["As", "JKR", "2c"]}),
        (p + "duns/evaluate", {"dun": "tail", "cards": ["As", "Ks", "Qs", "Js"]}),
        (p + "duns/evaluate", {"dun": "top", "cards": ["As", "Ks"]}),
        (p + "duns/compare", {"dun": "middle", "a": "9c 8d 7h 6s 5c".split(), "b": "JK 8d 7h 6s 5c".split()}),
        (p + "duns/compare", {"dun": "head", "a": ["As", "Ks", "Qs"], "b": ["As", "Ks", "Qs", "Js"]}),
        (
            p + "arrangements/validate",
            {
                "hand": JOKER_HAND,
                "head": ["Qh", "Qd", "5c"],
                "middle": ["9c", "9d", "9h", "JK", "4s"],
                "tail": ["Ts", "Js", "Qs", "Ks", "As"],
            },
        ),
        (
            p + "arrangements/validate",
            {
                "head": ["9h", "9d", "Kc"],
                "middle": ["9c", "9s", "5d", "4h", "3c"],
                "tail": ["Ts", "Js", "Qs", "Ks", "JK"],
            },
        ),
        (
            p + "arrangements/validate",
            {
                "head": ["Ah", "Ad", "Ac"],
                "middle": ["9c", "9s", "5d", "4h", "3c"],
                "tail": ["2s", "3d", "4s", "5s", "7h"],
            },
        ),
        (
            p + "arrangements/validate",
            {
                "hand": JOKER_HAND[:16],
                "head": ["Qh", "Qd"],
                "middle": ["9c", "9d", "9h", "JK", "4s"],
                "tail": ["Ts", "Js", "Qs", "Ks", "Ah", "Ah"],
            },
        ),
        (
            p + "arrangements/validate",
            {
                "hand": JOKER_HAND,
                "head": ["Qh", "Qd", "Qd"],
                "middle": ["9c", "9d", "9h", "JK", "4s"],
                "tail": ["As", "As", "As", "Ks", "Qs"],
            },
        ),
        (p + "arrangements/validate", {"head": ["Qh", "Qd", "5c"]}),
        (p + "rounds/score", {"players": worked_table()}),
        (p + "rounds/score", {"players": players}),
        (p + "rounds/score", {"players": xianggong}),
        (p + "rounds/score", {"players": swapped}),
        (p + "rounds/score", {"players": not_held}),
        (p + "rounds/score", {"players": four_jokers}),
        (p + "rounds/score", {"players": players[:3]}),
        (p + "rounds/score", {"players": [dict(players[0], discard=["2c"]), *players[1:]]}),
    ]


def big_two_bodies() -> list[tuple[str, Any]]:
    p = "/v1/big-two/"
    losers = [{"cards": ["3c", "7d", "Jh"]}, {"cards": ["Jh", "4d"]}, {"cards": ["5d"]}]
    return [
        *[(p + "plays/classify", {"cards": text.split()}) for text in BIG_TWO_CLASSIFY],
        (p + "plays/classify", {"cards": ["3c", "JK"]}),
        (p + "plays/classify", {"cards": []}),
        *[(p + "plays/compare", {"table": t.split(), "play": q.split()}) for t, q in BIG_TWO_COMPARES],
        *[(p + "moves/validate", move(*m)) for m in BIG_TWO_MOVES],
        (p + "moves/validate", {"hand": ["3c"], "table": None, "action": {"type": "fold"}}),
        (p + "moves/validate", {"hand": ["3c"], "table": ["JK"], "action": {"type": "pass"}}),
        (p + "moves/validate", {"hand": ["3c"], "table": None, "action": {"type": "play", "cards": ["3c"], "seat": 0}}),
        (p + "games/score", BIG_TWO_WORKED),
        (p + "games/score", {**BIG_TWO_WORKED, "losers": losers}),
        (p + "games/score", {**BIG_TWO_WORKED, "winner": {"last_play": ["Ks", "Ah"], "grand_slam": False}}),
        (p + "games/score", {**BIG_TWO_WORKED, "winner": {"last_play": ["2s", "2h"], "grand_slam": True}}),
        (
            p + "games/score",
            {
                **BIG_TWO_WORKED,
                "winner": {"last_play": ["3c", "3d", "3h", "3s", "4c"], "grand_slam": False},
                "losers": [{"cards": ["5d"]}, {"cards": ["6d"]}, {"cards": ["7d"]}],
            },
        ),
        (p + "games/score", {**BIG_TWO_WORKED, "base": "10", "winner": {"last_play": [], "grand_slam": "no"}}),
        (p + "games/score", {**BIG_TWO_WORKED, "base": 0}),
        (p + "games/score", {**BIG_TWO_WORKED, "base": 10**9 + 1, "losers": [{"cards": ["4d"]}, {"cards": ["5d"]}]}),
        (p + "games/validate", record(SLAM)),
        (p + "games/validate", record(SLAM[:6])),
        (p + "games/validate", record(SLAM[:5] + [play(1, "3d")] + SLAM[6:])),
        (p + "games/validate", record([play(1, "2c 2d")])),
        (p + "games/validate", record(SLAM + [pass_(1)])),
        (p + "games/validate", record([pass_(0)])),
        (p + "games/validate", record([], [SLAM_DEAL[0], SLAM_DEAL[1][:12], SLAM_DEAL[2], ["8D", *SLAM_DEAL[3][1:]]])),
        (p + "games/validate", {**record([]), "hands": SLAM_DEAL[:3]}),
        (p + "games/validate", {**record([]), "actions": [{"seat": 4, "type": "fold"}]}),
    ]


BIG_TWO_COMPARES = [
    ("Kh Kd", "2c 2d"), ("Kh Kd", "Ks Kc"), ("3c 4d 5h 6s 7c", "4c 5d 6h 7s 8c"), ("2s", "9s 9h 9d 9c 3h"),
    ("9s 9h 9d 9c 3h", "3d 4d 5d 6d 7d"), ("3d 4d 5d 6d 7d", "As 2c 3c 4s 5h 6s 7s 8s 9s Ts Js Qs Kh"),
    ("2s", "2h"), ("Kh Kd", "2s"), ("9s 9h 9d 9c 3h", "2s 2h"), ("3d 4d 5d 6d 7d", "9s 9h 9d 9c 3h"),
    ("As 2c 3c 4s 5s 6s 7s 8s 9s Ts Js Qs Kc", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"),
    ("3c 3d 3h", "4s"), ("4s", "5c 6c"), ("Kh Kd", "Ks Kh"), ("4s", "4s"),
]  # fmt: skip
BIG_TWO_CLASSIFY = [
    "3h 9♣ 9d 9H 9s", "Ac 2d 3h 4s 5c", "3h 3d 3c", "Jc Qd Kh As 2c", "3s 5s 7s 9s Js", "9s 9h 9d 9c",
    "9s 9h 4d 4c", "9s 8h", "3c 4d 5h 6s 7c 8d", "Ks ks", "3c 3d 3h 4c 5c", "3c 3d 4h 4c 5c", "3c 3d 4h 5c 6c",
    "3c 4d 5h 6s 8c", "3c 4d 5h 6s 7c 8d 9h Tc Jc Qc Kc Ac Ac",
]  # fmt: skip
BIG_TWO_MOVES = [  # hand, table, action type, cards
    ("2h Js 3c Jh 7d", "Jd Jc", "play", "Jh Js"),
    ("3c 2h", None, "pass", None),
    ("3c 7d Jh Js 2h", "Qd Qc", "play", "Jh Js"),
    ("3c Jd 2h", "Jd Qc", "play", "9s Jd"),
    ("As 2c 3c 4s 5h 6s 7s 8s 9s Ts Js Qs", None, "play", "As 2c 3c 4s 5h 6s 7s 8s 9s Ts Js Qs Kh"),
    ("3c 2h", "As", "pass", "2h"),
    ("3c 2h", "As", "play", ""),
    ("9s 9h 9d 9c 3h", "As Ac", "play", "9s 9h 9d 9c 3h"),
    ("3s 4s", "9s 9h 9d 9c 3h", "play", "4s"),
    ("3s 4s", "As 2c 3c 4c 5h 6s 7s 8s 9s Ts Js Qs Kh", "play", "4s"),
    ("3s 4s 5s", "2s", "play", "3s 4s"),
]


REQUESTS = operation_examples() + ofc_bodies() + joker_thirteen_bodies() + big_two_bodies()
HUMAN = object()


def human_texts(node: Any, found: list[str], where: str = "") -> Any:
    """``node`` with every human text replaced by a marker; the texts go into ``found``."""
    if isinstance(node, list):
        return [human_texts(v, found, f"{where}/{i}") for i, v in enumerate(node)]
    if not isinstance(node, dict):
        return node
    human = {
        "label": "category" in node and "strength" in node,
        "message": "code" in node or "pointer" in node,
        "title": "status" in node and "type" in node,
        "detail": "status" in node and "type" in node,
        "reason": "factor" in node,
        "description": "jokers" in node,
        "name": "special" in node,  # a special hand's name
    }
    out = {}
    for key, value in node.items():
        if human.get(key) and isinstance(value, str):
            found.append(value)
            out[key] = HUMAN
        else:
            out[key] = human_texts(value, found, f"{where}/{key}")
    return out


def codes_in(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, list):
        for v in node:
            yield from codes_in(v)
    elif isinstance(node, dict):
        if "code" in node and "message" in node:
            yield node["code"], node
        for v in node.values():
            yield from codes_in(v)


GAME_OF_PATH = {"ofc-pineapple": "ofc-pineapple", "joker-thirteen": "joker-thirteen", "big-two": "big-two"}


@pytest.fixture(scope="module")
def answered(client) -> list[tuple[str, Any, Any, Any]]:
    """Every request of the sample in English and in Traditional Chinese: (path, request, en, zh) responses."""
    found = []
    for path, body in REQUESTS:
        en = client.post(path, json=body, headers=ONE_REQUEST)
        zh = client.post(path, json=body, headers={**ZH, **ONE_REQUEST})
        found.append((path, body, en, zh))
    return found


def test_the_sample_covers_success_violations_and_422s(answered):
    statuses = {en.status_code for _, _, en, _ in answered}
    assert statuses == {200, 422}
    codes = {code for _, _, en, _ in answered for code, _ in codes_in(en.get_json())}
    assert len(codes) >= 40


def test_same_request_same_json_but_human_text(answered):
    for path, body, en, zh in answered:
        assert (en.status_code, en.mimetype) == (zh.status_code, zh.mimetype), path
        en_texts: list[str] = []
        zh_texts: list[str] = []
        assert human_texts(en.get_json(), en_texts) == human_texts(zh.get_json(), zh_texts), (path, body)
        for english, chinese in zip(en_texts, zh_texts):
            assert CJK.search(chinese), (path, english, chinese)
            assert not CJK.search(english.replace("相公", "")), (path, english)


def test_every_code_answered_is_in_the_catalog(answered):
    for path, _, en, zh in answered:
        game = games.find_game(path.split("/")[2]).domain
        for (code, en_item), (_, zh_item) in zip(codes_in(en.get_json()), codes_in(zh.get_json())):
            schema_error = "pointer" in en_item and code in SCHEMA_ERROR_CODES.values()  # texts: texts.SCHEMA
            assert schema_error or has_text(game, code), (path, code)
            assert zh_item["message"] != en_item["message"], (path, code)


def test_content_language_and_vary_on_every_answer(answered):
    for path, _, en, zh in answered:
        assert en.headers["Content-Language"] == "en" and zh.headers["Content-Language"] == "zh-TW", path
        assert "Accept-Language" in en.headers["Vary"] and "Accept-Language" in zh.headers["Vary"], path


def test_labels_in_traditional_chinese_over_http(client):
    def label(path: str, body: dict) -> str:
        return client.post(path, json=body, headers=ZH).get_json()["hand"]["label"]

    assert (
        label("/v1/ofc-pineapple/rows/evaluate", {"row": "middle", "cards": ["9s", "9h", "9d", "9c", "2s"]}) == "鐵支"
    )
    assert label("/v1/joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["JK", "JK", "JK"]}) == "鬼三條"
    assert label("/v1/big-two/plays/classify", {"cards": "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc".split()}) == "一條龍"
    assert label("/v1/big-two/plays/classify", {"cards": "9s 9h 9d 9c 3h".split()}) == "鐵支"


# ---- problems outside the routes: 400, 404, 405, 413, 415, 500 ---------------------------------------------


def problem_answers(client, app, headers: dict[str, str]) -> dict[int, Any]:
    path = "/v1/ofc-pineapple/hands/score"
    return {
        400: client.post(path, data="{not json", content_type="application/json", headers=headers),
        404: client.get("/v1/no-such-game", headers=headers),
        405: client.get(path, headers=headers),
        413: client.post(
            path,
            data="[" + " " * app.config["MAX_CONTENT_LENGTH"] + "]",
            content_type="application/json",
            headers=headers,
        ),
        415: client.post(path, data="players=3", content_type="application/x-www-form-urlencoded", headers=headers),
        422: client.post(path, json={"players": []}, headers=headers),
    }


def test_problems_in_both_languages_with_headers(client, app):
    english, chinese = problem_answers(client, app, {}), problem_answers(client, app, ZH)
    for status in english:
        en, zh = english[status], chinese[status]
        assert en.status_code == zh.status_code == status and zh.mimetype == "application/problem+json"
        assert en.headers["Content-Language"] == "en" and zh.headers["Content-Language"] == "zh-TW"
        assert "Accept-Language" in en.headers["Vary"] and "Accept-Language" in zh.headers["Vary"]
        en_body, zh_body = en.get_json(), zh.get_json()
        assert (en_body["type"], en_body["status"]) == (zh_body["type"], zh_body["status"])
        assert en_body["title"] == texts.text(f"title.{status}") and CJK.search(zh_body["title"])
        assert CJK.search(zh_body["detail"]) and not CJK.search(en_body["detail"]), status
    assert chinese[405].headers["Allow"] == english[405].headers["Allow"]
    assert (
        chinese[400].get_json()["detail"]
        == "請求內容不是有效的 JSON：這裡應該要有用雙引號括起來的屬性名稱，在第 1 行第 2 欄（字元位置 1）"
    )


def test_too_deep_body_in_chinese(client):
    response = client.post(
        "/v1/big-two/plays/classify", data="[" * 40 + "]" * 40, content_type="application/json", headers=ZH
    )
    body = response.get_json()
    assert response.status_code == 422 and "32 層" in body["detail"] and body["errors"][0]["message"] == body["detail"]
    assert Message("http", "detail.too_deep", {"depth": 32}) == TOO_DEEP  # limits.py carries the catalog's key


def test_internal_error_in_chinese():
    app = create_app({"TESTING": True})

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    response = app.test_client().get("/boom", headers=ZH)
    assert response.status_code == 500 and response.headers["Content-Language"] == "zh-TW"
    assert response.get_json()["detail"] == texts.text("detail.internal", ZH_TW)
    assert response.get_json()["title"] == "內部錯誤"


def test_too_many_problems_prefix_in_chinese(client):
    body = {"row": "top", "cards": ["x"] * 5, **{f"f{i}": 1 for i in range(120)}}
    detail = client.post("/v1/ofc-pineapple/rows/evaluate", json=body, headers=ZH).get_json()["detail"]
    assert detail.startswith("共 12") and "只列出前 100 個" in detail


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("/healthz", "zh-TW"),
        ("/v1/games", "zh-TW"),
        ("/openapi.json", "en"),
        ("/openapi.yaml", "en"),
        ("/docs", "en"),
        ("/metrics", "en"),
    ],
)
def test_service_reads_say_their_language(client, path, language):
    response = client.get(path, headers=ZH)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language and "Accept-Language" in response.headers["Vary"]


def test_games_list_describes_decks_in_chinese_but_keeps_ids_and_names(client):
    en = client.get("/v1/games").get_json()["games"]
    zh = client.get("/v1/games", headers=ZH).get_json()["games"]
    assert [g["deck"]["description"] for g in zh] == [
        messages.text("games", f"games.{g['id']}.deck", ZH_TW) for g in en
    ]
    for a, b in zip(en, zh):
        assert [CJK.search(r["description"]) is not None for r in b["rule_sets"]] == [True] * len(b["rule_sets"])

        def untranslated(g: dict) -> dict:
            return {
                **g,
                "deck": {**g["deck"], "description": None},
                "rule_sets": [{**r, "description": None} for r in g["rule_sets"]],
            }

        assert untranslated(a) == untranslated(b)


# ---- marshmallow's messages: every one the schemas can produce is translated -----------------------------


def schema_messages(schema: Schema, seen: set[int] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    if id(type(schema)) in seen:
        return set()
    seen.add(id(type(schema)))
    found = set(schema.error_messages.values())
    for field in schema.fields.values():
        found |= field_messages(field, seen)
    return found


def field_messages(field: fields.Field, seen: set[int]) -> set[str]:
    found = {m for m in field.error_messages.values() if isinstance(m, str)}
    for validator in field.validators:
        for probe in (object(), -(10**12), 10**12, [], ["x"] * 500):
            try:
                validator(probe)
            except ValidationError as error:
                found |= set(error.messages)
            except TypeError:
                pass
    if isinstance(field, fields.List):
        found |= field_messages(field.inner, seen)
    if isinstance(field, fields.Nested):
        found |= schema_messages(field.schema, seen)
    return found


ALL_SCHEMAS = list(dict.fromkeys(s for game in games.GAMES for s in schemas_for(game).values()))


def in_language(message: str, language: str) -> str:
    """A schema message in ``language``, from the key it carries (a message without one fails)."""
    if isinstance(message, texts.SchemaMessage):
        return i18n.message(message.message, language)
    assert isinstance(message, texts.SchemaTemplate), f"{message!r} carries no catalog key"
    return texts.CATALOG.text("schema", message.key, language)


def test_every_marshmallow_message_the_schemas_can_produce_carries_its_key():
    found: set[str] = set()
    for schema in ALL_SCHEMAS:
        found |= schema_messages(schema())
    assert {"Unknown field.", "Missing data for required field.", "Not a valid integer.", "Length must be 3."} <= found
    untranslated = {m for m in found if not CJK.search(in_language(m, ZH_TW))}
    assert not untranslated
    assert all(in_language(m, EN) == m for m in found if isinstance(m, texts.SchemaMessage))


@pytest.mark.parametrize(
    ("validator", "english"),
    [(fields.validate.OneOf(["top", "middle", "bottom"]), "Must be one of: top, middle, bottom."),
     (fields.validate.Length(min=1, max=13), "Length must be between 1 and 13."), (fields.validate.Length(equal=17), "Length must be 17."),
     (fields.validate.Length(min=1), "Shorter than minimum length 1."), (fields.validate.Length(max=200), "Longer than maximum length 200."),
     (fields.validate.Range(min=1, max=1000000000), "Must be greater than or equal to 1 and less than or equal to 1000000000.")],
)  # fmt: skip
def test_marshmallow_messages_keep_their_values(validator, english):
    probe = (
        "x"
        if isinstance(validator, fields.validate.OneOf)
        else [0] * 500
        if isinstance(validator, fields.validate.Length)
        else 0
    )
    with pytest.raises(ValidationError) as error:
        validator([] if english.startswith("Shorter") else probe)
    message = error.value.messages[0]
    assert message == english and isinstance(message, texts.SchemaMessage)  # marshmallow's very text
    chinese = in_language(message, ZH_TW)
    assert CJK.search(chinese) and all(n in chinese for n in re.findall(r"\d+|top, middle, bottom", english))


def test_a_schema_message_is_its_english_text_for_marshmallow():
    message = texts.SchemaMessage.of(Message("ofc-pineapple", "invalid_round", {"case": "five_and_fantasyland"}))
    assert message == 'round is 1, 2, 3, 4, 5 or "fantasyland"' and isinstance(message, str)
    assert in_language(message, ZH_TW) == 'round 是 1、2、3、4、5 或 "fantasyland"'
    assert in_language(texts.schema_errors()["unknown"], EN) == "Unknown field."


# ---- the contract ---------------------------------------------------------------------------------------------


def test_spec_declares_accept_language_on_every_operation():
    parameter = SPEC["components"]["parameters"]["AcceptLanguage"]
    assert (parameter["in"], parameter["name"], parameter.get("required", False)) == (
        "header",
        "Accept-Language",
        False,
    )
    ref = {"$ref": "#/components/parameters/AcceptLanguage"}
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            assert ref in op.get("parameters", []), f"{method} {path}"


def test_spec_declares_content_language_and_vary_on_answers():
    assert (
        SPEC["components"]["headers"]["Content-Language"]["schema"]["enum"]
        == list(messages.LANGUAGES)
        == ["en", "zh-TW", "zh-CN"]
    )
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            for status, response in op["responses"].items():
                while "$ref" in response:
                    response = SPEC["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
                assert {"Content-Language", "Vary"} <= set(response.get("headers", {})), f"{method} {path} {status}"
    assert "Accept-Language" in SPEC["info"]["description"]


def test_app_factory_registers_headers_once():
    app = create_app({"TESTING": True})
    assert isinstance(app, Flask)
    response = app.test_client().get("/healthz", headers={"Accept-Language": "zh-HK"})
    assert response.headers.getlist("Content-Language") == ["zh-TW"]
    assert response.headers["Vary"].count("Accept-Language") == 1


@pytest.mark.parametrize(
    ("body", "key"),
    [("", "expecting_value"), ("{x", "expecting_property_name"), ('{"a" 1}', "expecting_colon"), ("[1 2]", "expecting_comma"),
     ("[] x", "extra_data"), ('"abc', "unterminated_string"), ('"a\x01"', "invalid_control_character"), ('"\\q"', "invalid_escape"),
     ('"\\u12"', "invalid_unicode_escape")],
)  # fmt: skip
def test_every_json_decoder_message_has_its_key(body, key):
    """A 400's detail reads the JSONDecodeError's fields: its ``msg`` names a ``json`` entry, never parsed."""
    import json

    with pytest.raises(json.JSONDecodeError) as error:
        json.loads(body)
    assert texts.decoder_message(error.value.msg) == (key, {})
    assert texts.decoder_message("Invalid control character '\\x01' at") == (
        "invalid_control_character_named",
        {"char": "'\\x01'"},
    )
    assert set(texts.DECODER_MESSAGES.values()) | set(texts.DECODER_NAMED.values()) == set(texts.JSON)


def test_every_language_has_its_list_and_message_separators():
    # a language without them renders every list of codes and every nested message as a 500
    assert set(messages.LIST_SEPARATOR) == set(messages.MESSAGE_SEPARATOR) == set(messages.LANGUAGES)
