"""``A3sClient``: register Python hooks with a running A3S agent."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import re
from collections.abc import AsyncIterator, Callable, Generator
from contextlib import asynccontextmanager
from typing import Any, Literal, TypeVar

import grpc
import grpc.aio

from ._backoff import Backoff
from ._proto import pb, pb_grpc
from ._registration import FailBehavior, Handler, LocalHook, Matcher, is_wire_id, random_id, to_registration
from ._runner import DEFAULT_MAX_ANSWER_BYTES, HookRunner
from ._sync import HookSync
from ._wire import (
    AUTHORIZATION,
    CLIENT_ID,
    CLIENT_SECRET,
    RESUMED,
    GenerateProgress,
    GenerateResult,
    HookInfo,
    ToolExecution,
    generate_message,
    hook_info,
    json_bytes,
    tool_execution,
)
from .errors import A3sError

log = logging.getLogger("a3s_box")

DEFAULT_ADDRESS = "127.0.0.1:16300"
#: A resume secret as the agent makes them (32 random bytes, base64url); anything else is refused.
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,256}")
_ADDRESS = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})")
# The agent refused who we are: retrying with the same credentials cannot help.
_FATAL = frozenset({"UNAUTHENTICATED", "PERMISSION_DENIED"})

State = Literal["idle", "connecting", "ready", "reconnecting", "failed", "closed"]
H = TypeVar("H", bound=Handler)


def _closed() -> A3sError:
    return A3sError("UNAVAILABLE", "the client is closed")


def _is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class A3sClient:
    """Register hooks with an A3S agent; they run here, in this process, when it fires a
    matching event. Connects on first use, reconnects with backoff, and registers again what
    the agent lost.

    The address and token default to ``A3S_ADDRESS`` and ``A3S_TOKEN`` from the environment.

    Example::

        client = A3sClient()

        @client.hook("PreToolUse", matcher={"tool": "Bash"})
        async def guard(event: PreToolUseEvent) -> HookResponse:
            if "rm -rf /" in event.args.get("command", ""):
                return HookResponse.block("Dangerous command blocked")
            return HookResponse.continue_()

        asyncio.run(client.run_forever())
    """

    def __init__(
        self,
        address: str | None = None,
        token: str | None = None,
        *,
        client_id: str | None = None,
        credentials: grpc.ChannelCredentials | None = None,
        allow_plaintext_remote: bool = False,
        connect_timeout: float = 10.0,
        call_timeout: float = 10.0,
        reconnect: tuple[float, float] = (0.1, 5.0),
        max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES,
        max_receive_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        """
        :param address: ``host:port`` of the agent's hook server (``A3S_ADDRESS``, else 127.0.0.1:16300).
        :param token: sent as ``authorization: Bearer <token>`` (``A3S_TOKEN``).
        :param client_id: this client's id (1 to 100 of ``A-Z a-z 0-9 . _ -``); random by default.
        :param credentials: TLS for an agent that is not on this machine.
        :param allow_plaintext_remote: send the token unencrypted to a host that is not loopback.
        :param connect_timeout: seconds ``ready()`` (and every call that waits for it) waits.
        :param call_timeout: seconds one registration, removal or listing may take.
        :param reconnect: the first and the longest reconnect delay, in seconds.
        :param max_answer_bytes: an answer whose ``modified`` makes it larger than this is
            reported as the hook's failure instead of being sent (the agent would end the stream
            for it). Text fields are cut to 8192 characters, so other answers always fit.
        :param max_receive_bytes: the largest message accepted from the agent (an event, a
            listing); the agent's own default limit on an event is 4 MiB of JSON.
        """
        self.address: str = (
            address if address is not None else os.environ.get("A3S_ADDRESS") or DEFAULT_ADDRESS
        )
        token = token if token is not None else os.environ.get("A3S_TOKEN") or None
        match = _ADDRESS.fullmatch(self.address) if isinstance(self.address, str) else None
        if match is None or not 0 < int(match["port"]) < 65536:
            raise A3sError(
                "INVALID_CONFIG", f"address: expected host:port, like 127.0.0.1:16300, got {self.address!r}"
            )
        if credentials is None and not allow_plaintext_remote and not _is_loopback(match["host"]):
            raise A3sError(
                "INVALID_CONFIG",
                f"address: {match['host']} is not this machine, and plaintext would send the token "
                "unencrypted; pass credentials=grpc.ssl_channel_credentials(), or allow_plaintext_remote=True",
            )
        if token is not None and (
            not isinstance(token, str) or not token.isascii() or not token.isprintable()
        ):
            raise A3sError("INVALID_CONFIG", "token: expected printable ASCII text")
        self.client_id: str = client_id if client_id is not None else random_id()
        if not is_wire_id(self.client_id):
            raise A3sError("INVALID_CONFIG", "client_id: expected 1 to 100 of A-Z a-z 0-9 . _ -")
        self._token = token
        self._credentials = credentials
        self._channel_options = [*_CHANNEL_OPTIONS, ("grpc.max_receive_message_length", max_receive_bytes)]
        self._connect_timeout = connect_timeout
        self._call_timeout = call_timeout
        self._backoff = Backoff(*reconnect)
        self._hooks: dict[str, LocalHook] = {}
        self._sync = HookSync(self._hooks, self._rejected)
        self._runner = HookRunner(
            self._hooks, self._send, self._emit_error, max_answer_bytes=max_answer_bytes
        )
        self._error_listeners: list[Callable[[A3sError], None]] = []
        self._state_listeners: list[Callable[[State], None]] = []
        self._state: State = "idle"
        self._secret: str | None = None
        self._fatal: A3sError | None = None
        self._last_error: A3sError | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._channel: grpc.aio.Channel | None = None
        self._hook_stub: Any = None
        self._agent_stub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._call: Any = None
        self._outbox: asyncio.Queue[Any] | None = None
        self._settled: asyncio.Event | None = None
        self._changed: asyncio.Event | None = None
        self._flushing: asyncio.Task[None] | None = None
        self._broken: A3sError | None = None

    def __repr__(self) -> str:
        # Never the token or the resume secret.
        return f"A3sClient(address={self.address!r}, client_id={self.client_id!r}, state={self._state!r})"

    # --- hooks -------------------------------------------------------------------------------

    def register_hook(
        self,
        event: str,
        handler: Handler,
        *,
        matcher: Matcher | None = None,
        priority: int | None = None,
        timeout_ms: int | None = None,
        async_: bool = False,
        fail_behavior: FailBehavior | None = None,
        name: str | None = None,
        hook_id: str | None = None,
    ) -> str:
        """Register ``handler`` for ``event``; returns the hook's id at once.

        The registration is sent when connected (and again after a reconnect if the agent lost
        it). A bad event name, matcher or option raises ``A3sError`` here; a refusal by the
        agent (an invalid pattern, a limit) is reported to ``on_error`` listeners and the log.

        :param matcher: a name matcher (``"Bash|Write"``, ``"mcp__*"``; for events that are not
            tool events the model name, source, trigger, …) or a dict with ``tool``,
            ``path_pattern`` and ``command_pattern``. Matching runs in the agent.
        :param priority: lower runs earlier, across every client and the agent's own hooks.
        :param timeout_ms: how long the agent waits for the answer (default: the agent's, 5000).
        :param async_: fire and forget: the agent does not wait, and the answer cannot block.
        :param fail_behavior: what a failure, a timeout or this client being away contributes:
            ``"continue"`` (the agent's default) or ``"block"``.
        :param name: shown in listings and block reasons (default: the function's name).
        :param hook_id: your own id for the hook (default: a random one).
        """
        self._assert_open()
        hook = to_registration(
            event,
            handler,
            matcher=matcher,
            priority=priority,
            timeout_ms=timeout_ms,
            async_=async_,
            fail_behavior=fail_behavior,
            name=name,
            hook_id=hook_id,
        )
        if hook.id in self._hooks:
            raise A3sError("INVALID_CONFIG", f"hook_id: this client already has a hook {hook.id}")
        self._hooks[hook.id] = hook
        self._kick()
        return hook.id

    def hook(
        self,
        event: str,
        *,
        matcher: Matcher | None = None,
        priority: int | None = None,
        timeout_ms: int | None = None,
        async_: bool = False,
        fail_behavior: FailBehavior | None = None,
        name: str | None = None,
        hook_id: str | None = None,
    ) -> Callable[[H], H]:
        """``register_hook`` as a decorator; the function is returned unchanged.

        Example::

            @client.hook("PreToolUse", matcher={"tool": "Write", "path_pattern": "*.py"})
            async def format_python(event: PreToolUseEvent) -> HookResponse:
                return HookResponse.continue_()
        """

        def register(handler: H) -> H:
            self.register_hook(
                event,
                handler,
                matcher=matcher,
                priority=priority,
                timeout_ms=timeout_ms,
                async_=async_,
                fail_behavior=fail_behavior,
                name=name,
                hook_id=hook_id,
            )
            return handler

        return register

    def unregister_hook(self, hook_id: str) -> bool:
        """Remove one of this client's hooks. False when it has no such hook."""
        hook = self._hooks.pop(hook_id, None)
        if hook is None:
            return False
        self._sync.removed(hook)
        self._kick()
        return True

    async def list_hooks(self, event_type: str | None = None) -> list[HookInfo]:
        """This client's hooks as the agent holds them, with their counters."""
        await self.ready()
        response = await self._hook_call("ListHooks", pb.ListHooksRequest(event_type=event_type or ""))
        return [hook_info(h) for h in response.hooks]

    @asynccontextmanager
    async def temporary_hook(
        self,
        event: str,
        handler: Handler,
        *,
        matcher: Matcher | None = None,
        priority: int | None = None,
        timeout_ms: int | None = None,
        async_: bool = False,
        fail_behavior: FailBehavior | None = None,
        name: str | None = None,
        hook_id: str | None = None,
    ) -> AsyncIterator[str]:
        """A hook for the body of an ``async with`` block: registered (and confirmed by the
        agent) on entry, removed on exit, even when the body raises.

        Example::

            async with client.temporary_hook("PreToolUse", my_handler):
                response = await client.generate(session_id, "Do something")
        """
        hook_id = self.register_hook(
            event,
            handler,
            matcher=matcher,
            priority=priority,
            timeout_ms=timeout_ms,
            async_=async_,
            fail_behavior=fail_behavior,
            name=name,
            hook_id=hook_id,
        )
        try:
            await self.ready()
            yield hook_id
        finally:
            if self.unregister_hook(hook_id) and self._state == "ready":
                try:
                    await self.ready()
                except A3sError:
                    pass

    # --- connection ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """``idle`` → ``connecting`` → ``ready`` ⇄ ``reconnecting``; ``failed`` (the agent refused
        the credentials) and ``closed`` are final."""
        return self._state

    def on_error(self, listener: Callable[[A3sError], None]) -> Callable[[], None]:
        """Call ``listener`` with every error: a refused registration, a failed handler, a lost
        connection. Returns the way to stop listening."""
        self._error_listeners.append(listener)
        return lambda: self._error_listeners.remove(listener) if listener in self._error_listeners else None

    def on_state(self, listener: Callable[[State], None]) -> Callable[[], None]:
        """Call ``listener`` with every change of ``state``. Returns the way to stop listening."""
        self._state_listeners.append(listener)
        return lambda: self._state_listeners.remove(listener) if listener in self._state_listeners else None

    async def ready(self, timeout: float | None = None) -> None:
        """Connect if needed, and return once every registration and removal made so far has
        reached the agent. Raises ``A3sError``: ``UNAVAILABLE`` after ``timeout`` seconds
        (default: ``connect_timeout``) without a connection, ``UNAUTHENTICATED`` at once for a
        token or client the agent refuses, ``UNAVAILABLE`` when the client is closed."""
        self._start()
        limit = self._connect_timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(limit):
                while True:
                    if self._state == "closed":
                        raise _closed()
                    if self._fatal is not None:
                        raise self._fatal
                    if self._state == "ready" and not self._sync.dirty:
                        return
                    assert self._changed is not None
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            last = f" (last error: {self._last_error.message})" if self._last_error else ""
            raise A3sError(
                "UNAVAILABLE",
                f"not connected to the agent at {self.address} within {int(limit * 1000)} ms{last}",
            ) from None

    async def run_forever(self) -> None:
        """Connect and answer the agent until ``close()``; raises when the agent refuses the
        credentials (``UNAUTHENTICATED``)."""
        await self.ready()
        while self._state not in ("closed", "failed"):
            assert self._changed is not None
            self._changed.clear()
            await self._changed.wait()
        if self._fatal is not None:
            raise self._fatal

    async def close(self) -> None:
        """Remove this client's hooks from the agent (so a fail-closed one does not keep
        blocking for the reconnect window), stop running handlers, and disconnect. Idempotent."""
        if self._state == "closed":
            return
        for hook_id in list(self._hooks):
            self.unregister_hook(hook_id)
        if self._state == "ready" and self._loop is asyncio.get_running_loop():
            try:
                await asyncio.wait_for(self._sync.flush(self._hook_call, pb), 2.0)
            except (A3sError, TimeoutError, grpc.aio.AioRpcError):
                pass
        self._set_state("closed")
        self._runner.abort_all()
        for task in (self._flushing, self._task):
            if task is not None and not task.done():
                task.cancel()
        if self._call is not None:
            self._call.cancel()
        if self._channel is not None:
            await self._channel.close()

    async def __aenter__(self) -> A3sClient:
        self._start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- AgentService ----------------------------------------------------------------------------

    async def create_session(
        self,
        session_id: str | None = None,
        *,
        working_directory: str | None = None,
        model: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> str:
        """Create an agent session; returns its id."""
        await self.ready()
        request = pb.CreateSessionRequest(
            session_id=session_id or "",
            working_directory=working_directory or "",
            model=model or "",
            metadata=json_bytes(metadata, "metadata"),
        )
        response = await self._agent_call("CreateSession", request)
        return str(response.session_id)

    async def destroy_session(self, session_id: str, reason: str | None = None) -> bool:
        """End an agent session (its SessionEnd hooks run). False when there was none."""
        await self.ready()
        request = pb.DestroySessionRequest(session_id=session_id, reason=reason or "")
        response = await self._agent_call("DestroySession", request)
        return bool(response.destroyed)

    async def execute_tool(
        self, session_id: str, tool: str, args: dict[str, Any], *, timeout: float | None = None
    ) -> ToolExecution:
        """Run one tool in a session through the agent's hooks. A tool a hook blocked returns
        ``blocked=True`` and the reason; it does not raise."""
        await self.ready()
        request = pb.ExecuteToolRequest(session_id=session_id, tool=tool, args=json_bytes(args, "args"))
        return tool_execution(await self._agent_call("ExecuteTool", request, timeout))

    def generate(self, session_id: str, prompt: str, *, timeout: float | None = None) -> GenerateCall:
        """Ask the agent to work on a prompt. Await it for the result, or iterate it for the
        progress and then the result.

        Example::

            result = await client.generate(session_id, "Do something")
            async for step in client.generate(session_id, "Do something"):
                print(step)
        """
        return GenerateCall(self, session_id, prompt, timeout)

    # --- internals -------------------------------------------------------------------------------

    def _assert_open(self) -> None:
        if self._state == "closed":
            raise _closed()

    def _metadata(self, *, hooks: bool) -> tuple[tuple[str, str], ...]:
        md: list[tuple[str, str]] = [(CLIENT_ID, self.client_id)]
        if self._token is not None:
            md.append((AUTHORIZATION, f"Bearer {self._token}"))
        # The resume secret proves this is the client that opened the stream; only HookService needs it.
        if hooks and self._secret is not None:
            md.append((CLIENT_SECRET, self._secret))
        return tuple(md)

    async def _hook_call(self, method: str, request: Any) -> Any:
        try:
            return await getattr(self._hook_stub, method)(
                request, metadata=self._metadata(hooks=True), timeout=self._call_timeout
            )
        except grpc.aio.AioRpcError as error:
            raise A3sError.from_rpc(error) from None

    async def _agent_call(self, method: str, request: Any, timeout: float | None = None) -> Any:
        try:
            return await getattr(self._agent_stub, method)(
                request, metadata=self._metadata(hooks=False), timeout=timeout
            )
        except grpc.aio.AioRpcError as error:
            raise A3sError.from_rpc(error) from None

    def _start(self) -> None:
        """Bind to the running event loop and start connecting, once."""
        self._assert_open()
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            self._changed = asyncio.Event()
            if self._credentials is not None:
                self._channel = grpc.aio.secure_channel(
                    self.address, self._credentials, options=self._channel_options
                )
            else:
                self._channel = grpc.aio.insecure_channel(self.address, options=self._channel_options)
            self._hook_stub = pb_grpc.HookServiceStub(self._channel)
            self._agent_stub = pb_grpc.AgentServiceStub(self._channel)
        elif self._loop is not loop:
            raise A3sError(
                "INVALID_CONFIG", "this client belongs to another event loop; make one client per loop"
            )
        if self._task is None:
            self._task = loop.create_task(self._connection())
            self._task.add_done_callback(self._connection_ended)

    def _connection_ended(self, task: asyncio.Task[None]) -> None:
        """The connection task should only end when the client closes or the agent refused it for
        good. Ended any other way (a bug), the client must not go on saying ``ready`` while nobody
        answers: it says ``reconnecting`` and starts over."""
        if self._state in ("closed", "failed") or task.cancelled():
            return
        error = task.exception()
        log.error("the hook connection ended unexpectedly: %r", error)
        self._emit_error(A3sError("INTERNAL", f"the hook connection ended unexpectedly: {error!r}"))
        self._call = None
        self._outbox = None
        self._set_state("reconnecting")
        if self._loop is not None and not self._loop.is_closed():
            self._task = self._loop.create_task(self._connection())
            self._task.add_done_callback(self._connection_ended)

    def _kick(self) -> None:
        """Something changed locally: start, or send it now when connected."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is None or (self._loop is not None and running is not self._loop):
            # A plain handler runs in a worker thread: hand the work to the client's loop.
            if self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self._kick)
            return  # before any event loop runs, the registration waits for the first use
        if self._loop is None or self._task is None:
            self._start()
            return
        if self._state == "ready" and (self._flushing is None or self._flushing.done()):
            self._flushing = self._loop.create_task(self._flush())

    async def _flush(self) -> None:
        try:
            await self._sync.flush(self._hook_call, pb)
        except A3sError as error:
            self._break(error)
            return
        self._notify()
        if self._sync.dirty and self._state == "ready":
            self._kick()

    def _break(self, error: A3sError) -> None:
        """A call on this connection failed: drop the stream, the loop reconnects."""
        self._broken = error
        if self._call is not None:
            self._call.cancel()

    def _send(self, answer: Any) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait(answer)

    async def _connection(self) -> None:
        while self._state != "closed":
            self._set_state("connecting" if self._state == "idle" else "reconnecting")
            try:
                error = await self._attempt()
            except asyncio.CancelledError:
                raise
            except Exception as unexpected:  # noqa: BLE001 - a bug must not leave a dead loop "ready"
                log.exception("the hook stream failed")
                error = A3sError("INTERNAL", f"the hook stream failed: {unexpected!r}")
                if self._call is not None:
                    self._call.cancel()
            self._call = None
            self._outbox = None
            self._sync.disconnected()
            self._runner.abort_all()
            if self._closing():
                return
            self._last_error = error
            self._emit_error(error)
            if error.code in _FATAL:
                self._fatal = error
                self._set_state("failed")
                return
            self._set_state("reconnecting")
            await asyncio.sleep(self._backoff.next())

    async def _attempt(self) -> A3sError:
        """One connection, from opening the stream to its end; returns why it ended."""
        self._broken = None
        call = self._hook_stub.HookStream(metadata=self._metadata(hooks=True))
        self._call = call
        writer: asyncio.Task[None] | None = None
        reader: asyncio.Task[A3sError] | None = None
        try:
            accepted = await call.initial_metadata()
            resumed = _value(accepted, RESUMED)
            if resumed is None:
                # Only an accepted stream carries x-a3s-resumed; a refusal ends with a status.
                return A3sError.from_status(
                    await call.code(), await call.details(), await call.trailing_metadata()
                )
            secret = _value(accepted, CLIENT_SECRET)
            if secret is not None:
                if _SECRET.fullmatch(secret) is None:
                    return A3sError("INVALID_OUTPUT", "the agent sent a malformed x-a3s-client-secret")
                self._secret = secret
            log.debug("hook stream open (resumed: %s)", resumed)
            outbox: asyncio.Queue[Any] = asyncio.Queue()
            self._outbox = outbox
            writer = asyncio.get_running_loop().create_task(_write(call, outbox))
            reader = asyncio.get_running_loop().create_task(self._read(call))
            try:
                await self._sync.reconcile(self._hook_call, pb)
            except A3sError as error:
                reader.cancel()
                call.cancel()
                return error
            if not reader.done():
                self._backoff.reset()
                self._last_error = None
                self._set_state("ready")
                if self._sync.dirty:
                    self._kick()
            return self._broken or await reader
        except grpc.aio.AioRpcError as error:
            return self._broken or A3sError.from_rpc(error)
        except asyncio.CancelledError:
            call.cancel()
            raise
        finally:
            for task in (writer, reader):
                if task is not None:
                    task.cancel()

    async def _read(self, call: Any) -> A3sError:
        try:
            while True:
                message = await call.read()
                if message is grpc.aio.EOF:
                    break
                self._runner.handle(message)
            code = await call.code()
        except grpc.aio.AioRpcError as error:
            return self._broken or A3sError.from_rpc(error)
        except asyncio.CancelledError:
            return self._broken or A3sError("UNAVAILABLE", "the hook stream was cancelled")
        except Exception as unexpected:  # noqa: BLE001 - end this stream and reconnect, never hang
            log.exception("reading the hook stream failed")
            return self._broken or A3sError("INTERNAL", f"reading the hook stream failed: {unexpected!r}")
        if self._broken:
            return self._broken
        if code == grpc.StatusCode.OK:
            return A3sError("UNAVAILABLE", "the agent ended the hook stream")
        return A3sError.from_status(code, await call.details(), await call.trailing_metadata())

    def _closing(self) -> bool:
        # A separate method so the type checker does not narrow the state across the await above.
        return self._state == "closed"

    def _rejected(self, hook: LocalHook, error: A3sError) -> None:
        self._emit_error(A3sError(error.code, f"the agent refused hook {hook.label}: {error.message}"))

    def _emit_error(self, error: A3sError) -> None:
        log.warning("%s", error)
        for listener in list(self._error_listeners):
            try:
                listener(error)
            except Exception:  # a listener's bug must not take the connection down
                log.exception("an on_error listener raised")

    def _set_state(self, state: State) -> None:
        if self._state == state:
            return
        self._state = state
        self._notify()
        for listener in list(self._state_listeners):
            try:
                listener(state)
            except Exception:
                log.exception("an on_state listener raised")

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()


class GenerateCall:
    """``client.generate(...)``: await it for the ``GenerateResult``, or ``async for`` it for
    each ``GenerateProgress`` and then the ``GenerateResult``. Leaving the loop early, or
    cancelling the task, cancels the call and the agent's work."""

    def __init__(self, client: A3sClient, session_id: str, prompt: str, timeout: float | None) -> None:
        self._client = client
        self._request = (session_id, prompt)
        self._timeout = timeout

    async def __aiter__(self) -> AsyncIterator[GenerateProgress | GenerateResult]:
        client = self._client
        await client.ready()
        session_id, prompt = self._request
        call = client._agent_stub.Generate(
            pb.GenerateRequest(session_id=session_id, prompt=prompt),
            metadata=client._metadata(hooks=False),
            timeout=self._timeout,
        )
        try:
            async for message in call:
                yield generate_message(message)
        except grpc.aio.AioRpcError as error:
            raise A3sError.from_rpc(error) from None
        finally:
            call.cancel()

    async def result(self) -> GenerateResult:
        async for step in self:
            if isinstance(step, GenerateResult):
                return step
        raise A3sError("UNAVAILABLE", "the agent ended Generate without a result")

    def __await__(self) -> Generator[Any, None, GenerateResult]:
        return self.result().__await__()


_CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    # The client runs its own reconnect loop with backoff; keep the channel's own short.
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2000),
]


def _value(metadata: Any, key: str) -> str | None:
    for item in metadata or ():
        if item[0] == key:
            value = item[1]
            return value.decode() if isinstance(value, bytes) else str(value)
    return None


async def _write(call: Any, outbox: asyncio.Queue[Any]) -> None:
    # grpc.aio allows one write at a time; answers go out in the order they were settled.
    try:
        while True:
            answer = await outbox.get()
            await call.write(answer)
    except Exception:  # noqa: BLE001 - the stream is closing: the agent stopped waiting for these answers
        log.debug("answers left unsent: the hook stream closed", exc_info=True)
