"""The function a problem's code declares (its last signature, in any of the five languages): S5's
prompt says how a test calls it (``runner.call_form``), and differential testing records its
calls when it returns one value (``differential.recorded_function``)."""

from __future__ import annotations

import re
from typing import NamedTuple

from sejury.execution.languages import _clike

_DECLARATION = re.compile(
    r"^[ \t]*(?:async\s+)?def\s+(?P<py>\w+)\s*\(|"  # Python
    r"^[ \t]*func\s+(?P<go>\w+)\s*\([^)]*\)\s*(?P<go_ret>[^{]*)\{|"  # Go
    r"^[ \t]*(?:export\s+)?(?:async\s+)?function\s*(?P<js>\w+)\s*\(|"  # JavaScript
    r"^[ \t]*(?:export\s+)?(?:const|let|var)\s+(?P<js_var>\w+)\s*=\s*(?:async\s*)?(?:function\b|\(|\w+\s*=>)|"
    + _clike.SIGNATURE, re.M)  # C++, Java


class Declared(NamedTuple):
    name: str
    returns_value: bool  # one value: not ``void``, not a Go tuple


def last_function(problem: str) -> Declared | None:
    """The last function the problem's code declares (never ``main``); None for prose problems."""
    found = None
    for m in _DECLARATION.finditer(problem):
        name = m.group("py") or m.group("go") or m.group("js") or m.group("js_var") or m.group("name")
        if name == "main" or (m.group("name") is not None and not _clike.is_signature(m)):
            continue
        if m.group("go") is not None:
            ret = m.group("go_ret").strip()
            found = Declared(name, bool(ret) and not ret.startswith("("))
        else:
            found = Declared(name, m.group("ret") is None or "void" not in m.group("ret").split())
    return found
