"""LAN play for Hong Wu: the wire protocol, the asyncio host and the client side.

Layers, bottom up (see PROTOCOL.md for the wire contract):

- ``framing``       bytes <-> msgpack documents (self-delimiting stream, size-limited)
- ``protocol``      message shapes, protocol version, method table, validation, error codes
- ``codec``         engine values (cards, actions, events, PlayerView) <-> wire values
- ``server``        the authoritative asyncio host: tables, seats, timers, auto-play
- ``client``        an asyncio client session (requests, notifications, reconnect)
- ``remote_table``  the ``game.table.Table`` protocol over the network, for the pygame client
- ``discovery``     LAN discovery by UDP announcements
- ``addresses``     the addresses a host can be joined at (only those it listens on)
- ``journal``       the host's SQLite journal of every table (``hongwu host --resume``)
- ``journal_hands`` how a journaled hand (and a 找朋友 match) is written and rebuilt
- ``cli``           the ``hongwu host`` and ``hongwu join`` sub-commands
"""
