"""Input the protocol document forbids is refused over real sockets on 127.0.0.1: a reconnect
token or host key in any script (non-ASCII too) that names nothing gets BAD_TOKEN (or simply no
host rights), never INTERNAL; a name with no visible character and a chat line with none get
BAD_PARAMS; the connection and the table carry on (PROTOCOL.md sections 3 and ``chat``)."""
from __future__ import annotations

import asyncio

import pytest

from net.client import Client, RemoteError
from net.server import same_secret
from net.testing import LOOPBACK, connect, running_server


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


@pytest.mark.parametrize("token", ["红五令牌", "é" * 10, "x", "🂡" * 16])
def test_any_malformed_token_is_bad_token(token):
    async def go():
        async with running_server() as srv:
            seated = await connect(srv, "Ann", seat=0)
            c = await Client.connect(LOOPBACK, srv.port, timeout=5)
            with pytest.raises(RemoteError) as err:
                await c.hello("Bob", token=token)
            assert err.value.name == "BAD_TOKEN"
            # the connection is still usable: a plain hello works afterwards
            welcome = await c.hello("Bob", observer=True)
            assert welcome is not None
            assert "time" in await seated.call("ping")
            await c.close()
            await seated.close()
    run(go())


def test_non_ascii_host_key_gives_no_rights_and_no_error():
    async def go():
        async with running_server(host_key="k" * 20) as srv:
            c = await connect(srv, "Ann", seat=0, host_key="主机钥匙")
            assert "time" in await c.call("ping")
            await c.close()
    run(go())


@pytest.mark.parametrize("name", ["", "   ", "\x01\x02", "\u200b\x7f"])
def test_name_without_visible_characters_is_refused(name):
    async def go():
        async with running_server() as srv:
            c = await Client.connect(LOOPBACK, srv.port, timeout=5)
            with pytest.raises(RemoteError) as err:
                await c.hello(name)
            assert err.value.name == "BAD_PARAMS" and "name" in err.value.message
            await c.close()
    run(go())


@pytest.mark.parametrize("text", ["", "  ", "\x00\x1b"])
def test_empty_chat_is_refused_and_real_chat_relayed(text):
    async def go():
        async with running_server() as srv:
            ann = await connect(srv, "Ann", seat=0)
            with pytest.raises(RemoteError) as err:
                await ann.call("chat", {"text": text})
            assert err.value.name == "BAD_PARAMS"
            assert await ann.call("chat", {"text": "你好"}) == {}
            await ann.close()
    run(go())


def test_same_secret():
    assert same_secret("abc", "abc") and not same_secret("abd", "abc")
    assert not same_secret("红", "abc") and not same_secret(None, "abc") and not same_secret("abc", None)
    assert not same_secret(12, "12")
