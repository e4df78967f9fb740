"""The numpy and pandas values a Python test builds with expressions, read with ``ast`` (nothing
is evaluated): S5-fuzz's seeds beyond literals (``arrays.py`` holds the values).

Read, as an argument of the problem's function or bound to a name earlier in the same test (then
the name's last binding before the call, in its scope; a name rebound otherwise, assigned into
(``x[0] = 1``) or handed to another call as a statement (``x.fill(0)``, ``np.random.shuffle(x)``)
is no longer known):

- ``np.array(<nested list of literals>[, dtype])`` (``np.asarray`` too), rectangular;
- ``np.ones`` / ``np.zeros(<shape>[, dtype])``, ``np.full(<shape>, <number>[, dtype])``,
  ``np.empty(<shape>)`` when it has no cell; ``np.arange([start, ]stop[, step])``;
- any of those ``.reshape(...)`` (one ``-1`` allowed) or negated (``-np.ones(...)``);
- ``pd.DataFrame({<name>: <list of literals>, ...})`` and ``pd.Series(<list>[, name][, dtype])``.

The shape and the numbers in it must be literals (``np.ones((10**9,))`` is not read) and an array
has at most ``arrays.MAX_CELLS`` cells; a cell is a number, a boolean, a string, None (a frame's
or series'), ``np.nan`` or ``np.inf``.  The libraries' names are ``np`` / ``numpy`` and ``pd`` /
``pandas`` (the sealed harness gives the tests those), or what the test imports them as.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

from sejury.execution.arrays import MAX_CELLS, Built, Cell, Frame, NdArray, Series

MAX_DIMS = 6
Env = dict[str, Built | None]
_NO = object()  # not a cell (None is one)
_DTYPE = re.compile(r"[a-z][a-z0-9_]{0,15}")
_FLOAT_NAMES = {"nan": math.nan, "NaN": math.nan, "NAN": math.nan, "inf": math.inf, "Inf": math.inf}


class Reader:
    """The values of one test text: its names of numpy and pandas, and each call's bindings."""

    def __init__(self, tree: ast.AST) -> None:
        self.np = {"np", "numpy"}
        self.pd = {"pd", "pandas"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in ("numpy", "pandas"):
                        (self.np if a.name == "numpy" else self.pd).add(a.asname or a.name)

    # --- values ---
    def value(self, node: ast.expr, env: Env) -> Built | None:
        """The value ``node`` builds, or None (not one of the forms read, or hostile: a number too
        large for a float, a nesting too deep)."""
        try:
            return self._value(node, env)
        except (ArithmeticError, ValueError, RecursionError):
            return None

    def _value(self, node: ast.expr, env: Env) -> Built | None:
        if isinstance(node, ast.Name):
            return env.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self._value(node.operand, env)
            if not isinstance(inner, NdArray):
                return None
            return inner if isinstance(node.op, ast.UAdd) else inner.negated()
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            return None
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        name, owner = node.func.attr, node.func.value
        if name == "reshape":
            inner = self._value(owner, env)
            return self._reshape(inner, node) if isinstance(inner, NdArray) and not node.keywords else None
        if not isinstance(owner, ast.Name):
            return None
        if owner.id in self.np:
            return self._numpy(name, node)
        if owner.id in self.pd:
            return self._pandas(name, node)
        return None

    def _dtype(self, node: ast.expr | None) -> str | object | None:
        """A dtype's name, None when absent, ``_NO`` when not read."""
        if node is None:
            return None
        if isinstance(node, ast.Name) and node.id in ("int", "float", "bool", "str", "object"):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.np \
                and _DTYPE.fullmatch(node.attr):
            return node.attr
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _DTYPE.fullmatch(node.value):
            return node.value
        return _NO

    def _numpy(self, name: str, node: ast.Call) -> NdArray | None:
        kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
        args = node.args
        if name in ("array", "asarray"):
            if len(args) not in (1, 2) or set(kw) - {"dtype"} or (len(args) == 2 and "dtype" in kw):
                return None
            dtype = self._dtype(args[1] if len(args) == 2 else kw.get("dtype"))
            grid = self._grid(args[0], 0)
            if grid is None or dtype is _NO:
                return None
            shape, cells = grid
            kinds = {type(c) for c in cells}
            if type(None) in kinds or (str in kinds and len(kinds) > 1):
                return None
            return NdArray(shape, dtype, cells)  # type: ignore[arg-type]
        if name in ("ones", "zeros", "empty", "full"):
            wanted = 2 if name == "full" else 1
            if len(args) < wanted or len(args) > wanted + 1 or set(kw) - {"dtype"} or \
                    (len(args) == wanted + 1 and "dtype" in kw):
                return None
            dims = _shape(args[0])
            dtype = self._dtype(args[wanted] if len(args) > wanted else kw.get("dtype"))
            if dims is None or dtype is _NO or (name == "empty" and math.prod(dims) > 0):
                return None
            fill = {"ones": 1.0, "zeros": 0.0, "empty": 0.0}.get(name, _NO)
            if fill is _NO:
                fill = _cell(args[1], self.np)
                if not isinstance(fill, (int, float)) or not (isinstance(fill, bool) or math.isfinite(fill)):
                    return None
            start = _as_kind(fill, dtype)  # type: ignore[arg-type]
            return None if start is _NO else NdArray.generated(dims, dtype, start)  # type: ignore[arg-type]
        if name == "arange":
            bounds = [_cell(a, self.np) for a in args]
            dtype = self._dtype(kw.get("dtype"))
            if not 1 <= len(bounds) <= 3 or set(kw) - {"dtype"} or dtype is _NO or \
                    not all(isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b)
                            for b in bounds):
                return None
            start, stop, step = ([0, *bounds, 1] if len(bounds) == 1 else [*bounds, 1])[:3]
            if step == 0:
                return None
            n = max(0, math.ceil((stop - start) / step))
            if n > MAX_CELLS:
                return None
            first = _as_kind(start, dtype)  # type: ignore[arg-type]
            if first is _NO or (isinstance(first, int) and isinstance(step, float)):
                first = float(start)
            return NdArray.generated((n,), dtype, first, step)  # type: ignore[arg-type]
        return None

    def _reshape(self, inner: NdArray, node: ast.Call) -> NdArray | None:
        parts = node.args[0].elts if len(node.args) == 1 and isinstance(node.args[0], (ast.Tuple, ast.List)) \
            else node.args
        dims = [_cell(p, self.np) for p in parts]
        if not 1 <= len(dims) <= MAX_DIMS or not all(type(d) is int for d in dims):
            return None
        known = math.prod(d for d in dims if d != -1)
        if dims.count(-1) > 1 or any(d < -1 for d in dims):
            return None
        if -1 in dims:
            if known == 0 or inner.size % known:
                return None
            dims = [inner.size // known if d == -1 else d for d in dims]
        return inner.reshaped(tuple(dims))

    def _pandas(self, name: str, node: ast.Call) -> Frame | Series | None:
        kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
        if name == "DataFrame" and not kw and len(node.args) <= 1:
            if not node.args:
                return Frame(())
            data = node.args[0]
            if not isinstance(data, ast.Dict) or any(k is None for k in data.keys):
                return None
            columns = []
            for key, values in zip(data.keys, data.values, strict=True):
                name_ = _cell(key, self.np) if key is not None else _NO
                cells = self._column(values)
                if not isinstance(name_, (str, int)) or isinstance(name_, bool) or cells is None:
                    return None
                columns.append((name_, cells))
            if sum(len(c) for _, c in columns) > MAX_CELLS or len({repr(k) for k, _ in columns}) < len(columns):
                return None
            return Frame(tuple(columns))
        if name == "Series" and len(node.args) == 1 and not set(kw) - {"name", "dtype"}:
            cells = self._column(node.args[0])
            label = _cell(kw["name"], self.np) if "name" in kw else None
            dtype = self._dtype(kw.get("dtype"))
            if cells is None or label is _NO or isinstance(label, float) or dtype is _NO:
                return None
            return Series(cells, label, dtype)  # type: ignore[arg-type]
        return None

    def _column(self, node: ast.expr) -> tuple[Cell, ...] | None:
        if not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) > MAX_CELLS:
            return None
        cells = tuple(_cell(e, self.np) for e in node.elts)
        return None if _NO in cells else cells

    def _grid(self, node: ast.expr, depth: int) -> tuple[tuple[int, ...], tuple[Cell, ...]] | None:
        """A rectangular nested list's shape and cells (row-major)."""
        if depth >= MAX_DIMS or not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) > MAX_CELLS:
            return None
        if node.elts and all(isinstance(e, (ast.List, ast.Tuple)) for e in node.elts):
            rows = [self._grid(e, depth + 1) for e in node.elts]
            if any(r is None for r in rows) or len({r[0] for r in rows if r is not None}) != 1:
                return None
            shape = rows[0][0]  # type: ignore[index]
            cells = tuple(c for r in rows if r is not None for c in r[1])
            return ((len(rows), *shape), cells) if len(cells) <= MAX_CELLS else None
        cells = tuple(_cell(e, self.np) for e in node.elts)
        return None if _NO in cells else ((len(cells),), cells)

    # --- the names bound before each call ---
    def bindings(self, tree: ast.AST) -> dict[int, Env]:
        """For each call node (by ``id``), the values of the names bound before it in its scope."""
        out: dict[int, Env] = {}
        body = tree.body if isinstance(tree, ast.Module) else []
        self._block(body, {}, out)
        return out

    def _block(self, stmts: list[ast.stmt], env: Env, out: dict[int, Env]) -> None:
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = dict(env)  # its own scope, which sees the names bound so far, not its parameters
                if not isinstance(st, ast.ClassDef):
                    a = st.args
                    for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]:
                        inner[p.arg] = None
                self._block(st.body, inner, out)
                continue
            snapshot = dict(env)
            nested = False
            for _, field in ast.iter_fields(st):
                items = field if isinstance(field, list) else [field]
                for item in items:
                    if isinstance(item, ast.stmt):
                        nested = True
                    elif isinstance(item, ast.AST):
                        for node in ast.walk(item):
                            if isinstance(node, ast.Call):
                                out[id(node)] = snapshot
            if nested:  # a compound statement: its header's names are unknown, its bodies read in order
                for target in _header_targets(st):
                    _forget(target, env)
                for _, field in ast.iter_fields(st):
                    if isinstance(field, list) and field and isinstance(field[0], ast.stmt):
                        self._block(field, env, out)
                    elif isinstance(field, list):
                        for handler in field:  # try's handlers, match's cases
                            if hasattr(handler, "body"):
                                self._block(handler.body, env, out)
                continue
            self._effects(st, env)

    def _effects(self, st: ast.stmt, env: Env) -> None:
        if isinstance(st, ast.Assign) and len(st.targets) == 1:
            target, value = st.targets[0], st.value
            if isinstance(target, ast.Name):
                env[target.id] = self.value(value, env)
                return
            if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                    and len(target.elts) == len(value.elts) and all(isinstance(t, ast.Name) for t in target.elts):
                got = [self.value(v, env) for v in value.elts]
                for t, v in zip(target.elts, got, strict=True):
                    env[t.id] = v  # type: ignore[attr-defined]
                return
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            env[st.target.id] = self.value(st.value, env)
            return
        for node in ast.walk(st):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                env[node.id] = None
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                _forget(node, env)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):  # x.fill(0), np.random.shuffle(x)
            call = st.value
            for node in [call.func, *call.args, *(k.value for k in call.keywords)]:
                _forget(node, env)


def _forget(node: ast.AST, env: Env) -> None:
    """The name at the base of ``node`` (``x`` of ``x[0].a``) is no longer known."""
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        node = node.value
    if isinstance(node, ast.Name):
        env[node.id] = None
    elif isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            _forget(e, env)


def _header_targets(st: ast.stmt) -> list[ast.AST]:
    if isinstance(st, (ast.For, ast.AsyncFor)):
        return [st.target]
    if isinstance(st, (ast.With, ast.AsyncWith)):
        return [i.optional_vars for i in st.items if i.optional_vars is not None]
    return []


def _shape(node: ast.expr) -> tuple[int, ...] | None:
    dims = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    got = [_cell(d, set()) for d in dims]
    if not 1 <= len(got) <= MAX_DIMS or not all(type(d) is int and d >= 0 for d in got):
        return None
    return tuple(got) if math.prod(got) <= MAX_CELLS else None


def _cell(node: ast.expr, numpy: set[str]) -> Cell:
    """A literal cell, or ``_NO``: a number (signed), a boolean, a string, None, ``np.nan`` / ``np.inf``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _cell(node.operand, numpy)
        if not isinstance(inner, (int, float)) or isinstance(inner, bool):
            return _NO
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Constant):
        v = node.value
        return v if v is None or isinstance(v, (bool, int, float, str)) else _NO
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in numpy:
        return _FLOAT_NAMES.get(node.attr, _NO)
    return _NO


def _as_kind(x: Any, dtype: str | None) -> Cell:
    """A fill value as the dtype keeps it: an int for an integer dtype, a bool for a boolean one,
    a float for a floating one (else as written); ``_NO`` for a dtype without numbers."""
    if dtype is None:
        return x
    if dtype.startswith(("int", "uint")):
        return int(x)
    if dtype.startswith("bool"):
        return bool(x)
    if dtype.startswith("float"):
        return float(x)
    return _NO
