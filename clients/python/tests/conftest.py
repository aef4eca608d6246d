"""Fixtures: a real demo agent (`a3s-demo-agent serve`) started from the repository's sources,
and async tests run on a fresh event loop each, without a pytest plugin."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
REPO = PACKAGE.parent.parent
BUILD = PACKAGE / "build"
# A bound on any one test, so a bug hangs nothing; not a timing assertion.
TEST_LIMIT_S = 45.0
START_LIMIT_S = 60.0

sys.path.insert(0, str(PACKAGE / "src"))


@pytest.hookimpl(tryfirst=True)  # type: ignore[misc]
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**args), TEST_LIMIT_S))
    return True


def _bundles() -> dict[str, str]:
    """The programs the test command bundled (scripts/bundle-programs.ts), by source file."""
    listing = os.environ.get("A3S_PY_PROGRAMS")
    if not listing:
        return {}
    programs: dict[str, str] = json.loads(Path(listing).read_text())["programs"]
    return programs


BUNDLES = _bundles()


def node_command(script: Path, *args: str) -> list[str]:
    """Node running a TypeScript program of the repository: its bundle from the test command,
    or the source file through tsx (as the demo agent's own bin does) when pytest runs alone."""
    bundle = BUNDLES.get(str(script))
    if bundle is not None:
        return ["node", "--conditions=@a3s-lab/source", bundle, *args]
    return ["node", "--conditions=@a3s-lab/source", "--import", "tsx", str(script), *args]


class DemoAgent:
    """One `a3s-demo-agent serve` process on 127.0.0.1."""

    def __init__(self, token: str, workdir: Path, log: Path) -> None:
        self.token = token
        self.workdir = workdir
        self.log = log
        self.address = ""
        self.process: subprocess.Popen[str] | None = None

    def start(self, port: int = 0) -> DemoAgent:
        cli = REPO / "apps" / "demo-agent" / "src" / "cli.ts"
        command = node_command(
            cli,
            "serve",
            # One argument: a token may begin with "-", which a parser reads as an option.
            f"--token={self.token}",
            "--workdir",
            str(self.workdir),
            "--port",
            str(port),
            "--permission",
            "allow",
            "--no-color",
        )
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, text=True
            )
        line = _read_line(self.process, START_LIMIT_S)
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"the demo agent did not start: {line!r}\n{self.log.read_text()[-2000:]}")
        self.address = line.removeprefix("listening on ").strip()
        return self

    @property
    def port(self) -> int:
        return int(self.address.rsplit(":", 1)[1])

    def stop(self, sig: int = signal.SIGTERM) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _read_line(process: subprocess.Popen[str], limit: float) -> str:
    result: list[str] = []
    reader = threading.Thread(
        target=lambda: result.append(process.stdout.readline() if process.stdout else "")
    )
    reader.daemon = True
    reader.start()
    reader.join(limit)
    return result[0] if result else ""


@pytest.fixture(scope="session")
def scratch() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="a3s-py-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def make_agent(scratch: Path) -> DemoAgent:
    name = secrets.token_hex(4)
    workdir = scratch / f"work-{name}"
    workdir.mkdir()
    return DemoAgent(secrets.token_urlsafe(24), workdir, scratch / f"agent-{name}.log")


@pytest.fixture(scope="session")
def agent(scratch: Path) -> Iterator[DemoAgent]:
    """One agent shared by the tests that leave it as they found it (their clients close)."""
    demo = make_agent(scratch).start()
    yield demo
    demo.stop()


@pytest.fixture
def own_agent(scratch: Path) -> Iterator[DemoAgent]:
    """An agent of the test's own, for tests that kill clients or restart the agent."""
    demo = make_agent(scratch).start()
    yield demo
    demo.stop()


@pytest.fixture
def agent_env(agent: DemoAgent, monkeypatch: pytest.MonkeyPatch) -> DemoAgent:
    """A3S_ADDRESS and A3S_TOKEN point at the shared agent, as the design's examples expect."""
    monkeypatch.setenv("A3S_ADDRESS", agent.address)
    monkeypatch.setenv("A3S_TOKEN", agent.token)
    return agent


@pytest.fixture(scope="session")
def catalogue() -> dict[str, Any]:
    """Core's event catalogue as JSON Schema (written by the test command; made here if absent)."""
    path = BUILD / "catalogue.json"
    if not path.exists():
        BUILD.mkdir(exist_ok=True)
        subprocess.run(
            node_command(PACKAGE / "scripts" / "export-catalogue.ts", str(path)), cwd=REPO, check=True
        )
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def python_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PACKAGE / "src")
    return env
