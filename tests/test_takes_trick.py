"""``engine.tricks.takes_trick`` (RULES.md §9) answers, for one more play, what
``trick_winner`` answers for the whole trick: checked on every legal follow of real tricks."""
from __future__ import annotations

import itertools

import pytest

from ai_plugins.runner import basic_position
from engine.patterns import classify, suit_of_play
from engine.ruleset import hongwu
from engine.tricks import legal_follows, play_key, takes_trick, trick_winner


@pytest.mark.parametrize("decks", [2, 3])
def test_takes_trick_agrees_with_trick_winner_on_every_follow(decks):
    rs = hongwu(decks)
    checked = won = 0
    for seed in range(12):
        game = basic_position(rs, 500 + seed, seed % 5)
        if game.is_over:
            continue
        for trick in game.tricks[-3:]:
            plays = [list(p) for _, p in trick.plays]
            ctx = game.ctx
            lead = classify(plays[0], ctx)
            for k in range(1, len(plays)):
                before = plays[:k]
                w = trick_winner(before, ctx)
                best_suit, best_key = suit_of_play(before[w], ctx), play_key(before[w], lead.shapes, ctx)
                # the cards the next player held then: its play now plus what it still holds
                seat = trick.plays[k][0]
                hand = list(game.hands[seat]) + plays[k]
                for follow in itertools.islice(legal_follows(plays[0], hand, ctx), 60):
                    follow = list(follow)
                    key = takes_trick(follow, lead.suit, lead.shapes, best_suit, best_key, ctx)
                    wins = trick_winner(before + [follow], ctx) == k
                    assert (key is not None) == wins, (before, follow)
                    if wins:
                        assert key == play_key(follow, lead.shapes, ctx)
                        won += 1
                    checked += 1
    assert checked > 200 and 0 < won < checked
