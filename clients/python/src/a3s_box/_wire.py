"""Between the SDK's Python values and hooks.proto's messages."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ._proto import pb
from .errors import A3sError
from .events import TokenUsage, resolve_event_name
from .response import HookResponse

#: Metadata keys of the protocol (core's WIRE_HEADERS).
AUTHORIZATION = "authorization"
CLIENT_ID = "x-a3s-client-id"
CLIENT_SECRET = "x-a3s-client-secret"
RESUMED = "x-a3s-resumed"

#: The longest text field (``reason``, ``system_message``, ``additional_context``, ``error``) of
#: an answer, in characters; longer text is cut and ends with ``… (N more characters)``. A guard's
#: block reason often quotes the input, whose size the attacker picks: cut, a block always fits
#: in the agent's message limit and arrives as a block.
MAX_ANSWER_TEXT_CHARS = 8192


def clip_text(text: str, limit: int = MAX_ANSWER_TEXT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


_ACTION = {
    "continue": "CONTINUE",
    "block": "BLOCK",
    "retry": "RETRY",
    "skip": "SKIP",
    "respond": "RESPOND",
    "defer": "DEFER",
}
_PERMISSION = {"allow": "PERMISSION_ALLOW", "ask": "PERMISSION_ASK"}
_FAIL = {"continue": "FAIL_BEHAVIOR_CONTINUE", "block": "FAIL_BEHAVIOR_BLOCK"}


def to_proto_response(hook_id: str, event_id: str, response: HookResponse) -> Any:
    """The answer as it is sent, its text fields cut to :data:`MAX_ANSWER_TEXT_CHARS`. Only
    ``modified`` can still make it too big for the agent (the runner checks that)."""
    message = pb.HookResponse(
        hook_id=hook_id,
        event_id=event_id,
        action=pb.HookAction.Value(_ACTION[response.action]),
        reason=clip_text(response.reason or ""),
        system_message=clip_text(response.system_message or ""),
        additional_context=clip_text(response.additional_context or ""),
        suppress_output=response.suppress_output,
        retry_delay_ms=response.delay_ms or 0,
    )
    if response.modified is not None:
        message.modified = json.dumps(response.modified, allow_nan=False, separators=(",", ":")).encode()
    if response.output is not None:
        message.output = response.output
    if response.routing is not None:
        message.routing.CopyFrom(pb.DeferRouting(**response.routing))
    if response.permission is not None:
        message.permission = pb.Permission.Value(_PERMISSION[response.permission])
    return message


def failure_response(hook_id: str, event_id: str, fail_behavior: str | None, error: str, reason: str) -> Any:
    # `error` makes the agent apply the registered fail behaviour; the action says the same for
    # agents that read only the action.
    blocks = fail_behavior == "block"
    return pb.HookResponse(
        hook_id=hook_id,
        event_id=event_id,
        action=pb.BLOCK if blocks else pb.CONTINUE,
        reason=clip_text(reason) if blocks else "",
        error=clip_text(error or "failed"),
    )


def fail_behavior_value(value: str | None) -> int:
    return 0 if value is None else int(pb.FailBehavior.Value(_FAIL[value]))


def json_bytes(value: Mapping[str, Any] | None, path: str) -> bytes:
    if value is None:
        return b""
    if not isinstance(value, Mapping):
        raise A3sError("INVALID_EVENT", f"{path}: expected a JSON object (a dict)")
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":")).encode()
    except (TypeError, ValueError) as error:
        raise A3sError("INVALID_EVENT", f"{path}: not JSON: {error}") from None


#: How deep JSON from the agent may nest: the agent's own limit on JSON it accepts
#: (``MAX_JSON_DEPTH`` in @a3s-lab/hooks-core). Deeper data is refused before it is parsed, so no
#: message can exhaust the interpreter's stack (``json.loads`` recurses once per level).
MAX_JSON_DEPTH = 64

# A JSON string (escapes included), so brackets inside strings are not counted.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"{}[]")


def json_too_deep(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when JSON text nests objects and arrays more than ``limit`` levels deep (the outer
    object is level 1). Read without parsing and without recursion; brackets in strings do not
    count, and text that is not JSON may be judged too deep (it would not parse anyway)."""
    depth = 0
    for byte in _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKETS):
        if byte in (0x7B, 0x5B):  # { [
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def load_json(data: bytes, path: str) -> Any:
    """Parse JSON from the agent: ``LIMIT_EXCEEDED`` naming ``path`` when it nests deeper than
    :data:`MAX_JSON_DEPTH`, ``INVALID_EVENT`` when it is not UTF-8 JSON."""
    if json_too_deep(data):
        raise A3sError("LIMIT_EXCEEDED", f"{path}: nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise A3sError("INVALID_EVENT", f"{path}: not UTF-8 JSON: {error}") from None


def json_object(data: bytes, path: str) -> dict[str, Any] | None:
    if not data:
        return None
    value = load_json(data, path)
    if not isinstance(value, dict):
        raise A3sError("INVALID_EVENT", f"{path}: expected a JSON object")
    return value


@dataclass(frozen=True, kw_only=True)
class HookCounters:
    """What the agent counted for one hook."""

    runs: int
    blocks: int
    failures: int
    timeouts: int
    #: Answers the agent threw away (late, malformed, for an unknown event).
    rejected_responses: int


@dataclass(frozen=True, kw_only=True)
class HookInfo:
    """One of this client's hooks as the agent holds it, with the agent's defaults filled in."""

    id: str
    event: str
    #: A name matcher (str), a dict of ``tool`` / ``path_pattern`` / ``command_pattern``, or None.
    matcher: str | dict[str, str] | None
    priority: int
    timeout_ms: int
    async_: bool
    fail_behavior: Literal["continue", "block"]
    name: str | None
    counters: HookCounters


def hook_info(message: Any) -> HookInfo:
    m = message.matcher
    matcher: str | dict[str, str] | None = None
    if m.pattern:
        matcher = m.pattern
    else:
        fields = {"tool": m.tool, "path_pattern": m.path_pattern, "command_pattern": m.command_pattern}
        matcher = {k: v for k, v in fields.items() if v} or None
    c = message.counters
    return HookInfo(
        id=message.hook_id,
        event=resolve_event_name(message.event_type) or message.event_type,
        matcher=matcher,
        priority=message.config.priority,
        timeout_ms=message.config.timeout_ms,
        async_=bool(getattr(message.config, "async")),  # `async` is a keyword in Python
        fail_behavior="block" if message.config.fail_behavior == pb.FAIL_BEHAVIOR_BLOCK else "continue",
        name=message.config.name or None,
        counters=HookCounters(
            runs=c.runs,
            blocks=c.blocks,
            failures=c.failures,
            timeouts=c.timeouts,
            rejected_responses=c.rejected_responses,
        ),
    )


@dataclass(frozen=True, kw_only=True)
class ToolExecution:
    """The result of ``execute_tool``. A tool a hook blocked has ``blocked=True`` and the reason."""

    success: bool
    output: str
    exit_code: int
    duration_ms: int
    blocked: bool
    reason: str | None


def tool_execution(message: Any) -> ToolExecution:
    return ToolExecution(
        success=message.success,
        output=message.output,
        exit_code=message.exit_code,
        duration_ms=message.duration_ms,
        blocked=message.blocked,
        reason=message.reason or None,
    )


@dataclass(frozen=True, kw_only=True)
class GenerateProgress:
    """Something the agent did while working on a prompt: ``text``, ``tool_call``, ``tool_result``, …"""

    kind: str
    text: str
    data: dict[str, Any] | None


@dataclass(frozen=True, kw_only=True)
class GenerateResult:
    """The agent's answer to a prompt. ``blocked`` is True when a hook blocked the generation."""

    text: str
    usage: TokenUsage
    blocked: bool
    reason: str | None


def generate_message(message: Any) -> GenerateProgress | GenerateResult:
    which = message.WhichOneof("kind")
    if which == "progress":
        p = message.progress
        return GenerateProgress(kind=p.kind, text=p.text, data=json_object(p.data, "GenerateProgress.data"))
    if which == "result":
        r = message.result
        return GenerateResult(
            text=r.text,
            usage=TokenUsage(
                prompt_tokens=r.usage.prompt_tokens,
                completion_tokens=r.usage.completion_tokens,
                total_tokens=r.usage.total_tokens,
            ),
            blocked=r.blocked,
            reason=r.reason or None,
        )
    raise A3sError("INVALID_EVENT", "GenerateEvent: neither progress nor result")
