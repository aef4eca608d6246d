"""A Python hook defers a tool call over gRPC: a real demo agent does not run it, and a real
hook server's merged result carries the hook's reason and routing."""

from __future__ import annotations

from a3s_box import A3sClient, HookResponse, PreToolUseEvent
from conftest import DemoAgent
from test_deep_payload import DeepHost, host  # noqa: F401  (the fixture)

ROUTING = {"deciders": ["alice"], "deadline": "2h", "on_deadline": "allow"}


def _defer_push(event: PreToolUseEvent) -> HookResponse | None:
    if "git push" in str(event.args.get("command")):
        return HookResponse.defer("pushing needs a person", ROUTING)
    return None


async def test_a_deferred_call_does_not_run(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, agent.token)
    marker = agent.workdir / "pushed.txt"
    try:
        session = await client.create_session()
        client.register_hook("PreToolUse", _defer_push, matcher={"tool": "Bash"})
        await client.ready()
        result = await client.execute_tool(session, "Bash", {"command": f"git push; touch {marker}"})
        assert not result.success
        assert "did not run" in result.output
        assert not marker.exists()
    finally:
        await client.close()


async def test_the_merged_result_is_deferred_with_the_hooks_routing(host: DeepHost) -> None:  # noqa: F811
    client = A3sClient(host.address, host.token)
    try:
        client.register_hook("PreToolUse", _defer_push, matcher={"tool": "Bash"})
        await client.ready()
        result = await host.fire(1, "git push origin main")
        stop = result["stopTurn"]
        assert stop["deferred"] is True
        assert stop["reason"] == "pushing needs a person"
        # The agent's wire form (camelCase) of the routing the hook gave.
        assert stop["routing"] == {"deciders": ["alice"], "deadline": "2h", "onDeadline": "allow"}
        # Other calls are not the hook's to park.
        assert "stopTurn" not in await host.fire(1, "git status")
    finally:
        await client.close()
