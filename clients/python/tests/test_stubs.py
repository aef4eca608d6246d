"""The gRPC stubs come from packages/node/proto/hooks.proto and nowhere else."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import build_stubs
from a3s_box._generated import PROTO_SHA256, hooks_pb2, hooks_pb2_grpc
from conftest import PACKAGE, REPO, python_env

PROTO = REPO / "packages" / "node" / "proto" / "hooks.proto"


def test_the_stubs_in_use_were_generated_from_the_proto_as_it_is_now() -> None:
    assert PROTO_SHA256 == hashlib.sha256(PROTO.read_bytes()).hexdigest()
    with tempfile.TemporaryDirectory() as scratch:
        fresh = build_stubs.generate(Path(scratch), PROTO)
        for module in (hooks_pb2, hooks_pb2_grpc):
            used = Path(str(module.__file__))
            assert (
                fresh / used.name
            ).read_bytes() == used.read_bytes(), f"{used.name} differs from hooks.proto"


def test_a_changed_proto_is_noticed(tmp_path: Path) -> None:
    changed = tmp_path / "hooks.proto"
    changed.write_text(
        PROTO.read_text().replace(
            "string cancel_reason = 9;", "string cancel_reason = 9;\n  string extra = 10;"
        )
    )
    assert build_stubs.proto_digest(changed) != PROTO_SHA256


def test_no_stub_is_committed() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "--", "clients/python"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    assert not [f for f in tracked if f.endswith(("_pb2.py", "_pb2_grpc.py", ".pyi"))]


def test_the_wheel_carries_stubs_generated_during_the_build(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    script = "import sys; from setuptools import build_meta; " "print(build_meta.build_wheel(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)], cwd=PACKAGE, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = out / done.stdout.strip().splitlines()[-1]
    names = zipfile.ZipFile(wheel).namelist()
    for expected in (
        "a3s_box/_generated/hooks_pb2.py",
        "a3s_box/_generated/hooks_pb2_grpc.py",
        "a3s_box/py.typed",
    ):
        assert expected in names
    assert (
        "Requires-Python: >=3.11"
        in zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    )


def test_a_wheel_builds_from_the_sdist_alone_with_stubs_from_the_shipped_proto(tmp_path: Path) -> None:
    # The sdist is unpacked away from the repository, so only what it carries can be used.
    build = (
        "import sys; from setuptools import build_meta; print(getattr(build_meta, sys.argv[1])(sys.argv[2]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", build, "build_sdist", str(tmp_path / "sdist")],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    sdist = tmp_path / "sdist" / done.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(tmp_path / "unpacked")  # our own archive, just built
    root = tmp_path / "unpacked" / names[0].split("/")[0]
    assert (root / "proto" / "hooks.proto").read_bytes() == PROTO.read_bytes()
    env = {k: v for k, v in python_env().items() if k != "A3S_HOOKS_PROTO"}
    done = subprocess.run(
        [sys.executable, "-c", build, "build_wheel", str(tmp_path / "dist")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = zipfile.ZipFile(tmp_path / "dist" / done.stdout.strip().splitlines()[-1])
    assert "a3s_box/_generated/hooks_pb2_grpc.py" in wheel.namelist()
    stamp = wheel.read("a3s_box/_generated/__init__.py").decode()
    assert hashlib.sha256(PROTO.read_bytes()).hexdigest() in stamp
