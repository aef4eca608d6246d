"""The conformance scenarios the TypeScript transports run, from Python, against a real agent:
block, modify, skip, retry, timeouts fail-open and fail-closed, a handler that fails, a client
killed mid-firing, an agent restart, a dropped connection resumed, and bad credentials."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from a3s_box import A3sClient, A3sError, HookResponse, PreToolUseEvent, State
from conftest import HERE, DemoAgent, python_env


@asynccontextmanager
async def connected(agent: DemoAgent, **options: Any) -> AsyncIterator[A3sClient]:
    client = A3sClient(agent.address, agent.token, **options)
    try:
        yield client
    finally:
        await client.close()


BASH = {"tool": "Bash"}


async def test_block(agent: DemoAgent) -> None:
    async with connected(agent) as client:
        client.register_hook("PreToolUse", lambda e: HookResponse.block("python says no"), matcher=BASH)
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo ran"})
        assert result.blocked and "python says no" in (result.reason or "")
        assert "ran" not in result.output


async def test_modify(agent: DemoAgent) -> None:
    async with connected(agent) as client:

        @client.hook("PreToolUse", matcher=BASH)
        async def rewrite(event: PreToolUseEvent) -> HookResponse:
            return HookResponse.modify({"args": {"command": "echo rewritten-by-python"}})

        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo original"})
        assert not result.blocked and "rewritten-by-python" in result.output


async def test_skip_ignores_the_hooks_after_it(agent: DemoAgent) -> None:
    async with connected(agent) as client:
        client.register_hook("PreToolUse", lambda e: HookResponse.skip(), matcher=BASH, priority=0)
        client.register_hook(
            "PreToolUse", lambda e: HookResponse.block("after the skip"), matcher=BASH, priority=10
        )
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo skipped"})
        assert not result.blocked and "skipped" in result.output


async def test_retry_runs_the_operation_again(agent: DemoAgent) -> None:
    async with connected(agent) as client:
        calls: list[str] = []

        def once_more(event: PreToolUseEvent) -> HookResponse:
            calls.append(event.event_id)
            return HookResponse.retry(1) if len(calls) == 1 else HookResponse.continue_()

        client.register_hook("PreToolUse", once_more, matcher=BASH)
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo again"})
        assert not result.blocked and "again" in result.output
        assert len(calls) == 2 and calls[0] != calls[1]


@pytest.mark.parametrize("fail_behavior", ["continue", "block"])
async def test_a_timeout_contributes_the_fail_behaviour_and_cancels_the_handler(
    agent: DemoAgent, fail_behavior: str
) -> None:
    async with connected(agent) as client:
        cancelled = asyncio.Event()

        async def too_slow(event: PreToolUseEvent) -> HookResponse:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return HookResponse.block("never sent")

        client.register_hook(
            "PreToolUse", too_slow, matcher=BASH, timeout_ms=300, fail_behavior=fail_behavior, name="too-slow"  # type: ignore[arg-type]
        )
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo timed"})
        await cancelled.wait()
        if fail_behavior == "block":
            assert result.blocked and "too-slow" in (result.reason or "")
            assert client.client_id not in (result.reason or "")
        else:
            assert not result.blocked and "timed" in result.output
        (info,) = await client.list_hooks()
        assert info.counters.timeouts == 1


async def test_the_agents_cancellation_cancels_the_handler_before_its_deadline(agent: DemoAgent) -> None:
    async with connected(agent) as client:
        started, cancelled = asyncio.Event(), asyncio.Event()

        async def waits(event: PreToolUseEvent) -> None:
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        client.register_hook("PreToolUse", waits, matcher=BASH, timeout_ms=60_000)
        session = await client.create_session()
        call = asyncio.create_task(client.execute_tool(session, "Bash", {"command": "echo never"}))
        await started.wait()
        # Cancelling the call aborts the agent's firing; the agent sends a cancellation frame.
        call.cancel()
        await cancelled.wait()
        (info,) = await client.list_hooks()
        assert info.counters.timeouts == 0


async def test_a_failing_handler_reports_its_error_and_applies_the_fail_behaviour(agent: DemoAgent) -> None:
    async with connected(agent) as client:
        errors: list[A3sError] = []
        client.on_error(errors.append)

        def broken(event: PreToolUseEvent) -> None:
            raise RuntimeError("the policy file is missing")

        client.register_hook("PreToolUse", broken, matcher=BASH, fail_behavior="block")
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo no"})
        assert result.blocked
        (info,) = await client.list_hooks()
        assert info.counters.failures == 1
        assert [e.code for e in errors] == ["HANDLER_FAILED"]
        assert "the policy file is missing" in errors[0].message


async def test_a_client_killed_mid_firing_fails_closed_at_once(own_agent: DemoAgent) -> None:
    script = HERE / "clients" / "hanging_client.py"
    child = subprocess.Popen(
        [sys.executable, str(script), own_agent.address, own_agent.token],
        stdout=subprocess.PIPE,
        text=True,
        env=python_env(),
    )
    try:
        loop = asyncio.get_running_loop()
        assert child.stdout is not None
        ready = await loop.run_in_executor(None, child.stdout.readline)
        assert ready.startswith("ready "), ready
        client_id = ready.split()[1]
        async with connected(own_agent) as client:
            session = await client.create_session()
            firing = asyncio.create_task(client.execute_tool(session, "Bash", {"command": "echo never"}))
            assert (await loop.run_in_executor(None, child.stdout.readline)).strip() == "firing"
            child.send_signal(signal.SIGKILL)
            # The hook's timeout is 60 s: the agent answers for the dead client at once.
            result = await firing
            assert result.blocked and "hangs" in (result.reason or "")
            assert client_id not in (result.reason or "")
    finally:
        child.kill()
        child.wait()


async def test_after_an_agent_restart_the_client_reconnects_and_registers_again(own_agent: DemoAgent) -> None:
    states: list[State] = []
    back = asyncio.Event()
    async with connected(own_agent, reconnect=(0.05, 0.2)) as client:

        def on_state(state: State) -> None:
            states.append(state)
            if state == "ready" and "reconnecting" in states:
                back.set()

        client.on_state(on_state)
        client.register_hook(
            "PreToolUse", lambda e: HookResponse.block("still here"), matcher=BASH, hook_id="guard"
        )
        await client.ready()
        port = own_agent.port
        await asyncio.get_running_loop().run_in_executor(None, own_agent.stop)
        await asyncio.get_running_loop().run_in_executor(None, lambda: own_agent.start(port))
        await back.wait()
        assert [h.id for h in await client.list_hooks()] == ["guard"]
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo x"})
        assert result.blocked and "still here" in (result.reason or "")


async def test_bad_token_is_a_clear_error_at_once(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, "not-the-token")
    with pytest.raises(A3sError) as caught:
        await client.ready(timeout=30)
    assert caught.value.code == "UNAUTHENTICATED"
    assert client.state == "failed"
    await client.close()


async def test_an_unreachable_agent_is_a_clear_error_naming_the_address() -> None:
    client = A3sClient("127.0.0.1:1", "t")
    with pytest.raises(A3sError) as caught:
        await client.ready(timeout=0.3)
    assert caught.value.code == "UNAVAILABLE"
    assert caught.value.message.startswith("not connected to the agent at 127.0.0.1:1 within 300 ms")
    await client.close()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("http://127.0.0.1:16300", "address: expected host:port"),
        ("127.0.0.1", "address: expected host:port"),
        ("127.0.0.1:70000", "address: expected host:port"),
        ("agent.example:16300", "address: agent.example is not this machine"),
    ],
)
def test_a_bad_address_is_refused_before_anything_is_sent(address: str, message: str) -> None:
    with pytest.raises(A3sError) as caught:
        A3sClient(address, "t")
    assert caught.value.code == "INVALID_CONFIG"
    assert caught.value.message.startswith(message)


def test_bad_registrations_fail_where_they_are_written() -> None:
    client = A3sClient("127.0.0.1:16300", "t")
    cases: list[tuple[Any, str, str]] = [
        (
            lambda: client.register_hook("explode", lambda e: None),
            "UNKNOWN_EVENT",
            "event: unknown event name",
        ),
        (
            lambda: client.register_hook("Stop", lambda e: None, matcher={"tool": "Bash"}),
            "INVALID_CONFIG",
            "matcher.tool: Stop is not a tool event",
        ),
        (
            lambda: client.register_hook("PreToolUse", lambda e: None, matcher={"path": "*"}),
            "INVALID_CONFIG",
            "matcher.path: unknown key",
        ),
        (
            lambda: client.register_hook("PreToolUse", lambda e: None, timeout_ms=0),
            "INVALID_CONFIG",
            "timeout_ms:",
        ),
        (
            lambda: client.register_hook("PreToolUse", lambda e: None, hook_id="a b"),
            "INVALID_CONFIG",
            "hook_id:",
        ),
    ]
    for build, code, message in cases:
        with pytest.raises(A3sError) as caught:
            build()
        assert (caught.value.code, caught.value.message[: len(message)]) == (code, message)
