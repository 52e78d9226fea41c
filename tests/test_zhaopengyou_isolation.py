"""Plugin isolation at a 找朋友 table: private ZpyView copies per decision, answers of the
three 找朋友 hooks made plain in the worker and validated, faults / time-outs / drops / the
stand-in exactly as at 红五, clean CLI output and the arena's fault block. Real plugin files
through real discovery, real hands, real ``hongwu`` subprocesses."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai_helpers import manager_for, write_plugin
from ai_plugins.isolation import PrivateZpyView, private_args, private_view
from ai_plugins.runner import SafePlayer, make_player, play_hand
from engine.ruleset import zhaopengyou
from engine.zhaopengyou import ZPhase, ZpyHand, result_line

ROOT = Path(__file__).resolve().parent.parent

#: one 找朋友 AI whose misbehaviour is chosen by ``settings.options["mode"]``; every decision
#: it does not spoil it leaves to basic (None), so a hand with it is the all-basic hand
EVIL = """
import sys
import time

from engine.zhaopengyou_rules import FriendCall

LINES = 200

def wreck(view, options=None):
    object.__setattr__(view, "hand", ())
    view.__dict__["legal_declarations"] = ((), ())
    view.__dict__["levels"] = (14,) * 5
    view.__dict__["phase"] = None
    object.__setattr__(view.ruleset, "kitty_size", 0)
    object.__setattr__(view.ruleset.options, "friend_call_time", "nonsense")
    for t in view.tricks:
        object.__setattr__(t, "winner", 9)
        object.__setattr__(t, "plays", ())
    ctx = type(view).ctx.fget(view)
    if ctx is not None:
        ctx.VAL = tuple(0 for _ in ctx.VAL)
        ctx.SUITX = tuple(4 for _ in ctx.SUITX)
    if options is not None and hasattr(options, "hand"):
        options.hand = ()
        options.lead = None
    for i in range(LINES):
        print("evil says", i)
    sys.stderr.write("evil on stderr\\n")


class Forever(tuple):
    def __iter__(self):
        while True:
            pass


class LyingCall:
    card = property(lambda self: 42)     # not a Card, not card text
    nth = 1


GARBAGE = {
    "declaration-text": ("choose_declaration", "BJ BJ"),
    "declaration-junk": ("choose_declaration", [object()]),
    "declaration-illegal": ("choose_declaration", ("BJ", "BJ", "BJ", "SJ")),
    "friend-text": ("choose_friend", "AS"),
    "friend-bool": ("choose_friend", ("AS", True)),
    "friend-nth": ("choose_friend", ("AS", 7)),
    "friend-three": ("choose_friend", ("AS", 1, 1)),
    "friend-lying": ("choose_friend", LyingCall()),
    "friend-forever": ("choose_friend", Forever(("AS", 1))),
    "counter-text": ("choose_counter", 3),
    "counter-illegal": ("choose_counter", ("3S",)),
    "bury-short": ("choose_bury", ("BJ",)),
    "play-empty": ("choose_play", ()),
}


class AI:
    rulesets = ("hongwu", "zhaopengyou")

    def __init__(self, settings):
        self.mode = settings.options.get("mode", "all")

    def _spoil(self, hook, view, options=None):
        wreck(view, options)
        if self.mode == "wreck":
            return None
        if self.mode == "raise" or (self.mode == "all" and hook == "choose_counter"):
            raise RuntimeError("evil in " + hook)
        if self.mode == "all":
            return {"choose_declaration": "junk", "choose_friend": ("XX", 1),
                    "choose_bury": (), "choose_play": [None]}[hook]
        target, answer = GARBAGE[self.mode]
        return answer if target == hook else None

    def choose_declaration(self, view, options):
        return self._spoil("choose_declaration", view, options)

    def choose_friend(self, view, calls):
        return self._spoil("choose_friend", view)

    def choose_counter(self, view, options):
        return self._spoil("choose_counter", view, options)

    def choose_bury(self, view, count):
        return self._spoil("choose_bury", view)

    def choose_play(self, view, options):
        return self._spoil("choose_play", view, options)


@hookimpl
def register_ais(register):
    print("evil registering")
    register("evil", AI)
"""

GARBAGE_MODES = {
    "declaration-text": ("DEAL", "malformed"), "declaration-junk": ("DEAL", "malformed"),
    "declaration-illegal": ("DEAL", "illegal"),
    "friend-text": ("CALL_FRIEND", "malformed"), "friend-bool": ("CALL_FRIEND", "malformed"),
    "friend-nth": ("CALL_FRIEND", "illegal"), "friend-three": ("CALL_FRIEND", "malformed"),
    "friend-lying": ("CALL_FRIEND", "malformed"), "friend-forever": ("CALL_FRIEND", "timeout"),
    "counter-text": ("COUNTER", "malformed"), "counter-illegal": ("COUNTER", "illegal"),
    "bury-short": ("BURY", "illegal"), "play-empty": ("PLAY", "malformed"),
}

#: seeds whose first hand has a counter round with basic players (checked below)
SEEDS = (2, 3)


def _evil(folder: Path) -> Path:
    return write_plugin(folder, "evil", EVIL)


def _hand(manager, names, seed, *, mode="all", budget_s=1.0, max_faults=1000):
    hand = ZpyHand.new(zhaopengyou(), seed=seed)
    players = [make_player(manager, n, s, budget_s, seed=seed * 10 + s, max_faults=max_faults,
                           options={"mode": mode})
               for s, n in enumerate(names)]
    try:
        play_hand(hand, players, max_actions=20_000)
    finally:
        for p in players:
            p.close()
    assert hand.phase is ZPhase.SETTLE
    return hand, players


def _same_hand(a: ZpyHand, b: ZpyHand) -> None:
    assert [e.as_dict() for e in a.events] == [e.as_dict() for e in b.events]
    assert a.settlement == b.settlement
    assert result_line(a) == result_line(b)


@pytest.fixture(scope="module")
def evil_manager(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugins")
    _evil(folder)
    m = manager_for(folder)
    assert m.problems == []
    return m


@pytest.fixture(scope="module")
def reference(evil_manager):
    return {seed: _hand(evil_manager, ["basic"] * 5, seed)[0] for seed in SEEDS}


def test_the_seeds_ask_every_zhaopengyou_hook(evil_manager, reference):
    """The fixtures cannot pass vacuously: these hands ask every hook, the counter included."""
    asked = set()
    original = SafePlayer._request

    def spy(self, view):
        hook, kwargs = original(self, view)
        asked.add(hook)
        return hook, kwargs

    SafePlayer._request = spy
    try:
        for seed in SEEDS:
            _hand(evil_manager, ["basic"] * 5, seed)
    finally:
        SafePlayer._request = original
    assert asked == {"choose_declaration", "choose_friend", "choose_counter", "choose_bury",
                     "choose_play"}


def test_a_plugin_rewriting_its_zpy_view_changes_nothing(evil_manager, reference):
    for seed in SEEDS:
        hand, players = _hand(evil_manager, ["evil"] * 5, seed, mode="wreck", budget_s=2.0)
        _same_hand(hand, reference[seed])
        assert all(p.faults == [] and p.lost == 0 for p in players)
        assert hand.ruleset == zhaopengyou()


@pytest.mark.parametrize("mode", sorted(GARBAGE_MODES))
def test_garbage_in_each_hook_is_a_fault_and_basic_decides(evil_manager, reference, mode):
    phase, kind = GARBAGE_MODES[mode]
    hits = 0
    for seed in SEEDS:
        hand, players = _hand(evil_manager, ["evil"] * 5, seed, mode=mode)
        _same_hand(hand, reference[seed])
        faults = [f for p in players for f in p.faults]
        assert {(f.phase, f.kind) for f in faults} <= {(phase, kind)}, faults[:3]
        # one decision lost per fault, and (20 faults of one seat's own ledger) after a drop
        assert sum(p.lost - p.lost_kinds["dropped"] for p in players) == len(faults)
        hits += len(faults)
    assert hits >= 1  # the hook was asked and its answer refused


def test_raising_in_every_hook_is_counted_and_the_ai_dropped(evil_manager, reference):
    """Raising everywhere: faults, then the seat is disabled (3) and, with a shared ledger, the
    AI dropped for the run after 20; every decision lost, the hand still the all-basic one."""
    from ai_plugins.faults import DROP_AFTER_FAULTS, FaultLedger

    ledger = FaultLedger(loud=False)
    hands = []
    for seed in SEEDS:  # one run: the ledger is shared by every seat of both hands
        hand = ZpyHand.new(zhaopengyou(), seed=seed)
        players = [make_player(evil_manager, "evil", s, 1.0, seed=seed * 10 + s,
                               options={"mode": "raise"}, ledger=ledger) for s in range(5)]
        try:
            play_hand(hand, players, max_actions=20_000)
        finally:
            for p in players:
                p.close()
        _same_hand(hand, reference[seed])
        hands.append(players)
    first = hands[0]
    assert all(len(p.faults) == 3 and p.disabled for p in first)
    assert all(f.kind == "exception" and f.reason.startswith("RuntimeError: evil in choose_")
               for p in first for f in p.faults)
    every = [p for players in hands for p in players]
    assert all(p.lost == p.decisions for p in every)  # every decision lost to basic
    assert sum(len(p.faults) for p in every) == DROP_AFTER_FAULTS
    assert ledger.is_dropped("evil")
    assert sum(p.lost_kinds["dropped"] for p in hands[1]) > 0
    late = make_player(evil_manager, "evil", 0, 1.0, ledger=ledger)
    assert late.ai is None and late.disabled  # a dropped AI is not even built


def test_a_friend_call_object_or_card_text_is_accepted(tmp_path):
    write_plugin(tmp_path, "caller", """
        from engine.zhaopengyou_rules import FriendCall

        class AI:
            rulesets = ("zhaopengyou",)
            def __init__(self, settings):
                self.text = settings.options.get("text", False)
            def choose_friend(self, view, calls):
                assert type(view).__name__ == "PrivateZpyView"
                assert view.friend_calls() == tuple(calls)
                card, nth = calls[-1]
                return [str(card), nth] if self.text else FriendCall(card, nth)

        @hookimpl
        def register_ais(register):
            register("caller", AI)
        """)
    m = manager_for(tmp_path)
    for text in (False, True):
        hand = ZpyHand.new(zhaopengyou(), seed=SEEDS[0])
        players = [make_player(m, "caller", s, 2.0, seed=s, options={"text": text})
                   for s in range(5)]
        play_hand(hand, players, max_actions=20_000)
        assert all(p.faults == [] and p.lost == 0 for p in players)
        assert sum(p.decisions - p.fallbacks for p in players) == 1  # its one call was used
        assert hand.friend_call is not None


def test_private_zpy_views_share_nothing_changeable():
    """Every decision view of a whole hand: the copy equals the engine's view, is a
    PrivateZpyView with its own card order, and the hook arguments keep their meaning."""
    from ai_plugins.builtin.basic import BasicAI
    from ai_plugins.base import AISettings

    hand = ZpyHand.new(zhaopengyou(), seed=SEEDS[0])
    players = [SafePlayer(BasicAI(AISettings(seat=s, seed=s)), "basic", s) for s in range(5)]
    seen = set()
    for _ in range(20_000):
        if hand.is_over:
            break
        view = hand.view(hand.to_act)
        hook, kwargs = players[view.seat]._request(view)
        mine = private_args(hook, kwargs)
        copy = mine["view"]
        assert type(copy) is PrivateZpyView and copy is not view
        for f in dataclasses.fields(view):
            assert getattr(copy, f.name) == getattr(view, f.name), f.name
        assert copy.ruleset is not view.ruleset
        if view.ctx is not None:
            assert copy.ctx is not view.ctx and copy.ctx.key == view.ctx.key
            assert copy.ctx.VAL == view.ctx.VAL
        if hook == "choose_play":
            assert set(mine["options"]) == set(kwargs["options"])
            assert mine["options"] is not kwargs["options"]
        elif "options" in kwargs:
            assert mine["options"] == kwargs["options"]
        if hook == "choose_friend":
            assert copy.friend_calls() == view.friend_calls() == mine["calls"]
        seen.add(hook)
        hand.apply(players[view.seat].act(view))
    assert hand.is_over and {"choose_declaration", "choose_friend", "choose_play"} <= seen
    assert type(private_view(copy)) is PrivateZpyView


def _hongwu(*args, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", HONGWU_LOG="WARNING")
    env["XDG_DATA_HOME"] = str(cwd / "data")
    env["XDG_CONFIG_HOME"] = str(cwd / "config")
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_play_cli_with_an_evil_zpy_plugin_prints_exactly_the_all_basic_results(tmp_path):
    plugins = tmp_path / "plugins"
    _evil(plugins)
    common = ["play", "--ruleset", "zhaopengyou", "--hands", "2", "--speed", "instant",
              "--seed", "5", "--no-user-plugins", "--plugin-dir", str(plugins)]
    bad = _hongwu(*common, "--seats", "evil,basic,basic,basic,basic", cwd=tmp_path)
    good = _hongwu(*common, "--seats", "basic,basic,basic,basic,basic", cwd=tmp_path)
    assert bad.returncode == 0, bad.stderr[-2000:]
    assert good.returncode == 0, good.stderr[-2000:]
    assert bad.stdout == good.stdout
    assert [ln.split(":")[0] for ln in bad.stdout.splitlines()] == ["hand 1", "hand 2"]
    assert "evil says" not in bad.stdout + bad.stderr and "evil registering" not in bad.stdout
    assert "AI faults this game" in bad.stderr and "evil" in bad.stderr
    assert len(bad.stderr.splitlines()) < 25, bad.stderr[:3000]


def test_arena_on_zhaopengyou_reports_faults_as_decisions_lost(tmp_path):
    plugins = tmp_path / "plugins"
    _evil(plugins)
    common = ["arena", "--ruleset", "zhaopengyou", "--hands", "1", "--seed", "3", "--jobs", "1",
              "--quiet", "--no-user-plugins", "--plugin-dir", str(plugins)]
    bad = _hongwu(*common, "--ai", "evil", "--ai", "basic", "--json", "bad.json", cwd=tmp_path)
    good = _hongwu(*common, "--ai", "basic", "--ai", "basic", "--json", "good.json",
                   cwd=tmp_path)
    assert bad.returncode == 0 and good.returncode == 0, bad.stderr[-2000:]
    assert "evil says" not in bad.stdout + bad.stderr
    assert bad.stdout.splitlines()[0].startswith("arena (找朋友): 1 deals")
    b = json.loads((tmp_path / "bad.json").read_text())["ais"]
    g = json.loads((tmp_path / "good.json").read_text())["ais"]
    for key in ("mean_level_gain", "win_rate", "dealer_rate", "friend_rate"):
        assert b["evil"][key] == g["basic"][key], key
    report = b["evil"]["fault_report"]
    assert b["evil"]["faults"] == sum(report["lost"].values()) > report["faults"] > 0
    assert set(report["lost"]) <= {"malformed", "exception", "illegal", "disabled", "dropped"}
    assert report["printed"] > 0 and g["basic"]["faults"] == 0
    err = bad.stderr.splitlines()
    assert err[0] == "faults (decisions lost to the basic AI, by reason):", bad.stderr[:2000]
    assert err[1].startswith("AI evil: ") and "lost to the basic AI" in err[1]
    assert len(err) < 12
