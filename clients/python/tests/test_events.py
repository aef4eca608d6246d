"""The event dataclasses against @a3s-lab/hooks-core's catalogue (exported as JSON Schema), so the
two SDKs cannot drift, and hostile payloads get an error naming the field."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Literal

import pytest

from a3s_box import EVENT_TYPES, A3sError, GenerateEndEvent, HookEvent, PreToolUseEvent, resolve_event_name
from a3s_box.events import json_name, optional_inner, type_hints, wire_fields


def _check(cls: type, schema: dict[str, Any], path: str) -> None:
    properties: dict[str, Any] = schema["properties"]
    required = set(schema.get("required", []))
    fields = {json_name(f): f for f in wire_fields(cls)}
    assert sorted(fields) == sorted(properties), f"{path}: fields differ from core's schema"
    hints = type_hints(cls)
    for key, prop in properties.items():
        f = fields[key]
        hint = hints[f.name]
        inner = optional_inner(hint)
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        assert (key in required) == (inner is None and not has_default), f"{path}.{key}: required differs"
        _check_type(inner if inner is not None else hint, prop, f"{path}.{key}")


def _check_type(hint: Any, prop: dict[str, Any], path: str) -> None:
    kind = prop.get("type")
    origin = typing.get_origin(hint)
    if "const" in prop:
        assert hint is str, path
    elif "enum" in prop:
        assert origin is Literal and set(typing.get_args(hint)) == set(prop["enum"]), path
    elif kind == "string":
        assert hint is str, path
    elif kind == "number":
        assert hint is float, path
    elif kind == "boolean":
        assert hint is bool, path
    elif kind == "array":
        assert origin is list, path
        (item,) = typing.get_args(hint)
        _check_type(item, prop["items"], f"{path}[]")
    elif kind == "object" and "properties" in prop:
        assert dataclasses.is_dataclass(hint), f"{path}: expected a dataclass"
        _check(hint, prop, path)
    elif kind == "object":
        assert origin is dict, f"{path}: expected a dict"
    else:
        raise AssertionError(f"{path}: no check for {prop}")


def test_every_event_of_core_has_a_dataclass_with_the_same_fields(catalogue: dict[str, Any]) -> None:
    events: dict[str, Any] = catalogue["events"]
    assert list(EVENT_TYPES) == list(events)
    for name, entry in events.items():
        cls = EVENT_TYPES[name]
        assert cls.name == name
        _check(cls, entry["schema"], name)


def test_can_block_matcher_targets_and_aliases_match_core(catalogue: dict[str, Any]) -> None:
    for name, entry in catalogue["events"].items():
        cls = EVENT_TYPES[name]
        assert cls.can_block == entry["canBlock"], name
        assert cls.matcher_target == entry["matcherTarget"], name
    for alias, canonical in catalogue["aliases"].items():
        assert resolve_event_name(alias) == canonical


def test_every_spelling_the_agent_accepts_resolves() -> None:
    assert resolve_event_name("PreToolUse") == "PreToolUse"
    assert resolve_event_name("preToolUse") == "PreToolUse"
    assert resolve_event_name("pre_tool_use") == "PreToolUse"
    assert resolve_event_name("tool_error") == "PostToolUseFailure"
    assert resolve_event_name("Explode") is None


def _pre_tool_use(**extra: Any) -> dict[str, Any]:
    return {
        "eventType": "PreToolUse",
        "eventId": "e1",
        "sessionId": "s1",
        "timestamp": 1,
        "metadata": {},
        "tool": "Bash",
        "args": {"command": "ls"},
        "hostField": 7,
        **extra,
    }


def test_a_payload_becomes_its_typed_event_and_keeps_what_the_host_added() -> None:
    event = HookEvent.parse(_pre_tool_use())
    assert isinstance(event, PreToolUseEvent)
    assert event.tool == "Bash"
    assert event.args.get("command", "") == "ls"
    assert event.session_id == "s1"
    assert event.raw["hostField"] == 7


def test_nested_fields_read_as_attributes_the_way_the_design_writes_them() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    event = HookEvent.parse(
        {
            "eventType": "GenerateEnd",
            "eventId": "e",
            "sessionId": "s",
            "timestamp": 1,
            "metadata": {},
            "prompt": "p",
            "model": {"name": "m"},
            "response": {"text": "t", "toolCalls": [], "usage": usage, "duration": 4},
        }
    )
    assert isinstance(event, GenerateEndEvent)
    assert event.response.usage.total_tokens == 3


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "payload: expected a JSON object, got an array"),
        ({"eventType": "explode"}, "payload.eventType: unknown event 'explode'"),
        (_pre_tool_use(tool=5), "PreToolUse.tool: expected a string, got a number"),
        (_pre_tool_use(args=[]), "PreToolUse.args: expected an object, got an array"),
        ({**_pre_tool_use(), "tool": None}, "PreToolUse.tool: required"),
        (
            _pre_tool_use(context={"workingDirectory": "/", "recentTools": [1], "tokenUsage": {}}),
            "PreToolUse.context.recentTools[0]: expected a string, got a number",
        ),
    ],
)
def test_a_malformed_payload_is_an_invalid_event_naming_the_field(payload: Any, message: str) -> None:
    with pytest.raises(A3sError) as caught:
        HookEvent.parse(payload)
    assert caught.value.code == "INVALID_EVENT"
    assert caught.value.message == message
