"""Keeps the agent's view of this client's hooks equal to the local one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ._registration import LocalHook
from .errors import A3sError

# Refusals no retry will fix: the registration itself is wrong or over a limit.
PERMANENT = frozenset(
    {
        "INVALID_CONFIG",
        "UNKNOWN_EVENT",
        "INVALID_PATTERN",
        "LIMIT_EXCEEDED",
        "PERMISSION_DENIED",
        "INVALID_OUTPUT",
    }
)

Call = Callable[[str, Any], Awaitable[Any]]


class HookSync:
    """The local dict is the truth. Registrations and removals go out one at a time, in order
    (registration order breaks priority ties in the agent), and after a reconnect the agent's
    list is compared with the local one, so only what it lost is sent again."""

    def __init__(self, hooks: dict[str, LocalHook], rejected: Callable[[LocalHook, A3sError], None]) -> None:
        self._hooks = hooks
        self._rejected = rejected
        #: Hooks removed locally that the agent may still hold.
        self._removals: dict[str, str | None] = {}
        self._lock = asyncio.Lock()
        self._connection = 0

    @property
    def dirty(self) -> bool:
        return bool(self._removals) or any(not h.registered for h in self._hooks.values())

    def removed(self, hook: LocalHook) -> None:
        if hook.registered:
            self._removals[hook.id] = hook.event

    def disconnected(self) -> None:
        self._connection += 1
        for hook in self._hooks.values():
            hook.registered = False

    async def reconcile(self, call: Call, pb: Any) -> None:
        """A new connection: the agent may have kept our hooks in its reconnect window, or lost
        them in a restart. Compare, then send the difference."""
        connection = self._connection
        async with self._lock:
            listing = await call("ListHooks", pb.ListHooksRequest())
            if connection != self._connection:
                return
            held = {h.hook_id for h in listing.hooks}
            for hook in self._hooks.values():
                hook.registered = hook.id in held
            self._removals = {hook_id: None for hook_id in held if hook_id not in self._hooks}
            await self._flush(call, pb, connection)

    async def flush(self, call: Call, pb: Any) -> None:
        connection = self._connection
        async with self._lock:
            await self._flush(call, pb, connection)

    async def _flush(self, call: Call, pb: Any, connection: int) -> None:
        while self.dirty and connection == self._connection:
            for hook_id, event in list(self._removals.items()):
                try:
                    await call("UnregisterHook", pb.UnregisterHookRequest(hook_id=hook_id))
                except A3sError as error:
                    if error.code != "NOT_FOUND":
                        raise
                if connection != self._connection:
                    return
                # Registered again under the same id meanwhile? Then the newer registration stands.
                if self._removals.get(hook_id, "gone") == event:
                    del self._removals[hook_id]
            for hook in list(self._hooks.values()):
                if hook.registered or self._hooks.get(hook.id) is not hook:
                    continue
                try:
                    await call("RegisterHook", hook.request)
                except A3sError as error:
                    if error.code not in PERMANENT:
                        raise
                    if self._hooks.get(hook.id) is hook:
                        del self._hooks[hook.id]
                    self._rejected(hook, error)
                    continue
                if connection != self._connection:
                    return
                if self._hooks.get(hook.id) is hook:
                    hook.registered = True
                else:
                    # Unregistered locally while the registration was on its way.
                    self._removals[hook.id] = hook.event
