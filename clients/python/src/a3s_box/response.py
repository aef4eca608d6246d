"""What a hook answers."""

from __future__ import annotations

import json
import re

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import A3sError

Action = Literal["continue", "block", "retry", "skip", "respond", "defer"]
Permission = Literal["allow", "ask"]

#: The longest retry delay the agent accepts, in milliseconds (a signed 32-bit int).
MAX_DELAY_MS = 2_147_483_647

#: The most tool output a ``respond`` carries, in UTF-16 code units as the agent counts them
#: (1 MiB of text). Longer output is refused, never cut: a cut result would read as the whole.
MAX_RESPOND_OUTPUT_CHARS = 1_048_576


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


#: The longest deadline a deferring hook may give: 366 days, in seconds.
MAX_DEFER_DEADLINE_S = 366 * 86_400

_DURATION = re.compile(r"([1-9][0-9]{0,5})(s|m|h|d)")
_UNIT_S = {"s": 1, "m": 60, "h": 3_600, "d": 86_400}
_ROUTING_FIELDS = ("deciders", "deadline", "on_deadline")


def _check_routing(routing: object) -> dict[str, Any]:
    """A defer's routing checked as the agent checks it; the error names the field."""
    where = "HookResponse.routing"
    if not isinstance(routing, Mapping):
        raise A3sError("INVALID_OUTPUT", f"{where}: expected a dict of deciders, deadline, on_deadline")
    for key in routing:
        if key not in _ROUTING_FIELDS:
            raise A3sError(
                "INVALID_OUTPUT",
                f"{where}.{key}: unknown field (expected deciders, deadline or on_deadline)",
            )
    checked: dict[str, Any] = {}
    deciders = routing.get("deciders")
    if deciders is not None:
        if isinstance(deciders, str) or not isinstance(deciders, Sequence) or len(deciders) > 100:
            raise A3sError("INVALID_OUTPUT", f"{where}.deciders: expected a list of at most 100 names")
        for i, name in enumerate(deciders):
            if not isinstance(name, str) or not 1 <= _utf16_length(name) <= 256:
                raise A3sError(
                    "INVALID_OUTPUT", f"{where}.deciders[{i}]: expected a name of 1 to 256 characters"
                )
        checked["deciders"] = list(deciders)
    deadline = routing.get("deadline")
    if deadline is not None:
        match = _DURATION.fullmatch(deadline) if isinstance(deadline, str) else None
        if match is None or int(match[1]) * _UNIT_S[match[2]] > MAX_DEFER_DEADLINE_S:
            raise A3sError(
                "INVALID_OUTPUT",
                f'{where}.deadline: expected a duration such as "90s", "30m", "2h" or "7d" '
                f"(at most 366d), got {deadline!r}",
            )
        checked["deadline"] = deadline
    on_deadline = routing.get("on_deadline")
    if on_deadline is not None:
        if on_deadline not in ("allow", "deny"):
            raise A3sError(
                "INVALID_OUTPUT", f"{where}.on_deadline: expected 'allow' or 'deny', got {on_deadline!r}"
            )
        checked["on_deadline"] = on_deadline
    return checked


@dataclass(frozen=True, kw_only=True)
class HookResponse:
    """A hook's answer. Build one with the class methods; a handler that returns None continues.

    Example::

        @client.hook("PreToolUse", matcher={"tool": "Bash"})
        async def guard(event: PreToolUseEvent) -> HookResponse:
            if "rm -rf /" in event.args.get("command", ""):
                return HookResponse.block("Dangerous command blocked")
            return HookResponse.continue_()
    """

    action: Action = "continue"
    #: Required for ``block``; may explain a ``retry`` or a ``defer``.
    reason: str | None = None
    #: ``continue`` only: a JSON merge patch (RFC 7386) of the event's modifiable fields.
    modified: Mapping[str, Any] | None = None
    #: ``retry`` only: milliseconds to wait before the operation is tried again.
    delay_ms: int | None = None
    #: ``continue`` only: ``allow`` skips the host's permission prompt, ``ask`` forces it.
    permission: Permission | None = None
    #: ``continue`` only: text added to the model's context.
    additional_context: str | None = None
    #: A message for the user.
    system_message: str | None = None
    #: Hide this hook's output from the transcript.
    suppress_output: bool = False
    #: ``respond`` only: the tool result the model reads; the tool does not run.
    output: str | None = None
    #: ``defer`` only: who may decide the deferred call and by when, a dict of ``deciders``
    #: (names), ``deadline`` (``"90s"``, ``"30m"``, ``"2h"``, ``"7d"``; at most 366 days) and
    #: ``on_deadline`` (``"allow"`` or ``"deny"``, the default), each optional.
    routing: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.action not in ("continue", "block", "retry", "skip", "respond", "defer"):
            raise A3sError("INVALID_OUTPUT", f"HookResponse.action: unknown action {self.action!r}")
        if self.action == "block" and (not isinstance(self.reason, str) or not self.reason):
            raise A3sError("INVALID_OUTPUT", "HookResponse.reason: a block needs a non-empty reason")
        if self.action != "continue":
            for name in ("modified", "permission", "additional_context"):
                if getattr(self, name) is not None:
                    raise A3sError("INVALID_OUTPUT", f"HookResponse.{name}: only a continue can carry it")
        if self.output is not None and self.action != "respond":
            raise A3sError("INVALID_OUTPUT", "HookResponse.output: only a respond can carry it")
        if self.routing is not None:
            if self.action != "defer":
                raise A3sError("INVALID_OUTPUT", "HookResponse.routing: only a defer can carry it")
            object.__setattr__(self, "routing", _check_routing(self.routing))
        if self.action == "respond":
            if not isinstance(self.output, str):
                raise A3sError("INVALID_OUTPUT", "HookResponse.output: a respond needs a string output")
            if _utf16_length(self.output) > MAX_RESPOND_OUTPUT_CHARS:
                raise A3sError(
                    "LIMIT_EXCEEDED",
                    f"HookResponse.output: a respond carries at most {MAX_RESPOND_OUTPUT_CHARS} characters",
                )
        if self.modified is not None:
            if not isinstance(self.modified, Mapping):
                raise A3sError("INVALID_OUTPUT", "HookResponse.modified: expected a JSON object (a dict)")
            try:
                json.dumps(self.modified, allow_nan=False)
            except (TypeError, ValueError) as error:
                raise A3sError("INVALID_OUTPUT", f"HookResponse.modified: not JSON: {error}") from None
        if self.delay_ms is not None:
            if self.action != "retry":
                raise A3sError("INVALID_OUTPUT", "HookResponse.delay_ms: only a retry can carry it")
            valid = isinstance(self.delay_ms, int) and not isinstance(self.delay_ms, bool)
            if not valid or not 0 <= self.delay_ms <= MAX_DELAY_MS:
                raise A3sError(
                    "INVALID_OUTPUT",
                    f"HookResponse.delay_ms: expected an integer from 0 to {MAX_DELAY_MS}, got {self.delay_ms!r}",
                )
        if self.permission not in (None, "allow", "ask"):
            raise A3sError(
                "INVALID_OUTPUT",
                f"HookResponse.permission: expected 'allow' or 'ask', got {self.permission!r}",
            )

    @classmethod
    def continue_(
        cls,
        *,
        system_message: str | None = None,
        additional_context: str | None = None,
        suppress_output: bool = False,
    ) -> HookResponse:
        """Go on unchanged (``continue`` is a keyword in Python, hence the underscore)."""
        return cls(
            system_message=system_message,
            additional_context=additional_context,
            suppress_output=suppress_output,
        )

    @classmethod
    def block(
        cls, reason: str, *, system_message: str | None = None, suppress_output: bool = False
    ) -> HookResponse:
        """Stop the operation (on events that can block); the first block in execution order wins."""
        return cls(
            action="block", reason=reason, system_message=system_message, suppress_output=suppress_output
        )

    @classmethod
    def deny(cls, reason: str) -> HookResponse:
        """A permission deny: the same as ``block``."""
        return cls.block(reason)

    @classmethod
    def modify(
        cls,
        patch: Mapping[str, Any],
        *,
        system_message: str | None = None,
        additional_context: str | None = None,
    ) -> HookResponse:
        """Go on with a JSON merge patch of the event's modifiable fields:
        ``HookResponse.modify({"args": {"timeout": 30000}})``."""
        return cls(modified=patch, system_message=system_message, additional_context=additional_context)

    @classmethod
    def retry(cls, delay_ms: int | None = None, reason: str | None = None) -> HookResponse:
        """Ask the agent to try the operation again after ``delay_ms`` milliseconds."""
        return cls(action="retry", delay_ms=delay_ms, reason=reason)

    @classmethod
    def skip(cls) -> HookResponse:
        """Ignore the hooks that run after this one; the operation goes on."""
        return cls(action="skip")

    @classmethod
    def respond(
        cls, output: str, *, system_message: str | None = None, suppress_output: bool = False
    ) -> HookResponse:
        """Answer a PreToolUse in place of the tool: the agent does not run it, and the model
        reads ``output`` as its result. Only for the tool calls the hook's matcher let through;
        on any other event the agent counts it as the hook's failure."""
        return cls(
            action="respond", output=output, system_message=system_message, suppress_output=suppress_output
        )

    @classmethod
    def defer(
        cls,
        reason: str | None = None,
        routing: Mapping[str, Any] | None = None,
        *,
        system_message: str | None = None,
        suppress_output: bool = False,
    ) -> HookResponse:
        """Defer a PreToolUse (Claude Code's permission decision ``defer``): the agent parks the
        call for a person, who sees ``reason``; ``routing`` says who may decide and by when:
        ``HookResponse.defer("pushing needs a person", {"deciders": ["alice"], "deadline": "30m"})``.
        A malformed routing raises here, naming the field; on any other event the agent counts
        a defer as the hook's failure."""
        return cls(
            action="defer",
            reason=reason,
            routing=routing,
            system_message=system_message,
            suppress_output=suppress_output,
        )

    @classmethod
    def allow(cls, *, system_message: str | None = None) -> HookResponse:
        """Go on and skip the host's permission prompt."""
        return cls(permission="allow", system_message=system_message)

    @classmethod
    def ask(cls, *, system_message: str | None = None) -> HookResponse:
        """Go on, but make the host ask the user."""
        return cls(permission="ask", system_message=system_message)

    @classmethod
    def add_context(cls, text: str) -> HookResponse:
        """Go on and add text to the model's context."""
        return cls(additional_context=text)
