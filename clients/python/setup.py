"""The stubs are generated from hooks.proto while the package is built; nothing else is custom."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

from build_stubs import generate


class BuildWithStubs(build_py):
    def run(self) -> None:
        super().run()
        generate(Path(self.build_lib))


setup(cmdclass={"build_py": BuildWithStubs})
