"""The built-in AIs, each a plugin registered through the ``register_ais`` hook like any other:

- ``random`` (:mod:`.random_ai`): a uniformly random legal action, seeded;
- ``basic`` (:mod:`.basic`): fast hand-written heuristics, also the fallback for faulty plugins;
- ``expert`` (:mod:`.expert`): determinized Monte-Carlo search over the hidden hands.
"""
