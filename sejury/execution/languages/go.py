"""Go: ``go test`` runs one generated test function; each unit is a closure that recovers, with
``t.Errorf``/``t.Fatal`` turned into a recoverable failure so one unit does not end the rest."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _clike, _dummies, _go_lists, _go_repairs, _literals, _stdio
from sejury.execution.languages._go_stubs import declarations, dispatch, method_stub, signatures, stub, tables
from sejury.execution.languages.base import Harness, Language, Suite, compile_then_run, wrap_units
from sejury.execution.sealed import new_seal, resource_files

_DEFINES = re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)|^type\s+(\w+)")
_ENTRY = _go_repairs.TEST_FUNC


# a testify assertion (``sealed_go/testify.go.txt``)
_TESTIFY = re.compile(r"\b(assert|require)\.([A-Z]\w*)\(")
# testify's object form (``assert := assert.New(t)`` then ``assert.Equal(want, got)``, HumanEval-X's own)
_TESTIFY_NEW = re.compile(r"^[ \t]*(\w+)[ \t]*:=[ \t]*(assert|require)\.New\([ \t]*(\w+)[ \t]*\)[ \t]*;?[ \t]*\r?\n",
                          re.M)


def testify_calls(tests: str) -> str:
    """testify's object form as its function form: the ``X := assert.New(t)`` lines dropped, each
    ``X.Equal(`` written ``assert.Equal(t, ``."""
    made = sorted({m.groups() for m in _TESTIFY_NEW.finditer(tests)})
    tests = _TESTIFY_NEW.sub("", tests)
    for name, kind, t in made:
        tests = re.sub(rf"(?<![\w.]){re.escape(name)}\.([A-Z]\w*)\(", rf"{kind}.\1({t}, ", tests)
    return tests


def _testify_named(code: str) -> str:
    """testify's ``assert.`` and ``require.`` as the checker's own values, whose names no program's
    function can take (a program may define ``assert``: its stub sits in the same package)."""
    return _TESTIFY.sub(lambda m: f"sejury{m.group(1).capitalize()}.{m.group(2)}(", code)


# a test's check: a failure reported on ``t``, a panic, or a testify assertion
_CHECK = re.compile(r"t\.(Errorf|Error|Fatalf|Fatal|Fail)\b|panic\(|" + _TESTIFY.pattern)
_TABLE = re.compile(r"^(\w+)\s*:=\s*(\[\]\s*(?:struct\s*\{|[\w.*\[\]]+\s*\{))")


def split(tests: str, names: set[str]) -> Suite:
    tests = _go_repairs.recovering_as_one(_go_repairs.repaired(_go_repairs.unqualified(testify_calls(tests), names)))
    suite = _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES,
                                check=_CHECK, replay=replayed)
    helpers = "\n".join(h for h in (helper_closures(tests, names), _go_repairs.equality_helpers(tests, names)) if h)
    setup = redeclared_as_assigned(suite.setup)
    return expand_tables(Suite(f"{helpers}\n{setup}" if helpers else setup, suite.units))


_VAR = re.compile(r"^var\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\b[^=]*=")
_VAR_BARE = re.compile(r"^var\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+([^=\n]+)$")


def replayed(stmt: str) -> str | None:
    """A setup statement as a unit runs it again: a declaration as an assignment (the setup keeps
    the declaration); a declaration without a value, a type or a function (named or a literal),
    not at all."""
    if (m := _SHORT_DECL.match(stmt)) or (m := _VAR.match(stmt)):
        if stmt[m.end():].lstrip().startswith("func"):
            return None  # a helper (``check := func(a, b int) int {...}``): defined once, in the setup
        return _assigned(m, stmt)
    if m := _VAR_BARE.match(stmt):
        # ``var c Counter`` made again, its zero value: the unit's own calls on it start from there
        names = [n.strip() for n in m.group(1).split(",")]
        return f"{', '.join(names)} = {', '.join(f'*new({m.group(2).strip()})' for _ in names)}"
    if stmt.startswith(("var ", "type ", "func ", "const ", "_ =")):
        return None
    return stmt


_SHORT_DECL = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:=")


def _assigned(decl: re.Match[str], stmt: str) -> str:
    """The declaration ``stmt`` (matched by ``_SHORT_DECL`` or ``_VAR``) as a plain assignment."""
    return f"{decl.group(1)} ={stmt[decl.end():]}"


def redeclared_as_assigned(setup: str) -> str:
    """``expected := ...`` once per test case, in one function: Go refuses the second (no new
    variables on the left of ``:=``); it becomes ``expected = ...``."""
    declared: set[str] = set()
    out = []
    for stmt in _clike.balanced_statements(setup):
        m = _SHORT_DECL.match(stmt)
        if m:
            left = {n.strip() for n in m.group(1).split(",")} - {"_"}
            if left and left <= declared:
                stmt = _assigned(m, stmt)
            declared |= left
        out.append(stmt)
    return "\n".join(out)


_HELPER = re.compile(r"func\s+([A-Za-z_]\w*)\s*\(")


def helper_closures(tests: str, names: set[str]) -> str:
    """The helper functions a suite defines beside its test function (``func slicesEqual(a, b
    []int) bool {...}``), as closures at the start of the test function, where the units see them:
    the test file has room for the test function only.  Generic helpers, methods and copies of the
    program's functions are left out."""
    out = []
    for stmt in _clike.balanced_statements(tests):
        m = _HELPER.match(stmt)
        if not m or m.group(1) in names or m.group(1).startswith("Test") or not stmt.endswith("}"):
            continue
        params_end = _clike.closing(stmt, m.end() - 1)
        body = next((i for i in range(params_end + 1, len(stmt)) if stmt[i] == "{"
                     and _clike.closing(stmt, i) == len(stmt) - 1), -1) if params_end > 0 else -1
        if body < 0:
            continue
        kind = "func" + stmt[m.end() - 1:body].rstrip()
        out.append(f"var {m.group(1)} {kind}\n{m.group(1)} = {kind} {stmt[body:]}\n_ = {m.group(1)}")
    return "\n".join(out)


def expand_tables(suite: Suite) -> Suite:
    """A table-driven test (``cases := []struct{...}{{row}, ...}`` then ``for _, c := range cases
    {...}``) becomes one unit per row, so one wrong row (a model's wrong expectation) is dropped on
    the reference alone instead of discarding the whole table."""
    tables: dict[str, tuple[str, list[str]]] = {}  # name -> (literal type, rows)
    for stmt in _clike.balanced_statements(suite.setup):
        m = _TABLE.match(stmt)
        if not m:
            continue
        open_at = m.end(2) - 1  # the "{" of the struct type, or of the literal
        if re.search(r"struct\s*\{$", m.group(2)):
            type_end = _clike.closing(stmt, open_at)
            if type_end < 0:
                continue
            open_at = stmt.find("{", type_end + 1)
        end = _clike.closing(stmt, open_at) if open_at >= 0 else -1
        if end < 0:
            continue
        rows = _clike.top_level_items(stmt[open_at + 1:end])
        if len(rows) > 1:
            tables[m.group(1)] = (stmt[m.start(2):open_at].strip(), rows)
    if not tables:
        return suite
    units: list[str] = []
    for unit in suite.units:
        loop = re.search(r"^for\s+[\w\s,]*:?=\s*range\s+(\w+)\s*\{", unit, flags=re.M)  # after replayed steps
        if loop and loop.group(1) in tables:
            kind, rows = tables[loop.group(1)]
            steps = "\n".join(st for st in _clike.balanced_statements(unit[:loop.start()])
                              if not re.match(rf"{loop.group(1)}\s*=", st))  # the table, replayed: not needed
            head = f"{steps}\n" if steps else ""
            units += [head + unit[loop.start():loop.start(1)] + f"({kind}{{{row}}})" + unit[loop.end(1):]
                      for row in rows]
        else:
            units.append(unit)
    used = "\n".join(f"_ = {name}" for name in tables)  # a table no unit names any more must still be used
    return Suite(f"{suite.setup}\n{used}", units)


def _unit(i: int, u: str) -> str:
    u = re.sub(r"\bt\.(Errorf|Fatalf)\(", "sejuryFail(", u)
    u = re.sub(r"\bt\.(Error|Fatal)\(", "sejuryFailWith(", u)  # operands, as t.Log prints them: t.Fatal(err)
    u = re.sub(r"\bt\.(FailNow|Fail)\(\)", 'sejuryFail("failed")', u)
    u = re.sub(r"\bt\.Run\(", "sejuryRun(t, ", u)
    # a fault of the harness (sejuryFault: the program's process ended or hung) fails it, recovered too
    return (f"sejuryUnit, sejuryAuto, sejuryFault = {i}, 0, sejuryBegin()\nfunc() {{\n  defer func() {{ "
            f"r := recover(); if r == nil && sejuryFault != \"\" {{ r = sejuryFault }}; if r != nil {{ "
            f"sejuryfmt.Printf(\"@@T {i} FAIL %v\\n\", r) }} else {{ sejuryfmt.Println(\"@@T {i} PASS\") }} }}()\n"
            f"{textwrap.indent(u, '  ')}\n}}()")


# differential testing: the value of a call, shown alike for reference and candidate, returned unchanged
RECORDER = resource_files("sealed_go", {"recorder.go.txt": "recorder"})["recorder"].splitlines()


# packages the tests may use unimported (their imports are not kept), each with a name of it; the
# harness's own code imports its packages under names of its own (``sejuryfmt`` ...), so a program's
# package-level ``json``, ``hex`` or ``sort`` is never one of them, in either of its processes
_TEST_PACKAGES = {"errors": "errors.New", "fmt": "fmt.Sprint", "math": "math.Abs", "reflect": "reflect.DeepEqual",
                  "sort": "sort.Ints", "strconv": "strconv.Itoa", "strings": "strings.Contains",
                  "testing": "testing.Short", "time": "time.Now"}
_HARNESS_PACKAGES = ("fmt", "reflect", "sort", "strings", "testing")
# what of a test's text is no code: strings, raw strings, runes, comments ("want no errors." names no package)
_NOT_CODE = re.compile(r'"(?:\\.|[^"\\\n])*"|`[^`]*`|\'(?:\\.|[^\'\\\n])+\'|//[^\n]*|/\*.*?\*/', re.S)


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The tests and the program in one test binary (the harness before sealing; the sealed one's
    test file is made from it)."""
    src = re.sub(r"^[ \t]*package\s+\w+", "package sandbox", program, count=1, flags=re.M)
    if not re.search(r"^[ \t]*package\s", src, flags=re.M):
        src = "package sandbox\n\n" + src
    tested = suite.setup + "\n" + "\n".join(active.values())
    testify = _TESTIFY.search(tested) is not None
    if testify:
        suite = Suite(_testify_named(suite.setup), suite.units)
        active = {i: _testify_named(u) for i, u in active.items()}
    code = _NOT_CODE.sub(" ", tested)
    pkgs = [p for p in _TEST_PACKAGES if re.search(rf"(?<![\w.]){p}\.", code)]
    imports = "\n".join([*(f'  sejury{p} "{p}"' for p in _HARNESS_PACKAGES), *(f'  "{p}"' for p in pkgs)])
    # each one used, so a name met only where the reading above errs leaves no unused import
    head = ["package sandbox", "", f"import (\n{imports}\n)", *(f"var _ = {_TEST_PACKAGES[p]}" for p in pkgs), "",
            "type sejuryFailure struct{ msg string }",
            "func sejuryFail(format string, a ...interface{}) {",
            "  panic(sejuryFailure{sejuryfmt.Sprintf(format, a...)})",
            "}",
            "func sejuryFailWith(a ...interface{}) {",
            "  panic(sejuryFailure{sejurystrings.TrimSuffix(sejuryfmt.Sprintln(a...), \"\\n\")})",
            "}",
            "// subtests run inline, so their failures stay in this unit's goroutine",
            "func sejuryRun(t *sejurytesting.T, name string, f func(t *sejurytesting.T)) bool { f(t); return true }",
            *RECORDER, *(_SEALED_SOURCES["testify"].splitlines() if testify else []),
            "", "func TestSejury(t *sejurytesting.T) {", "  _ = t"]
    head += ["  " + ln for ln in suite.setup.splitlines()]
    body, spans = wrap_units(active, head, "  ", _unit)
    body += "\n}\n"
    # `go vet` is off: generated tests often print with mismatched verbs, which is no failure
    return Harness(
        {"go.mod": "module sandbox\n\ngo 1.19\n", "solution.go": src, "sejury_test.go": body},
        # goimports adds the imports the benchmarks leave to their harness (HumanEval-X's Go
        # problems use math, strings ... unimported) and drops unused ones, as that harness does
        "(! command -v goimports >/dev/null || goimports -w solution.go) && "
        + compile_then_run("go build ./", "go test -c -vet=off -o t.test ./", "./t.test -test.run TestSejury -test.v"),
        spans, "sejury_test.go")



def assemble(problem: str, code: str) -> str:
    """``_clike.assemble_c_like``; and where the code is a whole solution standing alone (as every
    candidate of HumanEval-X's Go set is), the problem's own complete functions and types it does
    not define itself are kept beside it: ``DecodeCyclic`` calls the ``EncodeCyclic`` the problem
    gives (the imports they need are ``goimports``' to add)."""
    program = _clike.assemble_c_like(problem, code)
    if program != code or _clike.brace_balance(problem) <= 0:
        return program
    stripped = problem.rstrip()
    head = stripped[:stripped.rfind("\n")] if "\n" in stripped else ""  # without the open signature
    have = _clike.defined_names(_DEFINES, code)
    given = [st for st in _clike.balanced_statements(head)
             if (m := _DEFINES.match(st)) and (m.group(1) or m.group(2)) not in have and st.rstrip().endswith("}")]
    return code.rstrip("\n") + "\n\n" + "\n\n".join(given) + "\n" if given else code


# ---- the sealed harness (``sealed_go/``): the tests in a checker, the program in a process of its own

_SEALED_SOURCES = resource_files("sealed_go", {"server.go.txt": "server", "checker.go.txt": "checker",
                                               "codec.go.txt": "codec", "testify.go.txt": "testify"})


def sealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The program in a process of its own (``srv/``, with a dispatcher over its functions), the tests
    in a checker (``chk/``, with stubs of the program's signatures), built apart: the checker with a
    build cache of its own, deleted before anything runs, so the program finds its tests nowhere."""
    key = new_seal()
    src = re.sub(r"^[ \t]*package\s+\w+", "package main", program, count=1, flags=re.M)
    if not re.search(r"^[ \t]*package\s", src, flags=re.M):
        src = "package main\n\n" + src
    src = re.sub(r"^func\s+main\s*\(", "func sejury_candidate_main(", src, flags=re.M)
    sigs = signatures(src)
    decls = declarations(src)
    server = _SEALED_SOURCES["server"].replace("\t/*FUNCS*/", dispatch([name for name, _, _ in sigs], decls))
    server += "\n" + tables(decls)
    stubs = _SEALED_SOURCES["checker"].replace("\t/*IMPORTS*/", "\n".join(f"\t{i}" for i in decls.imports))
    stubs = stubs.replace("/*STUBS*/", "\n".join(
        [*decls.texts, tables(decls), *(stub(*s) for s in sigs), *(method_stub(m) for m in decls.methods)]))
    plain = harness(program, suite, active, per_test)
    tests = plain.files["sejury_test.go"]
    tests = re.sub(r'sejuryfmt\.Println\("(@@T \d+ PASS)"\)', r'sejuryEmit("\1")', tests)
    tests = re.sub(r'sejuryfmt\.Printf\("(@@T \d+ FAIL) %v\\n", r\)', r'sejuryEmit(sejuryfmt.Sprintf("\1 %v", r))',
                   tests)
    tests = tests.replace('sejuryfmt.Printf("@@V %d %d %s|%d\\n", i, k, s, n)',
                          'sejuryEmit(sejuryfmt.Sprintf("@@V %d %d %s|%d", i, k, s, n))')
    # the program is built while the tests and the key cannot be read: cgo's C compiler reads what the
    # program names (an ``.incbin`` of ``../chk/sejury_test.go`` put the tests' expected values in the
    # program's data until RUNNERS_VERSION 63), and no step of the build runs code that could undo it
    command = (
        "chmod 000 chk seal; cd srv && (! command -v goimports >/dev/null || goimports -w solution.go 2>&1) && "
        "go build -o ../sejury_srv . 2>&1; built=$?; cd .. && chmod 700 chk && chmod 600 seal && "
        "{ [ $built = 0 ] || { echo '@@LOAD FAIL'; exit 3; }; } && echo '@@LOAD OK' && cd chk && "
        "(! command -v goimports >/dev/null || goimports -w sejury_stubs_test.go) && "
        "(GOCACHE=\"$PWD/../chk-cache\" go test -c -vet=off -o ../chk.test ./ 2>&1 "
        "|| { echo '@@TESTS NOCOMPILE'; exit 4; }) && rm -rf ../chk-cache && cd .. && "
        "./chk.test -test.run TestSejury -test.v")
    codec = _SEALED_SOURCES["codec"]
    return Harness({"srv/go.mod": "module srv\n\ngo 1.19\n", "srv/solution.go": src, "srv/sejury_server.go": server,
                    "srv/sejury_codec.go": codec.replace("package sejurycodec", "package main", 1),
                    "chk/sejury_codec_test.go": codec.replace("package sejurycodec", "package sandbox", 1),
                    "chk/go.mod": "module sandbox\n\ngo 1.19\n", "chk/sejury_stubs_test.go": stubs,
                    "chk/sejury_test.go": tests, "seal": key},
                   command, plain.unit_lines, "sejury_test.go", seal=key,
                   plain_markers=("@@LOAD OK", "@@LOAD FAIL", "@@TESTS NOCOMPILE"))


LANGUAGE = Language(name="go", aliases=("golang",), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=sealed_harness,
                    plain_harness=harness,
                    assemble=assemble,
                    test_line=re.compile(r"t\.(Errorf|Error|Fatalf|Fatal)\(|" + _TESTIFY.pattern), timeout=90.0,
                    codebleu="go",
                    program_error=re.compile(r"^(?:\./)?solution\.go:\d+:\d+: ", re.M),
                    grammar="tree_sitter_go", stdio=_stdio.go, reads_stdin=_stdio.GO_READS, literals=True,
                    dummies=_dummies.go, return_type="result",
                    empty_statement="{}", read_calls=_literals.clike_calls("go"), read_example=_literals.go_example,
                    parameters=_literals.go_parameters, write_typed=_literals.go_value, escape=_literals.go_escape,
                    fragment_file=_literals.go_file, conversions=re.compile(r"u?int\d*|float\d+|string|rune|byte"),
                    typed_repair=_go_lists.typed_lists)
