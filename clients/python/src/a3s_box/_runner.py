"""Runs this client's handlers for the firings the agent sends."""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ._registration import HookContext, LocalHook
from ._wire import clip_text, failure_response, load_json, to_proto_response
from .errors import A3sError, ErrorCode
from .events import HookEvent
from .response import HookResponse

log = logging.getLogger("a3s_box")

#: The agent's default limit on one message from a client (4 MiB). Text fields are cut to fit
#: (see ``_wire.MAX_ANSWER_TEXT_CHARS``); an answer whose ``modified`` still takes it over would end
#: the whole stream, so it is reported as that hook's failure (``LIMIT_EXCEEDED``) instead.
DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024

Key = tuple[str, str]


class HookRunner:
    """One task per firing: cancelled by the agent's cancellation, by its deadline, or by a lost
    connection (in those cases nothing is answered: the agent has stopped waiting). A handler
    that raises or returns garbage answers with its hook's fail behaviour and ``error`` set."""

    def __init__(
        self,
        hooks: Mapping[str, LocalHook],
        send: Callable[[Any], None],
        report: Callable[[A3sError], None],
        *,
        max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._hooks = hooks
        self._send = send
        self._report = report
        self._max_answer_bytes = max_answer_bytes
        self._clock = clock
        self._inflight: dict[Key, tuple[asyncio.Task[None], HookContext]] = {}

    @property
    def inflight(self) -> int:
        return len(self._inflight)

    def handle(self, message: Any) -> None:
        """Start the handler for one firing (or stop one). Never raises: whatever goes wrong with
        one message is that firing's failure, answered under its hook's fail behaviour, so the
        stream that carries the other firings goes on."""
        try:
            self._handle(message)
        except Exception as error:  # noqa: BLE001 - one bad message must not end the stream
            log.exception("a firing could not be handled")
            hook = self._hooks.get(getattr(message, "hook_id", ""))
            event_id = getattr(message, "event_id", "")
            if hook is not None and (hook.id, event_id) not in self._inflight:
                self._fail(hook, event_id, "INTERNAL", f"the firing could not be handled: {error!r}")

    def _handle(self, message: Any) -> None:
        key = (message.hook_id, message.event_id)
        if message.cancel:
            self._stop(key)
            return
        if key in self._inflight:
            return  # the agent never sends one firing twice; an echo must not start a second run
        hook = self._hooks.get(message.hook_id)
        if hook is None:
            # Unregistered here while the agent was sending: answer so it does not wait for a timeout.
            self._send(
                failure_response(
                    message.hook_id, message.event_id, None, f"this client has no hook {message.hook_id}", ""
                )
            )
            return
        try:
            # Depth is bounded before parsing: json.loads recurses once per level.
            event = HookEvent.parse(load_json(bytes(message.payload), "payload"))
        except A3sError as error:
            self._fail(hook, message.event_id, error.code, error.message)
            return
        except (ValueError, RecursionError) as error:
            self._fail(hook, message.event_id, "INVALID_EVENT", f"payload: {error!r}")
            return
        if event.name != hook.event:
            # A handler typed for one event must never see another.
            self._fail(
                hook,
                message.event_id,
                "INVALID_EVENT",
                f"payload.eventType: {event.name}, but this hook is for {hook.event}",
            )
            return
        ctx = HookContext(hook_id=hook.id, event_id=message.event_id, deadline_ms=int(message.deadline_ms))
        task = asyncio.get_running_loop().create_task(self._run(hook, event, ctx, key))
        self._inflight[key] = (task, ctx)
        self._arm_deadline(key, ctx)

    def abort_all(self) -> None:
        """The connection dropped or the client closes: the agent has answered for every firing."""
        for key in list(self._inflight):
            self._stop(key)

    def _arm_deadline(self, key: Key, ctx: HookContext) -> None:
        if ctx.deadline_ms <= 0:
            return
        remaining = ctx.deadline_ms / 1000 - self._clock()
        if remaining <= 0:
            # Already past on arrival: our clock runs ahead of the agent's. Cancelling now would
            # turn every answer into a failure; the agent's own cancellation still comes.
            log.debug(
                "firing %s arrived after its deadline; relying on the agent's cancellation", ctx.event_id
            )
            return
        asyncio.get_running_loop().call_later(remaining, self._expire, key, ctx)

    def _expire(self, key: Key, ctx: HookContext) -> None:
        running = self._inflight.get(key)
        if running is not None and running[1] is ctx:
            self._stop(key)

    def _stop(self, key: Key) -> None:
        running = self._inflight.pop(key, None)
        if running is None:
            return
        task, ctx = running
        ctx.cancelled = True
        task.cancel()

    async def _run(self, hook: LocalHook, event: HookEvent, ctx: HookContext, key: Key) -> None:
        try:
            value = await self._call(hook, event, ctx)
        except asyncio.CancelledError:
            if not ctx.cancelled:
                raise  # the loop itself is shutting down
            return
        except Exception as error:  # a handler's failure, whatever it is, becomes its hook's
            if self._settle(key, ctx):
                text = str(error) or type(error).__name__
                self._fail(
                    hook, ctx.event_id, error.code if isinstance(error, A3sError) else "HANDLER_FAILED", text
                )
            return
        if not self._settle(key, ctx):
            return
        if value is None:
            value = HookResponse.continue_()
        if not isinstance(value, HookResponse):
            self._fail(
                hook,
                ctx.event_id,
                "INVALID_OUTPUT",
                f"expected a HookResponse or None, got {type(value).__name__}",
            )
            return
        answer = to_proto_response(hook.id, ctx.event_id, value)
        size = answer.ByteSize()
        # Without `modified` or `output` the answer is small (its text is cut): a block is always
        # sent as one.
        big = "modified" if value.modified is not None else "output" if value.output is not None else None
        if big is not None and size > self._max_answer_bytes:
            self._fail(
                hook,
                ctx.event_id,
                "LIMIT_EXCEEDED",
                f"HookResponse.{big}: the answer is {size} bytes; the agent accepts at most"
                f" {self._max_answer_bytes}",
            )
            return
        self._send(answer)

    async def _call(self, hook: LocalHook, event: HookEvent, ctx: HookContext) -> Any:
        args: tuple[Any, ...] = (event, ctx) if hook.takes_context else (event,)
        if hook.is_async:
            return await typing.cast(Awaitable[Any], hook.handler(*args))
        # A plain function runs in a worker thread, so a slow one cannot stall the stream.
        value = await asyncio.to_thread(hook.handler, *args)
        if inspect.isawaitable(value):
            value = await value
        return value

    def _settle(self, key: Key, ctx: HookContext) -> bool:
        """True when the agent still waits for this firing (and stop tracking it)."""
        running = self._inflight.get(key)
        if running is None or running[1] is not ctx:
            return False
        del self._inflight[key]
        return True

    def _fail(self, hook: LocalHook, event_id: str, code: ErrorCode, text: str) -> None:
        reason = f"hook {hook.label} failed: {text}"
        self._send(failure_response(hook.id, event_id, hook.fail_behavior, text, reason))
        self._report(A3sError(code, clip_text(reason)))
