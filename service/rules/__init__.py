"""The rules core: pure Python, no web imports (tests/test_architecture.py enforces it).

One module per game (``ofc_pineapple``, ``joker_thirteen``, ``big_two``) on top of the shared
card notation (``cards``), error model (``errors``), hand value (``hand_value``) and the
catalog of every human text in English and Traditional Chinese (``messages``).
"""
