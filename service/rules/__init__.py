"""The rules core: pure Python, no web imports (tests/test_architecture.py enforces it).

One package per game, named for it, each holding its rules, its rule sets as data and its texts
(``messages.json``, and the generated ``messages.zh-CN.json``):

* ``ofc``: Open-Face Chinese Poker, Pineapple (大菠蘿) and classic (明牌十三張);
* ``thirteen``: Joker Thirteen (鬼牌十三支加一色);
* ``big_two``: Taiwanese Big Two (台灣大老二).

Beside them, what the games share: the card notation (``cards``), the poker hand ranking of the OFC rows
(``poker``), the error model (``errors``), a hand's value (``hand_value``), the game registry (``games``)
and the catalog engine that renders every human text in English, Traditional and Simplified Chinese
(``messages``, with the shared domains' texts in ``messages.json`` beside it).
"""
