"""How the journal (net/journal.py) writes and rebuilds a hand, for either game.

A journaled hand is its seed, its number, the actions taken so far and, at a 找朋友 table,
the match it belongs to (what the match carries from hand to hand, 找朋友 spec §10). Rebuilding
deals the hand again from that and applies the actions through the engine (RULES.md §1 and
找朋友 spec §1: a seed reproduces a deal; a hand is a pure function of its actions), so the
cards, the declarations, the friend call and whether the friend is revealed come back exactly.

- :func:`action_out` / :func:`action_in`: an engine action <-> ``(method, params)`` as on the
  wire (:mod:`net.codec` for 红五's ``bid``/``trump``/``bury``/``play``, :mod:`net.zpy_codec`
  for 找朋友's ``declare``/``pass``/``call_friend``), plus the host's time-out ♠ (RULES.md §3).
- :func:`match_out` / :func:`match_in`: a :class:`engine.match.ZpyMatch` at the deal of its
  current hand <-> a JSON-ready map (match seed, hand number, levels, declaring right, first
  card, the earlier hands' settlements).
- :func:`rebuild`: ``(hand, match)`` from a journaled table.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from engine.match import ZpyMatch
from engine.state import ChooseTrump, Game

from . import codec, zpy_codec

_ZPY_METHODS = frozenset({"declare", "pass", "call_friend"})


def action_out(action: Any) -> tuple[str, dict[str, Any]]:
    """Engine action of either game -> ``(method, params)``. TypeError for anything else."""
    return zpy_codec.action_out(action)


def action_in(method: str, params: Mapping[str, Any], seat: int, timed_out: bool = False) -> Any:
    """``(method, params)`` journaled for ``seat`` -> the engine action (``timed_out``: the
    host's time-out ♠ at a 红五 table, RULES.md §3). Raises ``ProtocolError`` for params that
    name no card or an unknown method (a damaged journal)."""
    if method == "trump" and timed_out:
        return ChooseTrump(seat, params["suit"], timed_out=True)
    if method in _ZPY_METHODS:
        return zpy_codec.action_in(method, params, seat)
    return codec.action_in(method, params, seat)


def match_out(match: ZpyMatch) -> dict[str, Any]:
    """The match at the deal of its current hand as a JSON-ready map: ``seed`` (the match
    seed), ``hand_no``, ``levels``/``eligible``/``first_card`` that hand was dealt with,
    ``max_hands``, ``results`` (``ZpySettlement`` maps of the finished hands, in order)."""
    hand = match.hand
    return {
        "seed": match.seed, "hand_no": match.hand_no, "levels": list(hand.levels),
        "eligible": list(hand.eligible),
        "first_card": None if match.hand_no == 1 else hand.first_card,
        "max_hands": match.max_hands,
        "results": [zpy_codec.settlement_out(s) for s in match.results[: match.hand_no - 1]],
    }


def match_in(ruleset: Any, data: Mapping[str, Any]) -> ZpyMatch:
    """The :class:`ZpyMatch` of :func:`match_out`, its current hand dealt again. Raises
    ValueError/TypeError/KeyError for a map that does not describe a match."""
    if not isinstance(data, Mapping):
        raise ValueError("the match record is not a map")
    first = data.get("first_card")
    return ZpyMatch.resume(
        ruleset, None if data["seed"] is None else int(data["seed"]), int(data["hand_no"]),
        tuple(int(x) for x in data["levels"]), tuple(int(x) for x in data["eligible"]),
        None if first is None else int(first),
        tuple(zpy_codec.settlement_in(s) for s in data.get("results") or ()),
        data.get("max_hands"))


def rebuild(ruleset: Any, seed: int | None, hand_no: int, match: Mapping[str, Any] | None,
            actions: Iterable[tuple[str, Mapping[str, Any], int, bool]]) -> tuple[Any, Any]:
    """``(hand, match)``: the journaled hand dealt again and every action applied (``match``
    None at a 红五 table). ``actions``: ``(method, params, seat, timed_out)`` in order.
    Raises ValueError when a 找朋友 record has no match or its match deals another hand,
    ``IllegalAction`` / ``ProtocolError`` when an action does not replay."""
    if ruleset.is_zhaopengyou:
        if match is None:
            raise ValueError("a 找朋友 table's hand needs its match record")
        m = match_in(ruleset, match)
        game = m.hand
        if game.hand_no != hand_no or game.seed != seed:
            raise ValueError(f"the match deals hand {game.hand_no} (seed {game.seed}), the "
                             f"journal recorded hand {hand_no} (seed {seed})")
    else:
        m = None
        game = Game.new(ruleset, seed, hand_no=hand_no)
    for method, params, seat, timed_out in actions:
        game.apply(action_in(method, params, seat, timed_out))
    return game, m
