"""A client whose fail-closed hook never answers: the conformance test kills it mid-firing.

usage: hanging_client.py <address> <token>
"""

import asyncio
import sys

from a3s_box import A3sClient, PreToolUseEvent


async def main() -> None:
    client = A3sClient(sys.argv[1], sys.argv[2])

    @client.hook(
        "PreToolUse", matcher={"tool": "Bash"}, fail_behavior="block", timeout_ms=60_000, name="hangs"
    )
    async def hangs(event: PreToolUseEvent) -> None:
        print("firing", flush=True)
        await asyncio.Event().wait()

    await client.ready()
    print("ready", client.client_id, flush=True)
    await client.run_forever()


asyncio.run(main())
