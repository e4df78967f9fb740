"""Java: javac compiles the program, then a generated main runs each unit in its own try block."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

from sejury.execution.languages import _adapt, _clike, _stdio
from sejury.execution.languages.base import Harness, Language, Suite, compile_then_run, wrap_units
from sejury.execution.sealed import interpreter, new_seal, resource_files

_DEFINES = re.compile(r"^(?:public\s+|final\s+|abstract\s+)*(?:class|interface|record)\s+(\w+)")
_ENTRY = re.compile(r"static\s+void\s+main\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{")


_CHECK = re.compile(r"assert|\bfail\(|throw|AssertionError")
_JUNIT_METHOD = re.compile(r"(?:@Test\s+)(?:public\s+)?void\s+\w+\s*\(\s*\)\s*(?:throws\s+[\w\s,.]+)?\{")


def split(tests: str, names: set[str]) -> Suite:
    """Statements of a main (or loose statements), one unit per check; JUnit test classes (what
    models write whatever the prompt says): one unit per assertion of each ``@Test`` method.  A
    text cut off mid-statement (the reply's token limit) loses its incomplete tail."""
    tests = _clike.complete_part(tests)
    junit = _clike.block_bodies(tests, _JUNIT_METHOD)
    if junit:  # one unit per assertion: the method's statements before it, then the assertion, as a block
        units = []
        for body in junit:
            before: list[str] = []
            for stmt in _clike.balanced_statements(textwrap.dedent(body)):
                if _CHECK.search(stmt):
                    units.append("{\n" + "\n".join([*before, stmt]) + "\n}")
                else:
                    before.append(stmt)
        return Suite("", units)
    helpers = _helpers(tests)
    if helpers and _clike.block_bodies(tests, _ENTRY):
        return _split_with_helpers(tests, helpers)
    return _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES, check=_CHECK)


_HELPER = re.compile(r"^\s*(?:(?:public|private|protected|static|final)\s+)*(?P<ret>[\w<>\[\],.?]+(?:\s*<[^>]*>)?)\s+"
                     r"(?P<name>\w+)\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{", re.M)
_HELPERS = "SejuryHelpers"


def _helpers(tests: str) -> dict[str, str]:
    """The methods a test class declares beside ``main`` (``testF(int n, ...)`` that a main calls
    once per case, as small models often write): name -> its declaration, brace-balanced."""
    found: dict[str, str] = {}
    for m in _HELPER.finditer(tests):
        name = m.group("name")
        if name == "main" or m.group("ret") in _NOT_TYPES | {"class"}:
            continue
        (body,) = _clike.block_bodies(tests[m.start():], re.compile(r"\{"))[:1] or [""]
        if _CHECK.search(body):
            found[name] = tests[m.start():m.end()] + body + "}"
    return found


def _split_with_helpers(tests: str, helpers: dict[str, str]) -> Suite:
    """One unit per statement of ``main`` (each call of a helper is a case); the helpers become
    static methods of a local class the units call.  A helper that catches ``AssertionError`` (to
    print it and go on) would hide every failure: the catch is made to catch nothing."""
    members = []
    for decl in helpers.values():
        head, rest = textwrap.dedent(decl).split("{", 1)
        head = re.sub(r"\b(?:public|private|protected)\s+", "", head)
        head = head if re.search(r"\bstatic\b", head) else "static " + head.lstrip()
        rest = re.sub(r"catch\s*\(\s*(?:java\.lang\.)?AssertionError\b", "catch (SejuryAssert.Never", rest)
        members.append(textwrap.indent(head.strip() + " {" + rest, "  "))
    setup = f"class {_HELPERS} {{\n" + "\n".join(members) + "\n}"
    calls = _clike.calls_of(helpers)
    (main,) = _clike.block_bodies(tests, _ENTRY)[:1]
    units: list[str] = []
    before: list[str] = []
    for stmt in _clike.balanced_statements(textwrap.dedent(main)):
        if calls.search(stmt) or _CHECK.search(stmt):
            units.append(calls.sub(rf"{_HELPERS}.\1(", stmt) if not before else
                         "{\n" + "\n".join([*before, calls.sub(rf"{_HELPERS}.\1(", stmt)]) + "\n}")
        else:
            before.append(stmt)
    return Suite(setup, units)


# JUnit's assertions, for tests written against JUnit 4 or 5 (the test main extends that class)
ASSERTIONS = (Path(__file__).parent / "SejuryAssert.java").read_text(encoding="utf-8")
_JUNIT_PREFIX = re.compile(r"\b(?:org\.junit\.(?:jupiter\.api\.)?)?(?:Assert|Assertions)\.(?=assert\w*\(|fail\()")


def _class_of(code: str) -> str:
    m = re.search(r"public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", code)
    return m.group(1) if m else "Solution"


_PACKAGE = re.compile(r"^\s*package\s+[\w.]+\s*;", re.M)
_CLASS = re.compile(r"^\s*(?:public\s+|final\s+|abstract\s+)*class\s+(\w+)", re.M)
_METHOD = re.compile(r"^\s*([\w<>\[\],.?\s]+?)\s(\w+)\s*\(")
_NOT_TYPES = {"return", "new", "else", "throw"}
# what the benchmarks' problems import beyond the JDK (MultiPL-E's Pair and friends)
CLASSPATH = "out:/usr/share/java/javatuples.jar"


class Method(NamedTuple):
    cls: str
    static: bool


def methods_of(program: str) -> dict[str, Method]:
    """The methods of the program's top-level classes: name -> its class and whether it is static
    (MultiPL-E's ``class Problem { public static ... }``, HumanEval-X's ``class Solution { public
    int f(...) }``)."""
    found: dict[str, Method] = {}
    for m in _CLASS.finditer(program):
        body = _clike.block_bodies(program[m.start():], re.compile(r"\{"))[:1]
        depth = 0
        for line in (body[0] if body else "").splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            method = _METHOD.match(line) if d == 0 else None
            words = set(method.group(1).split()) if method else set()
            if method and not _NOT_TYPES & words and method.group(2) not in (m.group(1), "main"):
                found.setdefault(method.group(2), Method(m.group(1), "static" in words))
    return found


def fix_calls(unit: str, methods: dict[str, Method]) -> str:
    """Calls as the program defines them: ``Solution.f(x)`` -> ``new Solution().f(x)`` for an
    instance method, and a bare ``f(x)`` -> ``Problem.f(x)`` (or ``new Solution().f(x)``): both
    common slips of a model that sees only the method."""
    for name, m in methods.items():
        target = f"{m.cls}.{name}(" if m.static else f"new {m.cls}().{name}("
        if not m.static:
            unit = re.sub(rf"(?<![\w.]){m.cls}\.{name}\s*\(", target, unit)
        unit = re.sub(rf"(?<![\w.]){name}\s*\(", target, unit)
    return unit


_LIST_FACTORIES = {("Arrays", "asList"), ("List", "of"), ("java.util.Arrays", "asList"), ("java.util.List", "of")}


def wrap_list_arguments(code: str) -> str:
    """``Arrays.asList(...)`` or ``List.of(...)`` given as an argument of a method call becomes
    ``new ArrayList<>(Arrays.asList(...))``.  The benchmarks' Java signatures (and the helpers models
    write around them) take ``ArrayList<T>``, which a ``List`` does not convert to, so
    ``testUnique(Arrays.asList(5), ...)`` does not compile: the slip that made most of the 1.5B
    model's Java tests fail on the reference.  An ``ArrayList`` is a ``List`` with the same
    ``equals``, so where a ``List`` was fine it still is; a constructor's argument
    (``new ArrayList<>(Arrays.asList(...))``) is left as it is.  Read with tree-sitter's Java grammar,
    so text in strings and comments is never touched."""
    if "asList" not in code and "List.of" not in code:
        return code
    from sejury.execution.clike_literals import parse

    raw = code.encode()
    inserts: list[tuple[int, bytes]] = []
    stack = [parse(code, "java")]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "method_invocation" or node.parent is None or node.parent.type != "argument_list":
            continue
        owner = node.parent.parent
        obj, name = node.child_by_field_name("object"), node.child_by_field_name("name")
        if (owner is None or owner.type != "method_invocation" or obj is None or name is None
                or (raw[obj.start_byte:obj.end_byte].decode(), raw[name.start_byte:name.end_byte].decode())
                not in _LIST_FACTORIES):
            continue
        inserts += [(node.start_byte, b"new ArrayList<>("), (node.end_byte, b")")]
    for at, text in sorted(inserts, key=lambda x: x[0], reverse=True):
        raw = raw[:at] + text + raw[at:]
    return raw.decode()


_VALUE_TYPES = {"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
                "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"}


def _object_type(type_text: str) -> bool:
    """A type ``==`` compares by identity: not a primitive, not a boxed number (``==`` with a
    primitive unboxes it), not an array (``Objects.equals`` would not look inside one either)."""
    t = type_text.strip()
    return bool(t) and t not in _VALUE_TYPES and not t.endswith("]")


def value_equality(code: str, returns: dict[str, str]) -> str:
    """``a == b`` (and ``!=``) between objects becomes ``java.util.Objects.equals(a, b)``: Java's
    ``==`` on a list or a string asks whether both are the same object, so
    ``assert sortedListSum(...) == new ArrayList<>(Arrays.asList("aa"))`` fails on every program,
    the reference too, and a suite of such tests was thrown away whole.  An operand counts as an
    object when it is a ``new`` expression, a string literal, a call of a method whose declared
    return type is an object (``returns``: name -> return type, from the program), or a variable
    the text declares with such a type; ``null`` on either side keeps ``==``.  Read with
    tree-sitter's Java grammar."""
    if "==" not in code and "!=" not in code:
        return code
    from sejury.execution.clike_literals import parse

    raw = code.encode()

    def text(node: Any) -> str:
        return raw[node.start_byte:node.end_byte].decode()

    root = parse(code, "java")
    declared: dict[str, str] = {}
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
        if node.type in ("local_variable_declaration", "formal_parameter", "field_declaration"):
            kind = node.child_by_field_name("type")
            for d in [node, *node.named_children]:
                name = d.child_by_field_name("name") if d.type in ("variable_declarator", "formal_parameter") else None
                if kind is not None and name is not None:
                    declared[text(name)] = text(kind)

    def is_object(node: Any) -> bool:
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.type in ("object_creation_expression", "string_literal"):
            return True
        if node.type == "method_invocation":
            name = node.child_by_field_name("name")
            args = node.child_by_field_name("arguments")
            if name is not None and text(name) == "sejury_rec" and args is not None and args.named_children:
                return is_object(args.named_children[-1])  # S5-diff's recorder returns its last argument
            return name is not None and _object_type(returns.get(text(name), ""))
        return node.type == "identifier" and _object_type(declared.get(text(node), ""))

    edits: list[tuple[int, int, str]] = []
    for node in nodes:
        if node.type != "binary_expression":
            continue
        left, right, op = node.child_by_field_name("left"), node.child_by_field_name("right"), \
            node.child_by_field_name("operator")
        if left is None or right is None or op is None or text(op) not in ("==", "!="):
            continue
        if "null_literal" in (left.type, right.type) or not (is_object(left) or is_object(right)):
            continue
        call = f"java.util.Objects.equals({text(left)}, {text(right)})"
        edits.append((node.start_byte, node.end_byte, call if text(op) == "==" else "!" + call))
    kept: list[tuple[int, int, str]] = []
    for start, end, new in sorted(edits, key=lambda e: (e[0], -e[1])):  # outermost first; inner ones dropped
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, new))
    for start, end, new in reversed(kept):
        raw = raw[:start] + new.encode() + raw[end:]
    return raw.decode()


def returns_of(program: str) -> dict[str, str]:
    """Each method's declared return type (name -> type), read like ``methods_of``."""
    found: dict[str, str] = {}
    for m in _CLASS.finditer(program):
        body = _clike.block_bodies(program[m.start():], re.compile(r"\{"))[:1]
        depth = 0
        for line in (body[0] if body else "").splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            method = _METHOD.match(line) if d == 0 else None
            if method and not _NOT_TYPES & set(method.group(1).split()):
                words = [w for w in re.split(r"\s+(?![^<]*>)", method.group(1).strip())
                         if w not in ("public", "private", "protected", "static", "final", "synchronized")]
                if words:
                    found.setdefault(method.group(2), words[-1])
    return found


def call(program: str, name: str) -> str:
    """``Problem.f(...)`` for a static method, ``new Solution().f(...)`` for an instance method."""
    m = methods_of(_PACKAGE.sub("", program)).get(name)
    if m is None:
        return f"{name}(...)"
    return f"{m.cls}.{name}(...)" if m.static else f"new {m.cls}().{name}(...)"


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    program = _PACKAGE.sub("", program)
    cls = _class_of(program)
    methods = methods_of(program)
    returns = returns_of(program)

    def repaired(code: str) -> str:  # the slips small models make, before compiling
        return _JUNIT_PREFIX.sub("", fix_calls(value_equality(wrap_list_arguments(code), returns), methods))

    active = {i: repaired(u) for i, u in active.items()}
    own = (m.strip() for m in re.findall(r"^\s*import\s+(?:static\s+)?[\w.*]+\s*;", program, re.M))
    imports = dict.fromkeys(["import java.util.*;", "import java.util.stream.*;", *own])  # and the program's own
    head = [*imports, "public class SejuryTestMain extends SejuryAssert {",
            "  public static void main(String[] args) throws Exception {"]
    head += ["    " + ln for ln in repaired(suite.setup).splitlines()]
    body, spans = wrap_units(active, head, "    ", lambda i, u: (
        f"sejuryUnit = {i}; sejuryAuto = 0;\n"
        f"try {{\n{textwrap.indent(u, '  ')}\n  System.out.println(\"@@T {i} PASS\");\n"
        f"}} catch (Throwable e) {{ System.out.println(\"@@T {i} FAIL \" + e); }}"))
    body += "\n  }\n}\n"
    return Harness(
        {f"{cls}.java": "import java.util.*;\nimport java.util.stream.*;\n" + program,
         "SejuryAssert.java": ASSERTIONS, "SejuryTestMain.java": body},
        "mkdir -p out && " + compile_then_run(f"javac -nowarn -cp {CLASSPATH} -d out {cls}.java",
                                              f"javac -nowarn -cp {CLASSPATH} -d out SejuryAssert.java "
                                              "SejuryTestMain.java",
                                              f"java -ea -Xss16m -XX:+UseSerialGC -cp {CLASSPATH} SejuryTestMain"),
        spans, "SejuryTestMain.java")


def adapt_reference(program: str, output: str) -> tuple[str, list[str]] | None:
    """A reference fit to its signature (``_adapt.py``), line numbers as javac saw the file."""
    return _adapt.adapt(_adapt.JAVA, _PACKAGE.sub("", program), output)



# ---- the sealed harness (``sealed_java/``): the tests in a checker, the program in a process of its own

_SEALED = resource_files("sealed_java", {n: n for n in ("SejuryCodec.java", "SejuryServer.java", "Sejury.java")})
_SIGNATURE = re.compile(r"^\s*(?P<mods>(?:(?:public|private|protected|static|final|synchronized)\s+)*)"
                        r"(?P<gen><[^>]+>\s+)?(?P<ret>[\w<>\[\],.?\s]+?)\s+(?P<name>\w+)\s*\((?P<params>.*?)\)\s*"
                        r"(?:throws\s+[\w\s,.]+)?\{")


def _params(text: str) -> list[tuple[str, str]]:
    """A Java parameter list as (type, name) pairs (commas inside <> kept)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            p = re.sub(r"\bfinal\s+", "", text[start:i].strip())
            start = i + 1
            if p:
                m = re.match(r"^(.*\S)\s+(\w+)$", p)
                if m is None:
                    return []
                out.append((m.group(1), m.group(2)))
    return out


def stubs(program: str) -> str:
    """Each top-level class of the program with its methods as stubs that call the program's
    process (``Sejury.call``) and read the answer by the method's declared generic return type."""
    classes = []
    for m in _CLASS.finditer(program):
        cls = m.group(1)
        body = _clike.block_bodies(program[m.start():], re.compile(r"\{"))[:1]
        methods, depth = [], 0
        for line in (body[0] if body else "").splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            s = _SIGNATURE.match(line) if d == 0 else None
            if s is None or s.group("name") in (cls, "main") or set(s.group("ret").split()) & _NOT_TYPES:
                continue
            params = _params(s.group("params"))
            static = "static" in s.group("mods").split()
            ret = s.group("ret").strip()
            call = (f'Sejury.call("{cls}", "{s.group("name")}", {str(static).lower()}, new Object[]{{'
                    + ", ".join(n for _, n in params)
                    + "}, new Object(){}.getClass().getEnclosingMethod().getGenericReturnType())")
            head = f"  {s.group('mods')}{s.group('gen') or ''}{ret} {s.group('name')}(" + \
                ", ".join(f"{t} {n}" for t, n in params) + ") {"
            statement = f"{call};" if ret == "void" else f"return ({ret}) {call};"
            methods.append(f"{head}\n    {statement}\n  }}")
        classes.append(f"class {cls} {{\n" + "\n".join(methods) + "\n}")
    return "\n".join(classes)


def sealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The program with a server over its classes (``srv/``), the tests with stubs of its methods
    (``chk/``, loaded then deleted before the program starts), run on an execute-only copy of the JVM
    launcher where the image has one, so the program cannot read the checker's memory."""
    key = new_seal()
    program = _PACKAGE.sub("", program)
    cls = _class_of(program)
    plain = harness(program, suite, active, per_test)
    tests = plain.files["SejuryTestMain.java"]
    tests = tests.replace("public static void main(String[] args) throws Exception {",
                          "public static void main(String[] args) throws Exception { Sejury.setup();", 1)
    tests = re.sub(r'System\.out\.println\("@@T (\d+) PASS"\);', r'Sejury.emit("@@T \1 PASS");', tests)
    tests = re.sub(r'System\.out\.println\("@@T (\d+) FAIL " \+ e\);', r'Sejury.emit("@@T \1 FAIL " + e);', tests)
    tests = tests.rstrip()[:-1].rstrip()[:-1] + "  Sejury.kill();\n    Sejury.emit(\"@@DONE\");\n  }\n}\n"
    assertions = ASSERTIONS.replace('System.out.println("@@V "', 'Sejury.emit("@@V "')
    own = "\n".join(dict.fromkeys(m.strip() for m in re.findall(r"^\s*import\s+(?:static\s+)?[\w.*]+\s*;", program,
                                                                 re.M)))
    stub = f"import java.util.*;\nimport java.util.stream.*;\n{own}\n{stubs(program)}\n"
    jt = "/usr/share/java/javatuples.jar"
    command = (
        f"mkdir -p srv chk && (javac -nowarn -cp {jt} -d srv {cls}.java SejuryCodec.java SejuryServer.java 2>&1 || "
        "{ echo '@@LOAD FAIL'; exit 3; }) && echo '@@LOAD OK' && "
        f"(javac -nowarn -cp {jt} -d chk stub/Stubs.java SejuryCodec.java Sejury.java SejuryAssert.java "
        "SejuryTestMain.java 2>&1 || { echo '@@TESTS NOCOMPILE'; exit 4; }) && "
        "rm -rf stub SejuryTestMain.java SejuryAssert.java Sejury.java && "
        f"{interpreter('java')} -ea -Xss16m -XX:+UseSerialGC -cp chk:{jt} SejuryTestMain")
    return Harness({f"{cls}.java": plain.files[f"{cls}.java"], "SejuryAssert.java": assertions,
                    "SejuryTestMain.java": tests, "stub/Stubs.java": stub, "seal": key, **_SEALED},
                   command, plain.unit_lines, "SejuryTestMain.java", seal=key,
                   plain_markers=("@@LOAD OK", "@@LOAD FAIL", "@@TESTS NOCOMPILE"))


LANGUAGE = Language(name="java", aliases=(), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=sealed_harness,
                    assemble=_clike.assemble_c_like,
                    test_line=re.compile(r"AssertionError|\bassert\w*\("), timeout=90.0, codebleu="java",
                    adapt_reference=adapt_reference, call=call, stdio=_stdio.java)
