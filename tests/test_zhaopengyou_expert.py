"""The ``expert`` AI on 找朋友: whole hands and a short match without faults, decisions
reproducible from the seed at a fixed sample count, sampled worlds consistent with what the
seat has seen, the one-file example plugin, and the 红五 expert unchanged (its events on two
seeded hands, recorded before the 找朋友 search was added, in tests/data)."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from ai_helpers import manager_for, play_one
from ai_plugins.base import AISettings
from ai_plugins.builtin.expert import ExpertAI
from ai_plugins.builtin.simulate_zpy import hand_from_view, play_out, sample_world, shown_cards, voids
from ai_plugins.matches import play_match
from ai_plugins.runner import make_player, play_hand
from engine.cards import make_deck
from engine.match import ZpyMatch
from engine.state import Bury
from engine.zhaopengyou import CallFriend, ZPhase, ZpyHand

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "hongwu-expert-fixture.json"
FAST = {"samples": 2}


@pytest.fixture(scope="module")
def manager():
    return manager_for(ROOT / "docs" / "examples")


def _players(manager, names, seed, options=None):
    return [make_player(manager, n, s, 30.0, seed=seed + s, options=options) for s, n in enumerate(names)]


def _play(manager, names, seed, options=FAST):
    hand = ZpyHand.new(seed=seed)
    players = _players(manager, names, seed, options)
    try:
        play_hand(hand, players)
    finally:
        for p in players:
            p.close()
    return hand, players


def test_expert_plays_whole_hands_reproducibly(manager):
    # five experts: the dealer, the burier, the caller and every player is the expert
    first, players = _play(manager, ["expert"] * 5, seed=3)
    assert first.is_over
    assert all(not p.faults and p.fallbacks == 0 for p in players)
    assert first.friend_call is not None and first.settlement is not None
    again, _ = _play(manager, ["expert"] * 5, seed=3)
    assert [e.as_dict() for e in again.events] == [e.as_dict() for e in first.events]


def test_expert_plays_a_short_match_with_others(manager):
    match = ZpyMatch(seed=5, max_hands=2)
    names = ["expert", "basic", "random", "zpy_greedy", "expert"]
    players = _players(manager, names, 5, FAST)
    try:
        assert play_match(match, players) == 2
    finally:
        for p in players:
            p.close()
    assert all(not p.faults for p in players)
    assert players[0].fallbacks == 0 and players[4].fallbacks == 0
    assert len(match.results) == 2


def _to_phase(seed: int, phase: ZPhase, trick: int = 1) -> ZpyHand:
    """A hand played by ``basic`` up to ``phase`` (PLAY: to the start of trick ``trick``)."""
    hand = ZpyHand.new(seed=seed)
    players = _players(manager_for(), ["basic"] * 5, seed)
    while not (hand.phase is phase and (phase is not ZPhase.PLAY or (hand.trick_no >= trick and not hand.current))):
        seat = hand.to_act
        hand.apply(players[seat].act(hand.view(seat)))
    return hand


def test_sampled_worlds_agree_with_what_the_seat_has_seen():
    hand = _to_phase(2, ZPhase.PLAY, trick=9)
    seat = hand.to_act
    view = hand.view(seat)
    ctx = view.ctx
    seen_voids = voids(view, ctx)
    shown = shown_cards(view)
    rng = random.Random(4)
    for _ in range(25):
        world = sample_world(view, rng)
        assert world.card_count() == 162
        everything = Counter()
        for h in world.hands:
            everything.update(h)
        everything.update(world.kitty)
        for _, cards in world.plays:
            everything.update(cards)
        assert everything == Counter(make_deck(3))
        assert sorted(world.hands[seat]) == sorted(view.hand)
        assert [len(h) for h in world.hands] == list(view.hand_sizes)
        for s, suits in enumerate(seen_voids):
            if s != seat:
                assert not any(ctx.SUITX[c] in suits for c in world.hands[s])
        for s, cards in shown.items():
            if s != seat and s != view.burier:
                assert not (cards - Counter(world.hands[s]))
        if seat == view.burier:
            assert sorted(world.kitty) == sorted(view.buried)
        assert world.friend_call == view.friend_call and world.dealer == view.dealer
        play_out(world, rng)
        assert world.is_over and sum(world.points_won) + world.settlement.kitty_points == 300


def test_the_friends_copies_are_dealt_among_the_unseen_cards():
    hand = _to_phase(1, ZPhase.PLAY, trick=1)
    card, _ = hand.friend_call
    dealer = hand.dealer
    view = hand.view(dealer)
    mine = list(view.hand).count(card)
    rng = random.Random(1)
    holders = Counter()
    for _ in range(40):
        world = sample_world(view, rng)
        assert world.hands[dealer].count(card) == mine  # the dealer knows his own copies
        for s in range(5):
            if s != dealer and card in world.hands[s]:
                holders[s] += 1
    assert len(holders) >= 3  # nobody is assumed to be the friend before the reveal


def test_expert_bury_and_call_are_legal_and_reproducible():
    hand = _to_phase(4, ZPhase.CALL_FRIEND)
    view = hand.view(hand.dealer)
    calls = view.friend_calls()
    picks = [ExpertAI(AISettings(seat=hand.dealer, seed=9, options=FAST)).choose_friend(view, calls)
             for _ in range(2)]
    assert picks[0] == picks[1] and tuple(picks[0]) in set(calls)
    hand.apply(CallFriend(hand.dealer, *picks[0]))
    assert hand.phase is ZPhase.BURY
    view = hand.view(hand.burier)
    buries = [ExpertAI(AISettings(seat=hand.burier, seed=9, options=FAST)).choose_bury(view, 7) for _ in range(2)]
    assert buries[0] == buries[1] and len(buries[0]) == 7
    assert not Counter(buries[0]) - Counter(view.hand)
    hand.apply(Bury(hand.burier, tuple(buries[0])))
    assert hand.phase in (ZPhase.COUNTER, ZPhase.PLAY)


def test_worlds_rebuilt_from_a_view_play_on_like_the_hand():
    hand = _to_phase(6, ZPhase.PLAY, trick=4)
    seat = hand.to_act
    view = hand.view(seat)
    world = hand_from_view(view, [list(h) for h in hand.hands], hand.kitty)
    assert world.to_act == hand.to_act and world.trick_no == hand.trick_no
    option = next(iter(hand.play_options()))
    assert list(world.play_options()) == list(hand.play_options())
    from engine.state import Play

    assert [e.as_dict() for e in world.apply(Play(seat, option))] == \
        [e.as_dict() for e in hand.apply(Play(seat, option))]


def test_example_plugin_plays_zhaopengyou_and_leaves_hongwu_to_basic(manager):
    hand, players = _play(manager, ["zpy_greedy", "basic"] * 2 + ["zpy_greedy"], seed=2, options=None)
    assert hand.is_over and all(not p.faults and p.fallbacks == 0 for p in players)
    game, players = play_one(manager, ["zpy_greedy", "basic", "basic", "basic"], seed=1, budget_s=2.0)
    assert not players[0].faults


@pytest.mark.parametrize("key", ["2:11", "3:12"])
def test_hongwu_expert_is_unchanged(manager, key):
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))[key]
    decks, seed = map(int, key.split(":"))
    game, _ = play_one(manager, ["expert", "basic", "expert", "random"], seed=seed, decks=decks,
                       budget_s=30.0, options={"samples": 3})
    assert json.loads(json.dumps([e.as_dict() for e in game.events])) == recorded
