"""Python: plain asserts, ``def test_*`` functions and ``unittest.TestCase`` classes (split with
``ast``; ``_unittest.py``), each test run under an alarm.
HumanEval-style samples give the signature in the problem and only a body as the candidate."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator

from sejury.execution.languages import _dummies, _pysource, _pysteps, _pytest, _stdio, _unittest
from sejury.execution.languages._pysetting import PRELUDE, defined_names, given_by_tests, reference_setting
from sejury.execution.languages.base import Copies, Harness, Language, Suite
from sejury.execution.sealed import new_seal, resource_files

SEALED_FILES = resource_files("sealed_python", {"checker.pyt": "checker.py", "server.pyt": "server.py",
                                                "codec.pyt": "codec.py", "lending.pyt": "lending.py",
                                                "fixtures.pyt": "fixtures.py"})

_HARNESS = r'''
import json, signal, sys, traceback
def _alarm(signum, frame):
    raise TimeoutError("test took too long")
signal.signal(signal.SIGALRM, _alarm)
ns = {"__name__": "solution"}
try:
    exec(compile(open("solution.py").read(), "solution.py", "exec"), ns)
except BaseException as e:
    print("@@LOAD FAIL", type(e).__name__, str(e)[:300].replace("\n", " "), flush=True)
    sys.exit(3)
print("@@LOAD OK", flush=True)
suite = json.load(open("tests.json"))
base = dict(ns)
def _sejury_show(v):
    if isinstance(v, float):
        return format(v, ".6g")
    if isinstance(v, list):
        return "[" + ", ".join(map(_sejury_show, v)) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_sejury_show, v)) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(sorted(_sejury_show(a) + ": " + _sejury_show(b) for a, b in v.items())) + "}"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_sejury_show, v))) + "}"
    return repr(v)
_sejury_unit = [-1, 0]  # the unit running, and its helpers' calls recorded so far
def sejury_rec(i, k, v):  # differential testing: the value of a call, shown, then returned unchanged
    if i < 0:  # a call in the setup's helpers: recorded under the unit that runs it, after its own calls
        i, k = _sejury_unit[0], 1000 + _sejury_unit[1]
        _sejury_unit[1] += 1
    try:
        s = _sejury_show(v)
    except BaseException as e:
        s = "<unshowable %s>" % type(e).__name__
    s = s.replace("\n", "\\n")
    print(f"@@V {i} {k} {s[:1000]}|{len(s)}", flush=True)
    return v
base["sejury_rec"] = sejury_rec
try:
    exec(compile(suite["setup"], "setup", "exec"), base)
except BaseException as e:
    print("@@SETUP FAIL", type(e).__name__, str(e)[:300].replace("\n", " "), flush=True)
for i, src in suite["units"]:
    env = dict(base)
    _sejury_unit[:] = [i, 0]
    signal.alarm(PER_TEST)
    try:
        exec(compile(src, f"test_{i}", "exec"), env)
        signal.alarm(0)
        print(f"@@T {i} PASS", flush=True)
    except BaseException as e:
        signal.alarm(0)
        print(f"@@T {i} FAIL", type(e).__name__, str(e)[:200].replace("\n", " "), flush=True)
'''


def imports_of(program: str) -> str:
    """The program's top-level imports, each guarded, for the tests' setup: a test written from
    the reference may use ``curve_fit`` or ``Counter`` as the reference imports them."""
    try:
        tree = ast.parse(program)
    except _pysource.UNPARSEABLE:
        return ""
    found = [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and not
             (isinstance(n, ast.ImportFrom) and (n.level or n.module == "__future__"))]
    return "\n".join(_pysteps.guarded(line) for line in found)


def _has_assert(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Assert) for n in ast.walk(node))


_RAISES = frozenset({"raises", "assertRaises", "assertRaisesRegex", "warns", "assertWarns"})


def _called(node: ast.expr) -> str:
    """The name a call calls (``self.assertEqual`` -> ``assertEqual``), else ''."""
    if not isinstance(node, ast.Call):
        return ""
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _is_check(stmt: ast.stmt) -> bool:
    """A statement that checks something: ``assert``, ``with pytest.raises(...)``, or a call of an
    ``assert...`` function (``self.assertEqual``, ``pd.testing.assert_frame_equal``)."""
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return any(_called(item.context_expr) in _RAISES for item in stmt.items)
    return isinstance(stmt, ast.Expr) and _called(stmt.value).startswith("assert")


MAX_CHECKS_SPLIT = 15  # a test function with more checks than this stays one unit (each unit reruns the steps)


def _checks_as_units(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str] | None:
    """A test function's checks, one unit each: the function's other statements before the check,
    then the check (``ax = f(10)``, ``assert isinstance(ax, Axes)``, ``ax = f(1000)``, ``assert
    ...``: the second unit runs both calls and the second assert).  One wrong expectation then
    fails its own check, not every check of the function.  None when it is not worth splitting
    (or cannot be: an async function, one with parameters or decorators)."""
    if not isinstance(fn, ast.FunctionDef) or fn.args.args or fn.decorator_list:
        return None
    checks = [i for i, st in enumerate(fn.body) if _is_check(st)]
    if len(checks) < 2 or len(checks) > MAX_CHECKS_SPLIT or any(
            isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Nonlocal)) for n in ast.walk(fn)):
        return None
    steps = [ast.unparse(st) for st in fn.body]
    return ["\n".join([steps[k] for k in range(i) if k not in checks] + [steps[i]]) for i in checks]


def _check_calls(tree: ast.Module) -> dict[str, str]:
    """``check(f)`` calls at the top level (HumanEval's form): function name -> argument source."""
    calls = {}
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and len(node.value.args) == 1:
            calls[node.value.func.id] = ast.unparse(node.value.args[0])
    return calls


def _table_rows(node: ast.For, tables: dict[str, ast.expr]) -> Iterator[str] | None:
    """The rows of a table-driven loop (``for x, want in cases:`` over a literal list), as loops
    (made one by one: the body is written once, each row put in its place)."""
    literal = tables.get(node.iter.id) if isinstance(node.iter, ast.Name) else node.iter
    if not isinstance(literal, (ast.List, ast.Tuple)) or len(literal.elts) < 2:
        return None
    loop = ast.unparse(ast.For(target=node.target, iter=ast.List(elts=[ast.Name(id=_ROW)], ctx=ast.Load()),
                               body=node.body, orelse=[], lineno=0))
    head, body = loop.split("\n", 1)
    return (f"{head.replace(f'[{_ROW}]', f'[{ast.unparse(row)}]', 1)}\n{body}" for row in literal.elts)


_ROW = "__sejury_row__"  # where a table's row goes in the loop written once


def split(tests: str, names: set[str]) -> Suite:
    parsed = _pysource.parsed(tests)
    if parsed is None or not parsed[0].body:
        lines = tests.splitlines()
        return Suite("", [ln.strip() for ln in lines if ln.strip().startswith("assert")])
    tree, tests = parsed
    source = _pysource.Source(tests)
    setup: list[str] = []
    units: list[str] = []
    in_functions: set[int] = set()  # units that come from a test function: their steps are added at the end
    steps, reassigned = _pysteps.Steps(names), _pysteps.reassigned(tree)
    calls = _check_calls(tree)
    checks = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in calls and n.name not in names
              and len(n.args.args) == 1 and _has_assert(n)}
    # helpers that check (``def check(a, b, want): assert f(a, b) == want``): each call of one at the
    # top level (``check(1, 2, 3)``) is a test; run in the setup, the first failure stopped them all
    helpers = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name not in names
               and n.name not in checks and not n.name.startswith("test") and _has_assert(n)}
    tables: dict[str, ast.expr] = {}  # names bound to literal lists, for table-driven loops
    given = _pytest.fixtures(tree.body)
    cases, copies = _unittest.cases(tree), Copies()
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    derived_from = _unittest.bases(tree)
    # pytest's ``setup_function``/``teardown_function``: run around each module-level test (fixtures.pyt)
    xunit = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("setup_function",
                                                                                  "teardown_function")]

    # every unit is made within ``copies``, its steps included: the text units repeat (a class, a
    # table loop's body, the steps before a check) stays bounded, whatever the tests' size
    def top_level(node: ast.stmt, srcs: Iterable[str]) -> None:
        if copies.left:
            before = steps.for_check(node)
            units.extend(copies.keep(_pysteps.with_steps(before, u) for u in srcs))

    def in_function(srcs: Iterable[str], test: str | None = None) -> None:
        if xunit and test is not None:
            srcs = (f"sejury_xunit_function({test!r}, globals())\n{u}" for u in srcs)
        kept = copies.keep(srcs)
        in_functions.update(range(len(units), len(units) + len(kept)))
        units.extend(kept)

    for node in tree.body:
        src = source.segment(node)
        called = node.value.func.id if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
            isinstance(node.value.func, ast.Name) else None  # a statement that only calls a function by name
        if _is_check(node):
            top_level(node, [src])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            # its patches are kept: they reach the program's process too
            src = "".join(f"@{source.segment(d)}\n" for d in _pytest.patches(node)) + src
            if (rows := _pytest.runs(node, given)) is not None:
                in_function((f"{src}\n{call}" for call in rows), node.name)  # pytest's parametrize rows and fixtures
            elif node.body and all(isinstance(s, ast.Assert) for s in node.body) and not node.args.args \
                    and not node.decorator_list:
                in_function((source.segment(s) for s in node.body), node.name)  # one unit per assert
            elif (split_up := _checks_as_units(node)) is not None:
                in_function(split_up, node.name)
            else:
                in_function([f"{src}\n{node.name}()"], node.name)
        elif called in helpers:
            top_level(node, [src])
        elif called and (called.startswith("test") or called in checks):
            continue  # a call of a test function we already run
        elif isinstance(node, ast.FunctionDef) and node.name in checks:
            # HumanEval's ``def check(candidate): assert candidate(...) == ...`` then ``check(f)``
            setup.append(f"{node.args.args[0].arg} = {calls[node.name]}")
            for stmt in node.body:
                (units if _has_assert(stmt) else setup).append(ast.unparse(stmt))
        elif isinstance(node, ast.For) and _has_assert(node):
            top_level(node, _table_rows(node, tables) or [src])  # a table-driven loop: one unit per row
        elif isinstance(node, ast.ClassDef) and node.name in cases and \
                ((inherits := _unittest.inherited(node, classes)) or _unittest.tests(node)):
            # run as unittest runs it: its fixtures too, and the tests it inherits
            in_function(_unittest.units(node, source, inherits=inherits))
            if node.name in derived_from:
                setup.append(src)  # another class of the suite derives from it
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test") and node.name not in cases:
            in_function(_unittest.units(node, source, call=_pytest.class_runs(node, given),
                                        inherits=_unittest.inherited(node, classes, sync_only=True),
                                        omit=_pytest.fixture_decorators(node)))
            if node.name in derived_from:
                setup.append(src)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in names:
            continue  # a copy of the solution: it would mask the candidate
        elif isinstance(node, ast.If) and "__main__" in source.segment(node.test):
            continue  # a main guard; its asserts, if any, repeat the ones above
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if (guarded := _pysteps.guarded_import(node, src, names)) is not None:
                setup.append(guarded)
        elif _pysteps.is_step(node, steps.names, reassigned):
            steps.add(node, src)
        else:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                tables[node.targets[0].id] = node.value
            setup.append(src)
    done = Copies()  # and again with a test function's steps, which come last
    return Suite("\n".join(setup), done.keep(_function_steps(steps, u, xunit) if i in in_functions else u
                                             for i, u in enumerate(units)))


def _function_steps(steps: _pysteps.Steps, unit: str, xunit: list[ast.FunctionDef]) -> str:
    """A test function's unit after the script's steps it needs (none when it does not parse alone),
    and those its ``setup_function``/``teardown_function`` (``xunit``) need, which run in the unit."""
    try:
        tree = ast.parse(unit)
    except _pysource.UNPARSEABLE:
        return unit
    if xunit and unit.startswith("sejury_xunit_function("):
        tree.body.extend(xunit)
    return _pysteps.with_steps(steps.for_function(tree), unit)


def assemble(problem: str, code: str) -> str:
    """The program to test: the code, or problem + body when the code is only a body (as the
    benchmark's harness joins them)."""
    first = next((ln for ln in code.splitlines() if ln.strip()), "")
    try:
        compile(code, "candidate", "exec")
        standalone = not first[:1].isspace()
    except SyntaxError:
        standalone = False
    if not standalone:
        for body in (code, reindent_first_line(code)):
            joined = problem.rstrip() + "\n" + body
            try:
                compile(joined, "candidate", "exec")
                return joined
            except SyntaxError:
                pass
    return code


def reindent_first_line(code: str) -> str:
    """A body whose first line lost its indentation (``x = 0\\n    for ...``, as datasets that strip
    generations store it) gets the body's indentation back: that of its least indented later line."""
    lines = code.splitlines()
    i = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    if i is None or lines[i][:1].isspace():
        return code
    indents = [len(ln) - len(ln.lstrip()) for ln in lines[i + 1:] if ln.strip()]
    body = min((n for n in indents if n > 0), default=4)
    lines[i] = " " * body + lines[i]
    return "\n".join(lines)


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The sealed harness (``sealed_python/``): the tests run in a checker process, the program in
    another that sees only the calls' arguments; results are authenticated with a fresh key."""
    key = new_seal()
    return Harness({"solution.py": program, "prelude.py": PRELUDE,
                    "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                    "seal": key, **SEALED_FILES,
                    **({"random_state": str(suite.random_state)} if suite.random_state else {})},
                   f"python3 -I -B checker.py {per_test}", seal=key)


def unsealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The tests in the program's own process (the harness before sealing): kept for comparison
    in the adversarial tests and benchmarks only; a program can forge its results here."""
    return Harness({"solution.py": program,
                    "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                    "harness.py": _HARNESS.replace("PER_TEST", str(per_test))},
                   "python3 -I -B harness.py")


def write_files(files: dict[str, str]) -> str:
    """Statements that write ``files`` (path: text) in the test's folder, before the tests: steps
    that call nothing tested, so every test function runs them first (``split``)."""
    lines = []
    for path, text in files.items():
        if "/" in path:
            lines.append(f"__import__('os').makedirs({path.rpartition('/')[0]!r}, exist_ok=True)")
        lines.append(f"with open({path!r}, 'w') as sejury_file:\n    sejury_file.write({text!r})")
    return "\n".join(lines)


LANGUAGE = Language(name="python", aliases=("py",), split=split, defined_names=defined_names, harness=harness,
                    test_line=re.compile(r"^\s*assert\b"), timeout=20.0, assemble=assemble, codebleu="python",
                    grammar="tree_sitter_python", stdio=_stdio.python, reads_stdin=_stdio.PYTHON_READS,
                    imports_of=imports_of, given_by_tests=given_by_tests, reference_setting=reference_setting,
                    test_name=_unittest.named,
                    dummies=_dummies.python, return_type="return_type",
                    indented_blocks=True, empty_statement="pass", line_comment="#", literals=True,
                    write_files=write_files,
                    program_error=re.compile(r"^(?:@@LOAD FAIL )?(?:SyntaxError|IndentationError|TabError)\b.*"
                                             r"\(solution\.py, line \d+\)", re.M))
