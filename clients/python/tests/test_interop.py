"""A TypeScript hook (@a3s-lab/box) and a Python hook on the same event merge in priority order,
whichever answers first."""

from __future__ import annotations

import asyncio
import subprocess

from a3s_box import A3sClient, HookResponse
from conftest import HERE, PACKAGE, DemoAgent, node_command


async def test_a_ts_hook_and_a_python_hook_merge_in_priority_order(agent: DemoAgent) -> None:
    ts = subprocess.Popen(
        node_command(HERE / "ts" / "ts-hook.ts", agent.address, agent.token, "5"),
        cwd=PACKAGE,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    client = A3sClient(agent.address, agent.token)
    try:
        assert ts.stdout is not None
        line = await asyncio.get_running_loop().run_in_executor(None, ts.stdout.readline)
        assert line.strip() == "ready"
        session = await client.create_session()

        def rewrite(event: object) -> HookResponse:
            return HookResponse.modify({"args": {"command": "echo from-python"}})

        # Python runs before TypeScript (1 < 5): the later hook wins the field.
        early = client.register_hook("PreToolUse", rewrite, matcher={"tool": "Bash"}, priority=1)
        await client.ready()
        result = await client.execute_tool(session, "Bash", {"command": "echo original"})
        assert "from-ts" in result.output

        client.unregister_hook(early)
        client.register_hook("PreToolUse", rewrite, matcher={"tool": "Bash"}, priority=9)
        await client.ready()
        result = await client.execute_tool(session, "Bash", {"command": "echo original"})
        assert "from-python" in result.output

        # The first block in execution order wins, not the first to arrive.
        client.register_hook(
            "PreToolUse", lambda e: HookResponse.block("python first"), matcher={"tool": "Bash"}, priority=2
        )
        client.register_hook(
            "PreToolUse", lambda e: HookResponse.block("python last"), matcher={"tool": "Bash"}, priority=7
        )
        await client.ready()
        result = await client.execute_tool(session, "Bash", {"command": "echo original"})
        assert result.blocked and "python first" in (result.reason or "")
    finally:
        await client.close()
        if ts.stdin:
            ts.stdin.close()
        try:
            ts.wait(15)
        except subprocess.TimeoutExpired:
            ts.kill()
            ts.wait()
