"""Where the repository's files are, for tests in any folder of ``tests/``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]  # the repository: tests/helpers/paths.py -> ../..
EXAMPLES = ROOT / "examples"


def load_script(path: Path) -> ModuleType:
    """A script of ``scripts/`` or ``bench/`` (not a package) imported from its file, once: the
    tests call its functions without putting its folder on ``sys.path``."""
    name = f"_script_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    return module
