"""One exception for the SDK, with the agent's exact error code."""

from __future__ import annotations

from typing import Any, Literal, get_args

import grpc

ErrorCode = Literal[
    "INVALID_CONFIG",
    "UNKNOWN_EVENT",
    "INVALID_EVENT",
    "INVALID_OUTPUT",
    "INVALID_MODIFICATION",
    "INVALID_PATTERN",
    "LIMIT_EXCEEDED",
    "BLOCKED",
    "TIMEOUT",
    "HANDLER_FAILED",
    "ABORTED",
    "NOT_FOUND",
    "UNAUTHENTICATED",
    "PERMISSION_DENIED",
    "UNAVAILABLE",
    "FAILED_PRECONDITION",
    "INTERNAL",
]

_CODES: frozenset[str] = frozenset(get_args(ErrorCode))

ERROR_CODE_HEADER = "x-a3s-error-code"

# When the agent sent no x-a3s-error-code trailer (an older agent, or a proxy's own failure).
_BY_STATUS: dict[grpc.StatusCode, ErrorCode] = {
    grpc.StatusCode.INVALID_ARGUMENT: "INVALID_CONFIG",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "LIMIT_EXCEEDED",
    grpc.StatusCode.FAILED_PRECONDITION: "FAILED_PRECONDITION",
    grpc.StatusCode.DEADLINE_EXCEEDED: "TIMEOUT",
    grpc.StatusCode.CANCELLED: "ABORTED",
    grpc.StatusCode.NOT_FOUND: "NOT_FOUND",
    grpc.StatusCode.ALREADY_EXISTS: "INVALID_CONFIG",
    grpc.StatusCode.UNAUTHENTICATED: "UNAUTHENTICATED",
    grpc.StatusCode.PERMISSION_DENIED: "PERMISSION_DENIED",
    grpc.StatusCode.UNAVAILABLE: "UNAVAILABLE",
    # The agent does not serve that method (a host without AgentService).
    grpc.StatusCode.UNIMPLEMENTED: "UNAVAILABLE",
}


class A3sError(Exception):
    """A failure of the SDK or a refusal by the agent.

    ``code`` is the agent's exact code (``x-a3s-error-code``) when it sent one, else the closest
    one for the gRPC status; ``status`` is the gRPC status name, when the error came from a call.

    Example::

        try:
            await client.ready()
        except A3sError as error:
            if error.code == "UNAUTHENTICATED":
                print("check A3S_TOKEN")
    """

    code: ErrorCode
    message: str
    status: str | None

    def __init__(self, code: ErrorCode, message: str, *, status: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status

    @classmethod
    def from_rpc(cls, error: Any) -> A3sError:
        """A failed gRPC call (``grpc.aio.AioRpcError``) as an ``A3sError``."""
        status = error.code() if callable(getattr(error, "code", None)) else None
        details = error.details() if callable(getattr(error, "details", None)) else None
        trailers = error.trailing_metadata() if callable(getattr(error, "trailing_metadata", None)) else None
        return cls.from_status(status, details, trailers)

    @classmethod
    def from_status(cls, status: Any, details: str | None, trailers: Any) -> A3sError:
        trailer = _metadata_value(trailers, ERROR_CODE_HEADER)
        code: ErrorCode
        if trailer in _CODES:
            code = trailer  # type: ignore[assignment]
        elif isinstance(status, grpc.StatusCode):
            code = _BY_STATUS.get(status, "INTERNAL")
        else:
            code = "INTERNAL"
        name = status.name if isinstance(status, grpc.StatusCode) else None
        return cls(code, details or f"gRPC status {name}", status=name)


def _metadata_value(metadata: Any, key: str) -> str | None:
    if not metadata:
        return None
    for item in metadata:
        k, v = item[0], item[1]
        if k == key:
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    return None
