"""Events a host adds to the agent's catalogue (``defineEvent`` in @a3s-lab/hooks-core): the
Python SDK has no dataclass for them, but registers hooks for them and reads their payloads."""

from __future__ import annotations

import pytest

from a3s_box import A3sError, HookEvent
from a3s_box._registration import LocalHook, to_registration
from a3s_box.events import DefinedEvent


def _register(event: str, matcher: object = None) -> LocalHook:
    return to_registration(
        event,
        lambda e: None,
        matcher=matcher,  # type: ignore[arg-type]
        priority=None,
        timeout_ms=None,
        async_=False,
        fail_behavior=None,
        name=None,
        hook_id=None,
    )


def test_a_host_defined_event_name_registers_with_its_matcher() -> None:
    hook = _register("TeammateIdle", matcher="ana|bo")
    assert hook.request.event_type == "TeammateIdle"
    assert hook.request.matcher.pattern == "ana|bo"


def test_built_in_spellings_still_resolve_and_junk_is_refused() -> None:
    assert _register("pre_tool_use").request.event_type == "PreToolUse"
    for bad in ("teammateIdle", "Teammate Idle", "", "A" * 65):
        with pytest.raises(A3sError, match="event: unknown event name"):
            _register(bad)


def test_a_host_defined_payload_parses_with_its_fields_in_raw() -> None:
    payload = {
        "eventType": "TeammateIdle",
        "eventId": "e1",
        "sessionId": "s",
        "timestamp": 1,
        "metadata": {},
        "teammateName": "ana",
    }
    event = HookEvent.parse(payload)
    assert isinstance(event, DefinedEvent)
    assert (event.event_type, event.session_id) == ("TeammateIdle", "s")
    assert event.raw["teammateName"] == "ana"
    with pytest.raises(A3sError, match="payload.eventType: unknown event 'nope'"):
        HookEvent.parse({**payload, "eventType": "nope"})
