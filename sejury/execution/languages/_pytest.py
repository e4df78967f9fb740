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
it as a plain function).  Not here: fixtures' scopes (each test makes its own), ``async``
fixtures, ``request.getfixturevalue``, fixtures of a ``conftest.py`` the suite does not hold.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from dataclasses import dataclass

MAX_ROWS = 50  # a parametrized test with more rows than this keeps its first ones
MAX_FIXTURES = 64  # fixtures one test makes (a deeper chain is not followed: the test is called bare)
_TEMP = {"tmp_path": "__import__('pathlib').Path(__import__('tempfile').mkdtemp())",
         "tmpdir": "__import__('tempfile').mkdtemp()",
         "tmp_path_factory": "sejury_tmp_path_factory()",
         "monkeypatch": "sejury_monkeypatch()",  # the checker's (``sealed_python/lending.pyt``)
         "mocker": "sejury_mocker()", "class_mocker": "sejury_mocker()", "module_mocker": "sejury_mocker()",
         "session_mocker": "sejury_mocker()",  # pytest-mock's, made of unittest.mock's patches
         "capsys": "sejury_capsys()", "capfd": "sejury_capsys()", "caplog": "sejury_caplog()"}
_SELF = "_sejury_self"  # a test class's instance, in a unit of one of its tests


@dataclass(frozen=True)
class Fixture:
    """A ``@pytest.fixture`` of the suite (or of a test class: ``method``)."""

    function: str  # the function's own name (the fixture's is ``name=``'s where given)
    args: tuple[str, ...]  # the fixtures it takes, ``self`` left out
    yields: bool  # a generator: its teardown runs after the test
    autouse: bool
    params: tuple[str, ...] | None  # the source of each of its ``params=`` values
    method: bool = False


class Scope:
    """The fixtures a test may ask for, by name: a test class's own over its module's (``parent``);
    the ``autouse`` ones' names kept once, the module's first (a test makes them all)."""

    def __init__(self, own: dict[str, Fixture], parent: Scope | None = None) -> None:
        self.own, self.parent = own, parent
        self.inherited: list[str] = list(parent.autouse) if parent is not None else []
        self.autouse: list[str] = [*self.inherited,
                                   *(n for n, f in own.items() if f.autouse and n not in self.inherited)]

    def get(self, name: str) -> Fixture | None:
        found = self.own.get(name)
        return found if found is not None or self.parent is None else self.parent.get(name)

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __getitem__(self, name: str) -> Fixture:
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found


def _dotted(node: ast.expr) -> str:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node)


def _params(values: ast.expr) -> tuple[str, ...] | None:
    if not isinstance(values, (ast.List, ast.Tuple)):
        return None
    return tuple(ast.unparse(e.args[0] if isinstance(e, ast.Call) and _dotted(e).endswith("param") and e.args else e)
                 for e in values.elts)


def fixtures(body: list[ast.stmt], method: bool = False, parent: Scope | None = None) -> Scope:
    """The fixtures ``body`` defines (a module's, or a class's ``method``\\ s, over ``parent``'s),
    by the name a test asks for them; one whose ``params=`` is not a literal list, or that takes more
    than ``MAX_FIXTURES`` arguments (no test could make it), is left out."""
    out: dict[str, Fixture] = {}
    for node in body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for d in node.decorator_list:
            if not _dotted(d).endswith("fixture"):  # pytest's, pytest_asyncio's
                continue
            keywords = {k.arg: k.value for k in d.keywords} if isinstance(d, ast.Call) else {}
            name = keywords.get("name")
            params = _params(keywords["params"]) if "params" in keywords else None
            if "params" in keywords and params is None:
                break
            args = tuple(a.arg for a in node.args.args[:len(node.args.args) - len(node.args.defaults)])
            if len(args) > MAX_FIXTURES:
                break
            autouse = keywords.get("autouse")
            out[name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else node.name] = Fixture(
                node.name, args[1:] if method else args,
                any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node)),
                isinstance(autouse, ast.Constant) and autouse.value is True, params, method)
            break
    return Scope(out, parent)


def fixture_decorators(node: ast.ClassDef) -> list[ast.expr]:
    """The ``@pytest.fixture`` decorators of a test class's methods: left out of its text, as a
    module's are (called directly, pytest's fixture raises "Fixtures are not meant to be called
    directly"); the unit calls the method itself (``class_runs``)."""
    return [d for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) for d in m.decorator_list
            if _dotted(d).endswith("fixture")]


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
        if isinstance(item, ast.Call) and _dotted(item).endswith("param"):
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
    return [d for d in fn.decorator_list if isinstance(d, ast.Call) and _is_patch(_dotted(d).split("."))]


def _is_patch(parts: list[str]) -> bool:
    return parts[-1] == "patch" or (len(parts) > 1 and parts[-2] == "patch"
                                    and parts[-1] in ("object", "dict", "multiple"))


def _injected(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many of ``fn``'s first arguments its patches give (a mock each, as pytest counts them:
    ``patch(target)`` and ``patch.object(target, name)`` without a replacement)."""
    n = 0
    for d in patches(fn):
        assert isinstance(d, ast.Call)
        kind = _dotted(d).rpartition(".")[2]
        given = len(d.args) + any(k.arg == "new" for k in d.keywords)
        n += (kind == "patch" and given < 2) or (kind == "object" and given < 3)
    return n


class _Unresolvable(Exception):
    """A test asks for an argument nothing here can give."""


class _Plan:
    """The statements that make one test's fixtures, each once, in the order pytest makes them."""

    def __init__(self, given: Scope, row: dict[str, str], indirect: set[str],
                 chosen: dict[str, str]) -> None:
        self.given, self.row, self.indirect, self.chosen = given, row, indirect, chosen
        self.lines: list[str] = []
        self.made: dict[str, str] = {}
        self.making: set[str] = set()

    def value(self, name: str) -> str:
        """An expression of the value test or fixture argument ``name`` takes."""
        if name in self.row and name not in self.indirect:
            return self.row[name]
        if name in self.made:
            return self.made[name]
        if name in self.making or len(self.making) >= MAX_FIXTURES:
            raise _Unresolvable(name)  # fixtures that take each other, or a chain no test needs
        self.making.add(name)
        var = f"_sejury_{name}"
        fixture = self.given.get(name)
        if fixture is not None:
            kwargs = [f"{a}={self._request(name) if a == 'request' else self.value(a)}" for a in fixture.args]
            function = f"{_SELF}.{fixture.function}" if fixture.method else fixture.function
            self.lines.append(f"{var} = sejury_fixture({', '.join([function, *kwargs])})")
        elif name in _TEMP:
            self.lines.append(f"{var} = {_TEMP[name]}")
        elif name == "request":
            self.lines.append(f"{var} = sejury_request()")
        else:
            raise _Unresolvable(name)
        self.made[name] = var
        return var

    def _request(self, fixture: str) -> str:
        """The ``request`` a fixture takes: its ``param`` the row's (indirect) or its own ``params``' value."""
        param = self.row.get(fixture) if fixture in self.indirect else self.chosen.get(fixture)
        return "sejury_request()" if param is None else f"sejury_request({param})"


def _closure(names: list[str], given: Scope) -> list[str]:
    """The fixtures ``names`` need, theirs included, in the order first met; raises
    ``_Unresolvable`` past ``MAX_FIXTURES`` of them (a test makes no more)."""
    out: dict[str, None] = {}
    stack = list(reversed(names))
    while stack:
        name = stack.pop()
        if name in out or (fixture := given.get(name)) is None:
            continue
        out[name] = None
        if len(out) > MAX_FIXTURES:
            raise _Unresolvable(name)
        stack.extend(reversed(fixture.args))
    return list(out)


def _plain(required: list[str], row: dict[str, str], given: Scope) -> dict[str, str] | None:
    """The arguments written in the call itself, where each comes from the row, a fixture that takes
    nothing, makes no teardown and has no params, or a temporary directory (the form before fixtures
    took fixtures); None where statements are needed."""
    args = dict(row)
    for name in required:
        fixture = given.get(name)
        if name in row:
            continue
        elif fixture is not None and not (fixture.args or fixture.yields or fixture.params or fixture.method):
            args[name] = f"{fixture.function}()"
        elif fixture is None and name in _TEMP:
            args[name] = _TEMP[name]
        else:
            return None
    return args


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
    if isinstance(fn, ast.FunctionDef) and _yields(fn):  # called, it makes a generator and runs nothing
        return ["raise AssertionError('a test function that yields runs nothing (pytest fails it)')"]
    try:
        made = _runs(fn, given, method=method, xunit=xunit)
    except _Unresolvable:
        made = None
    if made is None and isinstance(fn, ast.AsyncFunctionDef):
        return [f"sejury_async({_SELF}.{fn.name}())" if method else f"sejury_async({fn.name}())"]
    return made


def _yields(fn: ast.FunctionDef) -> bool:
    """Does ``fn``'s own body (not a function or class it defines) yield?"""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _runs(fn: ast.FunctionDef | ast.AsyncFunctionDef, given: Scope, *,
          method: bool = False, xunit: str | None = None) -> list[str] | None:
    marks = [d for d in fn.decorator_list if _dotted(d).endswith("parametrize")]
    positional = [a.arg for a in fn.args.args[:len(fn.args.args) - len(fn.args.defaults)]]
    required = positional[1:] if method else positional
    required = required[_injected(fn):]
    autouse = given.autouse
    if len(autouse) > MAX_FIXTURES:
        raise _Unresolvable(autouse[0])
    target = f"{_SELF}.{fn.name}" if method else fn.name
    awaited = isinstance(fn, ast.AsyncFunctionDef)  # run on the unit's event loop, as pytest-asyncio runs it

    def call(args: str) -> str:
        return f"sejury_async({target}({args}))" if awaited else f"{target}({args})"

    if not marks and not required and not autouse:
        return [call("")] if awaited else None
    tables = [_rows(d) for d in marks]
    if any(t is None for t in tables):
        return None
    indirect = set().union(*(_indirect(d) for d in marks))
    rows = [dict(itertools.chain.from_iterable(r.items() for r in combo))  # three marks of 1,000 rows: 50, not 10**9
            for combo in itertools.islice(itertools.product(*[t for t in tables if t is not None]), MAX_ROWS)]
    out: list[str] = []
    for row in rows:
        needed = _closure([*autouse, *(n for n in required if n not in row or n in indirect)], given)
        varying = [n for n in needed if given[n].params is not None and n not in indirect]
        for values in itertools.product(*[given[n].params or () for n in varying]):
            if len(out) >= MAX_ROWS:
                return out
            chosen = dict(zip(varying, values, strict=True))
            args = None if autouse or varying or method else _plain(required, row, given)
            if args is not None:
                out.append(call(", ".join(f"{k}={v}" for k, v in args.items())))
                continue
            plan = _Plan(given, row, indirect, chosen)
            for name in given.inherited:  # the module's, before a class's xunit set-up and its own
                plan.value(name)
            if xunit is not None:
                plan.lines.append(xunit)
            for name in autouse:
                plan.value(name)
            names = [*row, *(n for n in required if n not in row)]  # the row's first, as before
            given_args = ", ".join(f"{name}={plan.value(name)}" for name in names)
            out.append("\n".join([*plan.lines, call(given_args)]))
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
        set_up = f"sejury_xunit({_SELF}, {name!r})" if xunit else None
        made = runs(fn, scope, method=True, xunit=set_up) if fn is not None else None
        if made is None and not xunit and not scope.autouse:
            return [f"{node.name}().{name}()"]
        if made is None:  # (its fixtures could not be made: called without them)
            return ["\n".join([f"{_SELF} = {node.name}()", *([set_up] if set_up else []), f"{_SELF}.{name}()"])]
        return [f"{_SELF} = {node.name}()\n{text}" for text in made]

    return run
