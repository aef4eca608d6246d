"""HookResponse: the helpers the design names, and answers the agent would refuse caught early."""

from __future__ import annotations

from typing import Any

import pytest

from a3s_box import A3sError, HookResponse
from a3s_box._proto import pb
from a3s_box._wire import to_proto_response


def test_the_helpers_build_each_action() -> None:
    assert HookResponse.continue_().action == "continue"
    assert HookResponse.block("no").reason == "no"
    assert HookResponse.modify({"args": {"timeout": 30000}}).modified == {"args": {"timeout": 30000}}
    assert HookResponse.retry(250).delay_ms == 250
    assert HookResponse.skip().action == "skip"
    assert HookResponse.allow().permission == "allow"
    assert HookResponse.ask().permission == "ask"
    assert HookResponse.deny("no").action == "block"


def test_a_response_goes_on_the_wire_field_for_field() -> None:
    message = to_proto_response("h", "e", HookResponse.modify({"args": {"x": 1}}, additional_context="ctx"))
    assert (message.hook_id, message.event_id, message.action) == ("h", "e", pb.CONTINUE)
    assert message.modified == b'{"args":{"x":1}}'
    assert message.additional_context == "ctx"
    assert to_proto_response("h", "e", HookResponse.retry(5)).retry_delay_ms == 5
    assert to_proto_response("h", "e", HookResponse.ask()).permission == pb.PERMISSION_ASK


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: HookResponse.block(""), "HookResponse.reason: a block needs a non-empty reason"),
        (
            lambda: HookResponse.modify([1]),  # type: ignore[arg-type]
            "HookResponse.modified: expected a JSON object (a dict)",
        ),
        (lambda: HookResponse.modify({"x": object()}), "HookResponse.modified: not JSON"),
        (lambda: HookResponse.modify({"x": float("nan")}), "HookResponse.modified: not JSON"),
        (lambda: HookResponse.retry(-1), "HookResponse.delay_ms: expected an integer from 0"),
        (
            lambda: HookResponse(action="block", reason="r", modified={}),
            "HookResponse.modified: only a continue",
        ),
        (
            lambda: HookResponse(action="explode"),  # type: ignore[arg-type]
            "HookResponse.action: unknown action 'explode'",
        ),
    ],
)
def test_an_answer_the_agent_would_refuse_fails_where_it_is_made(build: Any, message: str) -> None:
    with pytest.raises(A3sError) as caught:
        build()
    assert caught.value.code == "INVALID_OUTPUT"
    assert caught.value.message.startswith(message)
