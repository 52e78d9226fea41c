"""AI plugins for Hong Wu: hook specifications, discovery, safe running, built-in AIs, arena.

Public names for plugin authors: :data:`hookimpl` (mark hook implementations), :data:`PASS`
(the pass bid), :class:`AISettings` (what a factory receives). See PLUGINS.md.
"""
from .base import PASS, AIInfo, AISettings
from .hookspecs import hookimpl

__all__ = ["PASS", "AIInfo", "AISettings", "hookimpl"]
