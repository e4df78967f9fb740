"""pytest's forms in a Python suite: a test function that takes arguments runs once per
``@pytest.mark.parametrize`` row, its other arguments given by the suite's own fixtures
(``@pytest.fixture def image_file(): return 'data.png'``) or by ``tmp_path``/``tmpdir``.

The harness calls each test function itself (no pytest collection), so ``def test_f(value_range)``
under ``@pytest.mark.parametrize("value_range", [(0, 10), (50, 60)])`` was called as ``test_f()``
and failed on the reference with ``TypeError: missing 1 required positional argument``: the
model's and the user's parametrized tests were lost.  Now each row is a unit of its own, the call
written with the row's values (``test_f(value_range=(0, 10))``), so one wrong row fails alone.
A fixture's decorator is dropped with the rest of its source line range (the suite's setup defines
it as a plain function), and a generator fixture gives its first value (its teardown is not run).
"""

from __future__ import annotations

import ast
import itertools

MAX_ROWS = 50  # a parametrized test with more rows than this keeps its first ones
_TEMP = {"tmp_path": "__import__('pathlib').Path(__import__('tempfile').mkdtemp())",
         "tmpdir": "__import__('tempfile').mkdtemp()",
         "monkeypatch": "sejury_monkeypatch()",  # the checker's (``sealed_python/lending.pyt``)
         "capsys": "sejury_capsys()", "capfd": "sejury_capsys()", "caplog": "sejury_caplog()"}


def _dotted(node: ast.expr) -> str:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node)


def fixtures(tree: ast.Module) -> dict[str, bool]:
    """The suite's fixtures that take no argument: name -> whether it yields its value."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.args.args and any(
                _dotted(d).endswith("fixture") for d in node.decorator_list):
            out[node.name] = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
    return out


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


def calls(fn: ast.FunctionDef | ast.AsyncFunctionDef, given: dict[str, bool]) -> list[str] | None:
    """The calls of test function ``fn`` pytest would make, one per parametrized row, each argument
    given by its row, a fixture of ``given`` or a temporary directory; None when ``fn`` takes no
    argument it needs, or one nothing here can give (the caller then calls it bare, as before)."""
    if not isinstance(fn, ast.FunctionDef):
        return None
    marks = [d for d in fn.decorator_list if _dotted(d).endswith("parametrize")]
    required = [a.arg for a in fn.args.args[:len(fn.args.args) - len(fn.args.defaults)]][_injected(fn):]
    if not marks and not required:
        return None
    tables = [_rows(d) for d in marks]
    if any(t is None for t in tables):
        return None
    rows = [dict(itertools.chain.from_iterable(r.items() for r in combo))  # three marks of 1,000 rows: 50, not 10**9
            for combo in itertools.islice(itertools.product(*[t for t in tables if t is not None]), MAX_ROWS)]
    out = []
    for row in rows:
        args = dict(row)
        for name in required:
            if name in args:
                continue
            if name in given:
                args[name] = f"next({name}())" if given[name] else f"{name}()"
            elif name in _TEMP:
                args[name] = _TEMP[name]
            else:
                return None
        out.append(f"{fn.name}({', '.join(f'{k}={v}' for k, v in args.items())})")
    return out or None
