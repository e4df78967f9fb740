"""pytest's fixtures as a unit makes them (``_pytest.py`` writes the units): the suite's fixtures by
the name a test asks for them (``Scope``: a test class's own over its module's), and the statements
that make one test's fixtures, once each, in pytest's order (``Plan``); the checker's side is
``sealed_python/fixtures.pyt``.  A suite's text is the judge's input: a test makes at most
``MAX_FIXTURES`` fixtures, and more are not followed."""

from __future__ import annotations

import ast
from dataclasses import dataclass

MAX_FIXTURES = 64  # fixtures one test makes (a deeper chain is not followed: the test is called bare)
_TEMP = {"tmp_path": "__import__('pathlib').Path(__import__('tempfile').mkdtemp())",
         "tmpdir": "__import__('tempfile').mkdtemp()",
         "tmp_path_factory": "sejury_tmp_path_factory()",
         "monkeypatch": "sejury_monkeypatch()",  # the checker's (``sealed_python/lending.pyt``)
         "mocker": "sejury_mocker()", "class_mocker": "sejury_mocker()", "module_mocker": "sejury_mocker()",
         "session_mocker": "sejury_mocker()",  # pytest-mock's, made of unittest.mock's patches
         "capsys": "sejury_capsys()", "capfd": "sejury_capsys()", "caplog": "sejury_caplog()"}
SELF = "_sejury_self"  # a test class's instance, in a unit of one of its tests


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


def yields(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Does ``fn``'s own body (not a function or class it defines) yield?"""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def dotted(node: ast.expr) -> str:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node)


def _params(values: ast.expr) -> tuple[str, ...] | None:
    if not isinstance(values, (ast.List, ast.Tuple)):
        return None
    return tuple(ast.unparse(e.args[0] if isinstance(e, ast.Call) and dotted(e).endswith("param") and e.args else e)
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
            if not dotted(d).endswith("fixture"):  # pytest's, pytest_asyncio's
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
                node.name, args[1:] if method else args, yields(node),
                isinstance(autouse, ast.Constant) and autouse.value is True, params, method)
            break
    return Scope(out, parent)


def fixture_decorators(node: ast.ClassDef) -> list[ast.expr]:
    """The ``@pytest.fixture`` decorators of a test class's methods: left out of its text, as a
    module's are (called directly, pytest's fixture raises "Fixtures are not meant to be called
    directly"); the unit calls the method itself (``class_runs``)."""
    return [d for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) for d in m.decorator_list
            if dotted(d).endswith("fixture")]


class Unresolvable(Exception):
    """A test asks for an argument nothing here can give."""


class Plan:
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
            raise Unresolvable(name)  # fixtures that take each other, or a chain no test needs
        self.making.add(name)
        var = f"_sejury_{name}"
        fixture = self.given.get(name)
        if fixture is not None:
            kwargs = [f"{a}={self._request(name) if a == 'request' else self.value(a)}" for a in fixture.args]
            function = f"{SELF}.{fixture.function}" if fixture.method else fixture.function
            self.lines.append(f"{var} = sejury_fixture({', '.join([function, *kwargs])})")
        elif name in _TEMP:
            self.lines.append(f"{var} = {_TEMP[name]}")
        elif name == "request":
            self.lines.append(f"{var} = sejury_request()")
        else:
            raise Unresolvable(name)
        self.made[name] = var
        return var

    def _request(self, fixture: str) -> str:
        """The ``request`` a fixture takes: its ``param`` the row's (indirect) or its own ``params``' value."""
        param = self.row.get(fixture) if fixture in self.indirect else self.chosen.get(fixture)
        return "sejury_request()" if param is None else f"sejury_request({param})"


def closure(names: list[str], given: Scope) -> list[str]:
    """The fixtures ``names`` need, theirs included, in the order first met; raises
    ``Unresolvable`` past ``MAX_FIXTURES`` of them (a test makes no more)."""
    out: dict[str, None] = {}
    stack = list(reversed(names))
    while stack:
        name = stack.pop()
        if name in out or (fixture := given.get(name)) is None:
            continue
        out[name] = None
        if len(out) > MAX_FIXTURES:
            raise Unresolvable(name)
        stack.extend(reversed(fixture.args))
    return list(out)


def plain(required: list[str], row: dict[str, str], given: Scope) -> dict[str, str] | None:
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
