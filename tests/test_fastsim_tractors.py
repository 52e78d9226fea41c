"""The lean play-out's experimental ``tractors`` switch (ai_plugins/builtin/fastsim.py).

Real positions (a 红五 deal, the auction, the trump, the bury and a few tricks played by the
``basic`` AI) are finished by :func:`fastsim.play_out_fast` with the switch on, and every lean
play is checked against the engine: each lead is one pattern the seat may lead, each follow is
legal for that hand and lead (RULES.md §7–§8, :class:`engine.tricks.PlayOptions`), each trick
goes to :func:`engine.tricks.trick_winner`'s seat (§9), and the card points add up to the
pack's. Tractor leads must occur with two and with three decks. Seeded loops, bounded.
"""
from __future__ import annotations

import random

import pytest

from ai_plugins.base import AISettings
from ai_plugins.builtin import fastsim
from ai_plugins.builtin.expert import ExpertAI
from ai_plugins.runner import SafePlayer, basic_position
from engine.cards import POINTS, make_deck
from engine.order import context
from engine.patterns import classify
from engine.ruleset import hongwu
from engine.state import Game, Phase, Play
from engine.tricks import PlayOptions, lead_units, trick_winner

SEEDS = 90
"""Deals per deck count in the property loops."""


def _basic_players(game: Game, seed: int) -> list[SafePlayer]:
    """A ``basic`` AI per seat (a SafePlayer without an AI object plays ``basic``)."""
    return [SafePlayer(None, "basic", s, seed=seed + s) for s in range(game.ruleset.players)]


def _position(decks: int, seed: int, tricks: int) -> Game:
    """Deal ``seed`` with ``decks`` decks, played by ``basic`` up to the start of trick
    ``tricks + 1`` (or to the end of the hand)."""
    return basic_position(hongwu(decks), seed, tricks)


def _mid_tractor_trick(decks: int, seed: int) -> Game | None:
    """Deal ``seed`` played by ``basic`` until a trick led by a tractor has its lead and one
    follow on the table; None when no such trick comes in the hand."""
    game = Game.new(hongwu(decks), seed=seed)
    players = _basic_players(game, seed)
    for _ in range(2000):
        if game.is_over:
            return None
        if (game.phase is Phase.PLAY and len(game.current) == 2
                and classify(game.current[0][1], game.ctx).kind == "tractor"):
            return game
        s = game.to_act
        game.apply(players[s].act(game.view(s)))
    return None


def _check_lean(lean: fastsim.Lean, hands: list[list[int]], pending: list, ctx) -> dict[str, int]:
    """Finish ``lean`` with the lean play-out (switch on; ``pending`` the plays of the trick in
    progress, already out of ``lean`` but still in ``hands``, the hands before that trick) and
    check every play and winner against the engine (see the module docstring). Returns counts:
    ``tricks``, ``tractor_leads`` (``triple_tractor_leads`` of triples), and of the follows to a
    tractor lead with enough cards of the suit, ``tractor_answers`` (a tractor of the lead's
    shape), ``pair_answers`` (pairs or triples of the suit but no such tractor) and
    ``plain_answers`` (neither). Also checks that the points won add up to those in play."""
    players = len(hands)
    at_stake = sum(POINTS[c] for h in hands for c in h) + sum(lean.points)
    leader = lean.leader
    trace: list = []
    points, _, last = fastsim.play_out_fast(lean, pending, True, trace)
    counts = dict.fromkeys(("tricks", "tractor_leads", "triple_tractor_leads", "tractor_answers",
                            "pair_answers", "plain_answers"), 0)
    for t, (plays, winner) in enumerate(trace):
        seats = [s for s, _ in plays]
        assert seats == [(leader + i) % players for i in range(players)]
        lead = plays[0][1]
        pattern = classify(lead, ctx)
        assert pattern.kind in ("single", "pair", "triple", "tractor"), (lead, pattern.kind)
        if pattern.kind == "tractor":
            counts["tractor_leads"] += 1
            counts["triple_tractor_leads"] += pattern.shapes[0][0] == 3
        for j, (s, cs) in enumerate(plays):
            if t == 0 and j < len(pending):
                assert tuple(cs) == tuple(pending[j][1])  # the plays handed over, kept
            else:
                why = PlayOptions(hands[s], None if j == 0 else lead, ctx).explain(cs)
                assert why is None, (t, j, s, cs, lead, sorted(hands[s]), why)
            if j and pattern.kind == "tractor" and all(ctx.SUITX[c] == ctx.SUITX[lead[0]] for c in cs):
                if classify(cs, ctx).shapes == pattern.shapes:
                    counts["tractor_answers"] += 1
                elif any(cs.count(c) >= 2 for c in cs):
                    counts["pair_answers"] += 1
                else:
                    counts["plain_answers"] += 1
        engine_winner = seats[trick_winner([cs for _, cs in plays], ctx)]
        assert winner == engine_winner, (t, plays, winner, engine_winner)
        for s, cs in plays:
            for c in cs:
                hands[s].remove(c)
        leader = winner
        counts["tricks"] += 1
    assert not any(hands) and last == leader
    assert sum(points) == at_stake
    return counts


def _check_play_out(game: Game, lead: tuple | None = None, leader: int | None = None) -> dict[str, int]:
    """:func:`_check_lean` from ``game``'s position: the trick in progress handed over, or
    (``game`` at a trick boundary) ``lead`` led first by ``leader`` (default: the seat to
    lead), as the search hands a lead over. Also checks that the card points won and those
    buried add up to the pack's. Returns the counts of :func:`_check_lean`."""
    ctx = game.ctx
    hands = [list(h) for h in game.hands]
    lean = fastsim.lean_from_game(game)
    lean.leader = game.leader if leader is None else leader
    if lead is None:
        pending = list(game.current)
        for s, cs in pending:  # the hands as they were before the trick in progress
            hands[s].extend(cs)
    else:
        pending = [(lean.leader, tuple(lead))]
        for c in lead:
            lean.suits[lean.leader][ctx.SUITX[c]].remove(c)
    counts = _check_lean(lean, hands, pending, ctx)
    pack = sum(POINTS[c] for c in make_deck(game.ruleset.decks))
    assert sum(lean.points) + sum(POINTS[c] for c in game.buried) == pack
    return counts


def _clumped_hands(decks: int, rng: random.Random) -> list[list[int]]:
    """Four hands of a pack of ``decks`` decks dealt in blocks: for most card ids all copies go
    to one seat together, so pairs, triples and tractors of them are common (a test deal, not a
    real one; the kitty's cards are left out)."""
    blocks: list[list[int]] = []
    for c in range(54):
        if rng.random() < 0.5:
            blocks.append([c] * decks)
        else:
            blocks.extend([c] for _ in range(decks))
    rng.shuffle(blocks)
    cards = [c for b in blocks for c in b]
    size = hongwu(decks).hand_size
    return [cards[s * size:(s + 1) * size] for s in range(4)]


@pytest.mark.parametrize("decks", [2, 3])
def test_clumped_deals_exercise_triple_tractors_and_tractor_answers(decks):
    """Deals rich in structure: the policy's play-outs, and each seat's first tractor led
    into the same deal, are legal and judged like the engine; triple tractors (three decks)
    are led and tractors answered by tractors."""
    total: dict[str, int] = {}
    rng = random.Random(decks)
    for _ in range(SEEDS // 3):
        hands = _clumped_hands(decks, rng)
        ctx = context(rng.choice("SHCD"))
        dealer = rng.randrange(4)
        leads: list = [None]
        for seat, hand in enumerate(hands):
            units = [u for u in lead_units(hand, ctx) if classify(u, ctx).kind == "tractor"]
            units.sort(key=lambda u: (-classify(u, ctx).shapes[0][0], -len(u)))
            leads += [(seat, units[0])] if units else []
        for lead in leads:
            leader = dealer if lead is None else lead[0]
            lean = fastsim.Lean(hands, ctx, leader, dealer, [0] * 4, [])
            pending = [] if lead is None else [(leader, tuple(lead[1]))]
            for c in (lead[1] if lead else ()):
                lean.suits[leader][ctx.SUITX[c]].remove(c)
            for k, v in _check_lean(lean, [list(h) for h in hands], pending, ctx).items():
                total[k] = total.get(k, 0) + v
    assert total["tractor_answers"] >= 10, total
    assert total["triple_tractor_leads"] >= (10 if decks == 3 else 0), total
    for kind in ("pair_answers", "plain_answers"):
        assert total[kind] >= 1, total


@pytest.mark.parametrize("decks", [2, 3])
def test_lean_play_outs_with_tractors_are_legal_and_judged_like_the_engine(decks):
    total: dict[str, int] = {}
    for seed in range(SEEDS):
        game = _position(decks, seed, seed % 7)
        if game.is_over:
            continue
        for k, v in _check_play_out(game).items():
            total[k] = total.get(k, 0) + v
    assert total["tricks"] > SEEDS * 10
    assert total["tractor_leads"] >= (10 if decks == 2 else 40), total


@pytest.mark.parametrize("decks", [2, 3])
def test_every_tractor_led_into_a_real_position_is_answered_legally(decks):
    """The followers' side: each tractor a seat holds (safe or not; at most three a seat) is
    led by that seat as the search would hand it over, and the rest is played out and checked."""
    total: dict[str, int] = {}
    for seed in range(SEEDS * (3 if decks == 2 else 1)):
        game = _position(decks, seed, seed % 3)
        if game.is_over:
            continue
        for seat, hand in enumerate(game.hands):
            units = [u for u in lead_units(hand, game.ctx) if classify(u, game.ctx).kind == "tractor"]
            for unit in units[:3]:
                for k, v in _check_play_out(game, unit, seat).items():
                    total[k] = total.get(k, 0) + v
    assert total["tractor_leads"] >= 100, total
    for kind in ("tractor_answers", "pair_answers", "plain_answers"):
        assert total[kind] >= 1, total


@pytest.mark.parametrize("decks", [2, 3])
def test_lean_play_outs_take_over_a_trick_led_by_a_tractor(decks):
    found = 0
    for seed in range(60):
        game = _mid_tractor_trick(decks, seed)
        if game is None:
            continue
        found += 1
        _check_play_out(game)
        with pytest.raises(ValueError):  # without the switch the lean play-out refuses it
            fastsim.play_out_fast(fastsim.lean_from_game(game), list(game.current), False)
        assert fastsim.lean_lead(game.current[0][1], game.ctx, True)
        assert not fastsim.lean_lead(game.current[0][1], game.ctx, False)
    assert found >= 3


def test_without_the_switch_no_tractor_is_led_and_the_default_is_off():
    assert fastsim.TRACTORS is False
    leads = 0
    for seed in range(30):
        game = _position(3, seed, seed % 5)
        if game.is_over:
            continue
        trace: list = []
        fastsim.play_out_fast(fastsim.lean_from_game(game), [], trace=trace)
        leads += sum(classify(plays[0][1], game.ctx).kind == "tractor" for plays, _ in trace)
    assert leads == 0


def test_the_expert_option_hands_a_tractor_trick_to_the_lean_play_out(monkeypatch):
    from ai_plugins.builtin import expert

    assert ExpertAI(AISettings(seat=0)).tractors is False
    assert ExpertAI(AISettings(seat=0, options={"tractors": 1})).tractors is True
    assert ExpertAI(AISettings(seat=0, options={"tractors": 0})).tractors is False
    calls: list[bool] = []

    def counted(game, lean, current, tractors=fastsim.TRACTORS):
        calls.append(tractors)
        return fastsim.lean_settle(game, lean, current, tractors)

    monkeypatch.setattr(expert, "lean_settle", counted)
    game = next(g for g in (_mid_tractor_trick(3, seed) for seed in range(60)) if g is not None)
    seat = game.to_act
    opts = game.play_options(seat)
    cands = [p for p in list(opts)[:3]]
    for on in (False, True):
        calls.clear()
        ai = ExpertAI(AISettings(seat=seat, seed=5, budget_s=30.0,
                                 options={"samples": 2, "tractors": int(on)}))
        row = ai._play_outcomes(game.clone(), cands, seat)
        assert len(row) == len(cands) and all(isinstance(u, float) for u in row)
        assert calls == ([True] * len(cands) if on else [])
        play = ai.choose_play(game.view(seat), opts)
        assert opts.is_legal(play)
