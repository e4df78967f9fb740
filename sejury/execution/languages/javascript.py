"""JavaScript: node runs the program and each unit in one context; ``console.assert`` throws."""

from __future__ import annotations

import json
import re

from sejury.execution.languages import _clike
from sejury.execution.languages.base import Harness, Language, Suite

_HARNESS = r'''
const fs = require("fs"), vm = require("vm");
globalThis.assert = require("assert");
console.assert = (c, ...m) => { if (!c) throw new Error("assertion failed " + m.join(" ")); };
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
} catch (e) {
  console.log("@@LOAD FAIL " + String(e).slice(0, 300).replace(/\n/g, " "));
  process.exit(3);
}
console.log("@@LOAD OK");
const suite = JSON.parse(fs.readFileSync("tests.json", "utf8"));
try { vm.runInThisContext(suite.setup, { filename: "setup" }); }
catch (e) { console.log("@@SETUP FAIL " + String(e).slice(0, 300).replace(/\n/g, " ")); }
suite.units.forEach(([i, src]) => {
  try { vm.runInThisContext(src, { filename: `test_${i}`, timeout: PER_TEST_MS }); console.log(`@@T ${i} PASS`); }
  catch (e) { console.log(`@@T ${i} FAIL ` + String(e).slice(0, 200).replace(/\n/g, " ")); }
});
'''
_DEFINES = re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|class\s+(\w+)|"
                      r"(?:const|let|var)\s+(\w+)\s*=)")


def split(tests: str, names: set[str]) -> Suite:
    return _clike.split_c_like(tests, names, entry=re.compile(r"(?!)"),  # scripts have no entry point
                               defines=_DEFINES, check=re.compile(r"assert|throw"))


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    return Harness({"solution.js": program,
                    "tests.json": json.dumps({"setup": suite.setup, "units": list(active.items())}),
                    "harness.js": _HARNESS.replace("PER_TEST_MS", str(per_test * 1000))},
                   "node harness.js")


LANGUAGE = Language(name="javascript", aliases=("js", "node"), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=harness,
                    test_line=re.compile(r"console\.assert\(|\bassert(\.\w+)?\("), timeout=20.0,
                    codebleu="javascript")
