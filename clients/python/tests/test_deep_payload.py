"""A firing nobody could parse must cost that one firing, never the client's connection: a payload
nested deeper than the agent's JSON limit is refused before parsing and answered with the hook's
fail behaviour, and a bug while a message is handled shows as ``reconnecting``, never as a
``ready`` client that answers nothing. Against a real hook server (a TypeScript host on
127.0.0.1 that fires PreToolUse events with args nested as deep as a test asks)."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from a3s_box import A3sClient, HookResponse, PreToolUseEvent, State
from a3s_box._wire import MAX_JSON_DEPTH, json_too_deep, load_json
from a3s_box.errors import A3sError
from conftest import HERE, REPO, _read_line, node_command


class DeepHost:
    """``deep-host.ts``: a hook server whose host fires one PreToolUse per ``fire`` call."""

    def __init__(self) -> None:
        self.token = secrets.token_urlsafe(24)
        self.process = subprocess.Popen(
            node_command(HERE / "ts" / "deep-host.ts", self.token),
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        line = _read_line(self.process, 60)
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"the host did not start: {line!r}")
        self.address = line.removeprefix("listening on ").strip()

    async def fire(self, depth: int, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{depth} {command}\n")
        self.process.stdin.flush()
        line = await asyncio.to_thread(self.process.stdout.readline)
        result: dict[str, Any] = json.loads(line)
        return result

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def host() -> Iterator[DeepHost]:
    deep = DeepHost()
    yield deep
    deep.stop()


def _no_rm(event: PreToolUseEvent) -> HookResponse | None:
    return HookResponse.block("no rm") if "rm" in str(event.args.get("command")) else None


async def test_a_payload_nested_1100_levels_fails_that_firing_and_the_next_ones_are_answered(
    host: DeepHost,
) -> None:
    client = A3sClient(host.address, host.token)
    states: list[State] = []
    errors: list[A3sError] = []
    client.on_state(states.append)
    client.on_error(errors.append)
    try:
        client.register_hook("PreToolUse", _no_rm, matcher={"tool": "Bash"}, fail_behavior="block")
        await client.ready()
        deep = await host.fire(1_100, "echo hi")
        # Answered at once with the hook's fail behaviour (block), not left to the host's timeout.
        assert deep["action"] == "block"
        assert f"nested more than {MAX_JSON_DEPTH} levels deep" in deep["reason"]
        assert "timed out" not in deep["reason"]
        for _ in range(3):
            assert await host.fire(1, "rm -rf /") == {"action": "block", "reason": "no rm"}
        assert client.state == "ready"
        assert "reconnecting" not in states
        assert any(e.code == "LIMIT_EXCEEDED" for e in errors)
    finally:
        await client.close()


async def test_a_bug_while_a_message_is_handled_shows_as_reconnecting_and_the_client_comes_back(
    host: DeepHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = A3sClient(host.address, host.token, reconnect=(0.05, 0.2))
    states: list[State] = []
    back = asyncio.Event()

    def on_state(state: State) -> None:
        states.append(state)
        if state == "ready" and "reconnecting" in states:
            back.set()

    try:
        client.on_state(on_state)
        client.register_hook("PreToolUse", _no_rm, matcher={"tool": "Bash"}, fail_behavior="block")
        await client.ready()

        def broken_once(message: Any) -> None:
            monkeypatch.undo()
            raise RuntimeError("a bug in the SDK")

        monkeypatch.setattr(client._runner, "handle", broken_once)
        await host.fire(1, "rm -rf /")
        await asyncio.wait_for(back.wait(), 20)
        assert "reconnecting" in states
        assert await host.fire(1, "rm -rf /") == {"action": "block", "reason": "no rm"}
    finally:
        await client.close()


async def test_a_connection_task_that_dies_is_restarted_not_left_ready(
    host: DeepHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = A3sClient(host.address, host.token, reconnect=(0.05, 0.2))
    states: list[State] = []
    back = asyncio.Event()

    def on_state(state: State) -> None:
        states.append(state)
        if state == "ready" and "reconnecting" in states:
            back.set()

    try:
        client.on_state(on_state)
        client.register_hook("PreToolUse", _no_rm, matcher={"tool": "Bash"}, fail_behavior="block")
        await client.ready()

        def broken_once() -> None:
            monkeypatch.undo()
            raise RuntimeError("a bug outside the stream")

        monkeypatch.setattr(client._sync, "disconnected", broken_once)
        assert client._call is not None
        client._call.cancel()  # the stream ends; the loop's bookkeeping then fails
        await asyncio.wait_for(back.wait(), 20)
        assert await host.fire(1, "rm -rf /") == {"action": "block", "reason": "no rm"}
    finally:
        await client.close()


def test_depth_is_judged_without_parsing_and_brackets_in_strings_do_not_count() -> None:
    nested = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    assert json_too_deep(nested.encode())
    assert not json_too_deep(("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH).encode())
    assert not json_too_deep(json.dumps({"s": "[{" * 5_000, "q": '\\"[[[['}).encode())
    assert json_too_deep(b'{"a":' * 100_000)
    with pytest.raises(A3sError) as refused:
        load_json(b'{"a":' * 2_000 + b"1" + b"}" * 2_000, "payload")
    assert refused.value.code == "LIMIT_EXCEEDED"
    assert "payload" in refused.value.message
