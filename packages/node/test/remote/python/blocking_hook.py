"""A hooks client in Python, from stubs generated out of hooks.proto: it registers one
blocking PreToolUse hook and answers the agent until stdin closes.

usage: blocking_hook.py <stubs dir> <address> <token> <client id>
"""

import json
import queue
import sys
import threading

sys.path.insert(0, sys.argv[1])

import grpc  # noqa: E402
import hooks_pb2  # noqa: E402
import hooks_pb2_grpc  # noqa: E402

address, token, client_id = sys.argv[2], sys.argv[3], sys.argv[4]
metadata = (("authorization", f"Bearer {token}"), ("x-a3s-client-id", client_id))

channel = grpc.insecure_channel(address)
stub = hooks_pb2_grpc.HookServiceStub(channel)

# Answers go out on the stream through this queue; None ends the stream.
answers = queue.Queue()


def outgoing():
    while True:
        answer = answers.get()
        if answer is None:
            return
        yield answer


# The handshake: open the stream first, wait for the server to accept it, then register.
stream = stub.HookStream(outgoing(), metadata=metadata)
accepted = dict(stream.initial_metadata())
secret = accepted.get("x-a3s-client-secret", "")
print(
    json.dumps({"resumed": accepted.get("x-a3s-resumed"), "secretLength": len(secret)}),
    flush=True,
)

# Without the secret the server refuses every later call for this client id.
try:
    stub.ListHooks(hooks_pb2.ListHooksRequest(), metadata=metadata)
    refused = None
except grpc.RpcError as error:
    refused = error.code().name
print(json.dumps({"withoutSecret": refused}), flush=True)

# The secret goes with every later call, and stays in memory only.
metadata = metadata + (("x-a3s-client-secret", secret),)

stub.RegisterHook(
    hooks_pb2.RegisterHookRequest(
        event_type="PreToolUse",
        hook_id="py-guard",
        matcher=hooks_pb2.HookMatcher(tool="Bash"),
        config=hooks_pb2.HookConfig(
            priority=-1,
            timeout_ms=5000,
            fail_behavior=hooks_pb2.FAIL_BEHAVIOR_BLOCK,
            name="python-guard",
        ),
    ),
    metadata=metadata,
)
listed = stub.ListHooks(hooks_pb2.ListHooksRequest(), metadata=metadata)
print(json.dumps({"ready": [h.hook_id for h in listed.hooks]}), flush=True)


def stop_on_stdin_close():
    sys.stdin.read()
    answers.put(None)
    stream.cancel()


threading.Thread(target=stop_on_stdin_close, daemon=True).start()

try:
    for event in stream:
        if event.cancel:
            continue
        payload = json.loads(event.payload.decode("utf-8"))
        command = payload.get("args", {}).get("command", "")
        if "rm -rf" in command:
            answer = hooks_pb2.HookResponse(
                hook_id=event.hook_id,
                event_id=event.event_id,
                action=hooks_pb2.BLOCK,
                reason=f"blocked from Python: {command}",
            )
        else:
            answer = hooks_pb2.HookResponse(
                hook_id=event.hook_id,
                event_id=event.event_id,
                action=hooks_pb2.CONTINUE,
                modified=json.dumps({"args": {"checked_by": "python"}}).encode("utf-8"),
            )
        answers.put(answer)
except grpc.RpcError as error:
    if error.code() != grpc.StatusCode.CANCELLED:
        raise
