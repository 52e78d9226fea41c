"""Private copies of what a decision hook is given, so that a plugin cannot corrupt the game.

An AI plugin runs in the game's own Python process. The engine's :class:`engine.state.PlayerView`
is a frozen dataclass, but "frozen" only stops ``view.x = y``: ``object.__setattr__(view, "hand",
())`` or ``view.__dict__["hand"] = ()`` still rewrite it, and the same goes for the objects it
holds (the :class:`~engine.ruleset.RuleSet`, each :class:`~engine.state.FinishedTrick`, the
settlement) and for the cached :class:`~engine.order.TrumpContext` that ``view.ctx`` returns.
The runner therefore hands every decision hook a *private copy* (:func:`private_view`), and
keeps the engine's own view for validating the answer and for the stand-in ``basic`` AI
(PLUGINS.md "Safety rules"). The same holds for 找朋友's :class:`engine.zhaopengyou_view.ZpyView`
(copied as a :class:`PrivateZpyView`, whose ``ctx`` is private too).

What is copied: every object reachable from the view's fields that Python code can change
(dataclass instances, objects with ``__dict__`` or ``__slots__``, lists, dicts, sets), down to
values that cannot change at all (``int`` and :class:`~engine.cards.Card`, ``str``, ``float``,
``None``, enum members, and tuples of those, which are shared, not copied). The copy's ``ctx``
is a private :class:`~engine.order.TrumpContext` too (made when first asked for), so
``view.play_options()`` and ``view.ctx`` never reach the engine's shared one.

What is not covered: a plugin that deliberately changes engine *modules or classes* (monkey-
patching ``engine.tricks``, ``Card._interned``, ``PlayerView`` itself) or uses ``ctypes``; no
in-process runner can stop that. Run untrusted code in another process (a LAN client).

Cost: measured by ``benchmarks/isolation_cost.py``: about 11 µs per auction decision and
22-25 µs per play decision (medians, two loaded cores), about what ``game.view()`` costs.
Engine value types known to hold only immutable fields (:data:`SHALLOW_TYPES`) are copied one
level deep, which keeps the copy this cheap.
"""
from __future__ import annotations

import enum
import types
from typing import Any

from engine.order import TrumpContext
from engine.state import PlayerView
from engine.zhaopengyou_view import ZpyView

from engine.cards import Card
from engine.ruleset import RuleOptions
from engine.scoring import Settlement
from engine.state import FinishedTrick

_ATOMIC: set[type] = {int, bool, float, complex, str, bytes, type(None), Card}
"""Exact types whose values cannot be changed from Python (shared between copies); enum
classes are added as they are met."""

_UNCOPYABLE = (type, types.FunctionType, types.MethodType, types.BuiltinFunctionType,
               types.ModuleType, types.GeneratorType)
"""Values a view never holds and that cannot be copied meaningfully."""


SHALLOW_TYPES: frozenset[type] = frozenset({FinishedTrick, Settlement, RuleOptions})
"""Engine value types whose fields hold only immutable values (ints, Cards, strings and tuples
of them): a copy of the object itself is enough, its fields are shared. ``tests/test_ai_isolation.py``
checks this on every view of whole hands, so a changeable field added later is caught."""


def _is_atomic(value: Any) -> bool:
    cls = type(value)
    if cls in _ATOMIC:
        return True
    if isinstance(value, enum.Enum):
        _ATOMIC.add(cls)  # enum members are singletons: shared, never copied
        return True
    return False


def private_copy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """A copy of ``value`` that shares nothing changeable with it.

    Immutable values (see the module docstring) are returned as they are; tuples are rebuilt
    only when they hold something changeable; lists, dicts, sets, dataclasses and other
    objects with ``__dict__``/``__slots__`` are copied member by member (without calling
    their ``__init__``). Shared members stay shared within the copy (``memo``).
    Raises TypeError for a value it does not know how to copy safely (none occur in views).
    """
    cls = type(value)
    if cls in _ATOMIC:
        return value
    if cls is tuple:
        for item in value:
            if type(item) not in _ATOMIC:
                break
        else:
            return value  # a tuple of immutable values is immutable: share it
    if cls in SHALLOW_TYPES:
        out = object.__new__(cls)
        object.__getattribute__(out, "__dict__").update(object.__getattribute__(value, "__dict__"))
        return out
    if memo is None:
        memo = {}
    key = id(value)
    if key in memo:
        return memo[key]
    if cls is tuple:
        items = tuple([private_copy(v, memo) for v in value])
        out: Any = value if all(a is b for a, b in zip(items, value)) else items
        memo[key] = out
        return out
    if _is_atomic(value):
        return value
    if cls is list:
        out = memo[key] = []
        out.extend(private_copy(v, memo) for v in value)
        return out
    if cls is dict:
        out = memo[key] = {}
        for k, v in value.items():
            out[private_copy(k, memo)] = private_copy(v, memo)
        return out
    if cls in (set, frozenset):
        out = cls(private_copy(v, memo) for v in value)
        memo[key] = out
        return out
    if isinstance(value, TrumpContext):
        return memo.setdefault(key, copy_context(value))
    if isinstance(value, _UNCOPYABLE):
        raise TypeError(f"cannot make a private copy of {value!r}")
    out = object.__new__(cls)
    memo[key] = out
    state = getattr(value, "__dict__", None)
    if state is not None:
        mine = object.__getattribute__(out, "__dict__")
        for k, v in state.items():
            mine[k] = v if type(v) in _ATOMIC else private_copy(v, memo)
    for klass in _slotted(cls):
        for slot in klass.__slots__:
            if slot in ("__dict__", "__weakref__"):
                continue
            try:
                v = object.__getattribute__(value, slot)
            except AttributeError:
                continue
            object.__setattr__(out, slot, private_copy(v, memo))
    return out


def _slotted(cls: type) -> tuple[type, ...]:
    """The classes of ``cls``'s MRO that declare ``__slots__`` (beyond ``object``)."""
    return tuple(k for k in cls.__mro__ if "__slots__" in k.__dict__)


def copy_context(ctx: TrumpContext) -> TrumpContext:
    """A private :class:`~engine.order.TrumpContext` equal to ``ctx`` (its lookup tables are
    tuples, so they are shared; only the object is new). The engine's caches key on
    ``ctx.key`` and compute with the engine's own context, so a changed copy cannot poison
    them."""
    cls = type(ctx)
    out = object.__new__(cls)
    for klass in _slotted(cls):
        for slot in klass.__slots__:
            try:
                object.__setattr__(out, slot, object.__getattribute__(ctx, slot))
            except AttributeError:
                continue
    return out


class PrivateView(PlayerView):
    """A :class:`~engine.state.PlayerView` made for one decision of one plugin.

    The same fields, properties and methods as the engine's view; ``ctx`` (and so
    ``play_options()``) uses a :class:`~engine.order.TrumpContext` of its own. Made by
    :func:`private_view`; changing it changes nothing outside it.
    """

    @property
    def ctx(self) -> TrumpContext | None:  # type: ignore[override]
        """This view's own card order once trump is chosen, else None (RULES.md §5)."""
        state = object.__getattribute__(self, "__dict__")
        shared = PlayerView.ctx.fget(self)  # whatever the engine's view would answer
        if shared is None:
            return None
        mine = state.get("_private_ctx")
        if mine is None or mine[0] is not shared:
            mine = state["_private_ctx"] = (shared, copy_context(shared))
        return mine[1]


class PrivateZpyView(ZpyView):
    """A 找朋友 :class:`~engine.zhaopengyou_view.ZpyView` made for one decision of one plugin, as
    :class:`PrivateView` is for 红五: the same fields, properties and methods
    (``friend_calls()``, ``play_options()``, ``dealer_side()``...), with a
    :class:`~engine.order.TrumpContext` of its own once the deal has ended. Made by
    :func:`private_view`; changing it changes nothing outside it."""

    @property
    def ctx(self) -> TrumpContext | None:  # type: ignore[override]
        """This view's own card order once the deal has ended, else None (RULES.md "找朋友")."""
        state = object.__getattribute__(self, "__dict__")
        shared = ZpyView.ctx.fget(self)  # the engine's cached level context
        if shared is None:
            return None
        mine = state.get("_private_ctx")
        if mine is None or mine[0] is not shared:
            mine = state["_private_ctx"] = (shared, copy_context(shared))
        return mine[1]


_PRIVATE_CLASSES: dict[type, type] = {PlayerView: PrivateView, PrivateView: PrivateView,
                                      ZpyView: PrivateZpyView, PrivateZpyView: PrivateZpyView}
"""The private class of each kind of view a decision hook is given."""


def private_view(view: PlayerView | ZpyView) -> PrivateView | PrivateZpyView:
    """A :class:`PrivateView` (for a 红五 :class:`~engine.state.PlayerView`) or a
    :class:`PrivateZpyView` (for a 找朋友 :class:`~engine.zhaopengyou_view.ZpyView`) with the fields
    of ``view``, sharing nothing changeable with it (see :func:`private_copy`). Raises
    TypeError if a field holds something uncopyable or ``view`` is another kind of object."""
    cls = _PRIVATE_CLASSES.get(type(view))
    if cls is None:
        raise TypeError(f"not an engine view: {type(view).__name__}")
    memo: dict[int, Any] = {}
    out = object.__new__(cls)
    state = object.__getattribute__(out, "__dict__")
    for name, value in object.__getattribute__(view, "__dict__").items():
        if name != "_private_ctx":
            state[name] = private_copy(value, memo)
    return out


def private_args(hook: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a decision hook with ``view`` replaced by a private copy and
    ``options`` of ``choose_play`` rebuilt from that copy; other arguments (``bids``,
    ``suits``, ``count``, and 找朋友's ``options`` of ``choose_declaration`` /
    ``choose_counter`` and ``calls`` of ``choose_friend``) are tuples of plain values or ints,
    passed as they are (anything changeable in them is copied)."""
    out = dict(kwargs)
    view = out.get("view")
    rebuilt = ("view",)
    if view is not None:
        mine = private_view(view)
        out["view"] = mine
        if hook == "choose_play" and "options" in out:
            out["options"] = mine.play_options()
            rebuilt = ("view", "options")
    for key, value in out.items():
        if key not in rebuilt:
            out[key] = private_copy(value)
    return out


__all__ = ["PrivateView", "PrivateZpyView", "copy_context", "private_args", "private_copy", "private_view"]
