"""Helpers shared by the tests that start a real ``hongwu host`` on loopback with a window."""
from __future__ import annotations

import argparse

LOOPBACK_HOST = ("--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins",
                 "--ai-delay", "0", "--lang", "en", "--speed", "instant", "--mute")
"""``hongwu host`` arguments for a test host: 127.0.0.1, any free port, no discovery, no user
plugins, AIs without delay, English, instant animation, no sound."""


def host_args(*extra: str) -> argparse.Namespace:
    """Parsed ``hongwu host`` arguments (the client's parser, with the window options) for a
    loopback test host, :data:`LOOPBACK_HOST` followed by ``extra``."""
    from game.lan_cli import add_host_parser

    sub = argparse.ArgumentParser().add_subparsers()
    return add_host_parser(sub).parse_args([*LOOPBACK_HOST, *extra])
