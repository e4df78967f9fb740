"""pytest's forms in a Python suite: a test function that takes arguments runs once per
``@pytest.mark.parametrize`` row, its other arguments given by the suite's own fixtures or by
pytest's (``tmp_path``, ``monkeypatch``, ``capsys``, ``mocker``, ``request``, ...); a test class's
tests run with its ``setup_method``/``teardown_method`` and its fixtures.

The harness calls each test function itself (no pytest collection), so ``def test_f(value_range)``
under ``@pytest.mark.parametrize("value_range", [(0, 10), (50, 60)])`` was called as ``test_f()``
and failed on the reference with ``TypeError: missing 1 required positional argument``: the
model's and the user's parametrized tests were lost.  Now each row is a unit of its own, the call
written with the row's values (``test_f(value_range=(0, 10))``), so one wrong row fails alone.

Fixtures are made as pytest makes them, once per test: a fixture that takes others (``def
client(tmp_path)``) gets them, the test and its fixtures share one of each (the ``tmp_path`` the
test reads is the one ``client`` wrote in); ``autouse`` fixtures are made before each test; a fixture
with ``params=[...]`` runs the tests that use it once per value (``request.param``), as does an
``indirect`` parametrize row; a generator fixture's teardown runs when the test ends
(``sejury_fixture`` in ``sealed_python/lending.pyt``; an error there changes no result).  A
fixture's decorator is dropped with the rest of its source line range (the suite's setup defines
it as a plain function).  A module's ``setup_module``/``setup_function`` and their teardowns run as
pytest runs them (``python.py`` and ``fixtures.pyt``).  Not here: fixtures' scopes (each test makes its own),
``request.getfixturevalue``, fixtures of a ``conftest.py`` the suite does not hold.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable

from sejury.execution.languages._pyfixtures import (
    MAX_FIXTURES,
    SELF,
    Plan,
    Scope,
    Unresolvable,
    closure,
    dotted,
    fixture_decorators,
    fixtures,
    plain,
    yields,
)

__all__ = ["MAX_ROWS", "class_runs", "fixture_decorators", "fixtures", "patches", "runs"]

MAX_ROWS = 50  # a parametrized test with more rows than this keeps its first ones


def _names(arg: ast.expr) -> list[str] | None:
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [n.strip() for n in arg.value.split(",") if n.strip()]
    if isinstance(arg, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                                      for e in arg.elts):
        return [str(e.value) for e in arg.elts]  # type: ignore[attr-defined]
    return None


def _rows(decorator: ast.expr) -> list[dict[str, str]] | None:
    """The rows of one ``@pytest.mark.parametrize(names, values)``: name -> the value's source."""
    if not isinstance(decorator, ast.Call) or len(decorator.args) < 2:
        return None
    names, values = _names(decorator.args[0]), decorator.args[1]
    if not names or not isinstance(values, (ast.List, ast.Tuple)):
        return None
    rows = []
    for item in values.elts:
        if isinstance(item, ast.Call) and dotted(item).endswith("param"):
            parts = list(item.args)  # pytest.param(1, 2, id=..., marks=...)
        elif len(names) == 1:
            parts = [item]
        elif isinstance(item, (ast.Tuple, ast.List)):
            parts = list(item.elts)
        else:
            return None
        if len(parts) != len(names):
            return None
        rows.append({n: ast.unparse(v) for n, v in zip(names, parts, strict=True)})
    return rows


def _indirect(decorator: ast.expr) -> set[str]:
    """The names a parametrize row gives to the fixture of that name (``indirect=True`` or a list)."""
    if not isinstance(decorator, ast.Call):
        return set()
    given = next((k.value for k in decorator.keywords if k.arg == "indirect"), None)
    names = _names(decorator.args[0]) if decorator.args else None
    if isinstance(given, ast.Constant) and given.value is True:
        return set(names or [])
    return set(_names(given) or []) if given is not None else set()


def patches(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[ast.expr]:
    """``fn``'s unittest.mock decorators (``@patch(...)``, ``@mock.patch.object(...)``, ``@patch.dict(...)``),
    kept on the test: the harness applies them in the program's process too."""
    return [d for d in fn.decorator_list if isinstance(d, ast.Call) and _is_patch(dotted(d).split("."))]


def _is_patch(parts: list[str]) -> bool:
    return parts[-1] == "patch" or (len(parts) > 1 and parts[-2] == "patch"
                                    and parts[-1] in ("object", "dict", "multiple"))


def _injected(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many of ``fn``'s first arguments its patches give (a mock each, as pytest counts them:
    ``patch(target)`` and ``patch.object(target, name)`` without a replacement)."""
    n = 0
    for d in patches(fn):
        assert isinstance(d, ast.Call)
        kind = dotted(d).rpartition(".")[2]
        given = len(d.args) + any(k.arg == "new" for k in d.keywords)
        n += (kind == "patch" and given < 2) or (kind == "object" and given < 3)
    return n


def runs(fn: ast.FunctionDef | ast.AsyncFunctionDef, given: Scope, *,
         method: bool = False, xunit: str | None = None) -> list[str] | None:
    """The statements that run test ``fn`` as pytest would, one text per parametrized row (and per
    value of a fixture's ``params``), each argument given by its row, a fixture of ``given`` or one
    of pytest's; None when ``fn`` needs nothing (the caller calls it bare) or needs what nothing here
    can give.  ``method``: ``fn`` is a test class's, called on ``_sejury_self`` (the caller makes it);
    ``xunit``: its class's xunit set-up, made after the module's ``autouse`` fixtures and before the
    class's, as pytest orders them.
    An ``async`` test is never left to be called bare (its coroutine would never run, and it would
    pass whatever the program does): where nothing gives its arguments, it is run without them, and
    fails on the reference."""
    if isinstance(fn, ast.FunctionDef) and yields(fn):  # called, it makes a generator and runs nothing
        return ["raise AssertionError('a test function that yields runs nothing (pytest fails it)')"]
    try:
        made = _runs(fn, given, method=method, xunit=xunit)
    except Unresolvable:
        made = None
    if made is None and isinstance(fn, ast.AsyncFunctionDef):
        return [_call(fn, method, "")]
    return made


def _call(fn: ast.FunctionDef | ast.AsyncFunctionDef, method: bool, args: str) -> str:
    """The call of test ``fn`` with ``args``; an ``async`` one's run on the unit's event loop, as
    pytest-asyncio runs it."""
    call = f"{SELF}.{fn.name}({args})" if method else f"{fn.name}({args})"
    return f"sejury_async({call})" if isinstance(fn, ast.AsyncFunctionDef) else call


def _runs(fn: ast.FunctionDef | ast.AsyncFunctionDef, given: Scope, *,
          method: bool = False, xunit: str | None = None) -> list[str] | None:
    marks = [d for d in fn.decorator_list if dotted(d).endswith("parametrize")]
    positional = [a.arg for a in fn.args.args[:len(fn.args.args) - len(fn.args.defaults)]]
    required = positional[1:] if method else positional
    required = required[_injected(fn):]
    autouse = given.autouse
    if len(autouse) > MAX_FIXTURES:
        raise Unresolvable(autouse[0])
    if not marks and not required and not autouse:
        return [_call(fn, method, "")] if isinstance(fn, ast.AsyncFunctionDef) else None
    tables = [_rows(d) for d in marks]
    if any(t is None for t in tables):
        return None
    indirect = set().union(*(_indirect(d) for d in marks))
    rows = [dict(itertools.chain.from_iterable(r.items() for r in combo))  # three marks of 1,000 rows: 50, not 10**9
            for combo in itertools.islice(itertools.product(*[t for t in tables if t is not None]), MAX_ROWS)]
    out: list[str] = []
    for row in rows:
        needed = closure([*autouse, *(n for n in required if n not in row or n in indirect)], given)
        varying = [n for n in needed if given[n].params is not None and n not in indirect]
        for values in itertools.product(*[given[n].params or () for n in varying]):
            if len(out) >= MAX_ROWS:
                return out
            chosen = dict(zip(varying, values, strict=True))
            args = None if autouse or varying or method else plain(required, row, given)
            if args is not None:
                out.append(_call(fn, method, ", ".join(f"{k}={v}" for k, v in args.items())))
                continue
            plan = Plan(given, row, indirect, chosen)
            for name in given.inherited:  # the module's, before a class's xunit set-up and its own
                plan.value(name)
            if xunit is not None:
                plan.lines.append(xunit)
            for name in autouse:
                plan.value(name)
            names = [*row, *(n for n in required if n not in row)]  # the row's first, as before
            given_args = ", ".join(f"{name}={plan.value(name)}" for name in names)
            out.append("\n".join([*plan.lines, _call(fn, method, given_args)]))
    return out or None


_XUNIT = ("setup_method", "teardown_method", "setup_class", "teardown_class")


def class_runs(node: ast.ClassDef, given: Scope) -> Callable[[str], list[str]]:
    """How to run each test of pytest test class ``node`` (``_unittest.units``' ``call``):
    ``Tests().test_x()`` where it needs nothing; else an instance made, pytest's xunit set-up and
    teardown (``setup_class``, ``setup_method``, ...: ``sejury_xunit``), the class's and the
    module's fixtures (the class's ``self``'s own), then the test, a text per parametrized row."""
    scope = fixtures(node.body, method=True, parent=given)
    methods = {m.name: m for m in node.body  # a name defined twice: the last
               if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    xunit = bool(node.bases) or any(name in methods for name in _XUNIT)  # a base may define them

    def run(name: str) -> list[str]:
        fn = methods.get(name)  # None: a test it inherits (its base's fixtures and rows are not read)
        set_up = f"sejury_xunit({SELF}, {name!r})" if xunit else None
        made = runs(fn, scope, method=True, xunit=set_up) if fn is not None else None
        if made is None and not xunit and not scope.autouse:
            return [f"{node.name}().{name}()"]
        if made is None:  # (its fixtures could not be made: called without them)
            return ["\n".join([f"{SELF} = {node.name}()", *([set_up] if set_up else []), f"{SELF}.{name}()"])]
        return [f"{SELF} = {node.name}()\n{text}" for text in made]

    return run
