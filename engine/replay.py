"""Replay files 回放: one finished hand as JSON lines, parsed, checked and re-run through the
engine (format: docs/REPLAY.md; rules: RULES.md §1–§10).

Pure: text in, values out; no files, no clock. ``game.career`` writes and reads the files.

- :func:`actions_from_events` turns a finished :class:`~engine.state.Game`'s event log into the
  actions that were applied (a failed throw is the action as attempted);
- :func:`replay_lines` / :func:`dumps` build the file; :func:`parse` reads one
  (:class:`ReplayError` names the line);
- :func:`rerun` plays the actions through the engine; :func:`verify` also compares the result
  with the recorded settlement; :func:`frames` gives the trick-by-trick states a viewer steps
  through (every hand face up, the kitty).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from engine.cards import Card, parse_cards
from engine.ruleset import RuleSet, hongwu
from engine.state import Action, Bid, Bury, ChooseTrump, FinishedTrick, Game, IllegalAction, Phase, Play

FORMAT = "hongwu-replay"
"""The ``format`` field of every replay header."""
VERSION = 1
"""The replay format version this module writes and reads."""


class ReplayError(ValueError):
    """A replay that is malformed or does not reproduce. ``line`` is the 1-based line of the
    file at fault (1 = the header; None when the file as a whole is at fault); the message
    starts with ``line N:``."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Replay:
    """A parsed replay: ``header`` (the dict of line 1, see docs/REPLAY.md) and ``actions``
    (the engine actions of lines 2.., in order)."""

    header: dict[str, Any]
    actions: tuple[Action, ...]

    @property
    def ruleset(self) -> RuleSet:
        """The header's ruleset (``decks`` and ``options``)."""
        return hongwu(self.header["decks"], **self.header.get("options", {}))


# --- writing ---------------------------------------------------------------------------------
def actions_from_events(events: Iterable[Any]) -> list[Action]:
    """The actions that produced ``events`` (a Game's full log): bids, trump, bury, plays.
    A failed throw gives the attempted cards (the engine turns them into the forced play
    again on re-run)."""
    out: list[Action] = []
    attempted: dict[int, tuple[Card, ...]] = {}
    for ev in events:
        kind = ev.kind
        if kind == "bid_made":
            out.append(Bid(ev.seat, ev.amount))
        elif kind == "trump_chosen":
            out.append(ChooseTrump(ev.seat, ev.suit, ev.timed_out))
        elif kind == "kitty_buried":
            out.append(Bury(ev.seat, tuple(ev.cards)))
        elif kind == "throw_failed":
            attempted[ev.seat] = tuple(ev.attempted)
        elif kind == "cards_played":
            out.append(Play(ev.seat, attempted.pop(ev.seat, tuple(ev.cards))))
    return out


def action_dict(action: Action) -> dict[str, Any]:
    """One action as its replay line's object (docs/REPLAY.md)."""
    if isinstance(action, Bid):
        return {"a": "bid", "seat": action.seat, "amount": action.amount}
    if isinstance(action, ChooseTrump):
        d: dict[str, Any] = {"a": "trump", "seat": action.seat, "suit": action.suit}
        if action.timed_out:
            d["timed_out"] = True
        return d
    kind = "bury" if isinstance(action, Bury) else "play"
    return {"a": kind, "seat": action.seat, "cards": [str(c) for c in action.cards]}


def settlement_dict(s: Any) -> dict[str, Any]:
    """The parts of a :class:`engine.scoring.Settlement` a replay checks (docs/REPLAY.md)."""
    return {"dealer": s.dealer, "bid": s.bid, "dealer_final": s.dealer_final,
            "game_points": list(s.game_points), "trick_points": list(s.trick_points),
            "kitty": [str(c) for c in s.kitty]}


def header_for(game: Game, **extra: Any) -> dict[str, Any]:
    """The header of a settled ``game``: format, version, decks, options, seed (or the deal
    when the game has no seed), hand_no, first_bidder, dealer, bid, trump, settlement; ``extra``
    fields (e.g. ``seats``, ``time``, ``stake``) are added. Raises ValueError when the game
    is not settled."""
    if game.phase is not Phase.SETTLE or game.settlement is None:
        raise ValueError("only a settled hand can be written as a replay")
    rs = game.ruleset
    h: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ruleset": rs.name, "decks": rs.decks,
                         "options": _options(rs), "seed": game.seed, "hand_no": game.hand_no,
                         "first_bidder": game.first_bidder}
    if game.seed is None:
        hands = [[str(c) for c in ev.cards] for ev in game.events if ev.kind == "cards_dealt"]
        h["deal"] = {"hands": hands, "kitty": [str(c) for c in game.kitty]}
    h.update(extra)
    h.update({"dealer": game.dealer, "bid": game.bid, "trump": game.trump,
              "settlement": settlement_dict(game.settlement)})
    return h


def _options(rs: RuleSet) -> dict[str, Any]:
    o = rs.options
    return {name: getattr(o, name) for name in o.__dataclass_fields__}


def lines_from_view(view: Any, **extra: Any) -> list[str]:
    """A replay from a settled :class:`~engine.state.PlayerView` (what a LAN client saw: every
    card played is public and the buried kitty is shown at settlement; docs/REPLAY.md "From a
    seat's view"). The deal is rebuilt as the hands after the bury (each seat's played cards)
    with the buried cards as the kitty, and the hand starts after the auction (``"start":
    "after_auction"``; the real bids are kept in ``bids`` for display). A failed throw appears
    as the forced play. Raises ValueError for a view that is not settled."""
    s = view.settlement
    if view.phase is not Phase.SETTLE or s is None or view.buried is None:
        raise ValueError("only a settled view (with the kitty shown) can be written as a replay")
    n = view.ruleset.players
    hands: list[list[str]] = [[] for _ in range(n)]
    plays = []
    for t in view.tricks:
        for seat, cards in t.plays:
            hands[seat].extend(str(c) for c in cards)
            plays.append(Play(seat, tuple(cards)))
    rs = view.ruleset
    h: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ruleset": rs.name, "decks": rs.decks,
                         "options": _options(rs), "seed": None, "hand_no": view.hand_no,
                         "first_bidder": view.dealer, "start": "after_auction",
                         "deal": {"hands": [sorted(x, key=lambda c: parse_cards([c])[0]) for x in hands],
                                  "kitty": [str(c) for c in view.buried]},
                         "bids": [[seat, amount] for seat, amount in view.bids]}
    h.update(extra)
    h.update({"dealer": view.dealer, "bid": view.bid, "trump": view.trump, "settlement": settlement_dict(s)})
    actions = [ChooseTrump(view.dealer, view.trump), Bury(view.dealer, tuple(view.buried)), *plays]
    return [json.dumps(h, ensure_ascii=False, separators=(",", ":"))] + [
        json.dumps(action_dict(a), separators=(",", ":")) for a in actions]


def replay_lines(game: Game, **extra: Any) -> list[str]:
    """The replay of a settled ``game`` as lines (no newlines): header, then one action a line."""
    lines = [json.dumps(header_for(game, **extra), ensure_ascii=False, separators=(",", ":"))]
    lines += [json.dumps(action_dict(a), separators=(",", ":")) for a in actions_from_events(game.events)]
    return lines


def dumps(game: Game, **extra: Any) -> str:
    """The replay file text of a settled ``game`` (lines ending in ``\\n``)."""
    return "\n".join(replay_lines(game, **extra)) + "\n"


# --- reading ---------------------------------------------------------------------------------
_REQUIRED = {"format": str, "version": int, "decks": int, "first_bidder": int}
_ZPY = "zhaopengyou"  # a header with this ruleset is read by engine.replay_zpy (docs/REPLAY.md "找朋友")


def _seat(v: Any, n: int, line: int) -> int:
    if type(v) is not int or not 0 <= v < n:
        raise ReplayError(line, f"seat must be 0..{n - 1}, not {v!r}")
    return v


def _cards(v: Any, line: int) -> tuple[Card, ...]:
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise ReplayError(line, "cards must be a list of card texts")
    try:
        return parse_cards(v)
    except ValueError as exc:
        raise ReplayError(line, f"bad cards: {exc}") from None


def parse_action_lines(lines: Sequence[str], parse_one: Any, players: int) -> tuple[Any, ...]:
    """The actions of the action ``lines`` (file lines 2..), each JSON object read by
    ``parse_one(obj, players, line)`` (this module's :func:`parse_action` or 找朋友's).
    Raises :class:`ReplayError` naming the first line that is not JSON or not an action."""
    actions = []
    for i, raw in enumerate(lines, start=2):
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            raise ReplayError(i, f"not JSON: {exc}") from None
        actions.append(parse_one(obj, players, i))
    return tuple(actions)


def apply_line(state: Any, action: Any, line: int, as_dict: Any) -> None:
    """Apply ``action`` (read from file line ``line``) to ``state`` (a Game or a ZpyHand);
    an :class:`~engine.state.IllegalAction` becomes a :class:`ReplayError` naming the line
    and the action as ``as_dict(action)`` shows it."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise ReplayError(line, f"the engine refuses {as_dict(action)}: {exc}") from None


def check_recorded(header: dict[str, Any], settlement: dict[str, Any], fields: Iterable[tuple[str, Any]]) -> None:
    """Compare what the actions gave with what ``header`` recorded: every key of
    ``settlement`` present in ``header["settlement"]``, then each ``(key, value)`` of
    ``fields`` present in the header. Raises :class:`ReplayError` (line 1) at the first
    difference, or when the header has no recorded settlement."""
    want = header.get("settlement")
    if not isinstance(want, dict):
        raise ReplayError(1, "the header has no recorded settlement to compare with")
    for key, value in settlement.items():
        if key in want and want[key] != value:
            raise ReplayError(1, f"recorded settlement {key} {want[key]!r} but the actions give {value!r}")
    for key, value in fields:
        if key in header and header[key] != value:
            raise ReplayError(1, f"recorded {key} {header[key]!r} but the actions give {value!r}")


def parse_action(obj: Any, players: int, line: int) -> Action:
    """One action line's object as an engine action; raises :class:`ReplayError` naming ``line``."""
    if not isinstance(obj, dict):
        raise ReplayError(line, "an action line must be a JSON object")
    kind = obj.get("a")
    seat = _seat(obj.get("seat"), players, line)
    if kind == "bid":
        amount = obj.get("amount", "missing")
        if amount is not None and type(amount) is not int:
            raise ReplayError(line, f"a bid amount is a whole number or null, not {amount!r}")
        return Bid(seat, amount)
    if kind == "trump":
        suit, timed = obj.get("suit"), obj.get("timed_out", False)
        if suit not in ("S", "H", "C", "D") or type(timed) is not bool:
            raise ReplayError(line, f"trump needs a suit S, H, C or D, not {suit!r}")
        return ChooseTrump(seat, suit, timed)
    if kind in ("bury", "play"):
        cards = _cards(obj.get("cards"), line)
        return Bury(seat, cards) if kind == "bury" else Play(seat, cards)
    raise ReplayError(line, f"unknown action {kind!r} (bid, trump, bury or play)")


def parse(text: str) -> Replay:
    """Parse replay file text (docs/REPLAY.md). Blank lines are not allowed except at the end.
    Raises :class:`ReplayError` (with the line) for anything malformed. A 找朋友 header
    (``"ruleset": "zhaopengyou"``) gives an :class:`engine.replay_zpy.ZpyReplay` instead."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ReplayError(1, "the file is empty (a replay starts with its header line)")
    try:
        header = json.loads(lines[0])
    except ValueError as exc:
        raise ReplayError(1, f"the header is not JSON: {exc}") from None
    if not isinstance(header, dict):
        raise ReplayError(1, "the header must be a JSON object")
    if header.get("ruleset") == _ZPY and header.get("format") == FORMAT and type(header.get("version")) is int:
        if header["version"] > VERSION:
            raise ReplayError(1, f"replay version {header['version']} is newer than this program reads ({VERSION})")
        from engine import replay_zpy

        return replay_zpy.parse_lines(header, lines[1:])
    for name, typ in _REQUIRED.items():
        if type(header.get(name)) is not typ:
            raise ReplayError(1, f"the header needs {name!r} ({typ.__name__})")
    if header["format"] != FORMAT:
        raise ReplayError(1, f"format is {header['format']!r}, not {FORMAT!r}")
    if header["version"] > VERSION:
        raise ReplayError(1, f"replay version {header['version']} is newer than this program reads ({VERSION})")
    seed = header.get("seed")
    if seed is not None and type(seed) is not int:
        raise ReplayError(1, "seed must be a whole number or null")
    if seed is None and not isinstance(header.get("deal"), dict):
        raise ReplayError(1, "the header needs a seed or a deal")
    try:
        rs = hongwu(header["decks"], **(header.get("options") or {}))
    except (TypeError, ValueError) as exc:
        raise ReplayError(1, f"bad ruleset: {exc}") from None
    _seat(header["first_bidder"], rs.players, 1)
    return Replay(header, parse_action_lines(lines[1:], parse_action, rs.players))


# --- re-running ------------------------------------------------------------------------------
def start(replay: Replay) -> Game:
    """The dealt game of ``replay`` before any action (from its seed, or its deal).
    Raises :class:`ReplayError` (line 1) when the deal is unusable."""
    h, rs = replay.header, replay.ruleset
    try:
        if h.get("seed") is not None:
            return Game.new(rs, h["seed"], first_bidder=h["first_bidder"], hand_no=h.get("hand_no", 1))
        deal = h["deal"]
        if h.get("start") == "after_auction":  # recorded from a seat's view: the auction is over
            return Game.after_auction(deal["hands"], deal["kitty"], rs, h["dealer"], h["bid"])
        return Game.from_deal(deal["hands"], deal["kitty"], rs, first_bidder=h["first_bidder"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(1, f"cannot deal this hand: {exc}") from None


def rerun(replay: Replay) -> Game:
    """Apply every action of ``replay`` to its dealt game; returns the game. Raises
    :class:`ReplayError` naming the first action line the engine refuses, or the last line
    when the hand is not over after the last action."""
    if type(replay).__name__ == "ZpyReplay":  # 找朋友: engine.replay_zpy
        from engine import replay_zpy

        return replay_zpy.rerun(replay)
    game = start(replay)
    for i, action in enumerate(replay.actions, start=2):
        apply_line(game, action, i, action_dict)
    if game.phase is not Phase.SETTLE:
        raise ReplayError(len(replay.actions) + 1, f"the hand is not over after the last action (phase {game.phase.value})")
    return game


def verify(replay: Replay) -> Game:
    """Re-run ``replay`` and compare with the header's recorded settlement (and dealer, bid,
    trump). Returns the game; raises :class:`ReplayError` (line 1 for a header that does not
    match what the actions give, or the refused action's line)."""
    if type(replay).__name__ == "ZpyReplay":  # 找朋友: engine.replay_zpy
        from engine import replay_zpy

        return replay_zpy.verify(replay)
    game = rerun(replay)
    check_recorded(replay.header, settlement_dict(game.settlement),
                   (("dealer", game.dealer), ("bid", game.bid), ("trump", game.trump)))
    return game


@dataclass(frozen=True)
class Frame:
    """One step of a replay viewer: the table after ``trick_no`` finished tricks (0: after the
    bury, before the first lead). ``hands`` every seat's cards face up; ``tricks`` the finished
    tricks so far (:class:`engine.state.FinishedTrick`); ``points_won`` card points per seat;
    ``dealer``, ``bid``, ``trump``, ``bids`` ((seat, amount or None), ...), ``kitty`` (the dealt
    kitty), ``buried`` (what the dealer buried); ``settlement`` on the last frame only."""

    trick_no: int
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[FinishedTrick, ...]
    points_won: tuple[int, ...]
    dealer: int | None
    bid: int | None
    trump: str | None
    bids: tuple[tuple[int, int | None], ...]
    kitty: tuple[Card, ...]
    buried: tuple[Card, ...]
    settlement: Any = None

    @property
    def last_trick(self) -> FinishedTrick | None:
        """The trick that just finished (None on frame 0)."""
        return self.tricks[-1] if self.tricks else None


def frames(replay: Replay) -> list[Frame]:
    """The viewer's steps: frame 0 after the bury, then one frame per finished trick (the
    last one carries the settlement). Index k is "after trick k", so jumping to a trick is
    ``frames(r)[k]`` and forwards/backwards is ±1. Raises :class:`ReplayError` as :func:`rerun`."""
    if type(replay).__name__ == "ZpyReplay":  # 找朋友: engine.replay_zpy
        from engine import replay_zpy

        return replay_zpy.frames(replay)
    game = start(replay)
    out: list[Frame] = []

    def snap() -> None:
        bids = tuple((ev.seat, ev.amount) for ev in game.events if ev.kind == "bid_made")
        out.append(Frame(len(game.tricks), tuple(tuple(h) for h in game.hands), tuple(game.tricks),
                         tuple(game.points_won), game.dealer, game.bid, game.trump, bids,
                         tuple(game.kitty), tuple(game.buried), game.settlement))

    for i, action in enumerate(replay.actions, start=2):
        apply_line(game, action, i, action_dict)
        if isinstance(action, Bury) or (isinstance(action, Play) and not game.current):
            snap()
    if game.phase is not Phase.SETTLE:
        raise ReplayError(len(replay.actions) + 1, "the hand is not over after the last action")
    return out


def text_lines(replay: Replay, names: Sequence[str] | None = None) -> list[str]:
    """A plain-text replay: the header, the auction, trump, the kitty, every hand face up, then
    trick by trick (cards per seat, winner, points) and the settlement. ``names`` per seat
    (default: the header's ``seats`` or "seat N")."""
    if type(replay).__name__ == "ZpyReplay":  # 找朋友: engine.replay_zpy
        from engine import replay_zpy

        return replay_zpy.text_lines(replay, names)
    fs = frames(replay)
    h = replay.header
    seats = list(names or h.get("seats") or [])
    n = replay.ruleset.players
    label = [f"seat {s}" + (f" ({seats[s]})" if s < len(seats) and seats[s] else "") for s in range(n)]
    first = fs[0]
    seen = h.get("start") == "after_auction"  # from a seat's view: the auction and the dealt kitty are not replayed
    bids = [tuple(b) for b in h.get("bids", [])] if seen else first.bids
    out = [f"replay: {h.get('time', '')} seed {h.get('seed')} hand {h.get('hand_no', 1)} "
           f"decks {h['decks']} options {json.dumps(h.get('options', {}), sort_keys=True)}".replace("  ", " ")]
    out.append("bids: " + ", ".join(f"{label[s]} {'pass' if a is None else a}" for s, a in bids))
    out.append(f"dealer: {label[first.dealer]} at {first.bid}, trump {first.trump}")
    out.append("kitty dealt: " + ("(not seen from this seat)" if seen else " ".join(map(str, first.kitty))))
    out.append("kitty buried: " + " ".join(map(str, first.buried)))
    out.append("hands after the bury (face up):")
    for s in range(n):
        out.append(f"  {label[s]}: " + " ".join(map(str, first.hands[s])))
    for f in fs[1:]:
        t = f.last_trick
        plays = "; ".join(f"{label[s]} {' '.join(map(str, cards))}" for s, cards in t.plays)
        out.append(f"trick {t.trick_no}: {plays} -> won by {label[t.winner]} ({t.points} points)")
    s = fs[-1].settlement
    gp = ", ".join(f"{label[i]} {g:+d}" for i, g in enumerate(s.game_points))
    out.append(f"settlement: dealer final {s.dealer_final:+d} (kitty {s.kitty_points} points, "
               f"{'counted' if s.kitty_counted else 'not counted'}); game points {gp}")
    return out
