"""The rules judge: a JSON-lines referee over the engine (RULES.md "The judge").

``python -m engine.judge`` (or ``hongwu judge``) reads one JSON request per line on standard
input and writes one JSON answer per line on standard output, in order, flushed after each.
A bad line is answered ``{"ok": false, "error": "..."}`` and reading goes on; end of input
exits 0. The operations and their fields are the project's stable, versioned contract
(``card compare classify lead follow winner settle bids title``); see RULES.md. Requests with
``"ruleset": "zhaopengyou"`` go to :mod:`engine.judge_zhaopengyou` (找朋友: ``card compare
classify lead follow winner declare friend settle``).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, TextIO

from engine.bidding import BidError, replay_auction
from engine.cards import CardError, check_fits, parse_cards
from engine.order import context
from engine.patterns import classify, suit_of_play
from engine.ruleset import RuleSet, hongwu
from engine.scoring import settle, title_for
from engine.tricks import check_lead, follow_error, trick_winner
from engine.judge_zhaopengyou import OPS as ZPY_OPS, BadRequest as ZpyBadRequest

JUDGE_VERSION = 1
"""Version of the judge contract; new fields may be added without a bump."""


class BadRequest(ValueError):
    """A request the judge cannot answer; its message becomes the ``error`` field."""


# --- field readers ----------------------------------------------------------------------
def _field(req: dict, name: str) -> Any:
    if name not in req:
        raise BadRequest(f"missing field {name!r}")
    return req[name]


def _int(req: dict, name: str, low: int | None = None, high: int | None = None) -> int:
    v = _field(req, name)
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadRequest(f"field {name!r} must be an integer")
    if (low is not None and v < low) or (high is not None and v > high):
        raise BadRequest(f"field {name!r} must be between {low} and {high}")
    return v


def _cards(value: Any, name: str) -> tuple:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadRequest(f"field {name!r} must be a list of card texts")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise BadRequest(f"field {name!r}: {exc}") from None


def _ruleset(req: dict) -> RuleSet:
    decks = req.get("decks", 2)
    if decks not in (2, 3) or isinstance(decks, bool):
        raise BadRequest("field 'decks' must be 2 or 3")
    options = req.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest("field 'options' must be an object")
    try:
        return hongwu(decks, **options)
    except (TypeError, ValueError) as exc:
        raise BadRequest(str(exc)) from None


def _ctx(req: dict):
    trump = _field(req, "trump")
    if not isinstance(trump, str) or trump.upper() not in ("S", "H", "C", "D", "♠", "♥", "♣", "♦"):
        raise BadRequest("field 'trump' must be one of S H C D")
    t = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}.get(trump, trump.upper())
    return context(t)


def _fit(cards: list, rs: RuleSet) -> None:
    try:
        check_fits(cards, rs.decks)
    except CardError as exc:
        raise BadRequest(str(exc)) from None


# --- operations -------------------------------------------------------------------------
def op_card(req: dict) -> dict:
    """``card`` -> effective ``suit`` ("trump" or S H C D) and ``points`` (RULES.md §5, §10)."""
    _ruleset(req)
    ctx = _ctx(req)
    card = _cards([_field(req, "card")], "card")[0]
    return {"suit": ctx.suit_of(card), "points": card.points}


def op_compare(req: dict) -> dict:
    """``a``, ``b`` -> ``order`` 1/0/-1, or null for two different side suits (RULES.md §5)."""
    _ruleset(req)
    ctx = _ctx(req)
    a = _cards([_field(req, "a")], "a")[0]
    b = _cards([_field(req, "b")], "b")[0]
    return {"order": ctx.compare(a, b)}


def op_classify(req: dict) -> dict:
    """``cards`` -> ``pattern`` and ``components`` (RULES.md §6)."""
    rs = _ruleset(req)
    ctx = _ctx(req)
    cards = _cards(_field(req, "cards"), "cards")
    _fit(cards, rs)
    p = classify(cards, ctx)
    return {"pattern": p.kind, "components": [c.as_json() for c in p.components]}


def op_lead(req: dict) -> dict:
    """``lead``, ``hands`` (the three other hands) -> ``valid``, ``forced`` (RULES.md §7)."""
    rs = _ruleset(req)
    ctx = _ctx(req)
    lead = _cards(_field(req, "lead"), "lead")
    hands = _field(req, "hands")
    if not isinstance(hands, list) or len(hands) != rs.players - 1:
        raise BadRequest(f"field 'hands' must hold exactly {rs.players - 1} hands")
    others = [_cards(h, "hands") for h in hands]
    _fit(list(lead) + [c for h in others for c in h], rs)
    check = check_lead(lead, others, ctx)
    out: dict[str, Any] = {"valid": check.valid}
    if not check.valid:
        out["forced"] = [str(c) for c in check.forced] if check.forced else None
        out["reason"] = check.reason
    return out


def op_follow(req: dict) -> dict:
    """``lead``, ``hand``, ``play`` -> ``legal`` and, when not, a ``reason`` (RULES.md §8)."""
    rs = _ruleset(req)
    ctx = _ctx(req)
    lead = _cards(_field(req, "lead"), "lead")
    hand = _cards(_field(req, "hand"), "hand")
    play = _cards(_field(req, "play"), "play")
    if suit_of_play(lead, ctx) is None:
        raise BadRequest("field 'lead' must be one or more cards of one effective suit")
    _fit(list(lead) + list(hand), rs)
    reason = follow_error(lead, hand, play, ctx)
    return {"legal": reason is None, "reason": reason}


def op_winner(req: dict) -> dict:
    """``plays`` (four card lists, the lead first) -> ``winner`` index (RULES.md §9)."""
    rs = _ruleset(req)
    ctx = _ctx(req)
    plays = _field(req, "plays")
    if not isinstance(plays, list) or len(plays) != rs.players:
        raise BadRequest(f"field 'plays' must hold {rs.players} plays")
    ps = [_cards(p, "plays") for p in plays]
    if len({len(p) for p in ps}) != 1 or not ps[0]:
        raise BadRequest("every play must have the same, non-zero number of cards")
    if suit_of_play(ps[0], ctx) is None:
        raise BadRequest("the lead must be cards of one effective suit")
    _fit([c for p in ps for c in p], rs)
    return {"winner": trick_winner(ps, ctx)}


def op_settle(req: dict) -> dict:
    """``dealer``, ``bid``, ``points_won``, ``kitty``, ``last_trick_winner``, ``red_fives`` ->
    ``dealer_final``, ``kitty_points``, ``game_points`` (RULES.md §10)."""
    rs = _ruleset(req)
    n = rs.players
    dealer = _int(req, "dealer", 0, n - 1)
    bid = _int(req, "bid")
    pts = _field(req, "points_won")
    if not isinstance(pts, list) or len(pts) != n or any(
        isinstance(p, bool) or not isinstance(p, int) for p in pts
    ):
        raise BadRequest(f"field 'points_won' must be a list of {n} integers")
    kitty = _cards(_field(req, "kitty"), "kitty")
    _fit(kitty, rs)
    last = _int(req, "last_trick_winner", 0, n - 1)
    rf = req.get("red_fives", [])
    if not isinstance(rf, list) or any(
        not isinstance(p, list) or len(p) != 2
        or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in p)
        for p in rf
    ):
        raise BadRequest("field 'red_fives' must be a list of [from_seat, to_seat] pairs")
    s = settle(rs, dealer, bid, pts, kitty, last, [tuple(p) for p in rf])
    return {
        "dealer_final": s.dealer_final, "kitty_points": s.kitty_points,
        "kitty_counted": s.kitty_counted, "game_points": list(s.game_points),
    }


def op_bids(req: dict) -> dict:
    """``start``, ``actions`` -> ``done`` with ``to_act``/``options`` or ``dealer``/``bid`` (RULES.md §2)."""
    rs = _ruleset(req)
    start = _int(req, "start", 0, rs.players - 1)
    actions = _field(req, "actions")
    if not isinstance(actions, list):
        raise BadRequest("field 'actions' must be a list of bids and \"pass\"")
    parsed = []
    for a in actions:
        if isinstance(a, str) and a.lower() == "pass":
            parsed.append(None)
        elif isinstance(a, int) and not isinstance(a, bool):
            parsed.append(a)
        else:
            raise BadRequest(f"bad bidding action {a!r}: a bid is an integer or \"pass\"")
    try:
        auction = replay_auction(rs, start, parsed)
    except BidError as exc:
        raise BadRequest(str(exc)) from None
    if auction.done:
        return {"done": True, "dealer": auction.dealer, "bid": auction.bid}
    return {"done": False, "to_act": auction.to_act, "options": list(auction.options())}


def op_title(req: dict) -> dict:
    """``points`` (accumulated game points) -> ``title`` (Chinese name; RULES.md §11)."""
    points = _int(req, "points")
    return {"title": title_for(points), "title_en": title_for(points, "en")}


OPS: dict[str, Callable[[dict], dict]] = {
    "card": op_card, "compare": op_compare, "classify": op_classify, "lead": op_lead,
    "follow": op_follow, "winner": op_winner, "settle": op_settle, "bids": op_bids,
    "title": op_title,
}


def _ops_for(ruleset: Any) -> dict[str, Callable[[dict], dict]]:
    """The operations of the request's ``ruleset``: absent or ``"hongwu"`` (红五), or
    ``"zhaopengyou"`` (找朋友, :mod:`engine.judge_zhaopengyou`); anything else is a bad request."""
    if ruleset == "hongwu":
        return OPS
    if ruleset == "zhaopengyou":
        return ZPY_OPS
    raise BadRequest('field \'ruleset\' must be "hongwu" or "zhaopengyou"')


def answer(request: Any) -> dict:
    """Answer one decoded request object; never raises (errors become ``ok: false``)."""
    out: dict[str, Any] = {}
    if isinstance(request, dict) and "id" in request:
        out["id"] = request["id"]
    try:
        if not isinstance(request, dict):
            raise BadRequest("a request must be a JSON object")
        ops = _ops_for(request.get("ruleset", "hongwu"))
        op = request.get("op")
        if op not in ops:
            raise BadRequest(f"unknown op {op!r}; known: {', '.join(ops)}")
        out.update(ok=True, **ops[op](request))
    except (BadRequest, ZpyBadRequest) as exc:
        out.update(ok=False, error=str(exc))
    except (ValueError, TypeError, KeyError) as exc:  # defensive: a bad request, never a crash
        out.update(ok=False, error=f"bad request: {exc}")
    return out


def answer_line(line: str) -> str:
    """Answer one input line with one output line (no trailing newline)."""
    if not line.strip():
        return json.dumps({"ok": False, "error": "empty line: a request is one JSON object"})
    try:
        request = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        return json.dumps({"ok": False, "error": f"not JSON: {exc}"}, ensure_ascii=False)
    return json.dumps(answer(request), ensure_ascii=False)


def run(stdin: TextIO, stdout: TextIO) -> int:
    """Serve requests from ``stdin`` to ``stdout`` until end of input; returns 0.
    Every input line gets exactly one answer line (a blank line is answered as a bad
    request), so a client can pair questions and answers by counting lines."""
    for line in stdin:
        stdout.write(answer_line(line) + "\n")
        stdout.flush()
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``hongwu judge``."""
    p = subparsers.add_parser("judge", help="answer rule questions as JSON lines on stdin/stdout")
    p.set_defaults(func=lambda ns: main([]))


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m engine.judge``."""
    parser = argparse.ArgumentParser(prog="python -m engine.judge", description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[attr-defined]
        sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        pass
    return run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
