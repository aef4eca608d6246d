"""The stubs generated from hooks.proto (see build_stubs.py), loaded with a useful error."""

from __future__ import annotations

from typing import Any

try:
    from ._generated import hooks_pb2, hooks_pb2_grpc
except ImportError as error:  # pragma: no cover - only without a build
    raise ImportError(
        "a3s_box: the gRPC stubs are missing. Install the package (which generates them from "
        "hooks.proto), or in the repository run: /usr/bin/python3 clients/python/build_stubs.py"
    ) from error

pb: Any = hooks_pb2
pb_grpc: Any = hooks_pb2_grpc
