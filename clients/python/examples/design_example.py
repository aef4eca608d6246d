"""The Python section of the A3S Box hooks design, as written there. The only additions are the
imports of the event types its annotations name, and the two names it leaves to the reader
(`my_handler`, and `session_id` as the parameter of `main`), since `async with` needs a function."""

from a3s_box import A3sClient, HookEvent, HookResponse
from a3s_box import GenerateEndEvent, PreToolUseEvent

client = A3sClient()


# Register hook with decorator
@client.hook("PreToolUse")
async def validate_bash(event: PreToolUseEvent) -> HookResponse:
    if event.tool == "Bash":
        command = event.args.get("command", "")
        if "rm -rf /" in command:
            return HookResponse.block("Dangerous command blocked")
    return HookResponse.continue_()


# Register hook with matcher
@client.hook("PreToolUse", matcher={"tool": "Write", "path_pattern": "*.py"})
async def format_python(event: PreToolUseEvent) -> HookResponse:
    # Will run only for Write operations on .py files
    return HookResponse.continue_()


# Register hook programmatically
async def log_generation(event: GenerateEndEvent) -> HookResponse:
    print(f"Generated {event.response.usage.total_tokens} tokens")
    return HookResponse.continue_()


client.register_hook("GenerateEnd", log_generation)


seen: list[HookEvent] = []


async def my_handler(event: HookEvent) -> HookResponse:
    seen.append(event)
    return HookResponse.continue_()


async def main(session_id: str) -> None:
    # Context manager for temporary hooks
    async with client.temporary_hook("PreToolUse", my_handler):
        response = await client.generate(session_id, "Do something")
        # Hook active only within this block
