"""OFC hot paths per rule set, in process: each rule set beside the default, and (with ``--before REV``) the
default beside the rules module as it was at git revision REV, all timed round-robin in this one run.

Run: ``.venv/bin/python bench/ofc_rule_sets.py --before faf0878``. Targets: the default rule set
within 5% of the code before the rules became an argument; every other rule set within 10% of the default.
Only the ratios mean anything on a shared machine.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere

from service.rules import ofc  # noqa: E402
from service.rules.cards import parse_cards  # noqa: E402
from service.rules.games import GAMES  # noqa: E402
from service.rules.ofc.rules import OfcRules  # noqa: E402
from tests.ofc_pineapple.records import BING, JIA, YI  # noqa: E402

RULE_SETS = [(game.id, r.id, r.rules) for game in GAMES for r in game.rule_sets if isinstance(r.rules, OfcRules)]


def module_at(rev: str) -> ModuleType:
    """``service/rules/ofc_pineapple.py`` as it was at ``rev``, loaded beside today's (it imports today's
    shared modules: poker, cards and errors)."""
    source = subprocess.run(
        ["git", "show", f"{rev}:service/rules/ofc_pineapple.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    spec = importlib.util.spec_from_loader("ofc_before", loader=None)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["ofc_before"] = module
    exec(compile(source, f"{rev}:ofc_pineapple.py", "exec"), module.__dict__)
    return module


def board(rows: dict[str, list[str]], m: ModuleType) -> object:
    return m.Board(*(tuple(parse_cards(rows[r])) for r in ("top", "middle", "bottom")))


def cases(m: ModuleType, rules: object | None) -> dict[str, Callable[[], object]]:
    """The operations on fixed inputs: one row of each size, a board, a 3-player showdown, a move. With
    ``rules`` None they are called as before rule sets existed (the default); else ``rules`` is passed
    positionally, as the HTTP layer does."""
    top, middle = tuple(parse_cards(["Qs", "Qh", "4c"])), tuple(parse_cards(["9s", "9h", "9d", "Kc", "Kd"]))
    boards = [board(b, m) for b in (JIA, YI, BING)]
    seats = [m.Seat(b) for b in boards]
    empty, dealt = m.Board(), tuple(parse_cards(["As", "Kd", "7h", "7c", "2s"]))
    placement = {m.TOP: dealt[:1], m.MIDDLE: dealt[1:3], m.BOTTOM: dealt[3:]}
    no_fantasyland, path, cards_path = m.Fantasyland(), (), ("cards",)
    if rules is None:
        return {
            "evaluate_row top": lambda: m.evaluate_row(m.TOP, top),
            "evaluate_row middle": lambda: m.evaluate_row(m.MIDDLE, middle),
            "evaluate_board": lambda: m.evaluate_board(boards[0], no_fantasyland),
            "score_hand (3 players)": lambda: m.score_hand(seats),
            "validate_move round 1": lambda: m.validate_move(empty, 1, dealt, placement, ()),
        }
    return {
        "evaluate_row top": lambda: m.evaluate_row(m.TOP, top, cards_path, rules),
        "evaluate_row middle": lambda: m.evaluate_row(m.MIDDLE, middle, cards_path, rules),
        "evaluate_board": lambda: m.evaluate_board(boards[0], no_fantasyland, path, rules),
        "score_hand (3 players)": lambda: m.score_hand(seats, rules),
        "validate_move round 1": lambda: m.validate_move(empty, 1, dealt, placement, (), (), rules),
    }


def best_micros(step: Callable[[], object], loops: int) -> float:
    started = time.perf_counter()
    for _ in range(loops):
        step()
    return (time.perf_counter() - started) / loops * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="a git revision whose ofc_pineapple.py is timed beside today's default")
    parser.add_argument(
        "--loops",
        type=int,
        default=100,
        help="calls per timed pass: short passes, so some fall between a neighbour's bursts",
    )
    parser.add_argument("--repeats", type=int, default=100, help="passes per cell, round-robin; the best counts")
    args = parser.parse_args(argv)
    columns: list[tuple[str, dict[str, Callable[[], object]]]] = []
    if args.before:
        columns.append((f"before ({args.before})", cases(module_at(args.before), None)))
    # Three-player operations only for rule sets that seat three (classic and standard do).
    # The default as every caller that names no rule set calls it; every rule set (the default too) passed.
    columns += [(f"{RULE_SETS[0][0]}/{RULE_SETS[0][1]}", cases(ofc, None))]
    columns += [(f"{game}/{rule_set} (passed)", cases(ofc, rules)) for game, rule_set, rules in RULE_SETS]
    names = list(columns[0][1])
    best = {(c, n): float("inf") for c, _ in columns for n in names}
    gc.disable()
    try:
        for _ in range(args.repeats):  # round-robin: a neighbour's burst hits every column alike
            for name in names:
                for column, ops in columns:
                    best[column, name] = min(best[column, name], best_micros(ops[name], args.loops))
    finally:
        gc.enable()
    default_column = f"{RULE_SETS[0][0]}/{RULE_SETS[0][1]}"
    header = ["operation (us, best of passes)", *(c for c, _ in columns)]
    rows = []
    for name in names:
        base = best[default_column, name]
        cells = []
        for column, _ in columns:
            value = best[column, name]
            cells.append(f"{value:.2f}" if column == default_column else f"{value:.2f} ({value / base:.2f}x)")
        rows.append([name, *cells])
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(r, widths)))
    print(
        f"\n(x) = time / the default rule set's time in this run; Python {sys.version.split()[0]}, {args.loops:,} calls per pass, best of {args.repeats} passes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
