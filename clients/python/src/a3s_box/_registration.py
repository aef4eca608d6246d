"""A ``register_hook`` call, checked where it was written and turned into a RegisterHookRequest."""

from __future__ import annotations

import inspect
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ._proto import pb
from ._wire import fail_behavior_value
from .errors import A3sError
from .events import EVENT_TYPES, is_defined_event_name, resolve_event_name
from .response import MAX_DELAY_MS, HookResponse

#: Client and hook ids: 1 to 100 of A-Z a-z 0-9 . _ -
WIRE_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")
MAX_PATTERN_CHARS = 4096
MAX_NAME_CHARS = 256
MATCHER_KEYS = ("tool", "path_pattern", "command_pattern", "pattern")
_INT32 = (-(2**31), 2**31 - 1)

FailBehavior = Literal["continue", "block"]
HandlerResult = HookResponse | None
#: A hook function: ``handler(event)`` or ``handler(event, context)``, async or not.
Handler = Callable[..., HandlerResult | Awaitable[HandlerResult]]
Matcher = str | Mapping[str, str]


@dataclass
class HookContext:
    """What a handler that takes a second parameter gets besides the event."""

    hook_id: str
    event_id: str
    #: Epoch milliseconds when the agent stops waiting for this answer (0: not given).
    deadline_ms: int
    #: True once the agent stopped waiting (its cancellation, the deadline or a lost connection).
    cancelled: bool = False


@dataclass
class LocalHook:
    id: str
    event: str
    handler: Handler
    takes_context: bool
    is_async: bool
    fail_behavior: FailBehavior | None
    name: str | None
    request: Any
    #: The agent holds this hook on the current connection.
    registered: bool = field(default=False)

    @property
    def label(self) -> str:
        return self.name or self.id


def is_wire_id(value: object) -> bool:
    return isinstance(value, str) and WIRE_ID.fullmatch(value) is not None


def random_id() -> str:
    return secrets.token_hex(16)


def _positional_arity(handler: Handler) -> int:
    try:
        params = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return 2
    return sum(1 for p in params if p.kind in kinds)


def to_matcher(event: str, matcher: Matcher | None) -> Any:
    if matcher is None:
        return None
    if isinstance(matcher, str):
        if len(matcher) > MAX_PATTERN_CHARS:
            raise A3sError("INVALID_CONFIG", f"matcher: at most {MAX_PATTERN_CHARS} characters")
        return pb.HookMatcher(pattern=matcher)
    if not isinstance(matcher, Mapping):
        raise A3sError(
            "INVALID_CONFIG",
            "matcher: expected a string or a dict of tool, path_pattern, command_pattern, pattern",
        )
    values: dict[str, str] = {}
    for key, value in matcher.items():
        if key not in MATCHER_KEYS:
            raise A3sError(
                "INVALID_CONFIG",
                f"matcher.{key}: unknown key; expected one of {', '.join(MATCHER_KEYS)}",
            )
        if not isinstance(value, str):
            raise A3sError("INVALID_CONFIG", f"matcher.{key}: expected a string")
        if len(value) > MAX_PATTERN_CHARS:
            raise A3sError("INVALID_CONFIG", f"matcher.{key}: at most {MAX_PATTERN_CHARS} characters")
        values[key] = value
    known = EVENT_TYPES.get(event)
    if known is None:
        # A host-defined event: only the agent knows its matcher target, and checks there.
        return pb.HookMatcher(**values)
    target = known.matcher_target
    tool_keys = [k for k in ("tool", "path_pattern", "command_pattern") if values.get(k)]
    if tool_keys and target != "tool":
        raise A3sError(
            "INVALID_CONFIG",
            f"matcher.{tool_keys[0]}: {event} is not a tool event; use pattern (or a string matcher)",
        )
    if values.get("pattern") and target is None:
        raise A3sError("INVALID_CONFIG", f"matcher.pattern: {event} has nothing a matcher can test")
    if values.get("pattern") and tool_keys:
        raise A3sError(
            "INVALID_CONFIG",
            "matcher.pattern: cannot be combined with tool, path_pattern or command_pattern",
        )
    return pb.HookMatcher(**values)


def to_registration(
    event: str,
    handler: Handler,
    *,
    matcher: Matcher | None,
    priority: int | None,
    timeout_ms: int | None,
    async_: bool,
    fail_behavior: FailBehavior | None,
    name: str | None,
    hook_id: str | None,
) -> LocalHook:
    canonical = resolve_event_name(event) if isinstance(event, str) else None
    if canonical is None and is_defined_event_name(event):
        canonical = event
    if canonical is None:
        raise A3sError("UNKNOWN_EVENT", f"event: unknown event name {event!r}")
    if not callable(handler):
        raise A3sError("INVALID_CONFIG", "handler: expected a function")
    if priority is not None and (
        not isinstance(priority, int) or isinstance(priority, bool) or not _INT32[0] <= priority <= _INT32[1]
    ):
        raise A3sError("INVALID_CONFIG", "priority: expected a 32-bit integer")
    if timeout_ms is not None and (
        not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or not 0 < timeout_ms <= MAX_DELAY_MS
    ):
        raise A3sError("INVALID_CONFIG", f"timeout_ms: expected an integer from 1 to {MAX_DELAY_MS}")
    if fail_behavior not in (None, "continue", "block"):
        raise A3sError(
            "INVALID_CONFIG", f"fail_behavior: expected 'continue' or 'block', got {fail_behavior!r}"
        )
    if name is None:
        # A readable default for listings and block reasons: the function's own name.
        own = getattr(handler, "__name__", None)
        name = own[:MAX_NAME_CHARS] if isinstance(own, str) and own and own != "<lambda>" else None
    elif not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise A3sError(
            "INVALID_CONFIG", f"name: expected a string of at most {MAX_NAME_CHARS} characters"
        )
    if hook_id is None:
        hook_id = random_id()
    elif not is_wire_id(hook_id):
        raise A3sError("INVALID_CONFIG", "hook_id: expected 1 to 100 of A-Z a-z 0-9 . _ -")
    config = pb.HookConfig(
        priority=priority or 0,
        timeout_ms=timeout_ms or 0,
        fail_behavior=fail_behavior_value(fail_behavior),
        name=name or "",
    )
    setattr(config, "async", bool(async_))
    request = pb.RegisterHookRequest(event_type=canonical, hook_id=hook_id, config=config)
    wire_matcher = to_matcher(canonical, matcher)
    if wire_matcher is not None:
        request.matcher.CopyFrom(wire_matcher)
    return LocalHook(
        id=hook_id,
        event=canonical,
        handler=handler,
        takes_context=_positional_arity(handler) >= 2,
        is_async=inspect.iscoroutinefunction(handler),
        fail_behavior=fail_behavior,
        name=name,
        request=request,
    )
