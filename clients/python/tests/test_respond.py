"""A Python hook answers a tool call in place of the tool, through a real agent over gRPC."""

from __future__ import annotations

from a3s_box import A3sClient, HookResponse
from conftest import DemoAgent


async def test_a_respond_stands_for_the_tool_which_does_not_run(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, agent.token)
    marker = agent.workdir / "ran.txt"
    try:
        session = await client.create_session()
        seen: list[str] = []

        def answer(event: object) -> HookResponse:
            return HookResponse.respond("answered by python")

        def post(event: object) -> None:
            seen.append(event.result.output)  # type: ignore[attr-defined]

        client.register_hook("PreToolUse", answer, matcher={"tool": "Bash"})
        client.register_hook("PostToolUse", post, matcher={"tool": "Bash"})
        await client.ready()
        result = await client.execute_tool(session, "Bash", {"command": f"touch {marker}"})
        assert result.output == "answered by python"
        assert not result.blocked
        assert not marker.exists()
        # PostToolUse hooks see the answer as the tool's result, as the model does.
        assert seen == ["answered by python"]
    finally:
        await client.close()
