"""The game registry: every game the service knows, declared once as frozen data (python-chess's ``VARIANTS``
/ ``find_variant``). Everything that lists games derives from ``GAMES``: ``GET /v1/games``, the blueprints
``create_app`` registers, the catalog domain of each blueprint, the test lists and the contract's enums
(a test holds ``openapi.yaml`` to this module).

A game names its rule sets; the first is its default (the authoritative rule book's). A rule set's
``rules`` is the frozen rules object its game's operations take as an argument (``OfcRules`` for the OFC
games, ``BigTwoRules``, ``ThirteenRules`` for both Thirteen games): every rule set of every game is one.

A game also names where it lives: its rules package, ``service.rules.<package>`` (``ofc`` serves both OFC
games, ``thirteen`` Joker Thirteen and ordinary 十三支, ``big_two`` Big Two), and the module of the HTTP layer
that serves it, ``service.api.<api_module>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.rules import big_two, ofc, thirteen


@dataclass(frozen=True, slots=True)
class Deck:
    cards: int
    jokers: int


@dataclass(frozen=True, slots=True)
class RuleSet:
    id: str
    name: str
    native_name: str
    source: str  # the rule book (and its version) the rule set follows
    players: tuple[int, int]
    rules: Any = None  # the game's frozen rules object (OfcRules, BigTwoRules, ThirteenRules)


@dataclass(frozen=True, slots=True)
class Game:
    id: str  # the API's path segment and the catalog domain of the game's texts
    name: str
    native_name: str
    package: str  # its rules package: service.rules.<package>
    api_module: str  # the HTTP layer's module that serves it: service.api.<api_module>
    deck: Deck
    rule_sets: tuple[RuleSet, ...]
    text_domain: str = ""  # the catalog domain of its texts, when it shares another game's

    @property
    def default(self) -> RuleSet:
        return self.rule_sets[0]

    @property
    def players(self) -> tuple[int, int]:
        """Fewest and most players of its default rule set (what ``GET /v1/games`` has always said)."""
        return self.default.players

    @property
    def seats(self) -> tuple[int, int]:
        """Fewest and most players over all its rule sets (the contract's bounds)."""
        return min(r.players[0] for r in self.rule_sets), max(r.players[1] for r in self.rule_sets)

    @property
    def domain(self) -> str:
        return self.text_domain or self.id

    @property
    def base_path(self) -> str:
        return f"/v1/{self.id}"

    @property
    def blueprint(self) -> str:
        """The Flask blueprint name of its HTTP layer (a Python identifier)."""
        return self.id.replace("-", "_")

    def rule_set(self, rule_set_id: str | None) -> RuleSet:
        """A rule set by id (the default for None); KeyError for an id the game does not have."""
        if rule_set_id is None:
            return self.default
        for r in self.rule_sets:
            if r.id == rule_set_id:
                return r
        raise KeyError(rule_set_id)


def _ofc(rules: ofc.OfcRules) -> RuleSet:
    return RuleSet(rules.id, rules.name, rules.native_name, rules.source, rules.players, rules)


_DECK52 = Deck(52, 0)

GAMES: tuple[Game, ...] = (
    Game(
        "ofc-pineapple", "Pineapple Open-Face Chinese Poker", "大菠蘿", "ofc", "ofc_pineapple", _DECK52,
        (_ofc(ofc.ULTIMATE), _ofc(ofc.STANDARD), _ofc(ofc.PROGRESSIVE)),
    ),
    Game(
        "joker-thirteen", "Joker Thirteen with an extra spade suit", "鬼牌十三支加一色", "thirteen", "thirteen",
        Deck(68, 3),
        (RuleSet(thirteen.GSCAS.id, "Joker Thirteen, extra spade suit (house rules)", "鬼牌十三支加一色", "joker-thirteen/gscas",
                 (thirteen.PLAYERS, thirteen.PLAYERS), thirteen.GSCAS),),
    ),
    Game(
        "big-two", "Taiwanese Big Two", "台灣大老二", "big_two", "big_two", _DECK52,
        (RuleSet(big_two.TAIWAN.id, "Taiwanese Big Two (house rules)", "台灣大老二", "big-two/taiwan", (big_two.SEATS, big_two.SEATS), big_two.TAIWAN),
         RuleSet(big_two.HONG_KONG.id, "Big Two as played in Hong Kong and the mainland", "鋤大D", "rules digest: Other Big Two rule sets",
                 (big_two.SEATS, big_two.SEATS), big_two.HONG_KONG)),
    ),
    Game(
        "ofc-classic", "Classic Open-Face Chinese Poker", "明牌十三張", "ofc", "ofc_pineapple", _DECK52,
        (_ofc(ofc.CLASSIC),), text_domain="ofc-pineapple",
    ),
    Game(
        "thirteen", "Thirteen (Chinese poker)", "十三支", "thirteen", "thirteen", _DECK52,
        (RuleSet(thirteen.ORDINARY.id, "Ordinary Thirteen (house rules without the extra suit and the jokers)", "十三支",
                 "rules digest: Other Thirteen rule sets", (thirteen.PLAYERS, thirteen.PLAYERS), thirteen.ORDINARY),
         RuleSet(thirteen.SHISANSHUI.id, "Shisanshui: Thirteen as the mainland and Taiwanese platforms score it", "十三水",
                 "rules digest: Thirteen as other tables score it", (thirteen.PLAYERS, thirteen.PLAYERS),
                 thirteen.SHISANSHUI)),
        text_domain="joker-thirteen",
    ),
)  # fmt: skip  # one game per block: its names, modules and rule sets read as a table
GAME_BY_ID = {g.id: g for g in GAMES}


def find_game(game_id: str) -> Game:
    """A game by id (``KeyError`` when there is none), as python-chess's ``find_variant``."""
    return GAME_BY_ID[game_id]
