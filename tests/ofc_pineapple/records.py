"""Hand records for tests: the rule book's 甲乙丙 showdown, and a legal whole-hand record that reaches it."""

from __future__ import annotations

from typing import Any

# 甲 (seat 0): bottom flush (4), nothing else; 乙 (seat 1): top K-K (8); 丙 (seat 2): fouls (top Q-Q above a
# J-high middle). 甲 wins middle and bottom from 乙 and loses the top (計分範例).
JIA = {"top": ["Qh", "9c", "2d"], "middle": ["Jc", "Jd", "8s", "8c", "3c"], "bottom": ["Ah", "Th", "7h", "5h", "4h"]}
YI = {"top": ["Ks", "Kd", "4c"], "middle": ["Ac", "Ad", "6s", "5s", "2c"], "bottom": ["9s", "9d", "7c", "7d", "3d"]}
BING = {"top": ["Qs", "Qc", "6d"], "middle": ["Js", "Td", "6c", "4d", "2s"], "bottom": ["Kc", "Tc", "9h", "8d", "3h"]}
SPARE = ["2h", "3s", "4s", "5c", "5d", "6h", "7s", "8h", "Ts", "Jh", "Qd", "Kh"]  # the 12 discards, in order


def placement_order(board: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The order one seat places its 13 cards: 3 bottom + 2 middle, then two at a time."""
    b, m, t = board["bottom"], board["middle"], board["top"]
    return [("bottom", c) for c in b[:3]] + [("middle", c) for c in m[:2]] + [("top", c) for c in t] + \
        [("middle", c) for c in m[2:]] + [("bottom", c) for c in b[3:]]  # fmt: skip


def showdown_record(dealer: int = 2) -> dict[str, Any]:
    """A legal normal hand, acting from the dealer's left, ending in the 甲乙丙 showdown."""
    boards = [JIA, YI, BING]
    orders = [placement_order(b) for b in boards]
    spare = iter(SPARE)
    actions = []
    for round_ in range(1, 6):
        for k in range(1, 4):
            seat = (dealer + k) % 3
            take = orders[seat][:5] if round_ == 1 else orders[seat][5 + 2 * (round_ - 2) : 5 + 2 * (round_ - 1)]
            placement: dict[str, list[str]] = {}
            for row, card in take:
                placement.setdefault(row, []).append(card)
            discard = [] if round_ == 1 else [next(spare)]
            actions.append(
                {"seat": seat, "dealt": [c for _, c in take] + discard, "placement": placement, "discard": discard}
            )
    return {"dealer": dealer, "players": [{"fantasyland": {"active": False}} for _ in range(3)], "actions": actions}
