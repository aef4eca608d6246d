"""The README's install recipe for Debian, run line for line as it is written there."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from conftest import PACKAGE, REPO

README = PACKAGE / "README.md"


def readme_lines() -> list[str]:
    """The commands of the block marked ``<!-- install:debian -->``."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!-- install:debian -->\n```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no install:debian block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def fresh_checkout(root: Path) -> None:
    """What a clone holds for this recipe: the package and the proto it builds its stubs from."""
    ignore = shutil.ignore_patterns(
        "node_modules", "build", "*.egg-info", "_generated", "__pycache__", "test-artifacts"
    )
    shutil.copytree(PACKAGE, root / "clients" / "python", ignore=ignore)
    proto = root / "packages" / "node" / "proto"
    proto.mkdir(parents=True)
    shutil.copyfile(REPO / "packages" / "node" / "proto" / "hooks.proto", proto / "hooks.proto")


def test_the_debian_recipe_installs_into_a_fresh_venv_without_pypi(tmp_path: Path) -> None:
    lines = readme_lines()
    # The apt line installs what this machine already has (the test command needs those packages).
    assert lines[0].startswith("sudo apt install ")
    fresh_checkout(tmp_path)
    # A fresh Debian shell: Debian's python3 first, no PYTHONPATH from the test run, and a proxy
    # that goes nowhere, so anything fetched from PyPI fails.
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PIP_PROXY": "http://127.0.0.1:9",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for line in lines[1:]:
        done = subprocess.run(
            ["sh", "-ec", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert done.stdout.strip() == "a3s_box is installed"
    # Installed, not read from the copy: the venv holds the package and its generated stubs.
    site = next((tmp_path / ".venv" / "lib").glob("python3*/site-packages"))
    assert (site / "a3s_box" / "_generated" / "hooks_pb2_grpc.py").is_file()
