"""The events a hook receives, as typed dataclasses.

Field names are Python's (``session_id``, ``tool_use_id``); on the wire they are the agent's
camelCase JSON (``sessionId``, ``toolUseId``), except token usage, which is snake_case on both
sides (``usage.total_tokens``). The test suite checks every class here against the JSON Schema
of ``@a3s-lab/hooks-core``'s event catalogue, so the Python and TypeScript SDKs cannot drift.
Fields a host adds beyond the catalogue are kept in ``raw``, the payload as received.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Union

from .errors import A3sError

JsonObject = dict[str, Any]

MatcherTarget = Literal[
    "tool", "source", "reason", "model", "trigger", "subagentType", "notificationType", "skillName"
]


def _snake(json_name: str) -> Any:
    return field(metadata={"json": json_name})


@dataclass(frozen=True, kw_only=True)
class TokenUsage:
    prompt_tokens: float = _snake("prompt_tokens")
    completion_tokens: float = _snake("completion_tokens")
    total_tokens: float = _snake("total_tokens")


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    id: str
    name: str
    args: JsonObject


@dataclass(frozen=True, kw_only=True)
class ModelConfig:
    name: str
    provider: str | None = None
    temperature: float | None = None
    max_tokens: float | None = None


@dataclass(frozen=True, kw_only=True)
class Message:
    role: Literal["system", "user", "assistant", "tool"]
    content: str
    tool_call_id: str | None = None
    tool_calls: list[ToolCall] | None = None


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    success: bool
    output: str
    duration: float
    exit_code: float | None = None


@dataclass(frozen=True, kw_only=True)
class ToolContext:
    working_directory: str
    recent_tools: list[str]
    token_usage: TokenUsage


@dataclass(frozen=True, kw_only=True)
class GenerateResponse:
    text: str
    tool_calls: list[ToolCall]
    usage: TokenUsage
    duration: float


@dataclass(frozen=True, kw_only=True)
class HookEvent:
    """Any event. Narrow it with ``isinstance(event, PreToolUseEvent)`` or ``event.event_type``."""

    #: The canonical event name of the class (``PreToolUse``, …).
    name: ClassVar[str] = ""
    #: May a hook block this event?
    can_block: ClassVar[bool] = False
    #: What a string matcher is tested against, or None when the event has no subject.
    matcher_target: ClassVar[MatcherTarget | None] = None

    event_type: str
    #: Unique per firing.
    event_id: str
    session_id: str
    #: Milliseconds since the epoch.
    timestamp: float
    metadata: JsonObject
    #: The payload exactly as the agent sent it, host-specific fields included.
    raw: JsonObject = field(default_factory=dict, repr=False, compare=False, metadata={"wire": False})

    @staticmethod
    def parse(payload: Mapping[str, Any]) -> HookEvent:
        """The typed event for a JSON payload; an ``A3sError("INVALID_EVENT")`` names the bad field."""
        if not isinstance(payload, Mapping):
            raise A3sError("INVALID_EVENT", f"payload: expected a JSON object, got {_kind(payload)}")
        name = payload.get("eventType")
        cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
        if cls is None and is_defined_event_name(name):
            cls = DefinedEvent
        if cls is None:
            raise A3sError("INVALID_EVENT", f"payload.eventType: unknown event {name!r}")
        values = _read_fields(cls, payload, name or "payload")
        return cls(**values, raw=dict(payload))


@dataclass(frozen=True, kw_only=True)
class _ToolEvent(HookEvent):
    matcher_target: ClassVar[MatcherTarget | None] = "tool"
    tool: str
    args: JsonObject
    tool_use_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class SessionStartEvent(HookEvent):
    name: ClassVar[str] = "SessionStart"
    can_block: ClassVar[bool] = True
    matcher_target: ClassVar[MatcherTarget | None] = "source"
    #: ``startup``, ``resume``, ``clear``, ``compact``, …
    source: str
    working_directory: str | None = None
    model: ModelConfig | None = None
    #: Absolute paths the host watches, firing FileChanged when one changes. A hook adds to
    #: them with ``modify({"watchPaths": [...]})``; every hook's paths add up.
    watch_paths: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class SessionEndEvent(HookEvent):
    name: ClassVar[str] = "SessionEnd"
    matcher_target: ClassVar[MatcherTarget | None] = "reason"
    reason: str


@dataclass(frozen=True, kw_only=True)
class UserPromptSubmitEvent(HookEvent):
    name: ClassVar[str] = "UserPromptSubmit"
    can_block: ClassVar[bool] = True
    prompt: str


@dataclass(frozen=True, kw_only=True)
class GenerateStartEvent(HookEvent):
    name: ClassVar[str] = "GenerateStart"
    can_block: ClassVar[bool] = True
    matcher_target: ClassVar[MatcherTarget | None] = "model"
    prompt: str
    model: ModelConfig
    #: Names of the tools offered to the model.
    tools: list[str]
    system_prompt: str | None = None
    messages: list[Message] | None = None


@dataclass(frozen=True, kw_only=True)
class GenerateEndEvent(HookEvent):
    name: ClassVar[str] = "GenerateEnd"
    matcher_target: ClassVar[MatcherTarget | None] = "model"
    prompt: str
    model: ModelConfig
    response: GenerateResponse


@dataclass(frozen=True, kw_only=True)
class PreToolUseEvent(_ToolEvent):
    name: ClassVar[str] = "PreToolUse"
    can_block: ClassVar[bool] = True
    context: ToolContext | None = None


@dataclass(frozen=True, kw_only=True)
class PostToolUseEvent(_ToolEvent):
    name: ClassVar[str] = "PostToolUse"
    result: ToolResult


@dataclass(frozen=True, kw_only=True)
class PostToolUseFailureEvent(_ToolEvent):
    name: ClassVar[str] = "PostToolUseFailure"
    error: str
    exit_code: float | None = None
    duration: float | None = None


@dataclass(frozen=True, kw_only=True)
class PermissionRequestEvent(_ToolEvent):
    name: ClassVar[str] = "PermissionRequest"
    can_block: ClassVar[bool] = True
    #: Why the host asks.
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class _DecisionEvent(_ToolEvent):
    #: Who decided: ``hook``, ``user``, ``policy`` or ``default``.
    decided_by: Literal["hook", "user", "policy", "default"] | None = None
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class PermissionGrantedEvent(_DecisionEvent):
    name: ClassVar[str] = "PermissionGranted"


@dataclass(frozen=True, kw_only=True)
class PermissionDeniedEvent(_DecisionEvent):
    name: ClassVar[str] = "PermissionDenied"
    #: A hook's answer (Claude Code's ``hookSpecificOutput.retry``): true tells the model it may
    #: try the call again; the denial stands.
    retry: bool | None = None


@dataclass(frozen=True, kw_only=True)
class PreCompactEvent(HookEvent):
    name: ClassVar[str] = "PreCompact"
    can_block: ClassVar[bool] = True
    matcher_target: ClassVar[MatcherTarget | None] = "trigger"
    #: ``manual`` or ``auto``.
    trigger: str
    custom_instructions: str | None = None
    message_count: float | None = None
    token_count: float | None = None


@dataclass(frozen=True, kw_only=True)
class PostCompactEvent(HookEvent):
    name: ClassVar[str] = "PostCompact"
    matcher_target: ClassVar[MatcherTarget | None] = "trigger"
    trigger: str
    messages_before: float
    messages_after: float
    tokens_before: float
    tokens_after: float
    summary: str | None = None


@dataclass(frozen=True, kw_only=True)
class ContextWarningEvent(HookEvent):
    name: ClassVar[str] = "ContextWarning"
    matcher_target: ClassVar[MatcherTarget | None] = "trigger"
    trigger: str
    used_tokens: float
    max_tokens: float
    #: The fraction of the budget in use, 0 to 1.
    threshold: float


@dataclass(frozen=True, kw_only=True)
class StopEvent(HookEvent):
    """A block on Stop means "do not stop yet: continue with this reason"."""

    name: ClassVar[str] = "Stop"
    can_block: ClassVar[bool] = True
    stop_hook_active: bool
    reason: str | None = None
    response_text: str | None = None


@dataclass(frozen=True, kw_only=True)
class SubagentStartEvent(HookEvent):
    name: ClassVar[str] = "SubagentStart"
    can_block: ClassVar[bool] = True
    matcher_target: ClassVar[MatcherTarget | None] = "subagentType"
    subagent_id: str
    subagent_type: str
    description: str
    prompt: str | None = None


@dataclass(frozen=True, kw_only=True)
class SubagentStopEvent(HookEvent):
    name: ClassVar[str] = "SubagentStop"
    matcher_target: ClassVar[MatcherTarget | None] = "subagentType"
    subagent_id: str
    subagent_type: str
    success: bool
    error: str | None = None
    output: str | None = None


@dataclass(frozen=True, kw_only=True)
class NotificationEvent(HookEvent):
    name: ClassVar[str] = "Notification"
    matcher_target: ClassVar[MatcherTarget | None] = "notificationType"
    message: str
    notification_type: str
    level: Literal["info", "warning", "error"] | None = None
    title: str | None = None


@dataclass(frozen=True, kw_only=True)
class SkillLoadEvent(HookEvent):
    name: ClassVar[str] = "SkillLoad"
    can_block: ClassVar[bool] = True
    matcher_target: ClassVar[MatcherTarget | None] = "skillName"
    skill_name: str
    path: str | None = None
    description: str | None = None


@dataclass(frozen=True, kw_only=True)
class SkillUnloadEvent(HookEvent):
    name: ClassVar[str] = "SkillUnload"
    matcher_target: ClassVar[MatcherTarget | None] = "skillName"
    skill_name: str
    path: str | None = None


#: Every event class, keyed by canonical name, in the catalogue's order.
_CLASSES: tuple[type[HookEvent], ...] = (
    SessionStartEvent,
    SessionEndEvent,
    UserPromptSubmitEvent,
    GenerateStartEvent,
    GenerateEndEvent,
    PreToolUseEvent,
    PostToolUseEvent,
    PostToolUseFailureEvent,
    PermissionRequestEvent,
    PermissionGrantedEvent,
    PermissionDeniedEvent,
    PreCompactEvent,
    PostCompactEvent,
    ContextWarningEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    NotificationEvent,
    SkillLoadEvent,
    SkillUnloadEvent,
)
EVENT_TYPES: dict[str, type[HookEvent]] = {cls.name: cls for cls in _CLASSES}


@dataclass(frozen=True, kw_only=True)
class DefinedEvent(HookEvent):
    """An event the agent's host added to its catalogue (``defineEvent`` in @a3s-lab/hooks-core,
    such as Claude Code's ``TeammateIdle``) that this SDK has no dataclass for: the base fields as
    attributes, the event's own fields in ``raw``."""


_DEFINED_NAME = re.compile(r"[A-Z][A-Za-z0-9]{0,63}")


def is_defined_event_name(name: object) -> bool:
    """True for a name a host may have defined: PascalCase, at most 64 characters, and not a
    spelling of a built-in event. Only the agent knows whether it did; it refuses the rest."""
    return isinstance(name, str) and bool(_DEFINED_NAME.fullmatch(name)) and resolve_event_name(name) is None


#: Names accepted for an event that has a canonical name of its own.
EVENT_ALIASES: dict[str, str] = {"ToolError": "PostToolUseFailure"}


def _snake_name(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


_SPELLINGS: dict[str, str] = {}
for _spelling, _canonical in [*((n, n) for n in EVENT_TYPES), *EVENT_ALIASES.items()]:
    _SPELLINGS[_spelling] = _canonical
    _SPELLINGS[_spelling.lower()] = _canonical
    _SPELLINGS[_snake_name(_spelling)] = _canonical


def resolve_event_name(name: str) -> str | None:
    """The canonical name for any accepted spelling (``PreToolUse``, ``preToolUse``,
    ``pre_tool_use``, the alias ``ToolError``), or None when the catalogue has no such event."""
    return _SPELLINGS.get(name) or _SPELLINGS.get(name.lower())


# --- reading JSON into the dataclasses -------------------------------------------------------


def json_name(f: dataclasses.Field[Any]) -> str:
    """A field's name in the agent's JSON."""
    named = f.metadata.get("json")
    if isinstance(named, str):
        return named
    head, *rest = f.name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def wire_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of a dataclass that travel in the JSON (not ``raw``)."""
    return [f for f in dataclasses.fields(cls) if f.metadata.get("wire", True)]


_HINTS: dict[type, dict[str, Any]] = {}


def type_hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _read_fields(cls: type, data: Mapping[str, Any], path: str) -> dict[str, Any]:
    hints = type_hints(cls)
    values: dict[str, Any] = {}
    for f in wire_fields(cls):
        key = json_name(f)
        if key not in data or data[key] is None:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise A3sError("INVALID_EVENT", f"{path}.{key}: required")
            continue
        values[f.name] = _convert(hints[f.name], data[key], f"{path}.{key}")
    return values


def optional_inner(hint: Any) -> Any | None:
    """``X`` for ``X | None``, else None."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return None


def _convert(hint: Any, value: Any, path: str) -> Any:
    inner = optional_inner(hint)
    if inner is not None:
        return None if value is None else _convert(inner, value, path)
    origin = typing.get_origin(hint)
    if hint is str:
        if isinstance(value, str):
            return value
        raise A3sError("INVALID_EVENT", f"{path}: expected a string, got {_kind(value)}")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        raise A3sError("INVALID_EVENT", f"{path}: expected a number, got {_kind(value)}")
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise A3sError("INVALID_EVENT", f"{path}: expected a boolean, got {_kind(value)}")
    if origin is Literal:
        if value in typing.get_args(hint):
            return value
        allowed = ", ".join(repr(a) for a in typing.get_args(hint))
        raise A3sError("INVALID_EVENT", f"{path}: expected one of {allowed}, got {value!r}")
    if origin is dict:
        if isinstance(value, Mapping):
            return dict(value)
        raise A3sError("INVALID_EVENT", f"{path}: expected an object, got {_kind(value)}")
    if origin is list:
        if not isinstance(value, list):
            raise A3sError("INVALID_EVENT", f"{path}: expected an array, got {_kind(value)}")
        (item,) = typing.get_args(hint)
        return [_convert(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if not isinstance(value, Mapping):
            raise A3sError("INVALID_EVENT", f"{path}: expected an object, got {_kind(value)}")
        return hint(**_read_fields(hint, value, path))
    raise TypeError(f"{path}: no reader for {hint!r}")  # a bug in this module, not bad input
