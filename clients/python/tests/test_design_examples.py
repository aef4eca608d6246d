"""Every example of the design's Python section runs as written, against a real agent."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from conftest import PACKAGE, DemoAgent


def load_example() -> ModuleType:
    path = PACKAGE / "examples" / "design_example.py"
    spec = importlib.util.spec_from_file_location("design_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_the_design_examples_run_as_written(
    agent_env: DemoAgent, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load_example()
    client = example.client
    assert client.address == agent_env.address  # from A3S_ADDRESS
    try:
        await client.ready()
        names = sorted(h.name for h in await client.list_hooks())
        assert names == ["format_python", "log_generation", "validate_bash"]
        session_id = await client.create_session()

        # validate_bash: its block wins (the demo's own guard does not match this command).
        blocked = await client.execute_tool(session_id, "Bash", {"command": "echo rm -rf /nothing"})
        assert blocked.blocked and "Dangerous command blocked" in (blocked.reason or "")
        allowed = await client.execute_tool(session_id, "Bash", {"command": "echo fine"})
        assert not allowed.blocked and "fine" in allowed.output

        # format_python runs for Write on *.py only (the matcher runs in the agent).
        await client.execute_tool(session_id, "Write", {"file_path": "a.py", "content": "x = 1\n"})
        await client.execute_tool(session_id, "Write", {"file_path": "a.txt", "content": "x\n"})
        runs = {h.name: h.counters.runs for h in await client.list_hooks()}
        assert runs["format_python"] == 1

        # The temporary hook sees the generation's tool calls, and is gone after the block.
        capsys.readouterr()
        await example.main(session_id)
        assert "my_handler" not in [h.name for h in await client.list_hooks()]
        assert capsys.readouterr().out.startswith("Generated ")
    finally:
        await client.close()


async def test_the_temporary_hook_is_active_only_within_its_block(agent_env: DemoAgent) -> None:
    example = load_example()
    client = example.client
    try:
        session_id = await client.create_session()
        async with client.temporary_hook("PreToolUse", example.my_handler):
            assert "my_handler" in [h.name for h in await client.list_hooks()]
            result = await client.generate(session_id, "bash: echo inside")
            assert not result.blocked
        assert [e.args for e in example.seen] == [{"command": "echo inside"}]
        await client.generate(session_id, "bash: echo outside")
        assert len(example.seen) == 1
    finally:
        await client.close()


def test_the_readme_examples_compile() -> None:
    import re

    text = (PACKAGE / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        compile(block, "README.md", "exec")
