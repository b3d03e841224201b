"""Every difference between the OFC rule sets, one named test each, quoting the text it rests on
(docs/rulings.md, "Other OFC rule sets"), in the rules core and through the API."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from service.rules.cards import cards
from service.rules.errors import InvalidInputError
from service.rules.ofc import (
    BOTTOM,
    MIDDLE,
    TOP,
    Board,
    Fantasyland,
    Seat,
    evaluate_board,
    evaluate_row,
    score_hand,
    validate_move,
)  # fmt: skip
from service.rules.ofc import rules as ofc_rules
from service.rules.ofc.rules import CLASSIC, PROGRESSIVE, STANDARD, ULTIMATE, Row
from tests.ofc_pineapple.records import BING, JIA, YI


def board(top: str, middle: str, bottom: str) -> Board:
    return Board(tuple(cards(top)), tuple(cards(middle)), tuple(cards(bottom)))


def as_json(b: Board) -> dict[str, list[str]]:
    return {"top": [c.text for c in b.top], "middle": [c.text for c in b.middle], "bottom": [c.text for c in b.bottom]}


KK_TOP = board("Kh Kd 2c", "As Ac 7d 5s 3h", "Qs Js 8s 6s 4s")  # top KK, middle AA, bottom flush: no foul
TRIPS_TOP = board("5h 5d 5c", "9c 9h 9d Kc 3h", "Qs Js 8s 6s 4s")  # top 555, middle trips 9s, bottom flush
MIDDLE_FULL_HOUSE = board("Jh Qd 2c", "9s 9h 9d 4c 4d", "Ks Kh Kd 2s 2h")  # middle full house under a higher one
BOTTOM_QUADS = board("Kh Qd 2c", "As Ac 7d 5s 3h", "9s 9h 9d 9c 4d")  # bottom quads
NOTHING = board("Kh Qd 2c", "As Ac 7d 5s 3h", "9s 9h 8d 8c 4d")  # no stay condition in any rule set


# --- standard: "The Fantasyland bonus requirement in OFC/P is QQ+ ... receives 14 cards" -------------


@pytest.mark.parametrize(("hand", "house_cards"), [(KK_TOP, 15), (TRIPS_TOP, 17)], ids=["KK", "trips"])
def test_standard_enters_fantasyland_with_14_cards_from_kk_or_trips(hand, house_cards):
    """ "the player in Fantasyland receives 14 cards face-down": whatever the QQ+ top, 14 in standard."""
    assert evaluate_board(hand, rules=STANDARD).fantasyland_next.cards == 14
    assert evaluate_board(hand).fantasyland_next.cards == house_cards  # the house rules' 14/15/16/17
    assert evaluate_board(hand, rules=PROGRESSIVE).fantasyland_next.cards == house_cards  # entry as the house


def test_standard_stays_by_a_middle_full_house_but_the_house_rules_do_not():
    """ "Full House or better (middle)" repeats Fantasyland in standard; the house book: 中道葫蘆不會續留."""
    in_fantasyland = Fantasyland(True, 14)
    standard = evaluate_board(MIDDLE_FULL_HOUSE, in_fantasyland, rules=STANDARD).fantasyland_next
    assert (standard.qualifies, standard.cards, standard.reason) == (True, 14, "stay_middle_full_house_or_better")
    for rules in (ULTIMATE, PROGRESSIVE):
        assert evaluate_board(MIDDLE_FULL_HOUSE, in_fantasyland, rules=rules).fantasyland_next == (False, None, None)


def test_standard_stays_with_14_by_top_trips_or_bottom_quads():
    for hand, reason in ((TRIPS_TOP, "stay_top_trips"), (BOTTOM_QUADS, "stay_bottom_quads_or_better")):
        assert evaluate_board(hand, Fantasyland(True, 14), rules=STANDARD).fantasyland_next == (True, 14, reason)
    assert evaluate_board(NOTHING, Fantasyland(True, 14), rules=STANDARD).fantasyland_next == (False, None, None)


def test_standard_deals_fantasyland_14_cards_only():
    """ "receives 14 cards ... discarding 1 card": a 15-card Fantasyland is impossible input in standard."""
    with pytest.raises(InvalidInputError) as error:
        evaluate_board(KK_TOP, Fantasyland(True, 15), rules=STANDARD)
    assert error.value.problems[0].message == "a player in Fantasyland was dealt 14 cards in this rule set"
    dealt = tuple(cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh"))
    placement = {TOP: dealt[:3], MIDDLE: dealt[3:8], BOTTOM: dealt[8:13]}
    fifteen = validate_move(Board(), "fantasyland", dealt, placement, dealt[13:], rules=STANDARD)
    assert [(v.code, v.params["expected"]) for v in fifteen.violations] == [("wrong_deal_size", "14")]
    assert validate_move(Board(), "fantasyland", dealt, placement, dealt[13:]).legal  # the house deals 14-17
    fourteen = validate_move(Board(), "fantasyland", dealt[:14], placement, dealt[13:14], rules=STANDARD)
    assert fourteen.legal


def test_standard_scores_two_players_and_the_house_rules_do_not():
    """ "Pineapple OFC, also called OFC/P, can be played by 2 or 3 players"; the house book seats 3."""
    jia, yi = (
        board(*(" ".join(JIA[r]) for r in ("top", "middle", "bottom"))),
        board(*(" ".join(YI[r]) for r in ("top", "middle", "bottom"))),
    )
    score = score_hand([Seat(jia), Seat(yi)], STANDARD)
    assert [p.total for p in score.players] == [-3, 3] and len(score.matchups) == 1
    with pytest.raises(InvalidInputError) as error:
        score_hand([Seat(jia), Seat(yi)])
    assert error.value.problems[0].message == "a hand has exactly 3 players, not 2"


# --- progressive: 「續留一律降回 14 張的 Progressive」 ----------------------------------------------------


@pytest.mark.parametrize("hand", [TRIPS_TOP, BOTTOM_QUADS], ids=["top trips", "bottom quads"])
def test_progressive_stays_from_16_cards_into_14_but_the_house_rules_keep_16(hand):
    """「Ultimate 的意思是：續留范特西時，張數維持和進入時一樣，不會降回 14 張」 / 「續留一律降回 14 張的 Progressive」."""
    sixteen = Fantasyland(True, 16)
    assert evaluate_board(hand, sixteen, rules=PROGRESSIVE).fantasyland_next.cards == 14
    assert evaluate_board(hand, sixteen).fantasyland_next.cards == 16


def test_progressive_is_the_house_rules_apart_from_the_stay_count():
    """Ruling 9: the book defines Progressive only by that contrast, so nothing else differs."""
    house, progressive = ULTIMATE.describe(), PROGRESSIVE.describe()
    assert house["fantasyland"].pop("stay_cards") is None and progressive["fantasyland"].pop("stay_cards") == 14
    assert {k: v for k, v in house.items() if k != "id"} == {k: v for k, v in progressive.items() if k != "id"}


# --- classic: the forum's first post ------------------------------------------------------------------


def test_classic_deals_one_card_a_round_after_the_first_five_with_no_discard():
    """「按钮给每一个人发一张牌 ... 直到每个玩家都把13张牌摆完為止」: rounds 2-9 deal 1 card, placed at once."""
    before = board("Kh", "9s 9d", "Ac Ad")  # 5 cards after round 1
    one = validate_move(
        Board(before.top, before.middle, before.bottom),
        2,
        tuple(cards("Ks")),
        {TOP: tuple(cards("Ks"))},
        (),
        rules=CLASSIC,
    )
    assert one.legal and one.board.top == tuple(cards("Kh Ks"))
    three = validate_move(
        before,
        2,
        tuple(cards("Ks 7c 2d")),
        {TOP: tuple(cards("Ks")), BOTTOM: tuple(cards("7c"))},
        tuple(cards("2d")),
        rules=CLASSIC,
    )
    assert [v.code for v in three.violations] == ["wrong_deal_size", "wrong_placement_size", "wrong_discard_size"]
    assert [CLASSIC.deal(r) for r in range(1, 10)] == [(5, 5)] + [(1, 1)] * 8
    eight_cards = board("Kh Ks", "9s 9d 2c", "Ac Ad 3c")  # after round 4 in classic; 8 cards
    assert validate_move(eight_cards, 5, tuple(cards("4c")), {BOTTOM: tuple(cards("4c"))}, (), rules=CLASSIC).legal
    assert (
        validate_move(eight_cards, 9, tuple(cards("4c")), {BOTTOM: tuple(cards("4c"))}, (), rules=CLASSIC)
        .violations[0]
        .code
        == "board_not_at_round"
    )


def test_classic_bottom_quads_are_worth_8_and_the_house_rules_10():
    """「[尾道牌型加分] 顺子：2/同花：4/葫芦：6/四条：8/同花顺：10/同花大顺：20」; the house bottom quads 10."""
    quads = tuple(cards("9s 9h 9d 9c 4d"))
    assert evaluate_row(BOTTOM, quads, rules=CLASSIC).royalty == 8
    assert evaluate_row(BOTTOM, quads).royalty == 10
    assert evaluate_row(MIDDLE, quads, rules=CLASSIC).royalty == 16  # 「中道加分 ... 就把分数x2」
    assert evaluate_row(MIDDLE, tuple(cards("9s 9h 9d 4c 2d")), rules=CLASSIC).royalty == 0  # no middle trips bonus
    assert evaluate_row(MIDDLE, tuple(cards("9s 9h 9d 4c 2d"))).royalty == 2


def test_classic_has_no_fantasyland():
    """「实际在玩的时候会有其他不同的规则(比如Fantasy Land)」: not the standard rules the post describes."""
    assert evaluate_board(KK_TOP, rules=CLASSIC).fantasyland_next == (False, None, None)
    assert evaluate_board(TRIPS_TOP, rules=CLASSIC).fantasyland_next == (False, None, None)
    with pytest.raises(InvalidInputError) as error:
        evaluate_board(KK_TOP, Fantasyland(True, 14), rules=CLASSIC)
    assert error.value.problems[0].message == "the rule set classic has no Fantasyland: every player is active: false"


# The thread's worked example (luosama / riisecaihong, 2013-10-06), with suits that make each hand exactly
# what the thread describes: A's straight and B's two pair are not flushes, C's ace-high flush is no
# straight flush, D fouls (擺烏龍: top QQ over a middle JJ over a bottom 66).
THREAD = {
    "A": board("2c 2d 5c", "Ah As Kd 8s 7h", "9c Td Jh Qs Kc"),  # 头道：225，中道：AAK87，尾道：9TJQK
    "B": board("4s 4h 3c", "Ac Kh Ks 4d 5d", "7s 7c 8h 8c 2h"),  # 头道：443，中道：AKK45，尾道：77882
    "C": board("Tc 2s 3d", "9s 9h Th 4c 5h", "Ad Qd 9d 7d 6d"),  # 头道：T23，中道：99T45，尾道：A同花
    "D": board("Qh Qc 3h", "Js Jd 6c 5s 3s", "Jc Ts 8d 6h 6s"),  # 乌龙
}


def test_classic_four_players_the_threads_worked_example():
    """ "A跟B比 ... 一共赢3 / A跟C比 ... 一共输1 / A跟D比，赢6+2=8 / B跟C比 ... 一共输3 / B跟D比，赢6 / C跟D比，赢6+4=10"."""
    score = score_hand([Seat(b) for b in THREAD.values()], CLASSIC)
    assert [(m.a, m.b, m.points_a) for m in score.matchups] == [
        (0, 1, 3),
        (0, 2, -1),
        (0, 3, 8),
        (1, 2, -3),
        (1, 3, 6),
        (2, 3, 10),
    ]
    assert [p.total for p in score.players] == [10, 0, 14, -24]
    categories = [tuple(p.value.rows[r].hand.category for r in (TOP, MIDDLE, BOTTOM)) for p in score.players[:3]]
    assert categories == [("pair", "pair", "straight"), ("pair", "pair", "two_pair"), ("high_card", "pair", "flush")]
    assert score.players[3].value.fouled
    assert score.button_moves


def test_classic_four_players_and_the_house_rules_three():
    """「游戏跟传统13张一样是可以2-4人玩」: classic seats 2 to 4; the house rules and standard at most 3."""
    seats = [Seat(b) for b in THREAD.values()]
    assert len(score_hand(seats[:2], CLASSIC).matchups) == 1
    for rules, message in (
        (ULTIMATE, "a hand has exactly 3 players, not 4"),
        (STANDARD, "a hand has 2 to 3 players, not 4"),
    ):
        with pytest.raises(InvalidInputError) as error:
            score_hand(seats, rules)
        assert error.value.problems[0].message == message


# --- house royalties ----------------------------------------------------------------------------------


def test_a_royalty_override_changes_exactly_the_points_it_should():
    """A house bottom table with quads at 8 (the forum's older value) instead of 10: a player with bottom
    quads earns 2 less royalty, so each of its matchups moves by 2 and nothing else moves."""
    quads = board("Kh Qd 2c", "As Ac 7d 5s 3h", "9s 9h 9d 9c 4d")
    others = [
        board("Qh 8c 2d", "Jc Jd 8s 6c 3c", "Ah Th 7h 5h 4h"),
        board("Ks Kd 4c", "Ad 6s 5d 6d 2s", "Ts Td 7c 7s 3d"),
    ]
    tables = {"bottom": {**ofc_rules.HOUSE_ROYALTIES["bottom"], "quads": 8}}
    house = score_hand([Seat(quads), *map(Seat, others)])
    overridden_rules = ULTIMATE.with_royalties(tables)
    overridden = score_hand([Seat(quads), *map(Seat, others)], overridden_rules)
    assert house.players[0].value.rows[BOTTOM].royalty == 10 and overridden.players[0].value.rows[BOTTOM].royalty == 8
    assert [p.total for p in overridden.players] == [
        house.players[0].total - 4,
        house.players[1].total + 2,
        house.players[2].total + 2,
    ]
    assert [m.points_a for m in overridden.matchups] == [
        house.matchups[0].points_a - 2,
        house.matchups[1].points_a - 2,
        house.matchups[2].points_a,
    ]
    assert overridden_rules.overridden == ("bottom",) and overridden_rules.digest != ULTIMATE.digest


@pytest.mark.parametrize("base", [ULTIMATE, CLASSIC], ids=["ultimate", "classic"])
def test_a_requests_royalty_tables_filled_as_used_value_every_strength_as_whole_tables_would(base):
    """A rule set with a request's royalties fills its tables on look-up (ofc_rules.RoyaltyTable): every
    strength of every row is worth what a declared rule set with the same tables, built whole, gives."""
    tables = {
        "top": {key: (3 * i) % 101 for i, key in enumerate(ofc_rules.TOP_HANDS)},
        "middle": {key: (7 * i) % 101 for i, key in enumerate(ofc_rules.FIVE_CARD_CATEGORIES)},
    }
    lazy = base.with_royalties(tables)
    whole = dataclasses.replace(base, id="whole", royalties={**base.royalties, **tables})  # declared: no override
    assert not whole.overridden and lazy.overridden == ("top", "middle")
    for row in Row:
        strengths = list(whole.royalty_by_row[row])
        assert isinstance(lazy.royalty_by_row[row], ofc_rules.RoyaltyTable) and len(lazy.royalty_by_row[row]) == 0
        assert [lazy.royalty_by_row[row][s] for s in strengths] == [whole.royalty_by_row[row][s] for s in strengths]
        assert len(lazy.royalty_by_row[row]) == len(strengths)
        with pytest.raises(KeyError):
            lazy.royalty_by_row[row][(0,)]  # no row has it, as in a whole table


def test_a_royalty_table_must_name_every_category_with_0_to_100():
    with pytest.raises(ValueError):
        ULTIMATE.with_royalties({"bottom": {"quads": 8}})
    with pytest.raises(ValueError):
        ULTIMATE.with_royalties({"bottom": {**ofc_rules.HOUSE_ROYALTIES["bottom"], "quads": 101}})


def test_the_digest_is_a_sha256_prefix_of_the_rules_canonical_json_and_stable():
    for rules in (ULTIMATE, STANDARD, PROGRESSIVE, CLASSIC):
        canonical = json.dumps(rules.describe(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        assert rules.digest == hashlib.sha256(canonical.encode()).hexdigest()[:16]
    assert len({r.digest for r in (ULTIMATE, STANDARD, PROGRESSIVE, CLASSIC)}) == 4
    same = ULTIMATE.with_royalties({"bottom": dict(reversed(list(ofc_rules.HOUSE_ROYALTIES["bottom"].items())))})
    assert same.digest == ULTIMATE.with_royalties({"bottom": dict(ofc_rules.HOUSE_ROYALTIES["bottom"])}).digest
    assert ULTIMATE.digest == "f90ffbd214ea3742"  # pinned: a change to the house rules' parameters must be deliberate


# --- the same differences through the API -------------------------------------------------------------


def test_api_names_the_rule_set_it_applied_only_when_asked(post):
    body = {"board": as_json(KK_TOP)}
    status, house = post("ofc-pineapple/boards/evaluate", body)
    assert status == 200 and "rule_set" not in house and house["fantasyland_next"]["cards"] == 15
    status, standard = post("ofc-pineapple/boards/evaluate", {**body, "rule_set": "standard"})
    assert (status, standard["rule_set"], standard["rules_digest"]) == (200, "standard", STANDARD.digest)
    assert standard["fantasyland_next"] == {"qualifies": True, "cards": 14, "reason": "enter_top_pair_KK"}
    status, named_house = post("ofc-pineapple/boards/evaluate", {**body, "rule_set": "ultimate-fantasyland"})
    assert {k: v for k, v in named_house.items() if k not in ("rule_set", "rules_digest")} == house
    assert named_house["rules_digest"] == ULTIMATE.digest


def test_api_refuses_a_rule_set_of_another_game(post):
    status, body = post(
        "ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As"], "rule_set": "classic"}
    )
    assert status == 422 and body["errors"] == [
        {
            "pointer": "/rule_set",
            "code": "not_one_of",
            "message": "Must be one of: ultimate-fantasyland, standard, progressive.",
        }
    ]


def test_api_two_players_in_standard_and_the_house_length_message_unchanged(post):
    players = [{"board": JIA}, {"board": YI}]
    status, body = post("ofc-pineapple/hands/score", {"players": players, "rule_set": "standard"})
    assert (status, [p["total"] for p in body["players"]], body["rule_set"]) == (200, [-3, 3], "standard")
    status, body = post("ofc-pineapple/hands/score", {"players": players})
    assert status == 422 and body["errors"] == [
        {"pointer": "/players", "code": "wrong_length", "message": "Length must be 3."}
    ]
    status, body = post(
        "ofc-pineapple/hands/score", {"players": [*players, {"board": BING}, {"board": JIA}], "rule_set": "standard"}
    )
    assert status == 422 and body["errors"] == [
        {"pointer": "/players", "code": "wrong_length", "message": "Length must be between 2 and 3."}
    ]


def test_api_classic_scores_the_threads_four_players(post):
    status, body = post("ofc-classic/hands/score", {"players": [{"board": as_json(b)} for b in THREAD.values()]})
    assert status == 200 and [p["total"] for p in body["players"]] == [10, 0, 14, -24]
    assert "rule_set" not in body


def test_api_classic_round_is_1_to_9_without_fantasyland(post):
    move = {"board": {}, "dealt": ["As"], "placement": {"top": ["As"]}}
    status, body = post("ofc-classic/moves/validate", {**move, "round": "fantasyland"})
    assert status == 422 and body["errors"] == [
        {
            "pointer": "/round",
            "code": "invalid_round",
            "message": "round is a number from 1 to 9 (this rule set has no Fantasyland round)",
        }
    ]
    status, body = post(
        "ofc-classic/moves/validate",
        {**move, "round": 2, "board": {"bottom": ["2c", "3c", "4c", "5c", "6c"]}, "rule_set": "classic"},
    )
    assert (status, body["legal"], body["rule_set"]) == (200, True, "classic")


def test_api_royalty_override_changes_the_row_and_echoes_the_digest(post):
    tables = {"bottom": {**ofc_rules.HOUSE_ROYALTIES["bottom"], "quads": 8}}
    status, body = post(
        "ofc-pineapple/rows/evaluate", {"row": "bottom", "cards": ["9s", "9h", "9d", "9c", "4d"], "royalties": tables}
    )
    assert (status, body["royalty"], body["rule_set"]) == (200, 8, "ultimate-fantasyland")
    assert body["rules_digest"] == ULTIMATE.with_royalties(tables).digest != ULTIMATE.digest


def test_api_royalty_override_must_be_a_whole_table_of_0_to_100(post):
    short = {"bottom": {"quads": 8}}
    status, body = post(
        "ofc-pineapple/rows/evaluate", {"row": "bottom", "cards": ["9s", "9h", "9d", "9c", "4d"], "royalties": short}
    )
    assert status == 422 and "/royalties/bottom/straight" in [e["pointer"] for e in body["errors"]]
    big = {
        "top": {**ofc_rules.HOUSE_ROYALTIES["top"], "AA": 101},
        "middle": {**ofc_rules.HOUSE_ROYALTIES["middle"], "five_aces": 1},
    }
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Ah", "Ad", "2c"], "royalties": big})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == [
        "/royalties/top/AA",
        "/royalties/middle/five_aces",
    ]


def test_api_games_lists_every_rule_set_with_all_parameters(client):
    listed = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    pineapple = listed["ofc-pineapple"]["rule_sets"]
    assert [(r["id"], r["default"], r["players"]) for r in pineapple] == [
        ("ultimate-fantasyland", True, {"min": 3, "max": 3}), ("standard", False, {"min": 2, "max": 3}), ("progressive", False, {"min": 3, "max": 3}),
    ]  # fmt: skip
    standard = pineapple[1]["rules"]
    assert standard["fantasyland"]["entry"]["KK"] == 14 and standard["fantasyland"]["stay_cards"] == 14
    assert [s["reason"] for s in standard["fantasyland"]["stay"]] == [
        "stay_top_trips",
        "stay_middle_full_house_or_better",
        "stay_bottom_quads_or_better",
    ]
    classic = listed["ofc-classic"]["rule_sets"][0]["rules"]
    assert classic["royalties"]["bottom"]["quads"] == 8 and classic["royalties"]["middle"]["quads"] == 16
    assert [d["dealt"] for d in classic["deals"]] == [5] + [1] * 8 and classic["fantasyland"]["cards"] == []
    assert listed["ofc-classic"]["native_name"] == "明牌十三張" and listed["ofc-classic"]["players"] == {
        "min": 2,
        "max": 4,
    }
    assert [r["rules_digest"] for r in pineapple] == [ULTIMATE.digest, STANDARD.digest, PROGRESSIVE.digest]


def test_games_describes_each_rule_set_in_its_sources_own_words(client):
    """zh-TW: 明牌十三張 and 擺烏龍 / 爆牌 (the forum), 范特西 (the house book)."""
    listed = {g["id"]: g for g in client.get("/v1/games", headers={"Accept-Language": "zh-TW"}).get_json()["games"]}
    classic = listed["ofc-classic"]["rule_sets"][0]["description"]
    assert "明牌十三張" in classic and "擺烏龍" in classic and "爆牌" in classic and "范特西" in classic
    assert all("范特西" in r["description"] for r in listed["ofc-pineapple"]["rule_sets"])
    english = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert (
        english["ofc-pineapple"]["rule_sets"][2]["description"]
        == "The house rules, except that staying in Fantasyland always gives 14 cards (Progressive)."
    )


def classic_record(boards: list[Board], dealer: int) -> list[dict]:
    """A classic hand record: round 1 places each bottom, rounds 2-6 the middle card by card, 7-9 the top."""
    seats = [(dealer + k) % len(boards) for k in range(1, len(boards) + 1)]
    actions = [
        {"seat": s, "dealt": as_json(boards[s])["bottom"], "placement": {"bottom": as_json(boards[s])["bottom"]}}
        for s in seats
    ]
    for row, count in (("middle", 5), ("top", 3)):
        for i in range(count):
            actions += [
                {"seat": s, "dealt": [as_json(boards[s])[row][i]], "placement": {row: [as_json(boards[s])[row][i]]}}
                for s in seats
            ]
    return actions


def test_api_classic_replays_a_two_player_record_of_nine_rounds(post):
    """Round 1 then eight 1-card rounds, from the button's left, button last; scored when complete."""
    boards = [THREAD["A"], THREAD["B"]]
    status, body = post(
        "ofc-classic/hands/validate", {"dealer": 1, "players": [{}, {}], "actions": classic_record(boards, 1)}
    )
    assert (status, body["legal"], body["violations"]) == (200, True, [])
    assert [p["total"] for p in body["score"]["players"]] == [3, -3] and body["discards"] == []
    status, body = post(
        "ofc-classic/hands/validate", {"dealer": 0, "players": [{}, {}], "actions": classic_record(boards, 1)}
    )
    assert (status, body["legal"], body["violations"][0]["code"], body["violations"][0]["index"]) == (
        200,
        False,
        "out_of_turn",
        0,
    )
