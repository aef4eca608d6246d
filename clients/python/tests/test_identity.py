"""The resume secret: knowing a client's id (and the token) is not enough to act as that client."""

from __future__ import annotations

from typing import Any

import grpc
import grpc.aio
import pytest

from a3s_box import A3sClient, A3sError, HookResponse
from a3s_box._proto import pb, pb_grpc
from conftest import DemoAgent


def _metadata(agent: DemoAgent, client_id: str, secret: str | None = None) -> tuple[tuple[str, str], ...]:
    md = [("authorization", f"Bearer {agent.token}"), ("x-a3s-client-id", client_id)]
    if secret is not None:
        md.append(("x-a3s-client-secret", secret))
    return tuple(md)


async def _status(call: Any) -> A3sError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return A3sError.from_rpc(caught.value)


async def test_the_agent_hands_the_client_a_secret_and_the_client_presents_it(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, agent.token)
    try:
        client.register_hook("Stop", lambda e: None, hook_id="mine")
        await client.ready()
        assert client._secret is not None and len(client._secret) >= 43
        assert client._secret not in repr(client)
    finally:
        await client.close()


async def test_another_process_with_the_victims_id_but_no_secret_changes_nothing(agent: DemoAgent) -> None:
    victim = A3sClient(agent.address, agent.token)
    try:
        victim.register_hook(
            "PreToolUse",
            lambda e: HookResponse.block("victim guards"),
            matcher={"tool": "Bash"},
            hook_id="guard",
        )
        await victim.ready()
        async with grpc.aio.insecure_channel(agent.address) as channel:
            stub = pb_grpc.HookServiceStub(channel)
            for secret in (None, "A" * 43):
                md = _metadata(agent, victim.client_id, secret)
                for call in (
                    stub.ListHooks(pb.ListHooksRequest(), metadata=md),
                    stub.UnregisterHook(pb.UnregisterHookRequest(hook_id="guard"), metadata=md),
                    stub.RegisterHook(pb.RegisterHookRequest(event_type="Stop", hook_id="evil"), metadata=md),
                ):
                    assert (await _status(call)).code == "UNAUTHENTICATED"
                stream = stub.HookStream(metadata=md)
                assert (await _status(stream.read())).code == "UNAUTHENTICATED"
        # The victim's stream was not replaced and its hook still blocks.
        assert victim.state == "ready"
        assert [h.id for h in await victim.list_hooks()] == ["guard"]
        session = await victim.create_session()
        result = await victim.execute_tool(session, "Bash", {"command": "echo x"})
        assert result.blocked and "victim guards" in (result.reason or "")
    finally:
        await victim.close()


async def test_hook_calls_before_the_stream_is_opened_are_a_failed_precondition(agent: DemoAgent) -> None:
    async with grpc.aio.insecure_channel(agent.address) as channel:
        stub = pb_grpc.HookServiceStub(channel)
        md = _metadata(agent, "never-opened-a-stream")
        error = await _status(stub.RegisterHook(pb.RegisterHookRequest(event_type="Stop"), metadata=md))
        assert error.status == "FAILED_PRECONDITION"
        error = await _status(stub.ListHooks(pb.ListHooksRequest(), metadata=md))
        assert error.status == "FAILED_PRECONDITION"
