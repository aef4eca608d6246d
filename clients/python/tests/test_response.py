"""HookResponse: the helpers the design names, and answers the agent would refuse caught early."""

from __future__ import annotations

from typing import Any

import pytest

from a3s_box import A3sError, HookResponse
from a3s_box._proto import pb
from a3s_box._wire import to_proto_response
from a3s_box.response import MAX_RESPOND_OUTPUT_CHARS


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


def test_respond_answers_in_place_of_the_tool_on_the_wire() -> None:
    response = HookResponse.respond("cached page", system_message="from cache")
    assert (response.action, response.output) == ("respond", "cached page")
    message = to_proto_response("h", "e", response)
    assert message.action == pb.RESPOND
    assert message.output == "cached page"
    assert message.system_message == "from cache"
    # Every other action leaves the field empty: an agent reads it only on a respond.
    assert to_proto_response("h", "e", HookResponse.block("no")).output == ""


def test_respond_output_is_checked_and_capped() -> None:
    with pytest.raises(A3sError, match=r"HookResponse\.output: a respond needs a string output"):
        HookResponse(action="respond")
    with pytest.raises(A3sError, match=r"HookResponse\.output: only a respond can carry it"):
        HookResponse(action="continue", output="x")
    with pytest.raises(A3sError, match=r"HookResponse\.output: a respond carries at most") as raised:
        HookResponse.respond("x" * (MAX_RESPOND_OUTPUT_CHARS + 1))
    assert raised.value.code == "LIMIT_EXCEEDED"
    # The agent counts UTF-16 code units: an emoji is two of them.
    with pytest.raises(A3sError, match="at most"):
        HookResponse.respond("😀" * (MAX_RESPOND_OUTPUT_CHARS // 2 + 1))
    assert HookResponse.respond("x" * MAX_RESPOND_OUTPUT_CHARS).output is not None


def test_defer_carries_its_reason_and_routing_on_the_wire() -> None:
    routing = {"deciders": ["alice", "bob"], "deadline": "30m", "on_deadline": "allow"}
    response = HookResponse.defer("pushing needs a person", routing, system_message="parked")
    assert (response.action, response.reason, response.routing) == ("defer", "pushing needs a person", routing)
    message = to_proto_response("h", "e", response)
    assert message.action == pb.DEFER
    assert message.reason == "pushing needs a person"
    assert list(message.routing.deciders) == ["alice", "bob"]
    assert (message.routing.deadline, message.routing.on_deadline) == ("30m", "allow")
    assert message.system_message == "parked"
    # A bare defer sends no routing; every other action leaves the field unset.
    assert not to_proto_response("h", "e", HookResponse.defer()).HasField("routing")
    assert not to_proto_response("h", "e", HookResponse.block("no")).HasField("routing")


@pytest.mark.parametrize(
    ("routing", "field"),
    [
        ({"deadline": "soon"}, "HookResponse.routing.deadline"),
        ({"deadline": "367d"}, "HookResponse.routing.deadline"),
        ({"on_deadline": "maybe"}, "HookResponse.routing.on_deadline"),
        ({"deciders": "alice"}, "HookResponse.routing.deciders"),
        ({"deciders": [""]}, "HookResponse.routing.deciders[0]"),
        ({"decider": ["alice"]}, "HookResponse.routing.decider"),
        (["alice"], "HookResponse.routing"),
    ],
)
def test_a_malformed_routing_fails_where_it_is_made_naming_the_field(routing: Any, field: str) -> None:
    with pytest.raises(A3sError) as caught:
        HookResponse.defer("why", routing)
    assert caught.value.code == "INVALID_OUTPUT"
    assert caught.value.message.startswith(f"{field}:")


def test_only_a_defer_carries_routing() -> None:
    with pytest.raises(A3sError, match=r"HookResponse\.routing: only a defer can carry it"):
        HookResponse(action="continue", routing={"deadline": "1h"})
