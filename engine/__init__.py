"""Hong Wu rules engine: pure Python, no pygame, sockets or plugins.

Modules, each with one job (see RULES.md for the rules they implement):

- ``cards``    the Card value type, card text, decks
- ``ruleset``  RuleSet / RuleOptions / ZhaoPengyouOptions: table size, decks, deal, bidding range,
  options; ``hongwu()`` and ``zhaopengyou()``
- ``order``    TrumpContext: effective suits, ranks, tractor adjacency for one trump suit
  (``context`` for 红五, ``level_context`` for 找朋友's level cards and no-trump)
- ``zhaopengyou_rules``  找朋友 declaring, the friend call, kitty multiplier, settlement, levels
- ``patterns`` classify plays: single, pair, triple, tractor, throw (with decomposition)
- ``tricks``   lead check (throws), follow legality, legal-play generation, trick winner
- ``bidding``  the 叫分 auction
- ``scoring``  settlement, red-five captures, titles
- ``events``   what happened, and what each seat may see of it
- ``state``    Game: the explicit phase machine and PlayerView
- ``zhaopengyou`` ZpyHand: the 找朋友 hand as a phase machine (its rules are in
  ``zhaopengyou_rules``; its phases, actions and ZpyView in ``zhaopengyou_view``)
- ``match``    ZpyMatch / HongwuMatch: what lives from hand to hand
- ``judge``    the JSON-lines referee (``python -m engine.judge``); ``judge_zhaopengyou`` its
  找朋友 operations
"""
