"""The turn and the score of the common game (``hong-kong``, 鋤大D) against the house rules (``taiwan``): the
lowest card in the game's first play, a pass that locks a player out of the trick, cards-left scoring
(README "Other Big Two rule sets"; docs/rulings.md B22-B24)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.rules import messages
from service.rules.big_two import (
    HONG_KONG,
    TAIWAN,
    Action,
    Combination,
    cards_left_tiers,
    list_plays,
    score_game,
    validate_game,
    validate_move,
)
from service.rules.cards import DECK, Suit, cards
from service.rules.errors import InvalidInputError

# seat 0 holds the clubs, 1 the diamonds, 2 the hearts, 3 the spades: the 3 of clubs (taiwan) and the 3 of
# diamonds (hong-kong) lead from different seats
SUITED = [[c for c in DECK if c.suit is suit] for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)]


def play(text: str, seat: int | None = None) -> Action:
    return Action.play(cards(text), seat)


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


# the 13 cards dealt to the holder of the 3 of diamonds (and of the 3 of clubs): a game's first lead
FIRST_HAND = cards("3c 3d 4c 6s 7d 8c 9s Th Jd Qc Ks Ah 2d")


def test_the_games_first_play_must_hold_the_3_of_diamonds_in_hong_kong_and_need_not_in_taiwan():
    assert codes(validate_move(FIRST_HAND, None, play("4c"), HONG_KONG, first_lead=True, passed=False)) == [
        "first_play_without_lowest_card"
    ]
    assert validate_move(FIRST_HAND, None, play("3d"), HONG_KONG, first_lead=True, passed=False).legal
    assert validate_move(FIRST_HAND, None, play("4c"), TAIWAN, first_lead=True).legal
    found = validate_move(FIRST_HAND, None, play("4c"), HONG_KONG, first_lead=True, passed=False).violations[0]
    assert found.message == "the game's first play must contain 3d"


def test_a_play_after_a_pass_in_the_same_trick_is_illegal_in_hong_kong_and_not_in_taiwan():
    hand = cards("3d 4c 9s")
    assert codes(validate_move(hand, cards("8c"), play("9s"), HONG_KONG, first_lead=False, passed=True)) == [
        "passed_this_trick"
    ]
    assert validate_move(hand, cards("8c"), Action.pass_(), HONG_KONG, first_lead=False, passed=True).legal
    assert validate_move(hand, cards("8c"), play("9s"), TAIWAN, passed=True).legal  # 「PASS 可以回頭」


def refused(function, *args, **kwargs) -> list[tuple[tuple, str]]:
    with pytest.raises(InvalidInputError) as raised:
        function(*args, **kwargs)
    return [(p.path, p.code) for p in raised.value.problems]


def test_a_first_play_onto_a_table_is_impossible_input():
    first = {"first_lead": True, "passed": False}
    assert refused(validate_move, FIRST_HAND, cards("3s"), play("4c"), HONG_KONG, **first) == [
        (("table",), "first_lead_with_table")
    ]


# A table's own rules: the house rules whose first play must hold the 3 of clubs, the common game's whose need not
TAIWAN_LOWEST_FIRST = TAIWAN.with_parameters(first_play_has_lowest_card=True)
HONG_KONG_ANY_FIRST = HONG_KONG.with_parameters(first_play_has_lowest_card=False)


@pytest.mark.parametrize(
    ("rules", "lowest"), [(HONG_KONG, "3d"), (TAIWAN_LOWEST_FIRST, "3c")], ids=["hong-kong", "taiwan-lowest-first"]
)
def test_a_first_lead_from_fewer_than_13_cards_or_without_the_lowest_card_is_impossible_input_where_it_is_read(
    rules, lowest
):
    """Where the first play must hold the lowest card, the game's first lead is that card's holder leading from
    the 13 cards dealt: moves/validate refuses any other first lead as plays/legal does (``first_lead_hand``)."""
    without = [*cards("5h"), *(c for c in FIRST_HAND if c.text != lowest)]  # 13 cards, not the lowest
    first = {"first_lead": True, "passed": False}
    for hand in (cards(f"{lowest} 4c 9s"), without):
        expected = [(("hand",), "first_lead_hand")]
        assert refused(validate_move, hand, None, play(lowest), rules, **first) == expected
        assert refused(list_plays, hand, rules=rules, **first) == expected
    assert refused(validate_move, cards("3c 3d 4c"), cards("5s"), play("4c"), rules, **first) == [
        (("table",), "first_lead_with_table"),
        (("hand",), "first_lead_hand"),
    ]


@pytest.mark.parametrize("rules", [TAIWAN, HONG_KONG_ANY_FIRST], ids=["taiwan", "hong-kong-any-first"])
def test_first_lead_is_read_as_false_where_the_first_play_need_not_hold_the_lowest_card(rules):
    """Where the first play is any lead, ``first_lead: true`` changes nothing and is never refused: a short
    hand, a hand without the lowest card, even a table, are answered as the same question without it."""
    ask = {"passed": False} if rules.pass_locks else {}
    for hand, table in ((cards("3c 4c 9s"), None), (cards("4c 9s"), None), (cards("3c 4c 9s"), cards("3s"))):
        for action in (play("4c"), play("9s"), Action.pass_()):
            moved = validate_move(hand, table, action, rules, first_lead=True, **ask)
            assert moved == validate_move(hand, table, action, rules, first_lead=False, **ask)
        listed = list_plays(hand, table, first_lead=True, rules=rules, **ask)
        assert listed == list_plays(hand, table, first_lead=False, rules=rules, **ask)
    assert validate_move(cards("4c 9s"), None, play("4c"), rules, first_lead=True, **ask).legal
    assert [len(g.plays) for g in list_plays(cards("4c 9s"), first_lead=True, rules=rules, **ask).groups] == [2]


def test_the_holder_of_the_3_of_diamonds_leads_in_hong_kong_with_it():
    record = validate_game(10, SUITED, [play("4d", 1)], HONG_KONG)
    assert (record.legal, [(v.code, v.index) for v in record.violations]) == (
        False, [("first_play_without_lowest_card", 0)]
    )  # fmt: skip
    assert validate_game(10, SUITED, [play("3d", 1)], HONG_KONG).state.turn == 2
    assert [v.code for v in validate_game(10, SUITED, [play("3d", 1)], TAIWAN).violations] == ["not_your_turn"]


def test_a_named_leader_leads_with_any_play():
    record = validate_game(10, SUITED, [play("4h", 2)], HONG_KONG, leader=2)
    assert (record.legal, record.state.turn) == (True, 3)
    with pytest.raises(InvalidInputError) as refused:
        validate_game(10, SUITED, [], HONG_KONG, leader=4)
    assert [(p.path, p.code) for p in refused.value.problems] == [(("leader",), "invalid_seat")]


LOCKED = [play("3d", 1), Action.pass_(2), play("5s", 3), play("6c", 0), play("7d", 1)]


def test_a_seat_that_passed_is_skipped_for_the_rest_of_the_trick_in_hong_kong():
    record = validate_game(10, SUITED, LOCKED, HONG_KONG)
    assert (record.legal, record.state.turn, record.state.table_seat) == (True, 3, 1)  # seat 2 is out
    late = validate_game(10, SUITED, [*LOCKED, play("8h", 2)], HONG_KONG)
    assert [(v.code, v.index) for v in late.violations] == [("passed_this_trick", 5)]
    early = validate_game(10, SUITED, [*LOCKED, play("8c", 0)], HONG_KONG)
    assert [(v.code, v.index, v.params) for v in early.violations] == [("not_your_turn", 5, {"seat": 3, "actual": 0})]


TAIWAN_LOCKS = TAIWAN.with_parameters(pass_locks=True)


def relative_record(rules, text: str) -> list[Action]:
    """A record written from the leader's seat (the holder of the table's lowest card, seat L): ``"0:3"`` is
    seat L playing its 3, ``"1:-"`` seat L+1 passing. Each seat of ``SUITED`` holds one suit."""
    leader = next(s for s, hand in enumerate(SUITED) if rules.ladder.lowest_card in hand)
    actions = []
    for step in text.split():
        k, rank = step.split(":")
        seat = (leader + int(k)) % 4
        actions.append(Action.pass_(seat) if rank == "-" else play(rank + "cdhs"[seat], seat))
    return actions


# seat L+1 passes and is out of the trick: seat L+2 follows seat L, and after seat L+3 and seat L pass, seat
# L+2 leads the next trick
SKIPPED = "0:3 1:- 2:5 3:6 0:7 2:8 3:- 0:- 2:4"
WRITTEN = "0:3 1:- 2:5 3:6 0:7 1:- 2:8 3:- 0:- 1:- 2:4"  # the same game, seat L+1's turns written as passes


@pytest.mark.parametrize("rules", [HONG_KONG, TAIWAN_LOCKS], ids=["hong-kong", "taiwan-pass-locks"])
def test_a_locked_seats_turn_may_be_left_out_or_written_as_a_pass_and_the_game_is_the_same(rules):
    """「A player who passes takes no further part in the trick」: a record may skip a seat that passed in the
    trick, or write its turn down as a pass, as apps that pass for a locked player do; neither changes the
    game. Its turn comes between the seat before it and the seat the turn goes to, also when the trick has
    just ended: only a pass, once."""
    skipped = validate_game(10, SUITED, relative_record(rules, SKIPPED), rules)
    written = validate_game(10, SUITED, relative_record(rules, WRITTEN), rules)
    assert (skipped.legal, skipped.violations, written.legal, written.violations) == (True, (), True, ())
    assert (skipped.state.actions_replayed, written.state.actions_replayed) == (9, 11)
    assert replace(written.state, actions_replayed=9) == skipped.state
    led = relative_record(rules, "2:4 3:-")  # seat L+2 led the new trick; seat L+3 is to follow
    assert (skipped.state.table_seat, skipped.state.turn) == (led[0].seat, led[1].seat)
    for cut in range(len(WRITTEN.split())):  # every prefix stands where the game without the written turns stands
        prefix = WRITTEN.split()[:cut]
        left_out = [step for i, step in enumerate(prefix) if step != "1:-" or i == 1]
        a = validate_game(10, SUITED, relative_record(rules, " ".join(prefix)), rules).state
        b = validate_game(10, SUITED, relative_record(rules, " ".join(left_out)), rules).state
        assert replace(a, actions_replayed=b.actions_replayed) == b, prefix


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("0:3 1:- 2:5 3:6 0:7 2:8 1:-", ("not_your_turn", 6)),  # after seat L+2's play: seat L+3's turn
        ("0:3 1:- 2:5 3:6 0:7 1:- 1:-", ("not_your_turn", 6)),  # its turn written once
        ("0:3 1:- 2:5 3:6 0:7 1:9", ("passed_this_trick", 5)),  # its turn is a pass, and only a pass
        ("0:3 1:- 2:5 3:- 0:- 1:- 2:4 1:-", ("not_your_turn", 7)),  # a new trick: seat L+3's turn
    ],
)
def test_a_locked_seats_written_turn_comes_once_in_its_place_and_is_a_pass(text, found):
    record = validate_game(10, SUITED, relative_record(HONG_KONG, text), HONG_KONG)
    assert [(v.code, v.index) for v in record.violations] == [found]


def test_a_locked_seats_written_turn_plays_no_cards():
    actions = [*relative_record(HONG_KONG, "0:3 1:- 2:5 3:6 0:7"), Action.of("pass", cards("9d"), 2)]
    record = validate_game(10, SUITED, actions, HONG_KONG)
    assert [(v.code, v.index, v.cards) for v in record.violations] == [("cards_with_pass", 5, tuple(cards("9d")))]


def test_in_taiwan_a_pass_out_of_turn_is_not_your_turn_as_before():
    """「PASS 可以回頭」: no seat is ever skipped, so no turn is written out of order."""
    record = validate_game(10, SUITED, relative_record(TAIWAN, "0:3 1:- 2:5 1:-"), TAIWAN)
    assert [(v.code, v.index, v.params) for v in record.violations] == [("not_your_turn", 3, {"seat": 3, "actual": 1})]


def test_the_trick_ends_when_every_other_seat_has_passed_and_its_last_player_leads():
    record = validate_game(10, SUITED, [*LOCKED, Action.pass_(3), Action.pass_(0)], HONG_KONG)
    state = record.state
    assert (record.legal, state.turn, state.table, state.table_seat) == (True, 1, None, None)


def test_in_taiwan_a_seat_that_passed_plays_again_in_the_trick():
    taiwan = [play("3c", 0), Action.pass_(1), play("5h", 2), play("6s", 3), play("7c", 0), play("8d", 1)]
    record = validate_game(10, SUITED, taiwan, TAIWAN)
    assert (record.legal, record.state.turn) == (True, 2)


def test_cards_left_scoring_worked_by_hand():
    """Base 10; losers with 5, 9 and 13 cards: 10 x 5 x 1, 10 x 9 x 2, 10 x 13 x 4; no 2s, no monsters, no
    winner multiplier, whatever the cards."""
    losers = [cards("2c 2d 2h 4c 5c"), cards("3c 4d 5h 6h 7c 8c 9c Tc Jd"), [*SUITED[3][1:], *cards("Kd")]]
    score = score_game(10, cards("2s"), False, losers, HONG_KONG)
    assert [loser.points for loser in score.losers] == [-50, -180, -520]
    assert score.winner.points == 750 and score.winner.factors == ()
    assert [[f.factor.value for f in loser.factors] for loser in score.losers] == [["cards_left_tier"]] * 3
    assert [loser.multiplier for loser in score.losers] == [1, 2, 4]
    taiwan = score_game(10, cards("2s"), False, losers, TAIWAN)
    assert [loser.points for loser in taiwan.losers] == [-10 * 5 * 1 * 8 * 2, -10 * 9 * 2 * 2, -10 * 13 * 4 * 2 * 2]


def test_a_tables_own_tiers_are_named_by_their_bounds():
    tiers = cards_left_tiers([(13, 5), (10, 3), (5, 2), (1, 1)])
    assert [(t.least, t.most, t.case) for t in tiers] == [(13, 13, "exactly"), (10, 12, "range"), (5, 9, "range"),
                                                          (1, 4, "range")]  # fmt: skip
    table = HONG_KONG.with_parameters(cards_left_tiers=tiers)
    score = score_game(10, cards("2s"), False, [cards("3c 4c 5c 6c 7c 8c 9c"), cards("3d"), SUITED[2]], table)
    texts = [
        messages.render("big-two", "factor." + f.factor.value, f.params)
        for loser in score.losers
        for f in loser.factors
    ]
    assert texts == ["5-9 cards left", "1-4 cards left", "13 cards left"]
    assert [loser.points for loser in score.losers] == [-10 * 7 * 2, -10 * 1 * 1, -10 * 13 * 5]
    with pytest.raises(InvalidInputError):
        HONG_KONG.with_parameters(cards_left_tiers=(tiers[0], replace(tiers[1], most=11), *tiers[2:]))


# ---- the house multipliers at another table: monster factors count shapes --------------------------------

HOUSE_MULTIPLIERS = {key: TAIWAN.describe()[key] for key in ("loser_multipliers", "winner_multipliers")}
# the common game scored with the house multipliers, dragons allowed: still no monsters to beat with
HONG_KONG_HOUSE_SCORED = HONG_KONG.with_description({**HOUSE_MULTIPLIERS, "dragons": True})
TAIWAN_NO_MONSTERS = TAIWAN.with_parameters(monsters=())  # a table's own: quads and straight flushes beat nothing more
SHAPE_TABLES = [TAIWAN, HONG_KONG_HOUSE_SCORED, TAIWAN_NO_MONSTERS]
SHAPE_IDS = ["taiwan", "hong-kong-house-scored", "taiwan-no-monsters"]
DRAGON = cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kd")  # no 3 of clubs, one 2


def factor_list(factors) -> list[tuple[str, int]]:
    return [(f.factor.value, f.value) for f in factors]


@pytest.mark.parametrize("rules", SHAPE_TABLES, ids=SHAPE_IDS)
def test_the_rule_books_worked_example_pays_3960_wherever_the_house_multipliers_apply(rules):
    """計算範例: base 10, the last play a pair of 2s; 甲 3 cards, 乙 9 with one 2, 丙 10 still holding four of
    a kind, 「×3（10–12 張）× 2（怪物未出）＝ ×6」 → 10 × 10 × 6 × 4 = 2,400; the winner +3,960. 怪物未出 is
    what the cards are, so a table whose monsters beat nothing more pays it too (it paid +2,760 before)."""
    jia, yi, bing = cards("3c 7d Jh"), cards("2c 4d 6d 6s 8c Td Th Qs Kc"), cards("5c 5d 5h 5s 3h 4h 9d 6h 7s 8h")
    score = score_game(10, cards("2s 2h"), False, [jia, yi, bing], rules)
    assert factor_list(score.winner.factors) == [("twos_finish", 4)]
    assert [factor_list(loser.factors) for loser in score.losers] == [
        [("cards_left_tier", 1)],
        [("cards_left_tier", 2), ("twos_held", 2)],
        [("cards_left_tier", 3), ("monster_held", 2)],
    ]
    assert [loser.points for loser in score.losers] == [-120, -1440, -2400]
    assert score.winner.points == 3960
    assert score.losers[2].factors[1].cards == tuple(sorted(cards("5c 5d 5h 5s"), key=rules.ladder.key.__getitem__))
    assert score_game(10, cards("2s 2h"), False, [jia, yi, bing], HONG_KONG).winner.points == 10 * (3 + 9 * 2 + 10 * 3)


@pytest.mark.parametrize("rules", SHAPE_TABLES, ids=SHAPE_IDS)
@pytest.mark.parametrize(
    ("held", "kinds"),
    [
        ("9c 9d 9h 9s 4d", ["four_of_a_kind"]),
        ("4h 5h 6h 7h 8h Kd", ["straight_flush"]),
        ("9c 9d 9h 9s 4h 5h 6h 7h 8h", ["four_of_a_kind", "straight_flush"]),
        (" ".join(map(str, DRAGON)), ["dragon"]),
    ],
)
def test_a_loser_still_holding_four_of_a_kind_a_straight_flush_or_a_dragon_pays_the_monster_held_factor(
    rules, held, kinds
):
    """「怪物未出：剩餘手牌中還組得出鐵支、同花順、一條龍或一條青龍」, once, at any table that sets it (a dragon
    where dragons are played)."""
    score = score_game(1, cards("3c"), False, [cards(held), cards("Qc"), cards("Qh")], rules)
    assert factor_list(score.losers[0].factors)[-1] == ("monster_held", 2)
    assert score.losers[0].factors[-1].params["kinds"] == kinds


@pytest.mark.parametrize("rules", SHAPE_TABLES, ids=SHAPE_IDS)
@pytest.mark.parametrize(
    ("last_play", "expected"),
    [
        ("9c 9d 9h 9s Kc", [("monster_finish", 2)]),
        ("4h 5h 6h 7h 8h", [("monster_finish", 2)]),
        (" ".join(map(str, DRAGON)), [("twos_finish", 2), ("monster_finish", 2)]),
    ],
)
def test_finishing_with_four_of_a_kind_a_straight_flush_or_a_dragon_pays_the_monster_finish_factor(
    rules, last_play, expected
):
    """「怪物收尾：贏家最後一手牌是鐵支、同花順或一條龍」, at any table that sets it."""
    losers = [cards("Qc"), cards("Qd"), cards("Qh")] if len(cards(last_play)) == 5 else [[c] for c in cards("3c 3d 3s")]
    score = score_game(1, cards(last_play), False, losers, rules)
    assert factor_list(score.winner.factors) == expected


def test_a_green_dragon_is_a_dragon_finish_where_the_table_sets_no_green_dragon_factor():
    """「一條青龍…×20（取代怪物收尾的 ×2）」: a green dragon is one of the dragons (「花色不限」); where the
    table sets no factor of its own for it (1), the dragon's 怪物收尾 is what it pays."""
    clubs = [c for c in DECK if c.suit is Suit.CLUBS]
    losers = [[c] for c in cards("3h 3d 3s")]
    green_as_house = score_game(1, clubs, False, losers, HONG_KONG_HOUSE_SCORED)
    assert factor_list(green_as_house.winner.factors)[-1] == ("green_dragon_finish", 20)
    plain = HONG_KONG_HOUSE_SCORED.with_parameters(green_dragon_finish=1)
    assert factor_list(score_game(1, clubs, False, losers, plain).winner.factors) == [
        ("three_of_clubs_finish", 2),
        ("twos_finish", 2),
        ("monster_finish", 2),
    ]


def test_a_shape_the_table_does_not_let_be_played_is_no_monster_left_in_hand():
    """Four of a kind is no play at a table without it: four 9s and a card are no 鐵支 that 「組得出」 there,
    while a straight flush still is."""
    no_quads = TAIWAN.with_parameters(
        plays=tuple(c for c in TAIWAN.plays if c is not Combination.FOUR_OF_A_KIND),
        five_card_order=tuple(c for c in TAIWAN.five_card_order if c is not Combination.FOUR_OF_A_KIND),
        monsters=(),
    )
    score = score_game(1, cards("3c"), False, [cards("9c 9d 9h 9s 4d"), cards("4h 5h 6h 7h 8h"), cards("Qs")], no_quads)
    assert [factor_list(loser.factors)[1:] for loser in score.losers] == [[], [("monster_held", 2)], []]
