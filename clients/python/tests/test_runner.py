"""The handler runner on its own: cancellation frames, deadlines, failures, without an agent."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from a3s_box import A3sError, HookContext, HookResponse, PreToolUseEvent
from a3s_box._proto import pb
from a3s_box._registration import LocalHook, to_registration
from a3s_box._runner import HookRunner


def _hook(handler: Any, **options: Any) -> LocalHook:
    defaults: dict[str, Any] = dict(
        matcher=None, priority=None, timeout_ms=None, async_=False, fail_behavior=None, name=None, hook_id="h"
    )
    return to_registration("PreToolUse", handler, **{**defaults, **options})


def _event(event_id: str = "e1", deadline_ms: int = 0, **payload: Any) -> Any:
    body = {
        "eventType": "PreToolUse",
        "eventId": event_id,
        "sessionId": "s",
        "timestamp": 1,
        "metadata": {},
        "tool": "Bash",
        "args": {"command": "ls"},
        **payload,
    }
    return pb.HookEvent(
        hook_id="h",
        event_id=event_id,
        event_type="PreToolUse",
        payload=json.dumps(body).encode(),
        deadline_ms=deadline_ms,
    )


class Harness:
    def __init__(self, hook: LocalHook, clock: Any = time.time) -> None:
        self.sent: list[Any] = []
        self.errors: list[A3sError] = []
        self.answered = asyncio.Event()
        self.runner = HookRunner({hook.id: hook}, self._send, self.errors.append, clock=clock)

    def _send(self, answer: Any) -> None:
        self.sent.append(answer)
        self.answered.set()


async def test_a_cancellation_frame_cancels_the_handler_and_nothing_is_answered() -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def slow(event: PreToolUseEvent) -> HookResponse:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return HookResponse.block("never")

    h = Harness(_hook(slow))
    h.runner.handle(_event())
    await started.wait()
    h.runner.handle(
        pb.HookEvent(hook_id="h", event_id="e1", cancel=True, cancel_reason="no answer within 5000 ms")
    )
    await cancelled.wait()
    await asyncio.sleep(0)
    assert h.sent == [] and h.runner.inflight == 0


async def test_a_handler_still_running_at_its_deadline_is_cancelled() -> None:
    cancelled = asyncio.Event()
    seen: list[HookContext] = []

    async def slow(event: PreToolUseEvent, ctx: HookContext) -> None:
        seen.append(ctx)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    deadline_ms = 1_000_000
    # The clock stands a millisecond before the deadline: the runner's timer is the only wait.
    h = Harness(_hook(slow), clock=lambda: deadline_ms / 1000 - 0.001)
    h.runner.handle(_event(deadline_ms=deadline_ms))
    await cancelled.wait()
    assert seen[0].cancelled and seen[0].deadline_ms == deadline_ms
    assert h.sent == []


async def test_a_deadline_already_past_on_arrival_leaves_the_decision_to_the_agent() -> None:
    h = Harness(_hook(lambda event: HookResponse.block("checked")), clock=lambda: 2_000.0)
    h.runner.handle(_event(deadline_ms=1_000_000))
    await h.answered.wait()
    assert h.sent[0].action == pb.BLOCK and h.sent[0].reason == "checked"


async def test_a_handler_that_raises_answers_with_its_fail_behaviour_and_the_error() -> None:
    def broken(event: PreToolUseEvent) -> None:
        raise ValueError("boom")

    h = Harness(_hook(broken, fail_behavior="block", name="guard"))
    h.runner.handle(_event())
    await h.answered.wait()
    answer = h.sent[0]
    assert (answer.action, answer.error, answer.reason) == (pb.BLOCK, "boom", "hook guard failed: boom")
    assert h.errors[0].code == "HANDLER_FAILED"


async def test_a_handler_that_returns_garbage_fails_instead_of_continuing() -> None:
    h = Harness(_hook(lambda event: {"action": "block"}, fail_behavior="block"))
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].action == pb.BLOCK
    assert h.sent[0].error == "expected a HookResponse or None, got dict"


async def test_a_modification_over_the_agents_limit_fails_the_hook_instead_of_the_stream() -> None:
    hook = _hook(lambda event: HookResponse.modify({"args": {"command": "x" * 5000}}), fail_behavior="block")
    h = Harness(hook)
    h.runner._max_answer_bytes = 1024
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].action == pb.BLOCK
    assert h.sent[0].error.startswith("HookResponse.modified: the answer is ")
    assert h.sent[0].ByteSize() < 1024


async def test_a_respond_over_the_agents_limit_fails_the_hook_instead_of_the_stream() -> None:
    hook = _hook(lambda event: HookResponse.respond("x" * 5000), fail_behavior="block")
    h = Harness(hook)
    h.runner._max_answer_bytes = 1024
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].action == pb.BLOCK
    assert h.sent[0].output == ""
    assert h.sent[0].error.startswith("HookResponse.output: the answer is ")


async def test_a_block_with_a_huge_reason_is_sent_as_a_block_its_text_cut() -> None:
    h = Harness(_hook(lambda event: HookResponse.block("x" * 100_000, system_message="y" * 9000)))
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].action == pb.BLOCK and not h.sent[0].error
    assert h.sent[0].reason == "x" * 8192 + "… (91808 more characters)"
    assert h.sent[0].system_message == "y" * 8192 + "… (808 more characters)"


async def test_a_huge_error_message_is_cut_too() -> None:
    def fail(event: Any) -> None:
        raise RuntimeError("z" * 20_000)

    h = Harness(_hook(fail, fail_behavior="block"))
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].error == "z" * 8192 + "… (11808 more characters)"
    assert h.sent[0].reason.endswith(" more characters)") and len(h.sent[0].reason) < 8300


async def test_a_malformed_payload_fails_the_hook_naming_the_field() -> None:
    h = Harness(_hook(lambda event: None, fail_behavior="block"))
    h.runner.handle(_event(tool=7))
    await h.answered.wait()
    assert h.sent[0].error == "PreToolUse.tool: expected a string, got a number"
    assert h.errors[0].code == "INVALID_EVENT"


async def test_an_event_for_a_hook_this_client_no_longer_has_is_answered_at_once() -> None:
    h = Harness(_hook(lambda event: None))
    h.runner.handle(pb.HookEvent(hook_id="gone", event_id="e9", payload=b"{}"))
    assert h.sent[0].action == pb.CONTINUE and h.sent[0].error == "this client has no hook gone"


async def test_a_sync_handler_runs_off_the_event_loop() -> None:
    import threading

    loop_thread = threading.get_ident()
    threads: list[int] = []

    def plain(event: PreToolUseEvent) -> HookResponse:
        threads.append(threading.get_ident())
        return HookResponse.skip()

    h = Harness(_hook(plain))
    h.runner.handle(_event())
    await h.answered.wait()
    assert h.sent[0].action == pb.SKIP and threads[0] != loop_thread


async def test_an_event_of_another_type_than_the_hooks_never_reaches_the_handler() -> None:
    called: list[object] = []
    h = Harness(_hook(called.append, fail_behavior="block"))
    stop = {
        "eventType": "Stop",
        "eventId": "e1",
        "sessionId": "s",
        "timestamp": 1,
        "metadata": {},
        "stopHookActive": False,
    }
    h.runner.handle(pb.HookEvent(hook_id="h", event_id="e1", payload=json.dumps(stop).encode()))
    await h.answered.wait()
    assert called == []
    assert h.sent[0].error == "payload.eventType: Stop, but this hook is for PreToolUse"
