"""The stubs are generated from hooks.proto while the package is built; nothing else is custom.

The proto lives outside this folder (``packages/node/proto/hooks.proto``, the one contract), so an
sdist carries a copy of it in ``proto/``, made when the sdist is: a wheel built from the sdist
alone generates the same stubs.
"""

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

# pip's build backend runs this file without its folder on the import path: put it there, so
# the stub generator beside it imports (from a checkout, an sdist or a copy pip made).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_stubs import SHIPPED_PROTO, generate, proto_path  # noqa: E402


class BuildWithStubs(build_py):
    def run(self) -> None:
        super().run()
        generate(Path(self.build_lib))


class SdistWithProto(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        proto = proto_path()
        if not proto.is_file():
            raise SystemExit(f"hooks.proto not found at {proto} (set A3S_HOOKS_PROTO)")
        target = Path(base_dir) / SHIPPED_PROTO
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(proto, target)


setup(cmdclass={"build_py": BuildWithStubs, "sdist": SdistWithProto})
