"""A dropped connection (the agent still up): the client resumes inside the reconnect window with
its secret, and the ListHooks diff sends nothing again, so the agent's counters carry on."""

from __future__ import annotations

import asyncio
import threading

from a3s_box import A3sClient, HookResponse, PreToolUseEvent, State
from conftest import DemoAgent


class Proxy:
    """A TCP relay on 127.0.0.1 whose connections the test can cut."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self._target = (host, int(port))
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None
        self.address = ""

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.address = "127.0.0.1:%d" % self._server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self._target)
        self._writers += [writer, upstream_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    def cut(self) -> None:
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()


async def test_a_dropped_connection_resumes_without_registering_again(agent: DemoAgent) -> None:
    proxy = await Proxy(agent.address).start()
    client = A3sClient(proxy.address, agent.token, reconnect=(0.05, 0.2))
    states: list[State] = []
    back = asyncio.Event()

    def on_state(state: State) -> None:
        states.append(state)
        if state == "ready" and "reconnecting" in states:
            back.set()

    try:
        client.on_state(on_state)
        client.register_hook(
            "PreToolUse", lambda e: HookResponse.block("kept"), matcher={"tool": "Bash"}, hook_id="kept"
        )
        await client.ready()
        session = await client.create_session()
        assert (await client.execute_tool(session, "Bash", {"command": "echo 1"})).blocked
        first_secret = client._secret
        proxy.cut()
        await back.wait()
        # Resumed with the secret: the agent kept the hook, so its counters went on.
        assert client._secret == first_secret
        (info,) = await client.list_hooks()
        assert (info.id, info.counters.runs) == ("kept", 1)
        assert (await client.execute_tool(session, "Bash", {"command": "echo 2"})).blocked
        (info,) = await client.list_hooks()
        assert info.counters.runs == 2
    finally:
        await client.close()
        await proxy.close()


async def test_a_plain_handler_may_register_a_hook_from_its_worker_thread(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, agent.token)
    try:
        threads: list[int] = []

        def installs_another(event: PreToolUseEvent) -> None:
            threads.append(threading.get_ident())
            if len(threads) == 1:
                client.register_hook(
                    "PreToolUse", lambda e: HookResponse.block("installed later"), matcher={"tool": "Bash"}
                )

        client.register_hook("PreToolUse", installs_another, matcher={"tool": "Bash"})
        await client.ready()
        session = await client.create_session()
        assert not (await client.execute_tool(session, "Bash", {"command": "echo a"})).blocked
        await client.ready()
        assert len(await client.list_hooks()) == 2
        assert (await client.execute_tool(session, "Bash", {"command": "echo b"})).blocked
        assert threads[0] != threading.get_ident()
    finally:
        await client.close()
