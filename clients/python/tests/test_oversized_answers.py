"""An answer too big for the wire, against a real agent: a block whose reason quotes a huge input
still arrives as a block (its reason cut), never as the hook's fail behaviour; a modification too
big to send fails its hook with LIMIT_EXCEEDED, under the hook's fail behaviour."""

from __future__ import annotations

from a3s_box import A3sClient, A3sError, HookResponse, PreToolUseEvent
from conftest import DemoAgent

BASH = {"tool": "Bash"}
HUGE = "x" * 5_000_000


async def test_a_fail_open_hooks_block_with_a_5_mb_reason_is_a_block_its_reason_cut(agent: DemoAgent) -> None:
    client = A3sClient(agent.address, agent.token)
    try:
        client.register_hook(
            "PreToolUse",
            lambda e: HookResponse.block(f"refused: {e.args['command']} {HUGE}"),
            matcher=BASH,
            fail_behavior="continue",
        )
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo ran"})
        assert result.blocked
        reason = result.reason or ""
        assert "refused: echo ran xxxx" in reason
        assert reason.endswith(" more characters)")
        assert len(reason) < 8192 + 200
    finally:
        await client.close()


async def test_a_modification_too_big_to_send_fails_the_hook_under_its_fail_behaviour(
    agent: DemoAgent,
) -> None:
    errors: list[A3sError] = []
    client = A3sClient(agent.address, agent.token)
    client.on_error(errors.append)
    try:

        def rewrite(e: PreToolUseEvent) -> HookResponse:
            return HookResponse.modify({"args": {"command": f"echo {HUGE}"}})

        client.register_hook("PreToolUse", rewrite, matcher=BASH, fail_behavior="block", name="rewriter")
        session = await client.create_session()
        result = await client.execute_tool(session, "Bash", {"command": "echo ran"})
        assert result.blocked and "rewriter" in (result.reason or "")
        assert [e.code for e in errors] == ["LIMIT_EXCEEDED"]
        assert "HookResponse.modified" in errors[0].message
    finally:
        await client.close()
