"""The wire protocol: message shapes, the protocol version, the method table and validation.

Messages are msgpack-RPC arrays (PROTOCOL.md is the full contract):

- request      ``[0, msgid, method, params]``  (client -> server; ``msgid`` uint32, ``params`` map)
- response     ``[1, msgid, error, result]``   (server -> client; exactly one of error/result nil)
- notification ``[2, method, params]``         (server -> client)

Every method, notification and composite value has a schema in this module: a map of field
name -> :class:`Field` whose ``type`` is a small type expression (see :func:`check_type`).
The schemas are the single source for validation of incoming params, for the tests that
check outgoing values, and for the frozen fixture ``net/fixtures/protocol_v<N>.json``
(:func:`describe`), so that a change to any of them without a :data:`PROTOCOL_VERSION` bump
fails ``tests/test_net_protocol.py``.

Run ``python -m net.protocol`` to print the description of the current version as JSON.
"""
from __future__ import annotations

import enum
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

PROTOCOL_VERSION = 3
"""The newest protocol version spoken by this code (what our own clients send in ``hello``)."""

SUPPORTED_VERSIONS = (1, 2, 3)
VIEW_DELIVERY = {
    1: "a full view notification after every change of the hand",
    2: "a full view notification when a hand is dealt (after its deal events) and in every "
       "Snapshot; otherwise only events, which the client folds into its view",
    3: "as version 2 at a 红五 table; at a 找朋友 table (only version 3 may sit or watch "
       "there) a full ZpyView after every batch of events",
}
TITLES_SINCE = 3
"""The first version whose ``hello`` may carry a ``title`` and whose ``Seat`` maps carry the
players' titles (PROTOCOL.md ``hello``); older sessions never see a ``title`` key."""
TITLE_MAX = 16
"""Longest ``hello.title`` (characters)."""

STAKES_SINCE = 3
"""The first version that may sit at a staked table (``Table.stake``, ``Settlement.coins``,
``Seat.capped``, the DAILY_CAP error); a staked table refuses older sessions."""
"""When the host sends ``view`` notifications, per accepted version (PROTOCOL.md §3)."""
"""Versions the host accepts in ``hello``; a session speaks the one it named. Version 2 sends
full views only when a hand is dealt and on request, events otherwise (PROTOCOL.md §3, §12);
version 1 sends a full view after every change."""

REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2
"""The message type numbers (first element of every message array)."""

MAX_MSGID = 2**32 - 1
"""Message ids are unsigned 32-bit integers, chosen by the client."""

DEFAULT_PORT = 47470
"""TCP port of ``hongwu host`` unless ``--port`` says otherwise."""

DISCOVERY_PORT = 47471
"""UDP port on which hosts announce their tables (LAN discovery)."""

NAME_MAX = 24
"""Longest player or table name, in characters."""

CHAT_MAX = 200
"""Longest chat line, in characters."""

TOKEN_MAX = 64
"""Longest reconnect token or host key, in characters."""

REASONING_MAX = 5
"""Most candidates a ``reasoning`` notification carries (the plugin runner's own cap)."""


class ErrorCode(enum.IntEnum):
    """Error numbers used in responses (``error.code``) and in ``goodbye`` notifications.

    1-9: the message itself; 10-19: session and seats; 20-29: game actions;
    30-39: connection-level reasons (the connection is then closed); 99: server bug.
    """

    BAD_MESSAGE = 1
    UNKNOWN_METHOD = 2
    BAD_PARAMS = 3
    VERSION_MISMATCH = 4
    HELLO_REQUIRED = 5
    ALREADY_HELLO = 6
    RATE_LIMITED = 7
    BAD_TOKEN = 8
    UNKNOWN_TABLE = 9
    NOT_SEATED = 10
    SEAT_TAKEN = 11
    HAND_IN_PROGRESS = 12
    FORBIDDEN = 13
    UNKNOWN_AI = 14
    TABLE_FULL = 15
    DAILY_CAP = 16
    NOT_YOUR_TURN = 20
    ILLEGAL_ACTION = 21
    WRONG_PHASE = 22
    NO_HAND = 23
    FRAME_TOO_LARGE = 30
    BAD_BYTES = 31
    FLOOD = 32
    TIMEOUT = 33
    REPLACED = 34
    SHUTDOWN = 35
    SLOW_CONSUMER = 36
    LEAVING = 37
    INTERNAL = 99


ERROR_TEXT: dict[ErrorCode, str] = {
    ErrorCode.BAD_MESSAGE: "a document that is not a well-formed message",
    ErrorCode.UNKNOWN_METHOD: "no request method of that name",
    ErrorCode.BAD_PARAMS: "params missing, unknown, or of the wrong type or range",
    ErrorCode.VERSION_MISMATCH: "hello named another protocol version",
    ErrorCode.HELLO_REQUIRED: "the first request must be hello",
    ErrorCode.ALREADY_HELLO: "hello was already accepted on this connection",
    ErrorCode.RATE_LIMITED: "too many messages: this one was dropped unanswered otherwise",
    ErrorCode.BAD_TOKEN: "the reconnect token names no seat of this table",
    ErrorCode.UNKNOWN_TABLE: "the server hosts no table of that name",
    ErrorCode.NOT_SEATED: "the request needs a seat and this session has none",
    ErrorCode.SEAT_TAKEN: "that seat is held by someone else",
    ErrorCode.HAND_IN_PROGRESS: "seats cannot change while a hand is played",
    ErrorCode.FORBIDDEN: "only the host may do this",
    ErrorCode.UNKNOWN_AI: "no AI of that name is installed on the host",
    ErrorCode.TABLE_FULL: "no free seat (join as an observer instead)",
    ErrorCode.DAILY_CAP: "this player has reached the daily coin cap at this staked table",
    ErrorCode.NOT_YOUR_TURN: "another seat is to act",
    ErrorCode.ILLEGAL_ACTION: "the engine rejected the action (message says why)",
    ErrorCode.WRONG_PHASE: "that action belongs to another phase of the hand",
    ErrorCode.NO_HAND: "no hand is being played",
    ErrorCode.FRAME_TOO_LARGE: "a frame exceeded the size limit",
    ErrorCode.BAD_BYTES: "bytes that are not msgpack",
    ErrorCode.FLOOD: "far beyond the request rate limit",
    ErrorCode.TIMEOUT: "no hello in time, or idle too long",
    ErrorCode.REPLACED: "the same player connected again elsewhere (token reused)",
    ErrorCode.SHUTDOWN: "the server is shutting down",
    ErrorCode.SLOW_CONSUMER: "the client did not read its messages fast enough",
    ErrorCode.LEAVING: "the client asked to leave (answer to bye)",
    ErrorCode.INTERNAL: "a bug in the server; the request had no effect",
}


class ProtocolError(Exception):
    """An error to report to the peer: ``code`` (:class:`ErrorCode`) and ``message`` (str).

    ``fatal`` errors close the connection after a ``goodbye`` notification; others are
    answered as the error of the request's response. ``refusal`` (optional) is the rules
    engine's coded reason as a ``Refusal`` map ``{"code": str, "params": map}`` (see
    :func:`net.codec.refusal_out`); it is sent as the error's ``refusal`` field.
    """

    def __init__(self, code: ErrorCode, message: str | None = None, fatal: bool = False,
                 refusal: Mapping[str, Any] | None = None):
        self.code = ErrorCode(code)
        self.message = message or ERROR_TEXT[self.code]
        self.fatal = fatal
        self.refusal = dict(refusal) if refusal is not None else None
        super().__init__(f"{self.code.name}: {self.message}")

    def to_wire(self) -> dict[str, Any]:
        """The wire error object ``{"code": int, "name": str, "message": str}``, plus
        ``"refusal": {"code": str, "params": map}`` when the engine gave a coded reason."""
        out: dict[str, Any] = {"code": int(self.code), "name": self.code.name,
                               "message": self.message}
        if self.refusal is not None:
            out["refusal"] = self.refusal
        return out


# --------------------------------------------------------------------------------------------
# Types and schemas


@dataclass(frozen=True)
class Field:
    """One field of a map: ``type`` expression, ``required`` (must be present; it may still be
    nil if the type allows it), ``doc`` (one line) and ``limits`` (``min``/``max`` for ints,
    ``maxlen`` for strings and lists)."""

    type: str
    required: bool = True
    doc: str = ""
    limits: Mapping[str, int] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """JSON description used in the frozen fixture."""
        out: dict[str, Any] = {"type": self.type, "required": self.required}
        if self.limits:
            out["limits"] = dict(self.limits)
        return out


def F(type_: str, doc: str = "", required: bool = True, **limits: int) -> Field:
    """Shorthand constructor for :class:`Field`."""
    return Field(type_, required, doc, limits)


PHASES = ("deal", "bid", "trump", "bury", "play", "settle", "call_friend", "counter")
"""Phase names on the wire: the values of ``engine.state.Phase`` (红五) and of
``engine.zhaopengyou.ZPhase`` (找朋友: deal, call_friend, bury, counter, play, settle)."""

SEAT_KINDS = ("empty", "human", "ai")
AUTO_REASONS = ("timeout", "disconnect", "request", "action", "reconnect", "fill")
RULESETS = ("hongwu", "zhaopengyou")
"""Ruleset names on the wire (``engine.ruleset.RuleSet.name``)."""
MAX_SEAT = 4
"""The highest seat number any table has (找朋友 seats five: 0..4; 红五 four: 0..3, a seat
number past the table's last is refused BAD_PARAMS by the host)."""
CARD_RE = re.compile(r"^(10|[2-9JQKA])[SHCD]$|^[BS]J$")
SUIT_LETTERS = ("S", "H", "C", "D")

#: Fixed-length arrays (tuples), by name: the engine's tuples mirrored on the wire.
ALIASES: dict[str, str] = {
    "Play": "(int, [card])",
    "Trick": "(int, int, [Play], int, int)",
    "BidEntry": "(int, int|nil)",
    "SeatPair": "(int, int)",
    "FriendCall": "(card, int)",
}
"""``Play`` = (seat, cards); ``Trick`` = (trick_no, leader, plays, winner,
points); ``BidEntry`` =
(seat, amount or nil for a pass); ``SeatPair`` = (from_seat, to_seat); ``FriendCall`` =
(card, nth): "the nth played copy of card" (找朋友)."""

#: Composite value shapes (maps), by name. Types used in expressions below.
STRUCTS: dict[str, dict[str, Field]] = {
    "Error": {
        "code": F("int", "an ErrorCode number"),
        "name": F("str", "the ErrorCode name"),
        "message": F("str", "human-readable reason (the engine's, for ILLEGAL_ACTION)"),
        "refusal": F("Refusal", "the coded reason: the engine's (action errors) or "
                                "daily_coin_cap (DAILY_CAP); absent otherwise", required=False),
    },
    "Refusal": {
        "code": F("str", "stable refusal code of the rules engine (engine/refusals.py)"),
        "params": F("map", "the code's parameters: ints, strings, bools, lists of them"),
    },
    "Seat": {
        "seat": F("int", "0..3 (红五), 0..4 (找朋友)"),
        "kind": F("seatkind", "empty, human or ai"),
        "name": F("str|nil", "player or AI display name"),
        "ai": F("str|nil", "AI name for kind ai"),
        "ready": F("bool", "ready for the next hand"),
        "connected": F("bool", "a client holds the seat now (always true for ai)"),
        "auto": F("bool", "auto-played (托管) right now"),
        "score": F("int", "game points accumulated at this table"),
        "title": F("str", "the player's title as its hello gave it (version 3; absent: none)", False),
        "capped": F("str", "staked tables only: this player is at its daily coin cap until this "
                           "time (ISO 8601, the host's next local midnight); absent: not capped",
                    False),
    },
    "Timers": {
        "bid": F("float", "seconds per bid turn (0 = no limit)"),
        "trump": F("float", "seconds to name trump (then spades)"),
        "bury": F("float", "seconds to bury the kitty"),
        "play": F("float", "seconds per play"),
        "deal": F("float", "找朋友: seconds a polled seat has in a declaration window (then it "
                           "passes)", required=False),
        "call_friend": F("float", "找朋友: seconds to call the friend (then auto-play)",
                         required=False),
        "counter": F("float", "找朋友: seconds for a counter turn (then it passes)",
                     required=False),
    },
    "Table": {
        "name": F("str", "table name"),
        "decks": F("int", "2 or 3"),
        "options": F("map", "rule options name -> value (RuleOptions)"),
        "hand_no": F("int", "hands started at this table (0 before the first)"),
        "in_hand": F("bool", "a hand is being played"),
        "seats": F("[Seat]", "one entry per seat (4 for 红五, 5 for 找朋友), by seat"),
        "observers": F("int", "connected observers"),
        "timers": F("Timers", "turn time limits"),
        "fill": F("str", "who may fill seats with AIs: 'host' or 'seated' (never observers)"),
        "ruleset": F("ruleset", "找朋友 tables only: 'zhaopengyou' (absent: 红五)", required=False),
        "match": F("Match", "找朋友 tables only: the match standings", required=False),
        "stake": F("int", "coins per game point (absent: no coins at this table)", required=False),
        "xray": F("bool", "always true when present: a learners' table whose AI seats' reasoning "
                          "goes to sessions that ask (xray); absent: never sent", required=False),
    },
    "Candidate": {
        "action": F("str", "the candidate as the AI printed it (cards like '10S 10S', a suit "
                           "letter, a bid or 'pass'), at most 60 characters"),
        "value": F("float", "the AI's estimate, higher better, in its own unit (expert: mean "
                            "game points over its sampled deals; basic: heuristic card points)"),
        "note": F("str", "a few words from the AI (may be empty)"),
    },
    "Match": {
        "hand_no": F("int", "hands settled in the match so far"),
        "levels": F("[int]", "each seat's level rank 2..14 (11 J, 12 Q, 13 K, 14 A) now"),
        "eligible": F("[int]", "seats with the declaring right for the next hand"),
        "game_over": F("bool", "the game has ended (no further hand is dealt)"),
        "winners": F("[int]", "the winning seats once over, else empty"),
    },
    "ZpySettlement": {
        "dealer_side": F("[int]", "the dealer and the friend (ascending seats)"),
        "catchers": F("[int]", "the other seats (ascending)"),
        "eligible": F("[int]", "next hand's declaring right (the winning side)"),
        "kitty_points": F("int", "card points buried in the kitty"),
        "multiplier": F("int", "kitty multiplier (0 unless a catcher won the last trick)"),
        "catcher_points": F("int", "the catchers' points P"),
        "winner": F("str", "'dealer' or 'catchers'"),
        "gains": F("[int]", "levels awarded per seat before stops"),
        "levels_before": F("[int]", "level ranks per seat before the hand"),
        "levels": F("[int]", "level ranks per seat after the hand"),
        "first_card_to": F("int", "the seat dealt the first card next hand"),
        "game_over": F("bool", "the game ended with this hand"),
        "game_winners": F("[int]", "the winning seats once over, else empty"),
        "alone": F("bool", "the dealer played one against four"),
        "kitty": F("[card]", "the buried cards (public once settled)"),
        "seed": F("int", "the hand's deal seed, in hand_settled only (version 3, optional): with the "
                  "events a seat received it re-deals and replays the whole hand", required=False),
    },
    "Declaration": {
        "seat": F("int", "who showed the cards"),
        "cards": F("[card]", "the cards shown (1-3 identical level cards or jokers)"),
        "phase": F("str", "'deal' (亮主) or 'counter' (反牌)"),
    },
    "ZpyView": {
        "ruleset": F("ruleset", "always 'zhaopengyou'"),
        "seat": F("int|nil", "whose view (nil = observer)"),
        "phase": F("phase", "deal, call_friend, bury, counter, play or settle"),
        "options": F("map", "找朋友 rule options name -> value (ZhaoPengyouOptions)"),
        "hand_no": F("int", "hand number of the match (1-based)"),
        "levels": F("[int]", "level ranks per seat before this hand"),
        "eligible": F("[int]", "seats with the declaring right"),
        "first_card": F("int", "seat dealt the first card"),
        "deal_no": F("int", "1, then 2, 3.. after redeals"),
        "cards_dealt": F("int", "cards dealt so far in this deal"),
        "to_act": F("int|nil", "seat to act; in deal and counter only the polled seat itself "
                               "learns it is polled (nil for everyone else)"),
        "hand": F("[card]", "this seat's cards (the kitty included while it buries)"),
        "hand_sizes": F("[int]", "cards held per seat"),
        "declarations": F("[Declaration]", "every declaration and counter so far, in order"),
        "standing": F("(int, [card])|nil", "(seat, cards) of the declaration that stands"),
        "legal_declarations": F("[[card]]", "what this seat may declare or counter now (its "
                                            "turn in deal/counter only)"),
        "friend_calls": F("[FriendCall]", "calls the dealer may make (its call_friend turn "
                                          "only, else empty)"),
        "dealer": F("int|nil", "dealer once the deal is over"),
        "level": F("int|nil", "the hand's level rank once the deal is over"),
        "trump": F("suit|nil", "trump suit; nil for no-trump (无主) or not yet known"),
        "trump_known": F("bool", "the deal is over, so trump (nil = no-trump) is settled"),
        "kitty_flip": F("[card]|nil", "the flipped kitty (public) when nobody declared"),
        "friend_call": F("FriendCall|nil", "the call once made (public)"),
        "friend": F("int|nil", "the friend's seat once revealed (nil before, and when alone)"),
        "alone": F("bool", "the dealer turned out to play alone (known once resolved)"),
        "kitty": F("[card]|nil", "the kitty cards (only the seat burying, while it buries)"),
        "buried": F("[card]|nil", "cards this seat buried (its own), or everyone's once settled"),
        "burier": F("int|nil", "the seat that holds or buried the kitty"),
        "trick_no": F("int", "current trick (1-based)"),
        "trick_leader": F("int|nil", "who leads/led the current trick"),
        "current_trick": F("[Play]", "plays so far in the current trick"),
        "tricks": F("[Trick]", "every finished trick"),
        "points_won": F("[int]", "card points won per seat"),
        "failed_throws": F("[int]", "seats whose throws failed, in order"),
        "settlement": F("ZpySettlement|nil", "after the hand"),
        "bury_count": F("int", "cards to bury (7)"),
        "suggested_play": F("[card]|nil", "a legal play for this seat when it is to play (the "
                                          "host's first legal option, for simple clients), "
                                          "else nil"),
    },
    "Turn": {
        "hand_no": F("int", "hand number"),
        "phase": F("phase", "phase of the hand"),
        "seat": F("int|nil", "seat to act, nil when nobody is (settled; 找朋友 deal and counter "
                             "windows: nil except to the polled seat)"),
        "timeout": F("float|nil", "seconds left for that seat, nil when no limit"),
        "auto": F("bool", "the seat is played by an AI now (ai seat or 托管)"),
    },
    "Settlement": {
        "dealer": F("int", "dealer seat"),
        "bid": F("int", "winning bid"),
        "trick_points": F("[int]", "card points won in tricks per seat (kitty excluded)"),
        "kitty": F("[card]", "the buried cards (public once settled)"),
        "kitty_points": F("int", "card points in the buried kitty"),
        "kitty_taker": F("int", "seat that won the last trick"),
        "kitty_counted": F("bool", "kitty points counted for the dealer"),
        "red_fives": F("[SeatPair]", "(from_seat, to_seat) per red five captured"),
        "red_five_adjust": F("int", "dealer card-point change from red-five captures"),
        "penalty_adjust": F("int", "dealer card-point change from failed throws"),
        "dealer_final": F("int", "dealer final card points (minus the bid)"),
        "game_points": F("[int]", "game points per seat (zero-sum)"),
        "coins": F("[int]", "staked tables only: the clamped coin change per seat (0 for AIs; "
                            "not zero-sum once a cap bites)", required=False),
    },
    "View": {
        "seat": F("int|nil", "whose view (nil = observer)"),
        "phase": F("phase", "phase of the hand"),
        "decks": F("int", "2 or 3 (with options: the ruleset)"),
        "options": F("map", "rule options name -> value"),
        "hand_no": F("int", "hand number at this table (1-based)"),
        "first_bidder": F("int", "seat that bid first"),
        "bids": F("[BidEntry]", "the auction so far, in order: (seat, amount or nil)"),
        "legal_bid_amounts": F("[int]", "amounts this seat may bid now (empty unless its turn)"),
        "dealer": F("int|nil", "dealer seat once decided"),
        "bid": F("int|nil", "winning bid once decided"),
        "trump": F("suit|nil", "trump suit once named"),
        "to_act": F("int|nil", "seat to act (nil once settled)"),
        "hand": F("[card]", "this seat's cards in display order (empty for observers)"),
        "hand_sizes": F("[int]", "cards held per seat"),
        "kitty": F("[card]|nil", "the kitty as dealt (dealer only, once taken)"),
        "buried": F("[card]|nil", "the buried cards (dealer only; everyone once settled)"),
        "trick_no": F("int", "number of the current trick (1-based)"),
        "trick_leader": F("int|nil", "who leads/led the current trick"),
        "current_trick": F("[Play]", "plays so far in the current trick"),
        "tricks": F("[Trick]", "every finished trick"),
        "points_won": F("[int]", "card points won per seat"),
        "red_fives": F("[SeatPair]", "red-five captures so far: (from_seat, to_seat)"),
        "failed_throws": F("[int]", "seats whose throws failed, in order"),
        "settlement": F("Settlement|nil", "after the hand"),
        "bury_count": F("int", "cards the dealer buries (the kitty size)"),
    },
    "Snapshot": {
        "table": F("Table", "the table"),
        "view": F("View|ZpyView|nil", "this session's view of the hand (nil before the first "
                                      "hand; a ZpyView at a 找朋友 table)"),
        "turn": F("Turn|nil", "whose turn (nil before the first hand)"),
        "events": F("int", "events of this hand already reflected in view"),
    },
    "AI": {
        "name": F("str", "AI name for fill"),
        "version": F("str", "free text"),
        "origin": F("str", "where the host found it"),
    },
}

#: Game events on the wire, by ``kind``; every event also carries ``kind`` (str).
#: Card fields hidden from a seat are nil (or absent from the event entirely, see PROTOCOL.md).
EVENTS: dict[str, dict[str, Field]] = {
    "hand_started": {
        "hand_no": F("int", "hand number at this table (1-based); the seed is never sent"),
        "decks": F("int", "2 or 3"),
        "first_bidder": F("int", "seat that bids first"),
    },
    "cards_dealt": {
        "seat": F("int", "receiver"),
        "cards": F("[card]|nil", "the cards: only the receiver sees them, others nil"),
        "count": F("int", "number of cards dealt"),
    },
    "bid_made": {
        "seat": F("int", "bidder"),
        "amount": F("int|nil", "bid, nil = pass"),
    },
    "dealer_chosen": {
        "seat": F("int", "the dealer"),
        "bid": F("int", "the winning bid"),
    },
    "trump_chosen": {
        "seat": F("int", "the dealer"),
        "suit": F("suit", "trump suit"),
        "timed_out": F("bool", "chosen by the 30 s time-out"),
    },
    "kitty_taken": {
        "seat": F("int", "the dealer"),
        "cards": F("[card]|nil", "kitty cards (dealer only, others nil)"),
        "count": F("int", "number of cards"),
    },
    "kitty_buried": {
        "seat": F("int", "the dealer"),
        "cards": F("[card]|nil", "buried cards (dealer only, others nil)"),
        "count": F("int", "number of cards"),
    },
    "cards_played": {
        "seat": F("int", "player"),
        "cards": F("[card]", "cards played"),
        "trick_no": F("int", "trick number (1-based)"),
        "lead": F("bool", "this play leads the trick"),
    },
    "throw_failed": {
        "seat": F("int", "leader"),
        "attempted": F("[card]", "the throw tried"),
        "forced": F("[card]", "the component played instead"),
        "blocker": F("int|nil", "a seat that could beat it"),
    },
    "trick_won": {
        "seat": F("int", "winner"),
        "points": F("int", "card points in the trick"),
        "trick_no": F("int", "trick number"),
        "plays": F("[Play]", "the trick's plays, lead first"),
        "ruff": F("bool", "won by trumping a side-suit lead"),
        "red_fives": F("[SeatPair]", "red fives captured across sides in this trick"),
    },
    "hand_settled": {
        "settlement": F("Settlement|ZpySettlement", "the settlement (ZpySettlement: 找朋友)"),
    },
    # 找朋友 only
    "card_dealt": {
        "seat": F("int", "receiver"),
        "cards": F("[card]|nil", "the one card: only the receiver sees it, others nil"),
        "count": F("int", "always 1"),
        "card_no": F("int", "number of the card in the deal (1-based)"),
    },
    "declared": {
        "seat": F("int", "declarer"),
        "cards": F("[card]", "the cards shown"),
        "phase": F("str", "'deal' (亮主) or 'counter' (反牌)"),
        "trump": F("suit|nil", "the trump it makes (nil: no-trump 无主)"),
        "level": F("int", "the level rank played"),
    },
    "passed": {
        "seat": F("int|nil", "the passing seat, told only to itself (nil for everyone else)"),
        "phase": F("str", "'deal' or 'counter'"),
    },
    "redealt": {"deal_no": F("int", "number of the new deal (2, 3, ...)")},
    "kitty_flipped": {
        "dealer": F("int", "the dealer this makes"),
        "cards": F("[card]", "the kitty, shown to all"),
        "trump": F("suit|nil", "the trump it sets (nil: no-trump)"),
    },
    "deal_finished": {
        "dealer": F("int", "the dealer"),
        "level": F("int", "the hand's level rank"),
        "trump": F("suit|nil", "trump (nil: no-trump)"),
        "declared": F("bool", "false after a kitty flip"),
    },
    "friend_called": {
        "seat": F("int", "the dealer"),
        "card": F("card", "the called card"),
        "nth": F("int", "which played copy (1-3)"),
    },
    "friend_revealed": {
        "seat": F("int", "the friend (the dealer when alone)"),
        "alone": F("bool", "the dealer plays alone"),
        "trick_no": F("int", "trick of the reveal"),
    },
}


@dataclass(frozen=True)
class Method:
    """A request method: ``params`` schema, ``result`` type expression, whether it needs a
    completed ``hello`` (``after_hello``) and a seat (``seated``), and a one-line ``doc``."""

    name: str
    params: Mapping[str, Field]
    result: str
    doc: str
    after_hello: bool = True
    seated: bool = False

    def describe(self) -> dict[str, Any]:
        """JSON description used in the frozen fixture."""
        return {
            "params": {k: f.describe() for k, f in self.params.items()},
            "result": self.result,
            "after_hello": self.after_hello,
            "seated": self.seated,
        }


def _m(name: str, params: dict[str, Field], result: str, doc: str, **kw: bool) -> Method:
    return Method(name, params, result, doc, **kw)


METHODS: dict[str, Method] = {m.name: m for m in [
    _m("hello", {
        "protocol": F("int", "protocol version the session speaks: 1, 2 or 3 (3 needed at a "
                             "找朋友 table)"),
        "name": F("str", "display name", maxlen=NAME_MAX),
        "token": F("str|nil", "reconnect token from an earlier welcome", False, maxlen=TOKEN_MAX),
        "seat": F("int|nil", "preferred seat", False, min=0, max=MAX_SEAT),
        "observer": F("bool", "join without a seat", False),
        "table": F("str|nil", "table name (default: the server's first)", False,
                   maxlen=NAME_MAX),
        "host_key": F("str|nil", "the host's key: grants host rights", False, maxlen=TOKEN_MAX),
        "client": F("str|nil", "client software and version, free text", False, maxlen=64),
        "title": F("str|nil", "the player's title shown on its name plate (version 3)", False,
                   maxlen=TITLE_MAX),
    }, "Welcome", "open the session: seat or observer, reconnect token, table", after_hello=False),
    _m("tables", {}, "[TableSummary]", "list the server's tables (allowed before hello)",
       after_hello=False),
    _m("ping", {}, "Pong", "liveness check and round-trip measurement", after_hello=False),
    _m("sit", {"seat": F("int", "seat to take", min=0, max=MAX_SEAT)}, "Seated",
       "take (or move to) a free seat between hands"),
    _m("stand", {}, "Table", "leave the seat and watch (between hands)", seated=True),
    _m("ready", {"ready": F("bool", "ready or not")}, "Table",
       "mark the seat ready for the next hand", seated=True),
    _m("fill", {
        "seat": F("int", "an empty or disconnected seat", min=0, max=MAX_SEAT),
        "ai": F("str|nil", "AI name from list_ais; nil empties an AI seat", maxlen=64),
    }, "Table", "seat an AI (or remove one) between hands"),
    _m("list_ais", {}, "[AI]", "the AIs installed on the host"),
    _m("bid", {"amount": F("int|nil", "bid amount, nil to pass", min=0, max=1000)}, "Ok",
       "bid or pass", seated=True),
    _m("trump", {"suit": F("suit", "S, H, C or D")}, "Ok", "name the trump suit (dealer)",
       seated=True),
    _m("bury", {"cards": F("[card]", "cards to bury", maxlen=16)}, "Ok",
       "bury kitty cards (dealer)", seated=True),
    _m("play", {"cards": F("[card]", "cards to play", maxlen=64)}, "Ok",
       "lead or follow", seated=True),
    _m("declare", {"cards": F("[card]", "1-3 identical level cards or jokers", maxlen=3)}, "Ok",
       "找朋友: declare 亮主 in a deal window, or counter 反牌 in the counter round",
       seated=True),
    _m("pass", {}, "Ok", "找朋友: pass a deal window or a counter turn", seated=True),
    _m("call_friend", {"card": F("card", "the called card"),
                       "nth": F("int", "which played copy", min=1, max=3)}, "Ok",
       "找朋友: the dealer calls the friend: the nth played copy of card", seated=True),
    _m("auto", {"on": F("bool", "auto-play on or off")}, "AutoState",
       "turn auto-play (托管) on or off for the own seat", seated=True),
    _m("xray", {"on": F("bool", "receive the AI seats' reasoning or not")}, "XrayState",
       "X-ray at a learners' table: the AI seats' candidates after each of their decisions "
       "(FORBIDDEN where the host did not enable it)"),
    _m("snapshot", {}, "Snapshot", "the full current state as this session may see it"),
    _m("chat", {"text": F("str", "one line", maxlen=CHAT_MAX)}, "Ok", "say something"),
    _m("bye", {}, "Ok", "leave: the server answers, says goodbye and closes"),
]}

#: Result shapes not listed in STRUCTS (kept here to keep STRUCTS about game/table values).
STRUCTS.update({
    "Ok": {},
    "Pong": {"time": F("float", "server wall clock, seconds since the epoch")},
    "Seated": {
        "seat": F("int", "the seat now held"),
        "token": F("str", "reconnect token for it (new when an observer sits)"),
        "table": F("Table", "the table"),
    },
    "AutoState": {"seat": F("int", "own seat"), "auto": F("bool", "auto-play now on")},
    "XrayState": {"on": F("bool", "this session now receives reasoning notifications")},
    "Welcome": {
        "protocol": F("int", "the version this session speaks (as named in hello)"),
        "server": F("str", "server software and version"),
        "session": F("int", "session number (for logs)"),
        "token": F("str|nil", "reconnect token for the seat (nil for observers)"),
        "seat": F("int|nil", "seat, nil for an observer"),
        "host": F("bool", "this session has host rights"),
        "resumed": F("bool", "the token resumed a seat"),
        "snapshot": F("Snapshot", "full state"),
    },
    "TableSummary": {
        "name": F("str", "table name"),
        "decks": F("int", "2 or 3"),
        "free_seats": F("int", "seats nobody holds"),
        "in_hand": F("bool", "a hand is being played"),
        "ruleset": F("ruleset", "找朋友 tables only: 'zhaopengyou' (absent: 红五)", required=False),
        "seats": F("int", "找朋友 tables only: number of seats (5)", required=False),
        "xray": F("bool", "present (true) at learners' tables only: AI reasoning on request",
                  required=False),
    },
})

NOTIFICATIONS: dict[str, dict[str, Field]] = {
    "table": {"table": F("Table", "the table after a change of seats, names, ready or scores")},
    "event": {
        "hand_no": F("int", "hand number"),
        "n": F("int", "index of the event in the hand's log (0-based)"),
        "event": F("Event", "the event as this session may see it"),
    },
    "view": {
        "hand_no": F("int", "hand number"),
        "events": F("int", "events of this hand reflected in view"),
        "view": F("View|ZpyView", "the session's full view after the last events (version 2: "
                                  "sent when a hand is dealt; fold the events in between; "
                                  "找朋友: after every batch)"),
    },
    "turn": {"turn": F("Turn", "who is to act and the time left")},
    "auto": {
        "seat": F("int", "the seat"),
        "on": F("bool", "auto-play now on"),
        "reason": F("autoreason", "why it changed"),
    },
    "chat": {
        "seat": F("int|nil", "speaker seat, nil for observers"),
        "name": F("str", "speaker name"),
        "text": F("str", "the line"),
    },
    "goodbye": {
        "error": F("Error", "why the server closes the connection right after this"),
    },
    "reasoning": {
        "hand_no": F("int", "hand number"),
        "seat": F("int", "the AI seat that decided (kind ai only)"),
        "events": F("int", "events of the hand when it was sent: its decision's events "
                           "came before"),
        "candidates": F("[Candidate]", "what the AI weighed, best first (1-5)"),
    },
}


# --------------------------------------------------------------------------------------------
# Type expressions


def _split_top(expr: str, sep: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in expr:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_SCALARS: dict[str, Any] = {
    "int": _is_int,
    "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "nil": lambda v: v is None,
    "map": lambda v: isinstance(v, dict),
    "any": lambda v: True,
    "card": lambda v: isinstance(v, str) and bool(CARD_RE.match(v)),
    "suit": lambda v: isinstance(v, str) and v in SUIT_LETTERS,
    "phase": lambda v: isinstance(v, str) and v in PHASES,
    "seatkind": lambda v: isinstance(v, str) and v in SEAT_KINDS,
    "autoreason": lambda v: isinstance(v, str) and v in AUTO_REASONS,
    "ruleset": lambda v: isinstance(v, str) and v in RULESETS,
}


def check_type(value: Any, expr: str, path: str = "value", limits: Mapping[str, int] = {}) -> None:
    """Check ``value`` against a type expression; raise ``ValueError`` naming ``path`` if not.

    Expressions: scalars ``int float str bool nil map any card suit phase seatkind autoreason``
    (``card`` is canonical card text such as ``"10H"``, ``"BJ"``); ``[T]`` a list of T;
    ``(A, B)`` an array of exactly those items; a name from :data:`ALIASES` (a tuple);
    ``A|B`` either; a name from :data:`STRUCTS` (a map with exactly those fields; missing
    optional fields allowed); ``Event`` (a map with ``kind`` from :data:`EVENTS` and its fields).
    ``limits``: ``min``/``max`` bound ints, ``maxlen`` bounds str and list lengths.
    """
    alts = _split_top(expr, "|")
    if len(alts) > 1:
        errors = []
        for alt in alts:
            try:
                check_type(value, alt, path, limits)
                return
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError(f"{path} must be {expr}, got {_short(value)}")
    if expr.startswith("["):
        if not isinstance(value, list):
            raise ValueError(f"{path} must be a list ({expr}), got {_short(value)}")
        if "maxlen" in limits and len(value) > limits["maxlen"]:
            raise ValueError(f"{path} has {len(value)} items, at most {limits['maxlen']}")
        inner = expr[1:-1]
        for i, item in enumerate(value):
            check_type(item, inner, f"{path}[{i}]")
        return
    if expr.startswith("("):
        items = _split_top(expr[1:-1], ",")
        if not isinstance(value, list) or len(value) != len(items):
            raise ValueError(f"{path} must be an array {expr}, got {_short(value)}")
        for i, (item, sub) in enumerate(zip(value, items)):
            check_type(item, sub, f"{path}[{i}]")
        return
    if expr in ALIASES:
        check_type(value, ALIASES[expr], path, limits)
        return
    if expr in _SCALARS:
        if not _SCALARS[expr](value):
            raise ValueError(f"{path} must be {expr}, got {_short(value)}")
        if _is_int(value):
            if "min" in limits and value < limits["min"]:
                raise ValueError(f"{path} must be at least {limits['min']}")
            if "max" in limits and value > limits["max"]:
                raise ValueError(f"{path} must be at most {limits['max']}")
        if isinstance(value, str) and "maxlen" in limits and len(value) > limits["maxlen"]:
            raise ValueError(f"{path} is longer than {limits['maxlen']} characters")
        return
    if expr == "Event":
        if not isinstance(value, dict) or value.get("kind") not in EVENTS:
            raise ValueError(f"{path} must be an event map with a known kind")
        check_fields(value, {"kind": F("str"), **EVENTS[value["kind"]]}, path)
        return
    if expr in STRUCTS:
        check_fields(value, STRUCTS[expr], path)
        return
    raise KeyError(f"unknown type expression {expr!r}")


def check_fields(value: Any, schema: Mapping[str, Field], path: str = "params") -> None:
    """Check that ``value`` is a map with exactly the fields of ``schema`` (required ones
    present, no unknown ones, each of its type). Raises ``ValueError`` with the first problem."""
    if not isinstance(value, dict):
        raise ValueError(f"{path} must be a map, got {_short(value)}")
    for key in value:
        if key not in schema:
            raise ValueError(f"{path} has an unknown field {key!r}")
    for key, fld in schema.items():
        if key not in value:
            if fld.required:
                raise ValueError(f"{path}.{key} is missing")
            continue
        check_type(value[key], fld.type, f"{path}.{key}", fld.limits)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------------------------
# Messages


@dataclass(frozen=True)
class Request:
    """A decoded request: ``msgid`` (int), ``method`` (str), ``params`` (dict)."""

    msgid: int
    method: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Response:
    """A decoded response: ``msgid``, ``error`` (Error map or None), ``result``."""

    msgid: int
    error: Any
    result: Any


@dataclass(frozen=True)
class Notification:
    """A decoded notification: ``method`` (str) and ``params`` (dict)."""

    method: str
    params: dict[str, Any]


Message = Request | Response | Notification


def _params_map(params: Any) -> dict[str, Any]:
    # msgpack-RPC libraries often send params as an array: [] and [map] are accepted.
    if isinstance(params, list):
        if not params:
            return {}
        if len(params) == 1 and isinstance(params[0], dict):
            return params[0]
    if params is None:
        return {}
    if isinstance(params, dict):
        return params
    raise ProtocolError(ErrorCode.BAD_PARAMS, "params must be a map")


def parse_message(doc: Any) -> Message:
    """Turn one decoded msgpack document into a :class:`Request`, :class:`Response` or
    :class:`Notification`.

    Raises :class:`ProtocolError` ``BAD_MESSAGE`` (fatal) for anything that is not a message
    array of a known type with a valid msgid and a str method; ``BAD_PARAMS`` (not fatal, the
    request can be answered) for a request whose params are not a map.
    """
    if not isinstance(doc, list) or not doc or not _is_int(doc[0]):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be an array [type, ...]",
                            fatal=True)
    kind = doc[0]
    if kind == REQUEST and len(doc) == 4:
        _, msgid, method, params = doc
        if not _is_int(msgid) or not 0 <= msgid <= MAX_MSGID or not isinstance(method, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "bad msgid or method", fatal=True)
        return Request(msgid, method, params)  # params checked when dispatched
    if kind == RESPONSE and len(doc) == 4:
        _, msgid, error, result = doc
        if not _is_int(msgid) or not 0 <= msgid <= MAX_MSGID:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "bad msgid", fatal=True)
        return Response(msgid, error, result)
    if kind == NOTIFICATION and len(doc) == 3:
        _, method, params = doc
        if not isinstance(method, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "bad method", fatal=True)
        try:
            return Notification(method, _params_map(params))
        except ProtocolError:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "params must be a map", fatal=True)
    raise ProtocolError(ErrorCode.BAD_MESSAGE, "unknown message type or length", fatal=True)


def validate_request(req: Request) -> dict[str, Any]:
    """Check a request against the method table; return its params as a dict.

    Raises :class:`ProtocolError` ``UNKNOWN_METHOD`` or ``BAD_PARAMS`` (neither fatal).
    """
    method = METHODS.get(req.method)
    if method is None:
        raise ProtocolError(ErrorCode.UNKNOWN_METHOD, f"unknown method {req.method[:40]!r}")
    if req.params is None:  # nil is not a map: send {} (or []) for a request without params
        raise ProtocolError(ErrorCode.BAD_PARAMS, "params: nil is not a map (send {} for none)")
    params = _params_map(req.params)
    try:
        check_fields(params, method.params, "params")
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_PARAMS, str(exc)) from None
    return params


def request(msgid: int, method: str, params: Mapping[str, Any] | None = None) -> list[Any]:
    """The request array ``[0, msgid, method, params]``."""
    return [REQUEST, msgid, method, dict(params or {})]


def response(msgid: int, error: Mapping[str, Any] | None, result: Any = None) -> list[Any]:
    """The response array ``[1, msgid, error, result]``."""
    return [RESPONSE, msgid, None if error is None else dict(error), result]


def notification(method: str, params: Mapping[str, Any]) -> list[Any]:
    """The notification array ``[2, method, params]``."""
    return [NOTIFICATION, method, dict(params)]


# --------------------------------------------------------------------------------------------
# Frozen description


def describe(version: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """A JSON-able description of the whole protocol of this code: methods (params with
    types, result type), notifications, events, structs and error codes. The fixture
    ``net/fixtures/protocol_v<version>.json`` holds it as released."""
    return {
        "protocol": version,
        "accepted_versions": list(SUPPORTED_VERSIONS),
        "view_delivery": {str(v): VIEW_DELIVERY[v] for v in SUPPORTED_VERSIONS},
        "message_types": {"request": REQUEST, "response": RESPONSE,
                          "notification": NOTIFICATION},
        "methods": {name: m.describe() for name, m in sorted(METHODS.items())},
        "notifications": {name: {k: f.describe() for k, f in schema.items()}
                          for name, schema in sorted(NOTIFICATIONS.items())},
        "events": {name: {k: f.describe() for k, f in schema.items()}
                   for name, schema in sorted(EVENTS.items())},
        "tuples": dict(sorted(ALIASES.items())),
        "structs": {name: {k: f.describe() for k, f in schema.items()}
                    for name, schema in sorted(STRUCTS.items())},
        "errors": {c.name: int(c) for c in ErrorCode},
        "enums": {"phase": list(PHASES), "seatkind": list(SEAT_KINDS),
                  "autoreason": list(AUTO_REASONS), "suit": list(SUIT_LETTERS),
                  "ruleset": list(RULESETS)},
    }


def main(argv: list[str] | None = None) -> int:
    """Print :func:`describe` as JSON (``python -m net.protocol > net/fixtures/...``)."""
    json.dump(describe(), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
