"""Card counting kept up to date play by play (``Knowledge.observe``) equals counting afresh.

``expert_bid.basic_play_out`` (the ``basic`` finishes of the expert's ``refine`` and
``finish=basic`` options) keeps one :class:`Knowledge` per seat and updates it after each play
instead of rebuilding it from every view; these tests check, on real deals with two and three
decks, that the kept counts equal :meth:`Knowledge.from_view` at every decision, and that the
play-out plays exactly what ``basic`` choosing from its views would play.
"""
from __future__ import annotations

import pytest

from ai_plugins.builtin import expert_bid
from ai_plugins.builtin.basic import auctioned
from ai_plugins.builtin.knowledge import Knowledge
from ai_plugins.builtin.simulate import play_with
from engine.ruleset import hongwu
from engine.state import Phase, Play


def _fields(k: Knowledge) -> tuple:
    """Everything a Knowledge holds, and what its caches answer (the unseen cards by suit,
    and the chances it remembers within a state, asked twice so the second answer comes
    from the memo)."""
    seats = range(len(k.hand_sizes))
    chances = [(k.p_higher(s, x, v, g), k.p_beats(s, x, y, v, g), k.p_any_beats(list(seats), x, y, v, g))
               for _ in range(2) for s in seats for x in range(5) for y in (x, 4)
               for v in (3, 9) for g in (1, 2)]
    return (k.seat, k.dealer, list(k.unseen), k.unseen_total, tuple(k.hand_sizes),
            [set(v) for v in k.voids], [k.suit_unseen(x) for x in range(5)],
            [k.unseen_cards(x) for x in range(5)], [list(k._suit_cards(x)) for x in range(5)], chances)


@pytest.mark.parametrize("decks,seed", [(2, 11), (2, 12), (3, 13)])
def test_observed_knowledge_equals_a_fresh_count(decks: int, seed: int) -> None:
    g, ais = auctioned(hongwu(decks), seed)
    kept = [Knowledge.from_view(g.view(s)) for s in range(g.ruleset.players)]
    steps = 0
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        for t in range(g.ruleset.players):  # every seat's kept count, not only the mover's
            assert _fields(kept[t]) == _fields(Knowledge.from_view(g.view(t))), (steps, t)
        play = tuple(ais[s].choose_play(v, g.play_options(s)))
        lsx = g.ctx.SUITX[(g.current[0][1] if g.current else play)[0]]
        g.apply(Play(s, play))
        for k in kept:
            k.observe(s, play, lsx)
        steps += 1
    assert steps >= g.ruleset.hand_size  # a whole hand was played


@pytest.mark.parametrize("decks,seed", [(2, 31), (3, 32)])
def test_basic_play_out_plays_what_basic_chooses(decks: int, seed: int) -> None:
    g, _ = auctioned(hongwu(decks), seed)
    fast = g.clone()
    expert_bid.basic_play_out(fast, 7)
    from ai_plugins.base import AISettings
    from ai_plugins.builtin.basic import BasicAI

    slow = g.clone()
    play_with(slow, [BasicAI(AISettings(seat=s, seed=7 + s)) for s in range(g.ruleset.players)])
    assert [t.plays for t in fast.tricks] == [t.plays for t in slow.tricks]
    assert fast.settlement == slow.settlement


def test_finish_speed_benchmark_plays_both_ways_alike_and_prints_its_figures(capsys) -> None:
    """benchmarks/basic_finish_speed.py: its baseline (``choose_play`` on every view) and the
    shipped play-out finish a position identically, and it prints the three medians."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "basic_finish_speed.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for g in mod.positions(2, 3):
        a, b = g.clone(), g.clone()
        expert_bid.basic_play_out(a, 5)
        mod.rebuilt_play_out(b, 5)
        assert a.settlement == b.settlement and [t.plays for t in a.tricks] == [t.plays for t in b.tricks]
    assert mod.main(["--positions", "2", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("ms per finish kept:", "ms per finish rebuilt:", "ratio rebuilt/kept:"):
        assert label in out
