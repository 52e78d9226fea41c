"""What follows reveal about pairs and triples (RULES.md §8) and the expert's sampled worlds.

``knowledge.copy_caps`` reads the tricks seen so far: a follower that answered a lead with
fewer pairs (triples) of the led suit than the lead had, while following the suit fully, holds
no more. These tests play real hands with the ``basic`` AI on every seat and check, at every
play decision, that each constraint is true of the real hidden hands, that constraints do
arise, and that :func:`sample_world` with ``structure=True`` never deals a world breaking one.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from ai_plugins.builtin.knowledge import copy_caps
from ai_plugins.builtin.simulate import sample_world
from ai_plugins.manager import AIManager
from ai_plugins.runner import make_player
from engine.ruleset import hongwu
from engine.state import Game, Phase


def _most_copies(cards, suitx, sx):
    return max(Counter(c for c in cards if sx[c] == suitx).values(), default=0)


def _play_positions(decks, seed, ai_seed):
    """Play one hand with ``basic`` on every seat; yield ``(game, seat, view)`` before each
    play-phase decision after the first trick (the action is applied after the yield)."""
    manager = AIManager((), [], user_dir=False, entry_points=False)
    game = Game.new(hongwu(decks), seed=seed)
    players = [make_player(manager, "basic", s, 10.0, ai_seed + s) for s in range(4)]
    try:
        for _ in range(2000):
            if game.is_over:
                return
            seat = game.to_act
            view = game.view(seat)
            if game.phase is Phase.PLAY and view.tricks:
                yield game, seat, view
            game.apply(players[seat].act(view))
    finally:
        for p in players:
            p.close()


@pytest.mark.parametrize("decks", [2, 3])
def test_structure_caps_are_true_and_sampled_worlds_respect_them(decks):
    caps_seen = pairless = checked = 0
    for seed in range(3):
        for step, (game, seat, view) in enumerate(_play_positions(decks, seed, seed * 7), 1):
            sx = view.ctx.SUITX
            caps = copy_caps(view)
            assert len(caps) == len(view.hand_sizes)
            for other, cap in enumerate(caps):
                for suitx, most in cap.items():
                    caps_seen += 1
                    pairless += most == 1
                    assert most in (1, 2)
                    assert _most_copies(game.hands[other], suitx, sx) <= most
            if step % 6 == 0:
                world = sample_world(view, random.Random(step), prior=True, structure=True)
                for other, cap in enumerate(caps):
                    if other == seat:
                        continue
                    for suitx, most in cap.items():
                        checked += 1
                        assert _most_copies(world.hands[other], suitx, sx) <= most
    assert caps_seen > 50 and pairless > 10 and checked > 20


def test_without_structure_the_worlds_ignore_it():
    """The option really changes the sampling: without it some worlds break a constraint."""
    broken = 0
    for step, (game, seat, view) in enumerate(_play_positions(2, 11, 77), 1):
        caps = copy_caps(view)
        if step % 3 == 0 and any(caps[o] for o in range(len(caps)) if o != seat):
            world = sample_world(view, random.Random(step), prior=True)
            sx = view.ctx.SUITX
            broken += sum(1 for o, cap in enumerate(caps) if o != seat
                          for x, most in cap.items()
                          if _most_copies(world.hands[o], x, sx) > most)
    assert broken > 0
