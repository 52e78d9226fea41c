"""The new-game screen: decks, difficulty, an AI for each of seats 1–3, house rules, speed,
language, Start.

Seat 0 is always you (human).  A difficulty preset (:mod:`game.presets`) sets the three AI
seats at once and gives every AI its thinking budget; each seat can then be switched to any AI
that discovery found (built-ins, installed entry points, drop-in files) with its ◀ ▶ buttons.
The house rules (RULES.md "Options") are three buttons that each cycle through
:data:`game.house_rules.CHOICES`: whether the kitty always counts for the dealer, the base
score (1–5) and the failed-throw penalty (0–40 card points); the note line names those that
differ from the defaults.  They start from :meth:`game.app.App.house_rules` (saved, with any
``--rule`` of this run on top).  Everything chosen here is saved in the settings file when the
game starts (see :meth:`game.app.App.start_game` for ``--rule`` values).

The first row chooses the game: 红五 (``game:hongwu``) or 找朋友 (``game:zhaopengyou``, five
seats: AIs for seats 1–4 and the 找朋友 options of :data:`ZPY_CHOICES` — declaration mode,
friend card, kitty multiplier, threshold, game end — each a button cycling its values, keys
``zpy:<option>``; RULES.md "找朋友").  The game, the five seats and those options are saved too.

Button keys: ``decks:2`` ``decks:3``, ``diff:easy`` ``diff:normal`` ``diff:hard``,
``seat1:prev`` ``seat1:name`` ``seat1:next`` (and seats 2, 3), ``rule:kitty_to_dealer_always``
``rule:base_score`` ``rule:failed_throw_penalty``, ``speed:<speed>``, ``lang:zh`` ``lang:en``,
``stake`` (cycles the coins per game point through :data:`game.career_session.STAKES`; shown
with a profile only), ``start``, ``back``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from game import house_rules, presets
from game.i18n import _
from game.layout import LEFT, RIGHT, TOP
from game.pacing import SPEEDS
from game.scenes.menu import Choice, FormScreen
from game.text import FIVE_POSITION_NAMES, POSITION_NAMES, ai_name
from game.widgets import Button

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: the 找朋友 options the new-game screen offers (RULES.md "找朋友"): name -> values in order,
#: the engine's default first
ZPY_CHOICES: dict[str, tuple] = {
    "declaration_mode": ("contest", "first"),
    "friend_card": ("non_trump", "any"),
    "kitty_multiplier": ("times", "power", "double"),
    "threshold": (120, 100, 140, 160, 80),
    "game_end": ("defend_a", "reach_a"),
}
#: how each 找朋友 option value is shown (``{v}``: the number)
ZPY_LABELS: dict[str, dict] = {
    "declaration_mode": {"contest": N_("Declaring: contest"), "first": N_("Declaring: first stands")},
    "friend_card": {"non_trump": N_("Friend card: side suits"), "any": N_("Friend card: any")},
    "kitty_multiplier": {"times": N_("Kitty ×2m"), "power": N_("Kitty ×2^m"), "double": N_("Kitty ×2")},
    "threshold": {None: N_("Threshold {v}")},
    "game_end": {"defend_a": N_("Game end: defend A"), "reach_a": N_("Game end: reach A")},
}


def zpy_label(name: str, value) -> str:
    """The button text of 找朋友 option ``name`` at ``value``, translated."""
    labels = ZPY_LABELS[name]
    return _(labels.get(value, labels.get(None, "{v}"))).format(v=value)
SEAT_POSITIONS = {1: RIGHT, 2: TOP, 3: LEFT}


class NewGameScene(FormScreen):
    """Choose the table and start.  Public state: ``decks``, ``difficulty``, ``seats`` (four
    kinds, seat 0 ``"human"``), ``rules`` (every house-rule option by name), ``speed``,
    ``lang``, ``ais`` (the AI names offered)."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        s = app.settings
        self.ais = app.ai_names()
        self.decks = s.decks if s.decks in (2, 3) else 2
        self.difficulty = s.difficulty if s.difficulty in presets.PRESETS else presets.DEFAULT_DIFFICULTY
        default = presets.default_seats(self.difficulty, self.ais)
        seats = list(s.seats) if len(s.seats) == 4 else default
        self.seats = ["human"] + [k if k in self.ais else default[i] for i, k in enumerate(seats) if i > 0]
        self.rules = house_rules.complete(app.house_rules())
        self.game = getattr(s, "game", "hongwu")
        zs = list(getattr(s, "zpy_seats", None) or [])
        zdefault = ["human"] + [default[1]] * 4
        self.zpy_seats = ["human"] + [k if k in self.ais else zdefault[i] for i, k in enumerate(zs) if i > 0] \
            if len(zs) == 5 else zdefault
        saved = dict(getattr(s, "zpy_rules", {}) or {})
        self.zpy_rules = {n: saved.get(n, vals[0]) if saved.get(n, vals[0]) in vals else vals[0]
                          for n, vals in ZPY_CHOICES.items()}
        self.speed = app.speed
        self.lang = app.lang
        self.stake = s.stake

    def title_text(self) -> str:
        """"New game"."""
        return _("New game")

    def rows(self) -> list[tuple[str, list[Choice]]]:
        """The game; then decks, difficulty, the four seats, house rules (红五) or difficulty,
        the AIs of seats 1–4 and the 找朋友 options; speed, language."""
        game_row = (_("Game"), [Choice("game:hongwu", _("Hong Wu 红五"), self.game == "hongwu"),
                                Choice("game:zhaopengyou", _("Finding Friends 找朋友"), self.game == "zhaopengyou")])
        if self.game == "zhaopengyou":
            return [game_row] + self._zpy_rows()
        rows = [game_row,
            (_("Decks"), [Choice(f"decks:{n}", _("{n} decks").format(n=n), self.decks == n) for n in (2, 3)]),
            (_("Difficulty"), [Choice(f"diff:{p.key}", _(p.label), self.difficulty == p.key)
                               for p in presets.PRESETS.values()]),
            (_("You (seat 0)"), [Choice("seat0", _("human"), False, style="flat", enabled=False)]),
        ]
        for seat in (1, 2, 3):
            label = _("{pos} (seat {n})").format(pos=_(POSITION_NAMES[SEAT_POSITIONS[seat]]), n=seat)
            rows.append((label, [
                Choice(f"seat{seat}:prev", "◀", style="normal", weight=0.25),
                Choice(f"seat{seat}:name", ai_name(self.seats[seat]), style="flat", weight=1.5),
                Choice(f"seat{seat}:next", "▶", style="normal", weight=0.25),
            ]))
        rows.append((_("House rules"), [
            Choice(f"rule:{name}", house_rules.control_label(name, self.rules[name]), style="normal",
                   weight=house_rules.WEIGHTS[name])
            for name in house_rules.CHOICES
        ]))
        if self.app.career.current() is not None:  # coins are a profile's (README "Career")
            from game.career_session import STAKES

            rows.append((_("Stake"), [Choice("stake", stake_label(self.stake), style="normal")]))
        rows.append((_("Speed"), [Choice(f"speed:{sp}", _(sp), self.speed == sp) for sp in SPEEDS]))
        rows.append((_("Language"), [Choice(f"lang:{lg}", name, self.lang == lg) for lg, name in LANGUAGE_NAMES.items()]))
        return rows

    def _zpy_rows(self) -> list[tuple[str, list[Choice]]]:
        rows = [(_("Difficulty"), [Choice(f"diff:{p.key}", _(p.label), self.difficulty == p.key)
                                   for p in presets.PRESETS.values()])]
        for seat in (1, 2, 3, 4):
            label = _("{pos} ({n})").format(pos=_(FIVE_POSITION_NAMES[seat]), n=seat)
            rows.append((label, [
                Choice(f"zseat{seat}:prev", "◀", style="normal", weight=0.25),
                Choice(f"zseat{seat}:name", ai_name(self.zpy_seats[seat]), style="flat", weight=1.5),
                Choice(f"zseat{seat}:next", "▶", style="normal", weight=0.25),
            ]))
        names = list(ZPY_CHOICES)
        rows.append((_("Options"), [Choice(f"zpy:{n}", zpy_label(n, self.zpy_rules[n]), style="normal")
                                    for n in names[:3]]))
        rows.append(("", [Choice(f"zpy:{n}", zpy_label(n, self.zpy_rules[n]), style="normal") for n in names[3:]]))
        rows.append((_("Speed"), [Choice(f"speed:{sp}", _(sp), self.speed == sp) for sp in SPEEDS]))
        rows.append((_("Language"), [Choice(f"lang:{lg}", name, self.lang == lg) for lg, name in LANGUAGE_NAMES.items()]))
        return rows

    def note(self) -> str:
        """What the chosen difficulty means; on a second line the house rules that differ from
        the defaults, if any."""
        p = presets.preset(self.difficulty)
        text = _("{level}: {summary}").format(level=_(p.label), summary=_(p.summary))
        if self.game == "zhaopengyou":
            return text + "\n" + _("Five players, three decks; the dealer calls a friend")
        rules = house_rules.summary_line(self.rules)
        return f"{text}\n{rules}" if rules else text

    def footer(self) -> list[tuple[str, str, str]]:
        """Back and Start."""
        return [("back", _("Back"), "flat"), ("start", _("Start"), "primary")]

    def on_button(self, button: Button) -> None:
        """Change one choice, or start / go back."""
        key = button.key
        head, _sep, arg = key.partition(":")
        if head == "game" and arg in ("hongwu", "zhaopengyou"):
            self.game = arg
        elif head == "zpy" and arg in ZPY_CHOICES:
            vals = ZPY_CHOICES[arg]
            cur = self.zpy_rules[arg]
            self.zpy_rules[arg] = vals[(vals.index(cur) + 1) % len(vals)] if cur in vals else vals[0]
        elif head.startswith("zseat") and head[5:].isdigit():
            self.cycle_seat(int(head[5:]), -1 if arg == "prev" else 1, self.zpy_seats)
        elif head == "decks":
            self.decks = int(arg)
        elif head == "diff":
            self.difficulty = arg
            self.seats = presets.default_seats(arg, self.ais)
            self.zpy_seats = ["human"] + [self.seats[1]] * 4
        elif head.startswith("seat") and head[4:].isdigit():
            self.cycle_seat(int(head[4:]), -1 if arg == "prev" else 1)
        elif head == "rule" and arg in house_rules.CHOICES:
            self.rules[arg] = house_rules.cycle(arg, self.rules[arg])
        elif key == "stake":  # cycles through the offered stakes
            from game.career_session import STAKES

            i = STAKES.index(self.stake) if self.stake in STAKES else -1
            self.stake = STAKES[(i + 1) % len(STAKES)]
        elif head == "speed":
            self.speed = arg
        elif head == "lang":
            self.lang = arg
            self.app.set_language(arg)
        elif key == "start":
            self.start()
        elif key == "back":
            self.app.pop_screen(self)

    def cycle_seat(self, seat: int, step: int, seats: list[str] | None = None) -> None:
        """Give ``seat`` of ``seats`` (default :attr:`seats`) the previous (``step`` -1) or
        next AI of :attr:`ais`."""
        seats = self.seats if seats is None else seats
        if not self.ais or not 1 <= seat < len(seats):
            return
        cur = seats[seat]
        i = self.ais.index(cur) if cur in self.ais else -step
        seats[seat] = self.ais[(i + step) % len(self.ais)]

    def start(self) -> None:
        """Save the choices and deal the first hand (with :attr:`rules`)."""
        self.app.set_speed(self.speed)
        if self.game == "zhaopengyou":
            self.app.start_zpy_game(list(self.zpy_seats), difficulty=self.difficulty, rules=dict(self.zpy_rules))
            return
        self.app._save(game="hongwu")
        self.app.start_game(list(self.seats), decks=self.decks, difficulty=self.difficulty,
                            rules=dict(self.rules), stake=self.stake)


def stake_label(coins: int) -> str:
    """The stake button: "Off" for 0, else the coins per game point."""
    if not coins:
        return _("Off (no coins)")
    return _("{coins:,} coins per point").format(coins=coins)
