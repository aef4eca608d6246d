"""Generate a3s_box's gRPC stubs from hooks.proto with grpc_tools (Debian: python3-grpc-tools).

The stubs are never committed: the build (setup.py) and the test command make them from the
one contract, ``packages/node/proto/hooks.proto`` (an sdist carries a copy in ``proto/``), so
they cannot drift from it.

usage: build_stubs.py [OUTPUT_ROOT]   (default: src, i.e. src/a3s_box/_generated/)
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "a3s_box/_generated"


#: Where an sdist carries its copy of the proto, relative to this folder (setup.py puts it there).
SHIPPED_PROTO = Path("proto") / "hooks.proto"


def proto_path() -> Path:
    """The contract: ``A3S_HOOKS_PROTO``, else the copy an sdist carries, else the repository's
    copy beside this folder."""
    configured = os.environ.get("A3S_HOOKS_PROTO")
    if configured:
        return Path(configured).resolve()
    shipped = HERE / SHIPPED_PROTO
    if shipped.is_file():
        return shipped
    return HERE.parent.parent / "packages" / "node" / "proto" / "hooks.proto"


def proto_digest(proto: Path) -> str:
    return hashlib.sha256(proto.read_bytes()).hexdigest()


def generate(output_root: Path, proto: Path | None = None) -> Path:
    """Write ``a3s_box/_generated/`` under ``output_root``; returns that folder."""
    from grpc_tools import protoc  # a build-time dependency only

    proto = proto or proto_path()
    if not proto.is_file():
        raise SystemExit(f"hooks.proto not found at {proto} (set A3S_HOOKS_PROTO)")
    target = output_root / PACKAGE
    target.mkdir(parents=True, exist_ok=True)
    # Mapping the proto's folder onto the package path makes the service stub import the
    # messages as a3s_box._generated.hooks_pb2 rather than as a top-level hooks_pb2.
    with tempfile.TemporaryDirectory() as scratch:
        args = [
            "grpc_tools.protoc",
            f"-I{PACKAGE}={proto.parent}",
            f"--python_out={scratch}",
            f"--grpc_python_out={scratch}",
            f"{PACKAGE}/{proto.name}",
        ]
        if protoc.main(args) != 0:
            raise SystemExit(f"protoc failed on {proto}")
        for name in ("hooks_pb2.py", "hooks_pb2_grpc.py"):
            (target / name).write_bytes((Path(scratch) / PACKAGE / name).read_bytes())
    (target / "__init__.py").write_text(
        '"""Generated from hooks.proto by build_stubs.py. Do not edit."""\n\n'
        f'PROTO_SHA256 = "{proto_digest(proto)}"\n',
        encoding="utf-8",
    )
    return target


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "src"
    print(f"generated {generate(root)}")
