"""The lean play-out's public-information policy (``fastsim.public_lean``, expert option
``public``): seats judge safety from their own cards and the voids shown, not from every hand.

Checked: the shown voids of a worked trick list; a lead that is safe only because a partner
holds the higher card is safe with full sight but not in public play; real positions (deals
played by ``basic``) finished by the public play-out obey the follow rules of RULES.md §8 on
every play, the card points add up to those in play, and the voids the play-out keeps are
those its tricks showed. Seeded loops, bounded.
"""
from __future__ import annotations

import pytest

from ai_plugins.base import AISettings
from ai_plugins.builtin import fastsim
from ai_plugins.builtin.expert import ExpertAI
from ai_plugins.runner import basic_position
from engine.cards import POINTS, Card
from engine.order import context
from engine.ruleset import hongwu
from engine.tricks import PlayOptions

SEEDS = 40
"""Deals per deck count in the property loop."""


def _ids(text: str) -> list[int]:
    return [int(Card.parse(t)) for t in text.split()]


def test_shown_voids_of_a_worked_trick_list():
    ctx = context("S")  # spades trump: hearts, clubs and diamonds are side suits
    h, c = ctx.SUITX[_ids("4H")[0]], ctx.SUITX[_ids("4C")[0]]
    tricks = [
        [(0, _ids("AH")), (1, _ids("4H")), (2, _ids("6C")), (3, _ids("7H"))],  # seat 2 shows no hearts
        [(2, _ids("9C")), (3, _ids("6S")), (0, _ids("KC")), (1, _ids("4C"))],  # seat 3 ruffs a club
        [(1, _ids("8H 8H")), (2, _ids("6D 7D")), (3, _ids("9H 10H")), (0, _ids("JH 2H"))],
    ]
    voids = fastsim.shown_voids(tricks, ctx, 4)
    assert voids[2] == 1 << h  # short of hearts twice: one bit
    assert voids[3] == 1 << c
    assert voids[0] == 1 << h  # 2H is a trump (RULES.md §5): seat 0 ran out of hearts
    assert voids[1] == 0


def test_a_partner_s_higher_card_makes_a_lead_unsafe_only_in_public_play():
    ctx = context("S")
    # dealer 0; defender 1 leads; its partner 3 holds the ace of hearts over its king
    hands = [_ids("6H 7H 8C 9C"), _ids("KH 4D 6D 7D"), _ids("4C 6C 7C 10D"), _ids("AH 8D 9D JD")]
    lean = fastsim.Lean(hands, ctx, 1, 0, [0] * 4, [])
    assert fastsim._lead(lean, 1)[0] == _ids("KH")  # with full sight: only the dealer matters
    public = fastsim.public_lean(fastsim.copy_lean(lean), [0] * 4)
    assert fastsim._lead(public, 1)[0] != _ids("KH")


@pytest.mark.parametrize("decks", [2, 3])
def test_public_play_outs_of_real_positions_are_legal_and_keep_the_points(decks):
    rs = hongwu(decks)
    played = 0
    for seed in range(SEEDS):
        game = basic_position(rs, 900 + seed, 3 + seed % 6)
        if game.is_over:
            continue
        ctx = game.ctx
        hands = [list(map(int, h)) for h in game.hands]
        tricks = [t.plays for t in game.tricks]
        voids = fastsim.game_voids(game)
        lean = fastsim.public_lean(fastsim.lean_from_game(game), voids)
        at_stake = sum(POINTS[c] for h in hands for c in h) + sum(lean.points)
        trace: list = []
        points, _, _ = fastsim.play_out_fast(lean, [], False, trace)
        assert sum(points) == at_stake
        for plays, _winner in trace:
            lead = plays[0][1]
            for s, cards in plays[1:]:
                opts = PlayOptions(tuple(Card(c) for c in hands[s]), tuple(Card(c) for c in lead), ctx)
                assert opts.is_legal(tuple(Card(c) for c in cards)), (seed, s, cards, lead)
            for s, cards in plays:
                for c in cards:
                    hands[s].remove(c)
            played += 1
        assert lean.voids == fastsim.shown_voids(tricks + [p for p, _ in trace], ctx, rs.players)
    assert played > 100


def test_the_expert_option_public_switches_the_play_out(monkeypatch):
    calls = []
    real = fastsim.public_lean

    def spy(lean, voids):
        calls.append(tuple(voids))
        return real(lean, voids)

    monkeypatch.setattr("ai_plugins.builtin.expert.public_lean", spy)
    game = basic_position(hongwu(2), 77, 4)
    view = game.view(game.to_act)
    for public, expected in (("0", False), ("1", True)):
        calls.clear()
        ai = ExpertAI(AISettings(seat=view.seat, seed=1, options={"samples": 3, "public": public}))
        ai.choose_play(view, view.play_options())
        assert bool(calls) is expected
