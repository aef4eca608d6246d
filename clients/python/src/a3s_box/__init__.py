"""a3s_box: write hooks for A3S agents in Python.

Hooks run in your process; the agent calls them over gRPC (``hooks.proto``), with the same
protocol, behaviour and answers as the TypeScript SDK ``@a3s-lab/box``.

Example::

    from a3s_box import A3sClient, HookResponse, PreToolUseEvent

    client = A3sClient()  # A3S_ADDRESS and A3S_TOKEN from the environment

    @client.hook("PreToolUse", matcher={"tool": "Bash"})
    async def validate_bash(event: PreToolUseEvent) -> HookResponse:
        if "rm -rf /" in event.args.get("command", ""):
            return HookResponse.block("Dangerous command blocked")
        return HookResponse.continue_()
"""

from ._registration import HookContext
from ._wire import GenerateProgress, GenerateResult, HookCounters, HookInfo, ToolExecution
from .client import A3sClient, GenerateCall, State
from .errors import A3sError, ErrorCode
from .events import (
    EVENT_TYPES,
    ContextWarningEvent,
    GenerateEndEvent,
    GenerateResponse,
    GenerateStartEvent,
    HookEvent,
    Message,
    ModelConfig,
    NotificationEvent,
    PermissionDeniedEvent,
    PermissionGrantedEvent,
    PermissionRequestEvent,
    PostCompactEvent,
    PostToolUseEvent,
    PostToolUseFailureEvent,
    PreCompactEvent,
    PreToolUseEvent,
    SessionEndEvent,
    SessionStartEvent,
    SkillLoadEvent,
    SkillUnloadEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    TokenUsage,
    ToolCall,
    ToolContext,
    ToolResult,
    UserPromptSubmitEvent,
    resolve_event_name,
)
from .response import HookResponse

__all__ = [
    # the client
    "A3sClient",
    "A3sError",
    "ErrorCode",
    "GenerateCall",
    "GenerateProgress",
    "GenerateResult",
    "HookContext",
    "HookCounters",
    "HookInfo",
    "HookResponse",
    "State",
    "ToolExecution",
    # events
    "EVENT_TYPES",
    "HookEvent",
    "resolve_event_name",
    "ContextWarningEvent",
    "GenerateEndEvent",
    "GenerateStartEvent",
    "NotificationEvent",
    "PermissionDeniedEvent",
    "PermissionGrantedEvent",
    "PermissionRequestEvent",
    "PostCompactEvent",
    "PostToolUseEvent",
    "PostToolUseFailureEvent",
    "PreCompactEvent",
    "PreToolUseEvent",
    "SessionEndEvent",
    "SessionStartEvent",
    "SkillLoadEvent",
    "SkillUnloadEvent",
    "StopEvent",
    "SubagentStartEvent",
    "SubagentStopEvent",
    "UserPromptSubmitEvent",
    # parts of events
    "GenerateResponse",
    "Message",
    "ModelConfig",
    "TokenUsage",
    "ToolCall",
    "ToolContext",
    "ToolResult",
]
