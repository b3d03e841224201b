"""What every game's HTTP module shares, so that each has one shape: the registry's module of a game
(``service.api.<api_module>``) defines ``request_schemas(game)``, every request schema built by a ``Schemas``
(each named as its component in the contract, nested ones first), and ``make_blueprint(game, schemas)``, its
routes (``Operations``), each choosing the request's rules with the game's ``RuleChoice``. ``schemas_for`` and
``blueprint_for`` build them once per game, for ``create_app`` and the contract tests.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from service.api.common import answer, load_body
from service.api.heavy import heavy as capped
from service.api.schema import StrictBoolean, StrictInteger, StrictSchema
from service.rules.games import Game
from service.rules.parameters import Value, declared

TABLES_KEPT = 16
"""How many tables' own rules (a request's ``rules``, ``royalties`` or ``bonuses``) each game keeps, the most
recently used: each holds the tables its rules object builds (a Big Two ladder, about 0.1 MiB; OFC royalty
tables as far as they were used, 0.6 MiB at most)."""

_PREFIXES = {"ofc-pineapple": ""}
"""The games whose component names in the contract do not start with the game's id in words: ofc-pineapple's
predate the registry (``HandScoreRequest``)."""


def component_prefix(game: Game) -> str:
    """What starts the names of a game's components in the contract: its id in words (``BigTwo``,
    ``OfcClassic``, ``JokerThirteen``)."""
    return _PREFIXES.get(game.id, "".join(part.title() for part in game.id.split("-")))


Build = Callable[..., Any]
"""What a request schema's loaded fields make (``StrictSchema.build``)."""


class Schemas(dict[str, type[StrictSchema]]):
    """A game's request schemas by name (``ScoreRequest``), each class named as its component in the
    contract (``BigTwoScoreRequest``), in the order they are made."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.prefix = component_prefix(game)

    def add(self, name: str, build: Build | None = None, /, **declared: Any) -> type[StrictSchema]:
        """A new request schema of the ``declared`` fields (``build``: what its loaded fields make)."""
        return self._made(self.prefix + name, name, build, declared)

    def add_shared(self, name: str, build: Build | None = None, /, **declared: Any) -> type[StrictSchema]:
        """A component the contract shares between games: named without the game's prefix."""
        return self._made(name, name, build, declared)

    def _made(self, component: str, name: str, build: Build | None, declared: dict[str, Any]) -> type[StrictSchema]:
        built = None if build is None else staticmethod(build)
        made: type[StrictSchema] = type(component, (StrictSchema,), {**declared, "build": built})
        self[name] = made
        return made


def rule_set_field(game: Game) -> fields.String:
    """A request's ``rule_set``: one of the game's, by id."""
    return fields.String(validate=validate.OneOf([r.id for r in game.rule_sets]))


@dataclass(frozen=True)
class RuleChoice:
    """How a game's requests choose their rules: ``rule_set`` names one of the game's (absent: its default),
    and the game's own fields (``own``: Big Two's ``rules``, OFC's ``royalties``, Thirteen's ``rules`` and
    ``bonuses``) change some of its parameters (``apply(rules, {field: value})``, the fields sent). A table's
    own rules are built once per distinct value and kept for the ``TABLES_KEPT`` most recently sent; a value
    that no table can play is refused each time it is sent (never kept).

    An answer to a request naming any says which rules it applied (``rule_set`` and ``rules_digest``); an
    answer to one naming none is the default's, unchanged."""

    game: Game
    own: tuple[str, ...]
    apply: Callable[[Any, Any], Any]
    by_id: Mapping[str | None, Any] = field(init=False)
    _kept: Callable[[str | None, str], Any] = field(init=False)

    def __post_init__(self) -> None:
        by_id = {None: self.game.default.rules} | {r.id: r.rules for r in self.game.rule_sets}
        object.__setattr__(self, "by_id", by_id)
        object.__setattr__(self, "_kept", lru_cache(maxsize=TABLES_KEPT)(self._made))

    def _made(self, rule_set: str | None, own: str) -> Any:
        return self.apply(self.by_id[rule_set], json.loads(own))

    def rules(self, body: dict[str, Any]) -> Any:
        """The rules a loaded request asks for."""
        rule_set = body.get("rule_set")
        own = {name: body[name] for name in self.own if body.get(name)}
        if not own:
            return self.by_id[rule_set]
        return self._kept(rule_set, json.dumps(own, sort_keys=True, separators=(",", ":")))

    def named(self, body: dict[str, Any]) -> bool:
        """Whether a loaded request named a rule set or rules of its own."""
        return "rule_set" in body or any(name in body for name in self.own)

    def echo(self, body: dict[str, Any], rules: Any, shaped: dict[str, Any]) -> dict[str, Any]:
        """The answer ``shaped``, naming ``rules`` when the request named them."""
        if self.named(body):
            shaped["rule_set"] = rules.id
            shaped["rules_digest"] = rules.digest
        return shaped


Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
"""What an operation makes of a loaded request and its rules: its answer."""
Declare = Callable[[Callable[[], Response]], Callable[[], Response]]
"""A decorator declaring what a view answers (``common.rule_codes``)."""


@dataclass(frozen=True)
class Operations:
    """A game's routes on its blueprint, each the same steps: load the body by the operation's schema,
    choose the rules it asks for, make the answer (the ``Handler``), name the rules when the request did.
    ``codes`` declares what the operation answers (``common.rule_codes``); ``heavy`` runs it only in a free
    slot of the app's cap (``service/api/heavy.py``)."""

    bp: Blueprint
    choice: RuleChoice

    def __call__(
        self, path: str, schema: type[StrictSchema], codes: Declare, heavy: bool = False
    ) -> Callable[[Handler], Handler]:
        loader, choice = schema(), self.choice

        def register(handler: Handler) -> Handler:
            def view() -> Response:
                body = load_body(loader)
                rules = choice.rules(body)
                return answer(choice.echo(body, rules, handler(body, rules)))

            view.__name__ = handler.__name__  # the endpoint's name
            self.bp.post(path)(codes(capped(view) if heavy else view))
            return handler

        return register


def _module(game: Game) -> Any:
    return importlib.import_module(f"service.api.{game.api_module}")


_SCHEMAS: dict[str, dict[str, type[StrictSchema]]] = {}
_BLUEPRINTS: dict[str, Blueprint] = {}


def schemas_for(game: Game) -> dict[str, type[StrictSchema]]:
    """Every request schema of ``game`` by name, built once."""
    if game.id not in _SCHEMAS:
        _SCHEMAS[game.id] = _module(game).request_schemas(game)
    return _SCHEMAS[game.id]


def blueprint_for(game: Game) -> Blueprint:
    """The blueprint serving ``game``, built once."""
    if game.id not in _BLUEPRINTS:
        _BLUEPRINTS[game.id] = _module(game).make_blueprint(game, schemas_for(game))
    return _BLUEPRINTS[game.id]


# --- a table's own rules, as a request writes them: compiled from the rules class's declarations -------


def table_rules_schema(schemas: Schemas, rules_class: type) -> type[StrictSchema]:
    """The ``TableRules`` schema of a game whose requests write their table's rules: every parameter its rules
    class declares that a request may set, at its place, as its ``Value`` says (a group, or an object with a
    name, is a schema of its own: ``LoserMultipliers``, ``CardsLeftTier``). Nothing is required: a parameter
    left out is the rule set's."""
    top: dict[str, Any] = {}
    groups: dict[str, dict[str, Any]] = {}
    for _, parameter in declared(rules_class):
        if parameter.read is None:
            continue
        *group, name = parameter.place
        if group:
            top.setdefault(group[0], None)  # its place among the others; the schema is made below
            groups.setdefault(group[0], {})[name] = _field(schemas, parameter.value)
        else:
            top[name] = _field(schemas, parameter.value)
    for group_name, members in groups.items():
        top[group_name] = fields.Nested(schemas.add("".join(part.title() for part in group_name.split("_")), **members))
    return schemas.add("TableRules", **top)


def _field(schemas: Schemas, value: Value, **options: Any) -> fields.Field[Any]:
    """The marshmallow field that loads what ``value`` describes, bounded as it says."""
    if value.type == "boolean":
        return StrictBoolean(**options)
    if value.type == "integer":
        return StrictInteger(validate=validate.Range(value.minimum, value.maximum), **options)
    if value.type == "string":
        return fields.String(validate=validate.OneOf(value.enum), allow_none=value.null, **options)
    if value.type == "array":
        assert value.items is not None, "an array declares its items"
        return fields.List(_field(schemas, value.items), validate=_length(value), **options)
    members = {name: _field(schemas, member, required=not value.optional) for name, member in value.properties}
    return fields.Nested(schemas.add(value.name, **members), **options)


def _length(value: Value) -> validate.Length:
    """An array's bounds as the contract's other lists are validated (so their messages are the same)."""
    if value.min_items == value.max_items:
        return validate.Length(equal=value.min_items)
    return validate.Length(min=value.min_items or None, max=value.max_items)
