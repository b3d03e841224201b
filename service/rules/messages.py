"""Every human text of the rules core: English (``en``), Traditional Chinese (``zh-TW``) and Simplified
Chinese (``zh-CN``), and the one engine that renders a catalog's texts (the HTTP layer's own catalog,
``service/api/texts.py``, is another ``Catalog``).

Pure data and formatting, no web imports. Texts travel as keys: the rules core builds each ``Violation``,
``InputProblem``, hand label and Big Two factor with its catalog ``domain``, a machine ``code`` and named
``params`` (a ``Message``), and the HTTP layer renders that key once, in the language the client
negotiated (``service/api/i18n.py``). ``message`` on those objects renders the English text on demand, so
the core stays a usable library; nothing on the answering path calls it.

The catalog is ``CATALOG[domain][key][language]``. Domains: one per game (``ofc-pineapple``,
``joker-thirteen``, ``big-two``, the API's game ids), ``cards`` (card notation and "a card twice", shared by
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

Each entry is keyed by language tag (``{"en": ..., "zh-TW": ...}``; ``T(en, zh_tw)`` writes the two
languages written by hand, side by side, since the rule books are Traditional). Every other language is an
addition: a data file beside the catalog's module, ``<name>.<tag>.json``, keyed by domain and key, merged into
the entries when the catalog is built. ``messages.zh-CN.json`` is generated from the zh-TW templates by
``scripts/build-zh-cn`` (``make zh-cn``: OpenCC's Taiwan-to-mainland conversion, then the reviewed term
table ``scripts/zh-cn-terms.toml``), so a new entry here needs no Simplified Chinese by hand; the tests fail,
saying to run ``make zh-cn``, while an entry lacks it. At run time a missing added text falls back to
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
"""The languages written by hand in the catalogs' modules; every other one is a data file (``ADDED``)."""
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


# --- shared by the games: card notation and "a card twice" --------------------------------------------

CARDS: dict[str, Entry] = {
    "not_a_card": T(
        "{text} is not a card: use rank 2-9/T/J/Q/K/A then suit c/d/h/s, e.g. 'As'",
        "{text} 不是一張牌：請寫點數 2-9/T/J/Q/K/A 再寫花色 c/d/h/s，例如 'As'",
    ),
    "joker_not_allowed": T("a joker (JK) is not a card of this game", "這個遊戲沒有鬼牌（JK）"),
    "duplicate_card/once": T(
        "{card} appears more often than the deck holds it (once)",
        "{card} 出現的次數比整副牌裡的張數多（只有 1 張）",
    ),
    "duplicate_card/many": T(
        "{card} appears more often than the deck holds it ({copies} times)",
        "{card} 出現的次數比整副牌裡的張數多（只有 {copies} 張）",
    ),
}

# --- Pineapple OFC (大菠蘿) --------------------------------------------------------------------------

OFC: dict[str, Entry] = {
    # hand values (the 3-card top row only knows high card, pair and trips)
    "label.high_card": T("High card", "高牌"),
    "label.pair": T("Pair", "一對"),
    "label.two_pair": T("Two pair", "兩對"),
    "label.trips": T("Three of a kind", "三條"),
    "label.straight": T("Straight", "順子"),
    "label.flush": T("Flush", "同花"),
    "label.full_house": T("Full house", "葫蘆"),
    "label.quads": T("Four of a kind", "鐵支"),
    "label.straight_flush": T("Straight flush", "同花順"),
    "label.royal_flush": T("Royal flush", "皇家同花順"),
    "term.top": T("top", "頭道"),
    "term.middle": T("middle", "中道"),
    "term.bottom": T("bottom", "尾道"),
    # moves/validate
    "board_not_at_round/round": T(
        "round {round} starts from a board of {expected} cards, not {actual}",
        "第 {round} 輪開始時牌面上應該有 {expected} 張牌，不是 {actual} 張",
    ),
    "board_not_at_round/fantasyland": T(
        "the first set of a Fantasyland hand starts from a board of {expected} cards, not {actual}",
        "范特西那一手要從 {expected} 張的空牌面開始擺，不是 {actual} 張",
    ),
    "wrong_deal_size/round": T(
        "{expected} cards are dealt in this round, not {actual}",
        "這一輪發 {expected} 張牌，不是 {actual} 張",
    ),
    "wrong_deal_size/fantasyland_player": T(
        "this Fantasyland player is dealt {expected} cards, not {actual}",
        "這位范特西玩家拿 {expected} 張牌，不是 {actual} 張",
    ),
    "duplicate_on_board": T("{card} is on the board twice", "{card} 在牌面上出現兩次"),
    "duplicate_in_deal": T("{card} is dealt twice", "{card} 發了兩次"),
    "card_already_on_board": T("a dealt card is already on the board", "發到的牌已經擺在牌面上"),
    "card_seen_elsewhere": T(
        "a card of this board or deal is also visible elsewhere (seen)",
        "這個牌面或這次發的牌也出現在別處（seen）",
    ),
    "card_used_twice": T("{card} is placed or discarded twice", "{card} 擺了或棄了兩次"),
    "card_not_dealt": T(
        "only the cards dealt this round may be placed or discarded",
        "只能擺放或棄掉這一輪發到的牌",
    ),
    "wrong_placement_size": T(
        "this round places {expected} cards, not {actual}",
        "這一輪要擺 {expected} 張，不是 {actual} 張",
    ),
    "wrong_discard_size": T(
        "this round discards {expected} cards, not {actual}",
        "這一輪要棄 {expected} 張，不是 {actual} 張",
    ),
    "row_overflow": T("the {row} row holds only {size} cards", "{row:term}只能放 {size} 張，已經擺滿"),
    # hands/validate (whole hand records)
    "record_incomplete/round": T(
        "the record ends before every board is complete: seat {seat} has not acted in round {round}",
        "牌譜在三家擺滿之前就結束了：座位 {seat} 還沒有在第 {round} 輪擺牌",
    ),
    "record_incomplete/fantasyland": T(
        "the record ends before every board is complete: seat {seat} has not acted in the Fantasyland set",
        "牌譜在三家擺滿之前就結束了：座位 {seat} 還沒有擺范特西的牌",
    ),
    "action_after_hand_end": T("every board is already complete", "三家的牌面都已經擺滿"),
    "out_of_turn/round": T(
        "seat {seat} acts now (round {round}), not seat {actual}",
        "現在輪到座位 {seat}（第 {round} 輪），不是座位 {actual}",
    ),
    "out_of_turn/fantasyland": T(
        "seat {seat} acts now (the Fantasyland set), not seat {actual}",
        "現在輪到座位 {seat}（擺范特西的牌），不是座位 {actual}",
    ),
    "card_dealt_twice": T(
        "a 52-card deck deals each card once in a hand",
        "一副 52 張的牌，同一手裡每張牌只會發一次",
    ),
    # impossible input (422)
    "wrong_row_size": T(
        "the {row} row holds exactly {size} cards, not {actual}",
        "{row:term}剛好是 {size} 張，不是 {actual} 張",
    ),
    "fantasyland_cards/active": T(
        "a player in Fantasyland was dealt 14, 15, 16 or 17 cards",
        "在范特西的玩家拿到的牌是 14、15、16 或 17 張",
    ),
    "fantasyland_cards/sizes": T(
        "a player in Fantasyland was dealt {sizes} cards in this rule set",
        "這套規則裡在范特西的玩家拿到的牌是 {sizes} 張",
    ),
    "fantasyland_cards/none": T(
        "the rule set {rule_set} has no Fantasyland: every player is active: false",
        "{rule_set} 這套規則沒有范特西：每位玩家都是 active: false",
    ),
    "fantasyland_cards/inactive": T(
        "cards is only given for a player in Fantasyland (active: true)",
        "只有在范特西的玩家（active: true）才填 cards",
    ),
    "wrong_player_count/exact": T(
        "a hand has exactly {players} players, not {actual}",
        "一手牌剛好是 {players} 人，不是 {actual} 人",
    ),
    "wrong_player_count/range": T(
        "a hand has {min} to {players} players, not {actual}",
        "一手牌是 {min} 到 {players} 人，不是 {actual} 人",
    ),
    "bad_seat/three": T("the dealer is seat 0, 1 or 2", "莊家是座位 0、1 或 2"),
    "bad_seat/seats": T("the dealer is a seat from 0 to {last}", "莊家是座位 0 到 {last} 之一"),
    "fantasyland_deal_size": T(
        "a Fantasyland deal here has {sizes} cards, not {actual}",
        "這裡的范特西發牌是 {sizes} 張，不是 {actual} 張",
    ),
    # request schema
    "invalid_round/five_and_fantasyland": T(
        'round is 1, 2, 3, 4, 5 or "fantasyland"', 'round 是 1、2、3、4、5 或 "fantasyland"'
    ),
    "invalid_round/rounds": T(
        "round is a number from 1 to {rounds} (this rule set has no Fantasyland round)",
        "round 是 1 到 {rounds} 的數字（這套規則沒有范特西那一輪）",
    ),
    # moves/legal, boards/outlook (service/rules/ofc_moves.py, ofc_outlook.py): impossible requests (422)
    "board_complete": T("the board is complete: no cards are dealt to it", "牌面已經擺滿，不會再發牌"),
    "board_between_rounds": T(
        "a board of {actual} cards is not at the start of a round",
        "牌面上有 {actual} 張牌，不是某一輪開始時的張數",
    ),
    "deal_size": T(
        "round {round} deals {expected} cards, not {actual}", "第 {round} 輪發 {expected} 張牌，不是 {actual} 張"
    ),
    "row_too_full": T(
        "the {row} row holds at most {size} cards, not {actual}", "{row:term}最多 {size} 張，不是 {actual} 張"
    ),
    "not_enough_cards": T(
        "{needed} more cards must come but only {unseen} are unseen",
        "還要再來 {needed} 張牌，但沒見過的牌只剩 {unseen} 張",
    ),
}

# --- Joker Thirteen (鬼牌十三支加一色) ---------------------------------------------------------------

JOKER_THIRTEEN: dict[str, Entry] = {
    "label.real_five": T("Five of a kind (real cards)", "正五枚"),
    "label.joker_five": T("Five of a kind with jokers", "鬼五枚"),
    "label.straight_flush": T("Straight flush", "同花順"),
    "label.quads": T("Four of a kind", "鐵支"),
    "label.full_house": T("Full house", "葫蘆"),
    "label.pair_flush": T("Pair flush", "對子同花"),
    "label.pair_flush/two_pairs": T("Pair flush, two pairs", "雙對的對子同花"),
    "label.flush": T("Flush", "同花"),
    "label.straight": T("Straight", "順子"),
    "label.three_jokers": T("Three jokers", "鬼三條"),
    "label.trips": T("Three of a kind", "三條"),
    "label.two_pair": T("Two pair", "兩對"),
    "label.pair": T("Pair", "一對"),
    "label.high_card": T("High card", "烏龍"),
    "term.head": T("head", "頭墩"),
    "term.middle": T("middle", "中墩"),
    "term.tail": T("tail", "尾墩"),
    # arrangements/validate (and, at rounds/score, the same texts as 422 causes)
    "wrong_head_size": T(
        "the {dun} holds exactly {size} cards, not {actual}", "{dun:term}剛好是 {size} 張，不是 {actual} 張"
    ),
    "wrong_middle_size": T(
        "the {dun} holds exactly {size} cards, not {actual}", "{dun:term}剛好是 {size} 張，不是 {actual} 張"
    ),
    "wrong_tail_size": T(
        "the {dun} holds exactly {size} cards, not {actual}", "{dun:term}剛好是 {size} 張，不是 {actual} 張"
    ),
    "wrong_hand_size": T("a hand holds {size} cards, not {actual}", "每人手牌是 {size} 張，不是 {actual} 張"),
    "too_many_copies": T(
        "{card} appears more often than the deck holds it ({copies})",
        "{card} 出現的次數比整副牌裡的張數多（只有 {copies} 張）",
    ),
    "card_not_in_hand": T("{card} is not in the hand", "{card} 不在手牌裡"),
    "card_used_twice": T(
        "{card} is placed more often than the hand holds it ({copies})",
        "{card} 擺出的次數比手牌裡的張數多（手牌只有 {copies} 張）",
    ),
    "head_not_below_middle": T(
        "相公: the head must be strictly smaller than the middle (kickers included)",
        "相公：頭墩一定要比中墩小（單張也要算進去）",
    ),
    "middle_above_tail": T(
        "相公: the middle must not be bigger than the tail",
        "相公：中墩不能比尾墩大",
    ),
    # rounds/score
    "wrong_player_count": T(
        "a round has exactly {players} players, not {actual}",
        "一局剛好是 {players} 人，不是 {actual} 人",
    ),
    "suggest_hand_size": T(
        "arrange for me takes the 13 cards to place or the 17 dealt, not {actual}",
        "自動理牌要給 13 張（要擺的牌）或 17 張（發到的牌），不是 {actual} 張",
    ),
}

# --- Taiwanese Big Two (台灣大老二) ------------------------------------------------------------------

BIG_TWO: dict[str, Entry] = {
    "label.single": T("Single", "單張"),
    "label.pair": T("Pair", "對子"),
    "label.straight": T("Straight", "順子"),
    "label.full_house": T("Full house", "葫蘆"),
    "label.four_of_a_kind": T("Four of a kind", "鐵支"),
    "label.straight_flush": T("Straight flush", "同花順"),
    "label.dragon": T("Dragon", "一條龍"),
    "label.green_dragon": T("Green dragon", "一條青龍"),
    # why some cards are no play (plays/classify; a loser's last play at games/score)
    "wrong_card_count/play": T(
        "a play has 1, 2, 5 or 13 cards, not {count}", "出牌只能是 1、2、5 或 13 張，不是 {count} 張"
    ),
    "not_a_combination/two": T("two cards are a play only as a pair of one rank", "兩張牌只有同點數的對子才能出"),
    "not_a_combination/pair_and_singles": T(
        "a pair with three odd cards is not a combination",
        "一個對子帶三張單張不是牌型",
    ),
    "not_a_combination/five": T(
        "five cards of different ranks that are not one of the ten straights",
        "五張點數不同的牌，但不是十種順子之一",
    ),
    "not_a_combination/thirteen": T(
        "13 cards are a play only as a dragon (A to K, one of each rank)",
        "13 張牌只有一條龍（A 到 K 各一張）才能出",
    ),
    "triple_not_a_combination/five": T(
        "three of a kind with two odd cards is not a combination",
        "三條帶兩張單張不是牌型",
    ),
    "triple_not_a_combination/short": T("three of a kind is not a combination", "三條不是牌型"),
    "two_pair_not_a_combination": T("two pairs are not a combination", "兩對不是牌型"),
    "four_without_kicker": T("four of a kind must be played with a fifth card", "鐵支一定要帶一張湊滿五張"),
    "flush_not_a_combination": T(
        "a flush is not a combination in Taiwanese Big Two",
        "台灣大老二沒有同花這個牌型",
    ),
    "straight_crosses_two": T(
        "a sequence cannot run past the 2 (J-Q-K-A-2, Q-K-A-2-3, K-A-2-3-4)",
        "順子不能跨過 2（J-Q-K-A-2、Q-K-A-2-3、K-A-2-3-4 都不成順）",
    ),
    "duplicate_card/play": T("{these} appears more than once", "{these} 出現不只一次"),
    "duplicate_card/table_and_play": T(
        "{these} cannot be on the table and in the play",
        "{these} 不能同時在桌面上和出的牌裡",
    ),
    "duplicate_card/hand_and_table": T(
        "{these} appears more than once in the hand and the table",
        "{these} 在手牌與桌面上出現不只一次",
    ),
    "joker_not_allowed/big_two": T("Big Two has no jokers", "大老二沒有鬼牌"),
    # moves/validate, games/validate
    "leader_cannot_pass": T(
        "the leader must play; only a follower may pass", "起牌時不能 PASS，一定要出牌；只有跟牌時可以 PASS"
    ),
    "cards_with_pass": T("a pass plays no cards", "PASS 不出任何牌"),
    "empty_play": T("a play needs cards", "出牌至少要有一張牌"),
    "card_not_in_hand": T("{these} not in the hand", "{these} 不在手牌裡"),
    "invalid_table": T(
        "the table is not a valid play: {reasons:messages}", "桌面上的牌不是合法的牌型：{reasons:messages}"
    ),
    "dragon_needs_full_hand": T(
        "a dragon is played only from a complete 13-card hand",
        "一條龍只有在手牌還是完整 13 張時才能打",
    ),
    "different_combination": T(
        "{play:label} {play_cards} does not beat {table:label} {table_cards} ({reason})",
        "{play:label} {play_cards} 壓不過{table:label} {table_cards}（{reason:reason}）",
    ),
    "not_higher": T(
        "{play:label} {play_cards} does not beat {table:label} {table_cards} ({reason})",
        "{play:label} {play_cards} 壓不過{table:label} {table_cards}（{reason:reason}）",
    ),
    "cannot_beat_monster": T(
        "{play:label} {play_cards} does not beat {table:label} {table_cards} ({reason})",
        "{play:label} {play_cards} 壓不過{table:label} {table_cards}（{reason:reason}）",
    ),
    "cannot_beat_dragon": T(
        "{play:label} {play_cards} does not beat {table:label} {table_cards} ({reason})",
        "{play:label} {play_cards} 壓不過{table:label} {table_cards}（{reason:reason}）",
    ),
    "not_your_turn": T("it is seat {seat}'s turn, not seat {actual}'s", "現在輪到座位 {seat}，不是座位 {actual}"),
    "action_after_game_end": T(
        "the game ended when seat {seat} played its last card",
        "座位 {seat} 出完最後一張牌時，這一局就已經結束",
    ),
    # plays/compare reasons (answered as codes; named inside the texts above)
    "reason.higher_rank": T("higher rank", "點數較大"),
    "reason.higher_suit": T("higher suit", "花色較大"),
    "reason.higher_sequence": T("higher sequence", "順子排序較大"),
    "reason.monster_beats_normal": T("a monster beats any normal combination", "怪物可以壓任何一般牌型"),
    "reason.straight_flush_beats_quads": T("a straight flush beats any four of a kind", "同花順壓任何鐵支"),
    "reason.dragon_beats_all": T("a dragon beats everything", "一條龍任何牌都壓得過"),
    "reason.lower": T("lower", "比桌面小"),
    "reason.equal": T("equal, not higher", "和桌面一樣大，不算更大"),
    "reason.different_combination": T("a different combination", "牌型不同"),
    "reason.normal_cannot_beat_monster": T("a normal combination cannot beat a monster", "一般牌型壓不過怪物"),
    "reason.quads_cannot_beat_straight_flush": T("four of a kind cannot beat a straight flush", "鐵支壓不過同花順"),
    "reason.nothing_beats_dragon": T("nothing beats a dragon", "任何牌都壓不過一條龍"),
    "reason.invalid_table": T("the table is no valid play", "桌面上的牌不是合法的牌型"),
    "reason.invalid_play": T("the play is no valid play", "出的牌不是合法的牌型"),
    "reason.duplicate_card": T("a card is both on the table and in the play", "同一張牌同時在桌面上和出的牌裡"),
    # games/score multiplier factors
    "factor.cards_left_tier/13": T("13 cards left", "剩 13 張"),
    "factor.cards_left_tier/10-12": T("10-12 cards left", "剩 10–12 張"),
    "factor.cards_left_tier/8-9": T("8-9 cards left", "剩 8–9 張"),
    "factor.cards_left_tier/0-7": T("7 or fewer cards left", "剩 7 張以下"),
    "factor.twos_held": T("{count} two(s) still held, x2 each", "老二未出：手上還有 {count} 張 2，每張 ×2"),
    "factor.monster_held": T(
        "can still form {kinds} (counted once)", "怪物未出：剩餘手牌還組得出{kinds:label}（只算一次）"
    ),
    "factor.grand_slam": T(
        "grand slam: the first player won and no one else played a card",
        "大滿貫：贏家是第一個出牌的人，其餘三家整局一張牌都沒出過",
    ),
    "factor.three_of_clubs_finish": T("the last play holds the 3 of clubs", "梅花 3 收尾：最後一手牌包含梅花 3"),
    "factor.twos_finish": T("{count} two(s) in the last play, x2 each", "老二收尾：最後一手牌含 {count} 張 2，每張 ×2"),
    "factor.monster_finish": T("the last play is a {kind}", "怪物收尾：最後一手牌是{kind:label}"),
    "factor.green_dragon_finish": T(
        "the last play is a green dragon (x20 instead of x2)",
        "一條青龍收尾：最後一手牌是一條青龍（×20，取代怪物收尾的 ×2）",
    ),
    # impossible input (422)
    "invalid_base": T("the base is a positive whole number, not {value}", "底分是正整數，不是 {value}"),
    "invalid_grand_slam": T("grand_slam is true or false", "grand_slam 只能是 true 或 false"),
    "grand_slam_impossible": T(
        "in a grand slam no loser has played a card, so each holds 13",
        "大滿貫時輸家都沒出過牌，所以每人都還有 13 張",
    ),
    "wrong_player_count/losers": T("a game has 3 losers, not {count}", "一局有 3 位輸家，不是 {count} 位"),
    "wrong_player_count/seats": T("Big Two is dealt to 4 seats, not {count}", "大老二發給 4 個座位，不是 {count} 個"),
    "wrong_card_count/loser": T("a loser has 1 to 13 cards left, not {count}", "輸家剩 1 到 13 張牌，不是 {count} 張"),
    "wrong_card_count/seat": T("each seat is dealt 13 cards, not {count}", "每個座位發 13 張牌，不是 {count} 張"),
    "wrong_card_count/hand": T(
        "a Big Two hand has 1 to 13 cards, not {count}", "大老二的手牌是 1 到 13 張，不是 {count} 張"
    ),
    "invalid_seat": T("a seat is 0-3, not {value}", "座位是 0-3，不是 {value}"),
    "unknown_action_type": T("{value} is not play or pass", "{value} 不是 play 或 pass"),
    # plays/legal (service/rules/big_two_plays.py): impossible situations (422)
    "table_not_a_play": T(
        "the table is not a valid play: {reasons:messages}", "桌面上的牌不是合法的牌型：{reasons:messages}"
    ),
    "first_lead_with_table": T("the game's first lead has no table to beat", "整局的第一手是起牌，桌面上沒有牌"),
    "first_lead_hand": T(
        "the game's first lead is made from a full 13-card hand holding the 3 of clubs",
        "整局的第一手由持有梅花 3 的玩家以完整的 13 張手牌打出",
    ),
    "seat_needed": T(
        "table.seat says who made the last play; seat (the player's own) is needed to compare it",
        "table.seat 是最後出牌的座位；要比較，必須也給出自己的座位 seat",
    ),
}

# --- the games list (GET /v1/games): each deck and each rule set, in each source's own words --------------

GAMES: dict[str, Entry] = {
    "games.ofc-pineapple.deck": T("one standard 52-card deck", "一副 52 張撲克牌，沒有鬼牌"),
    "games.ofc-classic.deck": T("one standard 52-card deck", "一副 52 張撲克牌，沒有鬼牌"),
    # each rule set of GET /v1/games, in each source's own words (大菠蘿 房規, the public page, 明牌十三張)
    "rule_sets.ofc-pineapple.ultimate-fantasyland": T(
        "The house book: 3 players; top QQ/KK/AA/trips without fouling enters Fantasyland with 14/15/16/17 cards;"
        " staying by top trips or bottom quads or better keeps the entry count (Ultimate).",
        "本店房規：3 人；不爆牌且頭道一對 Q／K／A 或三條，進入范特西拿 14／15／16／17 張；"
        "頭道三條或尾道鐵支以上續留，張數維持和進入時一樣（Ultimate）。",
    ),
    "rule_sets.ofc-pineapple.standard": T(
        "The public Pineapple page: 2 or 3 players; QQ+ on top without fouling enters Fantasyland with 14 cards;"
        " staying by top trips, middle full house or better, or bottom quads or better, again with 14.",
        "公開的 Pineapple 規則頁：2 或 3 人；不爆牌且頭道 QQ 以上進入范特西，一律 14 張；"
        "頭道三條、中道葫蘆以上或尾道鐵支以上續留，仍是 14 張。",
    ),
    "rule_sets.ofc-pineapple.progressive": T(
        "The house rules, except that staying in Fantasyland always gives 14 cards (Progressive).",
        "本店房規，唯一不同：續留范特西一律降回 14 張（Progressive）。",
    ),
    "rule_sets.ofc-classic.classic": T(
        "Classic Open-Face Chinese: 2 to 4 players; 5 cards placed, then eight rounds of 1 card, no discards;"
        " a fouled hand is scooped by every player who did not foul; bottom royalties 2/4/6/8/10/20, middle"
        " twice that; no Fantasyland.",
        "明牌十三張：2 到 4 人；先擺 5 張，之後八輪每輪發 1 張，不棄牌；擺烏龍（爆牌）的人被每位沒擺烏龍的玩家打槍；"
        "尾道牌型加分 2／4／6／8／10／20，中道加倍；沒有范特西（Fantasy Land）。",
    ),
    "rule_sets.joker-thirteen.gscas": T(
        "The house book of Joker Thirteen with an extra spade suit.", "鬼牌十三支加一色的本店規則書。"
    ),
    "rule_sets.big-two.taiwan": T("The house book of Taiwanese Big Two.", "台灣大老二的本店規則書。"),
    "games.joker-thirteen.deck": T(
        "52 cards, a second identical spade suit and 3 jokers",
        "標準 52 張，多一組完全相同的黑桃，再加 3 張鬼牌",
    ),
    "games.big-two.deck": T("one standard 52-card deck", "一副 52 張撲克牌，不含鬼牌"),
}

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
    """Texts by domain, key and language tag, and their rendering. ``fallback`` names, per domain, the
    domains its look-ups continue in; ``stem`` is the path of the added languages' data files without
    ``.<tag>.json`` (``service/rules/messages`` -> ``messages.zh-CN.json``)."""

    def __init__(
        self, domains: Mapping[str, dict[str, Entry]], stem: Path, fallback: Mapping[str, tuple[str, ...]] | None = None
    ):
        self.domains = dict(domains)
        for domain in self.domains:
            if CATALOGS.setdefault(domain, self) is not self:
                raise ValueError(f"the domain {domain!r} is already another catalog's")
        self.stem = stem
        self.fallback = dict(fallback or {})
        for language in ADDED:
            for domain, texts in load_added(self.added_path(language), language).items():
                for key, template in texts.items():
                    entry = self.domains.get(domain, {}).get(key)
                    if entry is not None:
                        entry[language] = template

    __eq__ = object.__eq__  # one catalog is itself, not its contents (so it can key a dict)
    __hash__ = object.__hash__

    # a read-only mapping of domain -> {key: entry}
    def __getitem__(self, domain: str) -> dict[str, Entry]:
        return self.domains[domain]

    def __iter__(self) -> Iterator[str]:
        return iter(self.domains)

    def __len__(self) -> int:
        return len(self.domains)

    def added_path(self, language: str) -> Path:
        """The data file of an added language: ``<stem>.<tag>.json``."""
        return self.stem.with_name(f"{self.stem.name}.{language}.json")

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

GAME_DOMAINS = ("ofc-pineapple", "joker-thirteen", "big-two")
"""The games' own texts (a game of the registry, service/rules/games.py, names its domain)."""
CATALOG = Catalog(
    {"cards": CARDS, "ofc-pineapple": OFC, "joker-thirteen": JOKER_THIRTEEN, "big-two": BIG_TWO, "games": GAMES},
    Path(__file__).resolve().with_suffix(""),
    fallback=dict.fromkeys(GAME_DOMAINS, ("cards",)),
)
FALLBACK = CATALOG.fallback
"""Where a domain's look-up continues when the domain has no such key."""


def added_path(language: str) -> Path:
    """The rules catalog's data file of an added language: ``messages.<tag>.json`` beside this module."""
    return CATALOG.added_path(language)


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
