"""JavaScript: node runs the program and each unit in one context; ``console.assert`` throws."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from sejury.execution.languages import _bdd, _clike, _dummies, _literals, _stdio
from sejury.execution.languages.base import Copies, Harness, Language, Suite
from sejury.execution.sealed import interpreter, new_seal, resource_files

SEALED_FILES = resource_files("sealed_js", {"checker.js": "checker.js", "server.js": "server.js",
                                            "codec.js": "codec.js", "bdd.js": "bdd.js", "chai.js": "chai.js",
                                            "handles.js": "handles.js", "writeback.js": "writeback.js",
                                            "expected.js": "expected.js"})

_HARNESS = r'''
const fs = require("fs"), vm = require("vm");
globalThis.assert = require("assert");
// the forms generators write: CommonJS exports (module.exports = f; exports.f = f) and require()
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
console.assert = (c, ...m) => { if (!c) throw new Error("assertion failed " + m.join(" ")); };
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
} catch (e) {
  console.log("@@LOAD FAIL " + String(e).slice(0, 300).replace(/\n/g, " "));
  process.exit(3);
}
console.log("@@LOAD OK");
// differential testing: the value of a call, shown alike for reference and candidate, returned unchanged
const sejuryShow = (v) => {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return "[" + v.map(sejuryShow).join(", ") + "]";
  if (v instanceof Map) {
    return "Map{" + [...v].map(([a, b]) => sejuryShow(a) + ": " + sejuryShow(b)).sort().join(", ") + "}";
  }
  if (v instanceof Set) return "Set{" + [...v].map(sejuryShow).sort().join(", ") + "}";
  return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ": " + sejuryShow(v[k])).join(", ") + "}";
};
const sejuryUnit = [-1, 0];  // the unit running, and its helpers' calls recorded so far
globalThis.sejury_rec = (i, k, v) => {
  if (i < 0) { i = sejuryUnit[0]; k = 1000 + sejuryUnit[1]++; }  // a helper's call, under the running unit
  let s; try { s = sejuryShow(v); } catch (e) { s = "<unshowable>"; }
  s = s.replace(/\n/g, "\\n");
  console.log(`@@V ${i} ${k} ${s.slice(0, 1000)}|${s.length}`);
  return v;
};
const suite = JSON.parse(fs.readFileSync("tests.json", "utf8"));
try { vm.runInThisContext(suite.setup, { filename: "setup" }); }
catch (e) { console.log("@@SETUP FAIL " + String(e).slice(0, 300).replace(/\n/g, " ")); }
suite.units.forEach(([i, src]) => {
  sejuryUnit[0] = i; sejuryUnit[1] = 0;
  try { vm.runInThisContext(src, { filename: `test_${i}`, timeout: PER_TEST_MS }); console.log(`@@T ${i} PASS`); }
  catch (e) { console.log(`@@T ${i} FAIL ` + String(e).slice(0, 200).replace(/\n/g, " ")); }
});
'''
_DEFINES = re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|class\s+(\w+)|"
                      r"(?:const|let|var)\s+(\w+)\s*=)")
# the tests' own names, never the program's: a test statement defining one (``const assert =
# require('assert')``) is the test's, not a copy of the program's, and the checker never makes the
# program's name of one the tests' global (``sealed_js/checker.js``, sent as ``"harness"``)
HARNESS_NAMES = frozenset({"assert", "expect", "describe", "context", "suite", "it", "test", "specify", "beforeAll",
                           "afterAll", "beforeEach", "afterEach", "before", "after", "jest", "vi", "require",
                           "module", "exports", "console", "globalThis", "global", "sejury_rec", "sejuryReset",
                           "sejuryTest"})


def split(tests: str, names: set[str]) -> Suite:
    statements = _clike.balanced_statements(tests)
    if _bdd.uses_blocks(statements):  # Jest's, Mocha's, node:test's describe/it/test (``_bdd.py``)
        setup: list[str] = []
        units: list[str] = []
        copies = Copies()
        for stmt in statements:
            if _bdd.is_block(stmt):
                units.extend(_bdd.units(stmt, copies))
            elif _bdd.CHECK.match(stmt):
                units.append(stmt)  # an assert beside the blocks: a test of its own
            elif not ((m := _DEFINES.match(stmt)) and {g for g in m.groups() if g} & (names - HARNESS_NAMES)):
                setup.append(_ESM_IMPORT.sub(_import_as_require, stmt))
        return Suite("\n".join(setup), units)
    return _clike.split_c_like(tests, names - HARNESS_NAMES, entry=re.compile(r"(?!)"),  # scripts have no entry point
                               defines=_DEFINES, check=_SCRIPT_CHECK)


# a script's check: a statement that asserts or throws, but not an import of the assert module
# (``const assert = require('assert');`` was a unit of its own, passed by every program)
_SCRIPT_CHECK = re.compile(r"\A(?!\s*(?:(?:const|let|var)\s+[^=;]*=\s*require\s*\(|import\s))[\s\S]*?(?:assert|throw)")


_ESM_EXPORT = re.compile(r"^(\s*)export\s+(?:default\s+)?(?=(?:async\s+)?function\b|class\b|const\b|let\b|var\b)",
                         re.M)
_ESM_EXPORT_LIST = re.compile(r"^[ \t]*export\s*(?:\{[^}]*\}|default\s+[\w$.]+)[ \t]*;?[ \t]*\r?$\n?", re.M)
_ESM_IMPORT = re.compile(r"^[ \t]*import\s+(?:(\w+)|\{([^}]*)\}|\*\s+as\s+(\w+))\s+from\s+(['\"][^'\"]+['\"])\s*;?\s*$",
                         re.M)


def _import_as_require(m: re.Match[str]) -> str:
    default, names, star, source = m.groups()
    if names is not None:
        return f"const {{{names.replace(' as ', ': ')}}} = require({source});"
    return f"const {default or star} = require({source});"


def script_of(program: str) -> str:
    """An ES module as a script: ``export`` dropped from declarations, export lists removed,
    ``import ... from`` turned into ``require`` (the harness loads the program as a script)."""
    program = _ESM_EXPORT_LIST.sub("", _ESM_EXPORT.sub(r"\1", program))
    return _ESM_IMPORT.sub(_import_as_require, program)


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The sealed harness (``sealed_js/``): the tests run in a checker process, the calls of the names
    the program defines in one program process that sees only the arguments; results authenticated."""
    key = new_seal()
    return Harness({**_checker_files(program, suite, active), "seal": key},
                   f"{interpreter('node')} checker.js {per_test}", seal=key)


_DATA_CLASS = re.compile(r"^class\s+(\w+)\s*\{\s*constructor\s*\(([^()]*)\)\s*\{([^{}]*(?:\{\}[^{}]*)*)\}\s*\}$"
                         r"|^function\s+(\w+)\s*\(([^()]*)\)\s*\{([^{}]*(?:\{\}[^{}]*)*)\}$", re.S)
_FIELD = re.compile(r"^this\.[A-Za-z_$][\w$]*\s*=\s*(.+)$", re.S)
_PARAM = re.compile(r"^[A-Za-z_$][\w$]*(?:\s*=\s*(.+))?$", re.S)
# what a field's value may be written with: names, numbers, null/undefined, comparisons and choices, an
# empty [] or {}; no string, no call, no array or object holding anything
_VALUE = re.compile(r"^(?:[\w$\s.?:!=<>|&+\-*%()]|\[\]|\{\})*$")  # (no "/": no regex literal, no comment)
_NOT_DATA = re.compile(r"\b(?:new|function|require|import|eval|globalThis|global|process|this|class|return)\b|=>")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _plain_value(expr: str) -> bool:
    """A field's value or a parameter's default written with no string, call, function or data."""
    return (bool(_VALUE.match(expr)) and not _NOT_DATA.search(expr)
            and not re.search(r"[\w$)\]]\s*(?:\?\.)?\s*\(|\?\.|[A-Za-z_$)\]]\s*\.", expr))  # no call, no property read


def _data_class_decls(text: str) -> Iterator[tuple[str, list[str], list[str], list[str | None], list[str | None]]]:
    """Each top-level class whose only member is a constructor, or constructor function, whose body
    is nothing but ``this.field = value`` statements and whose parameters are plain names (each with
    a default or none; a destructured or rest parameter is none of these): its name, parameters,
    fields, the fields' values and the parameters' defaults."""
    for stmt in _clike.balanced_statements(text):
        m = _DATA_CLASS.match(_COMMENTS.sub("", stmt).strip())
        if not m:
            continue
        name, params, body = m.group(1, 2, 3) if m.group(1) else m.group(4, 5, 6)
        fields = [f.strip() for f in re.split(r"[;\n]", body) if f.strip()]
        args = [a.strip() for a in params.split(",") if a.strip()]
        values = [(fm.group(1) if (fm := _FIELD.match(f)) else None) for f in fields]
        matched = [_PARAM.match(a) for a in args]
        if any(pm is None for pm in matched):
            continue
        yield name, args, fields, values, [pm.group(1) for pm in matched if pm is not None]


def _written_anew(name: str, args: list[str], fields: list[str]) -> str:
    """A data class as a constructor function written from what was read (no comment, no other text)."""
    return f"function {name}({', '.join(args)}) {{\n" + "".join(f"  {f};\n" for f in fields) + "}"


def data_classes(setup: str, own: set[str]) -> dict[str, str]:
    """The tests' data classes (LeetCode's ``ListNode``, ``TreeNode``, a graph's ``Node``): a class
    whose only member is a constructor, or a constructor function, that does nothing but set fields
    from its parameters (numbers, ``null``, an empty ``[]`` or ``{}`` as defaults), declared at top
    level, and not a name the program declares.  Each is written anew as a constructor function from
    its parameters and fields (never the tests' own text: a comment stays theirs), so it holds
    nothing of the tests but a shape; the program's process declares it too, as LeetCode's judge
    provides it, and its objects cross as data of that class both ways (``sealed_js/codec.js``'s
    "C").  Nothing else of the tests reaches the program's process."""
    found: dict[str, str] = {}
    for name, args, fields, values, defaults in _data_class_decls(setup):
        if name in own or name in HARNESS_NAMES or name in _GLOBALS:
            continue
        if fields and all(v is not None and _plain_value(v) for v in values) \
                and all(d is None or _plain_value(d) for d in defaults):
            # written anew from what was read: none of the tests' text (a comment) goes with it
            found[name] = _written_anew(name, args, fields)
    return found


_WORDS = re.compile(r"[A-Za-z_$][\w$]*")
# JavaScript's and node's global names: a program's class of such a name is no data class of its own
_GLOBALS = frozenset({
    "Object", "Function", "Array", "Number", "Boolean", "String", "Symbol", "BigInt", "Date", "RegExp", "Error",
    "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError", "Map",
    "Set", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Promise", "Proxy", "Reflect", "JSON", "Math",
    "Intl", "ArrayBuffer", "SharedArrayBuffer", "DataView", "Atomics", "Int8Array", "Uint8Array",
    "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
    "BigInt64Array", "BigUint64Array", "Buffer", "URL", "URLSearchParams", "TextEncoder", "TextDecoder",
    "AbortController", "AbortSignal", "Event", "EventTarget", "MessageChannel", "MessagePort", "Iterator",
    "WebAssembly", "Blob", "Headers", "Request", "Response"})
_LITERAL_WORDS = frozenset({"undefined", "null", "true", "false", "NaN", "Infinity"})
_ASSIGNS = re.compile(r"(?<![=!<>])=(?![=>])|\+\+|--")


def _pure_over(expr: str, params: set[str]) -> bool:
    """A value computed from the parameters alone: plain (``_plain_value``), naming nothing but the
    parameters and literals, assigning nothing."""
    words = {w for w in _WORDS.findall(re.sub(r"\b\d[\w.]*", " ", expr))}
    return _plain_value(expr) and not _ASSIGNS.search(expr) and words <= params | _LITERAL_WORDS


def program_data_classes(script: str, tests_declare: set[str]) -> dict[str, str]:
    """The program's own data classes (its ``ListNode``, where the tests use the program's): as
    ``data_classes`` reads them, but each field's value and each default computed from the
    parameters alone, the class declared once, and named nowhere else in the program as a namespace
    (``ListNode.prototype.x = ...``, a static field, ``extends ListNode``).  Each, written anew, is
    declared in the checker too, so a test's ``new ListNode(...)`` makes its object there, of data the
    program never sees: its expected values stay the tests' own (``sealed_js/expected.js``).  Objects of
    it cross as data both ways; the program's process keeps its own declaration."""
    found: dict[str, str] = {}
    for name, args, fields, values, defaults in _data_class_decls(script):
        params = {a.split("=")[0].strip() for a in args}
        if name in tests_declare or name in HARNESS_NAMES or name in _GLOBALS or name in found:
            continue
        outside = re.sub(rf"^\s*(?:class|function)\s+{re.escape(name)}\b", "", script, count=1, flags=re.M)
        if re.search(rf"(?<![\w$.])\b{re.escape(name)}\s*(?:\.|\[)|\bextends\s+{re.escape(name)}\b"
                     rf"|\b(?:class|function)\s+{re.escape(name)}\b", outside):
            continue
        if fields and all(v is not None and _pure_over(v, params) for v in values) \
                and all(d is None or _pure_over(d, params) for d in defaults) \
                and not any(re.match(r"this\.__proto__\b", f) for f in fields):
            found[name] = _written_anew(name, args, fields)
    return found


def _checker_files(program: str, suite: Suite, active: dict[int, str]) -> dict[str, str]:
    """The checker's files, sealed or plain: the program as a script, the tests, the names and the
    tests' data classes (``classes.json``: the only part of the tests the program's process sees)."""
    script = script_of(program)
    defined = _clike.defined_names(_DEFINES, script)
    classes = data_classes(suite.setup, defined)
    own = program_data_classes(script, _clike.defined_names(_DEFINES, suite.setup))
    return {"solution.js": script, **SEALED_FILES, "classes.json": json.dumps({**own, **classes}),
            "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items()), "names": sorted(defined),
                                      "harness": sorted(HARNESS_NAMES), "classes": sorted({**own, **classes}),
                                      "own": own})}


def plain_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The sealed checker's tests' world (Jest's, Mocha's, chai's forms) with the program loaded in the
    same process, as the user's own runner has it (``checker.js``'s plain mode): a second run of the
    units the sealed harness failed, whose failures alone count (``Language.plain_harness``)."""
    return Harness(_checker_files(program, suite, active), f"node checker.js {per_test} plain")


def unsealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The tests in the program's own process (the harness before sealing), for comparison only."""
    return Harness({"solution.js": script_of(program),
                    "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                    "harness.js": _HARNESS.replace("PER_TEST_MS", str(per_test * 1000))},
                   "node harness.js")


LANGUAGE = Language(name="javascript", aliases=("js", "node"), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=harness,
                    plain_harness=plain_harness, test_name=_bdd.named,
                    assemble=_clike.assemble_c_like,
                    test_line=re.compile(r"console\.assert\(|\bassert(\.\w+)?\("), timeout=20.0,
                    codebleu="javascript", grammar="tree_sitter_javascript", stdio=_stdio.javascript,
                    reads_stdin=_stdio.JAVASCRIPT_READS, literals=True,
                    program_error=re.compile(r"^(?:@@LOAD FAIL )?SyntaxError: ", re.M),
                    dummies=_dummies.javascript, function_body="statement_block",
                    read_calls=_literals.js_calls, read_example=_literals.js_calls, render_call=_literals.js_render)
