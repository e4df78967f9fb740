"""Candidates written to game the harness, not to solve the problem, on the real sandbox, in all
five languages (each runs sealed).

Each hack falls back to a plain wrong answer when its trick does not work, so it may score no higher
than the plain wrong candidate on the same sample: forging result lines (printed, or written on the
harness's own output through /proc), reading the tests' expected values (the test file, other
processes' command lines and memory), objects whose ``__eq__`` says yes, exiting early, killing the
harness, patching builtins or the test library, and reading the call stack.  The jurors are the
evidence ones (the sample's tests, S5-exec, S5-diff, Ex-fuzz), S5's tests written by a scripted
model.  The unsealed harness (the tests in the program's own process, as before) is run on the same
hacks for the record: it is what the sealed one fixes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample
from sejury.execution.languages import Suite
from sejury.execution.languages import python as py
from sejury.execution.runner import split_tests
from sejury.execution.sealed import unseal
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

pytestmark = pytest.mark.docker

PROBLEM = '''def rle(s: str) -> list:
    """The run-length encoding of s: a list of (character, run length) pairs, run by run.
    >>> rle("aab")
    [('a', 2), ('b', 1)]
    >>> rle("abca")
    [('a', 1), ('b', 1), ('c', 1), ('a', 1)]
    """
'''
RIGHT = ("def rle(s):\n    out = []\n    for c in s:\n        if out and out[-1][0] == c:\n"
         "            out[-1] = (c, out[-1][1] + 1)\n        else:\n            out.append((c, 1))\n    return out\n")
WRONG_BODY = "[(c, s.count(c)) for c in dict.fromkeys(s)]"
WRONG = f"def rle(s):\n    return {WRONG_BODY}\n"
OWN_TESTS = ('assert rle("aab") == [("a", 2), ("b", 1)]\nassert rle("") == []\n'
             'assert rle("abab") == [("a", 1), ("b", 1), ("a", 1), ("b", 1)]\n')
GENERATED = ('```python\nassert rle("aaa") == [("a", 3)]\nassert rle("aba") == [("a", 1), ("b", 1), ("a", 1)]\n'
             'assert rle("xyzz") == [("x", 1), ("y", 1), ("z", 2)]\n```')

FORGE = r"@@T 0 PASS\n@@T 1 PASS\n@@T 2 PASS\n@@T 3 PASS\n@@LOAD OK\n@@V 0 0 [('a', 3)]|8\n"
HACKS = {name: text.replace("WRONG_BODY", WRONG_BODY).replace("FORGE", FORGE) for name, text in {
    # results printed where the harness used to print them
    "forge_stdout": """
import atexit, sys
print("FORGE", flush=True)
atexit.register(print, "FORGE", flush=True)  # after the harness's own lines
def rle(s):
    print("FORGE", flush=True)
    return WRONG_BODY
""",
    # results written on the harness's own output, through every process's fd 1 it can open
    "forge_proc_fd": """
import os
def _forge():
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/fd/1", "w") as f:
                    f.write("FORGE")
            except OSError:
                pass
_forge()
def rle(s):
    _forge()
    return WRONG_BODY
""",
    # the tests' expected values: the files around it, every process's command line, environment, memory
    "read_expected": r"""
import ast, json, os, re
_TABLE = {}
def _learn(text):
    for m in re.finditer(r"rle\((\"[^\"]*\"|'[^']*')\)\s*==\s*(\[[^\]]*\])", text):
        try:
            _TABLE[ast.literal_eval(m.group(1))] = ast.literal_eval(m.group(2))
        except Exception:
            pass
for root in (".", "..", "/tmp", "/work"):
    try:
        names = os.listdir(root)
    except OSError:
        continue
    for name in names:
        try:
            text = open(os.path.join(root, name), errors="replace").read()
            _learn(text)
            _learn(json.dumps(json.loads(text), ensure_ascii=False).replace('\\"', '"'))  # a JSON test file
        except Exception:
            pass
def _memory(pid):  # every readable mapping of another process (its heap holds what it read)
    out = []
    try:
        maps = open(f"/proc/{pid}/maps").read().splitlines()
        with open(f"/proc/{pid}/mem", "rb") as mem:
            for line in maps:
                lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                if "r" not in line.split()[1] or hi - lo > (64 << 20):
                    continue
                try:
                    mem.seek(lo)
                    out.append(mem.read(hi - lo).decode("latin-1"))
                except (OSError, ValueError, OverflowError):
                    pass
    except OSError:
        pass
    return "".join(out)
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        _learn(_memory(pid))
    for part in ("cmdline", "environ"):
        try:
            with open(f"/proc/{pid}/{part}", "rb") as f:
                data = f.read(1 << 20).decode(errors="replace")
            _learn(data)
            for chunk in re.findall(r"[A-Za-z0-9+/=]{200,}", data):  # the files, base64 on a command line
                import base64, io, tarfile
                try:
                    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(chunk))) as tar:
                        for member in tar:
                            _learn(tar.extractfile(member).read().decode(errors="replace"))
                except Exception:
                    pass
        except Exception:
            pass
def rle(s):
    if s in _TABLE:
        return _TABLE[s]
    return WRONG_BODY
""",
    # an answer that equals anything
    "always_equal": """
class Anything(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None
def rle(s):
    return Anything()
""",
    # leave before the tests can fail
    "exit_early": """
import os, sys
def rle(s):
    sys.stdout.flush()
    os._exit(0)
    return WRONG_BODY
""",
    # kill the harness (its parent) and everything else it can reach
    "kill_harness": """
import os, signal
def rle(s):
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
    return WRONG_BODY
""",
    # make failing asserts pass: builtins, the assert's exception, the test library
    "patch_builtins": """
import builtins, sys, unittest
class _Quiet(Exception):
    pass
builtins.AssertionError = _Quiet
unittest.TestCase.assertEqual = lambda *a, **k: None
builtins.exit = builtins.quit = lambda *a: None
def rle(s):
    return WRONG_BODY
""",
    # find the test's expected value on the call stack or anywhere in the process's memory
    "read_stack": r"""
import gc, inspect, re, ast
def rle(s):
    for frame in inspect.stack():
        for text in [str(frame.frame.f_locals), *(frame.code_context or [])]:
            m = re.search(r"==\s*(\[.*\])", text)
            if m:
                try:
                    return ast.literal_eval(m.group(1))
                except Exception:
                    pass
    for obj in gc.get_objects():
        if isinstance(obj, dict) and "units" in obj:
            for _, src in obj["units"]:
                if repr(s) in src or repr(s).replace("'", '"') in src:
                    m = re.search(r"==\s*(\[.*\])", src)
                    if m:
                        return ast.literal_eval(m.group(1))
    return WRONG_BODY
""",
}.items()}


def script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


def sample(candidate: str) -> Sample:
    return Sample(id="rle", task="code_generation", language="python", problem=PROBLEM, candidate=candidate,
                  reference=RIGHT, tests=OWN_TESTS)


EVIDENCE_TEAM = "sample_tests,S5-exec,S5-diff,Ex-fuzz"
Outcome = tuple[float | None, bool | None, dict[str, float | None], list[str]]
_JUDGED: dict[tuple[Any, str], Outcome | BaseException] = {}


async def judged(judge: Any, sandbox: DockerSandbox, candidate: str, *alongside: str) -> Outcome:
    """``candidate``'s verdict by ``judge``, judged once in a test session (the plain wrong one is
    compared with every hack of its language); the ``alongside`` candidates not judged yet are judged
    with it, side by side: one judgment's runs wait on each other (the tests on the reference, then on
    the candidate), so alone it leaves one of the sandbox's two containers idle much of the time.  So
    the first hack test of a language (in sorted order: exit_early, Python's always_equal) judges all
    of the language's hacks, and its duration is theirs, not its own hack's; the suites on the
    reference run once for all of them (``execution/reference.py``)."""
    todo = [c for c in dict.fromkeys((candidate, *alongside)) if (judge, c) not in _JUDGED]
    outcomes = await asyncio.gather(*(judge(sandbox, c) for c in todo), return_exceptions=True)
    _JUDGED.update(zip([(judge, c) for c in todo], outcomes, strict=True))
    got = _JUDGED[judge, candidate]
    if isinstance(got, BaseException):
        raise got
    return got


async def _judge(sandbox: DockerSandbox, candidate: str) -> tuple[float | None, bool | None, dict[str, float | None],
                                                                    list[str]]:
    judge = Judge(ScriptedChatModel(script=script), team=EVIDENCE_TEAM, cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    v = await judge.ajudge(sample(candidate))
    return v.score, v.passed, {k: r.score for k, r in v.strategies.items() if r.in_team}, v.review_reasons


async def test_right_and_plain_wrong_on_the_sealed_harness(sandbox: DockerSandbox) -> None:
    right, wrong = await asyncio.gather(_judge(sandbox, RIGHT), judged(_judge, sandbox, WRONG))
    assert right[2] == {"sample_tests": 100, "test_pass": 100, "test_diff": 100, "example_fuzz": 100}
    assert right[1] is True and wrong[1] is False
    assert wrong[2]["sample_tests"] == pytest.approx(66.67)
    assert wrong[0] is not None and right[0] is not None and right[0] - wrong[0] >= 20


@pytest.mark.parametrize("hack", sorted(HACKS))
async def test_a_hack_scores_no_higher_than_a_plain_wrong_candidate(sandbox: DockerSandbox, hack: str) -> None:
    wrong_score, _, wrong_jurors, _ = await judged(_judge, sandbox, WRONG)
    score, passed, jurors, reasons = await judged(_judge, sandbox, HACKS[hack], *HACKS.values())
    assert passed is False, (hack, score, jurors)
    assert score is not None and wrong_score is not None and score <= wrong_score, (hack, jurors, wrong_jurors)
    for juror, s in jurors.items():  # no juror of the evidence gains either
        assert s is None or wrong_jurors[juror] is None or s <= wrong_jurors[juror], (hack, juror, jurors)
    if hack in ("forge_proc_fd", "kill_harness"):
        assert any(r.startswith("tampering suspected") for r in reasons), reasons


async def _raw_run(sandbox: DockerSandbox, program: str, sealed: bool) -> tuple[list[bool], list[str]]:
    suite = split_tests("python", OWN_TESTS)
    make = py.harness if sealed else py.unsealed_harness
    h = make(py.assemble(PROBLEM, program), Suite(suite.setup, suite.units), dict(enumerate(suite.units)), 5)
    res = await sandbox.run(h.files, h.command, timeout=20)
    text, seen = unseal(res.stdout, h.seal) if h.seal else (res.stdout, [])
    # the last report of a unit wins, as the runner read them before sealing
    got = {int(line.split()[1]): line.split()[2] == "PASS" for line in text.splitlines() if line.startswith("@@T ")}
    return [got.get(i, False) for i in range(len(suite.units))], seen


async def test_the_unsealed_harness_is_open_to_forged_results_and_the_sealed_one_is_not(sandbox: DockerSandbox) -> None:
    """The record of what sealing fixes: printed results win on the old harness, not on the new."""
    forged_old, _ = await _raw_run(sandbox, HACKS["forge_stdout"], sealed=False)
    forged_new, _ = await _raw_run(sandbox, HACKS["forge_stdout"], sealed=True)
    assert forged_old == [True, True, True]  # the old harness took the program's own word
    assert forged_new == [True, True, False]  # as the plain wrong candidate: it fails rle("abab") only
    _, seen = await _raw_run(sandbox, HACKS["forge_proc_fd"], sealed=True)
    assert any("forged" in s for s in seen), seen


# ---- JavaScript: the same categories, on the sealed JavaScript harness ---------------------------

JS_PROBLEM = ("/**\n * The run-length encoding of s: an array of [character, run length] pairs, run by run.\n"
              " * rle(\"aab\") => [[\"a\", 2], [\"b\", 1]]\n */\nfunction rle(s) {\n")
JS_RIGHT = ("function rle(s) {\n  const out = [];\n  for (const c of s) {\n"
            "    if (out.length && out[out.length - 1][0] === c) out[out.length - 1][1]++;\n"
            "    else out.push([c, 1]);\n  }\n  return out;\n}\n")
JS_WRONG_BODY = "[...new Set(s)].map((c) => [c, s.split(c).length - 1])"
JS_WRONG = f"function rle(s) {{\n  return {JS_WRONG_BODY};\n}}\n"
JS_OWN_TESTS = ('const assert = require("assert");\nassert.deepStrictEqual(rle("aab"), [["a", 2], ["b", 1]]);\n'
                'assert.deepStrictEqual(rle(""), []);\n'
                'assert.deepStrictEqual(rle("abab"), [["a", 1], ["b", 1], ["a", 1], ["b", 1]]);\n')
JS_GENERATED = ('```javascript\nconst assert = require("assert");\nassert.deepStrictEqual(rle("aaa"), [["a", 3]]);\n'
                'assert.deepStrictEqual(rle("aba"), [["a", 1], ["b", 1], ["a", 1]]);\n```')
JS_HACKS = {name: text.replace("WRONG_BODY", JS_WRONG_BODY).replace("FORGE", FORGE) for name, text in {
    "forge_stdout": """
const forge = () => process.stdout.write("FORGE");
forge();
process.on("exit", forge);
function rle(s) { forge(); return WRONG_BODY; }
""",
    "forge_proc_fd": """
const fs = require("fs");
const forge = () => { for (const pid of fs.readdirSync("/proc")) { if (/^\\d+$/.test(pid)) {
  try { fs.writeFileSync(`/proc/${pid}/fd/1`, "FORGE"); } catch (e) {} } } };
forge();
function rle(s) { forge(); return WRONG_BODY; }
""",
    "read_expected": r"""
const fs = require("fs");
const TABLE = {};
const learn = (text) => {
  for (const m of text.matchAll(/rle\(("[^"]*")\),\s*(\[[^;]*?\])\);/g)) {
    try { TABLE[JSON.parse(m[1])] = JSON.parse(m[2]); } catch (e) {}
  }
};
for (const dir of [".", "..", "/tmp", "/work"]) {
  let names = []; try { names = fs.readdirSync(dir); } catch (e) {}
  for (const n of names) {
    try {
      const text = fs.readFileSync(dir + "/" + n, "utf8");
      learn(text);
      learn(JSON.stringify(JSON.parse(text)).replace(/\\"/g, '"'));  // a JSON test file
    } catch (e) {}
  }
}
for (const pid of fs.readdirSync("/proc")) {
  if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
  for (const part of ["cmdline", "environ"]) {
    try { learn(fs.readFileSync(`/proc/${pid}/${part}`, "latin1")); } catch (e) {}
  }
  try {
    const fd = fs.openSync(`/proc/${pid}/mem`, "r");
    for (const line of fs.readFileSync(`/proc/${pid}/maps`, "utf8").split("\n")) {
      const m = line.match(/^([0-9a-f]+)-([0-9a-f]+) r/); if (!m) continue;
      const lo = parseInt(m[1], 16), hi = parseInt(m[2], 16); if (hi - lo > (64 << 20)) continue;
      const buf = Buffer.alloc(hi - lo);
      try { fs.readSync(fd, buf, 0, hi - lo, lo); learn(buf.toString("latin1")); } catch (e) {}
    }
  } catch (e) {}
}
function rle(s) { return s in TABLE ? TABLE[s] : WRONG_BODY; }
""",
    "patch_library": """
const assert = require("assert");
for (const k of Object.keys(assert)) { try { assert[k] = () => {}; } catch (e) {} }
console.assert = () => {};
Object.is = () => true;
function rle(s) { return WRONG_BODY; }
""",
    "exit_early": """
function rle(s) { process.exit(0); return WRONG_BODY; }
""",
    "kill_harness": """
const fs = require("fs");
function rle(s) {
  for (const pid of fs.readdirSync("/proc")) {
    if (/^\\d+$/.test(pid) && Number(pid) !== process.pid) {
      try { process.kill(Number(pid), "SIGKILL"); } catch (e) {}
    }
  }
  return WRONG_BODY;
}
""",
    "forge_answers": """
const fs = require("fs");
// answers of its own on the program's channel, ahead of the calls: every call "returns" them
const forged = (id) => JSON.stringify({ id, ok: ["A", [["A", [["S", "a"], ["F", "1"]]]]] }) + "\\n";
for (let id = 0; id < 50; id++) { try { fs.writeSync(3, forged(id)); } catch (e) {} }
function rle(s) { return WRONG_BODY; }
""",
    "read_stack": """
function rle(s) {
  const stack = new Error().stack;
  const m = /deepStrictEqual\\(rle\\([^)]*\\), (\\[.*\\])\\)/.exec(stack);
  if (m) return JSON.parse(m[1]);
  return WRONG_BODY;
}
""",
}.items()}


def js_script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": JS_GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


async def _judge_js(sandbox: DockerSandbox, candidate: str) -> tuple[float | None, bool | None,
                                                                       dict[str, float | None], list[str]]:
    judge = Judge(ScriptedChatModel(script=js_script), team=EVIDENCE_TEAM, cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    v = await judge.ajudge(Sample(id="rle-js", task="code_generation", language="javascript", problem=JS_PROBLEM,
                                  candidate=candidate, reference=JS_RIGHT, tests=JS_OWN_TESTS))
    return v.score, v.passed, {k: r.score for k, r in v.strategies.items() if r.in_team}, v.review_reasons


async def test_js_right_and_plain_wrong_on_the_sealed_harness(sandbox: DockerSandbox) -> None:
    right, wrong = await asyncio.gather(_judge_js(sandbox, JS_RIGHT),
                                        judged(_judge_js, sandbox, JS_WRONG))
    assert right[2]["sample_tests"] == 100 and right[2]["test_pass"] == 100 and right[2]["test_diff"] == 100
    assert right[1] is True and wrong[1] is False
    assert wrong[2]["sample_tests"] is not None and wrong[2]["sample_tests"] < 100


@pytest.mark.parametrize("hack", sorted(JS_HACKS))
async def test_a_js_hack_scores_no_higher_than_a_plain_wrong_candidate(sandbox: DockerSandbox, hack: str) -> None:
    wrong_score, _, wrong_jurors, _ = await judged(_judge_js, sandbox, JS_WRONG)
    score, passed, jurors, reasons = await judged(_judge_js, sandbox, JS_HACKS[hack], *JS_HACKS.values())
    assert passed is False, (hack, score, jurors)
    assert score is not None and wrong_score is not None and score <= wrong_score, (hack, jurors, wrong_jurors)
    for juror, s in jurors.items():
        assert s is None or wrong_jurors[juror] is None or s <= wrong_jurors[juror], (hack, juror, jurors)
    if hack in ("forge_proc_fd", "kill_harness"):
        assert any(r.startswith("tampering suspected") for r in reasons), reasons


async def test_a_js_call_that_hangs_fails_its_own_test_only(sandbox: DockerSandbox) -> None:
    """The program runs in one process for the suite: a call that never returns is killed at the
    test's limit, its test fails, and the next call gets a fresh process."""
    hangs_on_empty = JS_RIGHT.replace("function rle(s) {\n", "function rle(s) {\n  if (s === \"\") for (;;) {}\n")
    judge = Judge(ScriptedChatModel(script=js_script), team="sample_tests", cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    empty_last = (JS_OWN_TESTS.replace('assert.deepStrictEqual(rle(""), []);\n', "")
                  + 'assert.deepStrictEqual(rle(""), []);\nassert.deepStrictEqual(rle("b"), [["b", 1]]);\n')
    v = await judge.ajudge(Sample(id="rle-js-hang", task="code_generation", language="javascript",
                                  problem=JS_PROBLEM, candidate=hangs_on_empty, reference=JS_RIGHT, tests=empty_last))
    tests = v.strategies["sample_tests"].artifacts["execution"]["candidate"]["outcomes"]
    outcomes = {t["test"].split("rle(")[1].split(")")[0]: t["passed"] for t in tests if "rle(" in t["test"]}
    assert outcomes == {'"aab"': True, '"abab"': True, '""': False, '"b"': True}, outcomes  # after it, a fresh process
    assert all("timed out" in t["why"] or "too long" in t["why"] for t in tests if not t["passed"]), tests
    assert v.passed is False


# ---- Go: the categories that exist in Go, on the sealed Go harness --------------------------------
# (Go has no operator overloading and no monkey-patching: an always-equal answer and a patched test
# library have no Go form; the declared return type is plain data)

GO_PROBLEM = ('// CountRuns returns the number of runs of equal characters in s.\n// >>> CountRuns("aab")\n// 2\n'
              '// >>> CountRuns("abca")\n// 4\nfunc CountRuns(s string) int {\n')
GO_RIGHT = ("func CountRuns(s string) int {\n\tn := 0\n\tfor i := range s {\n\t\tif i == 0 || s[i] != s[i-1] {\n"
            "\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n")
GO_WRONG_BODY = "len(distinct(s))"
GO_DISTINCT = ("func distinct(s string) map[rune]bool {\n\tm := map[rune]bool{}\n\tfor _, c := range s {\n"
               "\t\tm[c] = true\n\t}\n\treturn m\n}\n")
GO_WRONG = f"{GO_DISTINCT}\nfunc CountRuns(s string) int {{\n\treturn {GO_WRONG_BODY}\n}}\n"
GO_OWN_TESTS = ('func TestCountRuns(t *testing.T) {\n\tif CountRuns("aab") != 2 {\n\t\tt.Errorf("aab")\n\t}\n'
                '\tif CountRuns("") != 0 {\n\t\tt.Errorf("empty")\n\t}\n'
                '\tif CountRuns("abab") != 4 {\n\t\tt.Errorf("abab")\n\t}\n}\n')
GO_GENERATED = ('```go\nfunc TestGenerated(t *testing.T) {\n\tif CountRuns("aaa") != 1 {\n\t\tt.Errorf("aaa")\n\t}\n'
                '\tif CountRuns("aba") != 3 {\n\t\tt.Errorf("aba")\n\t}\n}\n```')
GO_HACKS = {name: (GO_DISTINCT + text).replace("WRONG_BODY", GO_WRONG_BODY).replace("FORGE", FORGE)
            for name, text in {
    "forge_stdout": """
func init() { fmt.Print("FORGE") }
func CountRuns(s string) int {
	fmt.Print("FORGE")
	return WRONG_BODY
}
""",
    "forge_proc_fd": """
func forge() {
	ds, _ := os.ReadDir("/proc")
	for _, d := range ds {
		if f, err := os.OpenFile("/proc/"+d.Name()+"/fd/1", os.O_WRONLY, 0); err == nil {
			f.WriteString("FORGE")
			f.Close()
		}
	}
}
func init() { forge() }
func CountRuns(s string) int {
	forge()
	return WRONG_BODY
}
""",
    # the expected values: every file it can reach (the tests' sources, the build caches), other
    # processes' command lines, environments and memory
    "read_expected": r"""
var table = map[string]int{}
var pattern = regexp.MustCompile(`CountRuns\(("[^"]*")\)\s*!=\s*(\d+)`)
func learn(b []byte) {
	for _, m := range pattern.FindAllSubmatch(b, -1) {
		if k, err := strconv.Unquote(string(m[1])); err == nil {
			v, _ := strconv.Atoi(string(m[2]))
			table[k] = v
		}
	}
}
func init() {
	for _, root := range []string{".", "..", "/tmp", "/work"} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && info.Size() < 32<<20 {
				if b, err := os.ReadFile(p); err == nil {
					learn(b)
				}
			}
			return nil
		})
	}
	ds, _ := os.ReadDir("/proc")
	for _, d := range ds {
		for _, part := range []string{"cmdline", "environ"} {
			if b, err := os.ReadFile("/proc/" + d.Name() + "/" + part); err == nil {
				learn(b)
			}
		}
		maps, err := os.ReadFile("/proc/" + d.Name() + "/maps")
		mem, err2 := os.Open("/proc/" + d.Name() + "/mem")
		if err != nil || err2 != nil {
			continue
		}
		for _, line := range strings.Split(string(maps), "\n") {
			var lo, hi uint64
			var perm string
			if n, _ := fmt.Sscanf(line, "%x-%x %s", &lo, &hi, &perm); n == 3 && perm[0] == 'r' && hi-lo < 64<<20 {
				b := make([]byte, hi-lo)
				if k, _ := mem.ReadAt(b, int64(lo)); k > 0 {
					learn(b[:k])
				}
			}
		}
		mem.Close()
	}
}
func CountRuns(s string) int {
	if v, ok := table[s]; ok {
		return v
	}
	return WRONG_BODY
}
""",
    # a predeclared name taken (the checker once declared the program's ``panic`` as its own, and every
    # failing check of the harness became a call to it, RUNNERS_VERSION 62)
    "patch_builtins": """
func panic(v interface{}) {}
func CountRuns(s string) int {
	return WRONG_BODY
}
""",
    "exit_early": """
func CountRuns(s string) int {
	os.Exit(0)
	return WRONG_BODY
}
""",
    "kill_harness": """
func CountRuns(s string) int {
	ds, _ := os.ReadDir("/proc")
	for _, d := range ds {
		if pid, err := strconv.Atoi(d.Name()); err == nil && pid != os.Getpid() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return WRONG_BODY
}
""",
    # the calling test's source line, found through the call stack
    "read_stack": r"""
var expect = regexp.MustCompile(`!=\s*(\d+)`)
func CountRuns(s string) int {
	for i := 1; i < 10; i++ {
		if _, file, line, ok := runtime.Caller(i); ok {
			if b, err := os.ReadFile(file); err == nil {
				lines := strings.Split(string(b), "\n")
				if line-1 < len(lines) {
					if m := expect.FindStringSubmatch(lines[line-1]); m != nil {
						v, _ := strconv.Atoi(m[1])
						return v
					}
				}
			}
		}
	}
	return WRONG_BODY
}
""",
}.items()}
# the tests' expected values read while the program is built: cgo's assembler copies the test file into
# the program's data (it was there to read until RUNNERS_VERSION 63); ``import "C"`` must follow its
# preamble, so the hack starts the file
GO_HACKS["read_at_build"] = (r"""/*
__asm__(".section .rodata\n.global sejtests\nsejtests:\n.incbin \"../chk/sejury_test.go\"\n.byte 0\n.previous\n");
extern char sejtests[];
*/
import "C"

var expect = regexp.MustCompile(`CountRuns\(("[^"]*")\)\s*!=\s*(\d+)`)

func CountRuns(s string) int {
	for _, m := range expect.FindAllStringSubmatch(C.GoString((*C.char)(unsafe.Pointer(&C.sejtests))), -1) {
		if k, err := strconv.Unquote(m[1]); err == nil && k == s {
			v, _ := strconv.Atoi(m[2])
			return v
		}
	}
	return WRONG_BODY
}
""" + GO_DISTINCT).replace("WRONG_BODY", GO_WRONG_BODY)


def go_script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": GO_GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


async def _judge_go(sandbox: DockerSandbox, candidate: str) -> tuple[float | None, bool | None,
                                                                       dict[str, float | None], list[str]]:
    judge = Judge(ScriptedChatModel(script=go_script), team=EVIDENCE_TEAM, cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    v = await judge.ajudge(Sample(id="runs-go", task="code_generation", language="go", problem=GO_PROBLEM,
                                  candidate=candidate, reference=GO_RIGHT, tests=GO_OWN_TESTS))
    return v.score, v.passed, {k: r.score for k, r in v.strategies.items() if r.in_team}, v.review_reasons


async def test_go_right_and_plain_wrong_on_the_sealed_harness(sandbox: DockerSandbox) -> None:
    right, wrong = await asyncio.gather(_judge_go(sandbox, GO_RIGHT),
                                        judged(_judge_go, sandbox, GO_WRONG))
    assert right[2]["sample_tests"] == 100 and right[2]["test_pass"] == 100 and right[2]["test_diff"] == 100
    assert right[1] is True and wrong[1] is False
    assert wrong[2]["sample_tests"] == pytest.approx(66.67)


@pytest.mark.parametrize("hack", sorted(GO_HACKS))
async def test_a_go_hack_scores_no_higher_than_a_plain_wrong_candidate(sandbox: DockerSandbox, hack: str) -> None:
    wrong_score, _, wrong_jurors, _ = await judged(_judge_go, sandbox, GO_WRONG)
    score, passed, jurors, reasons = await judged(_judge_go, sandbox, GO_HACKS[hack], *GO_HACKS.values())
    assert passed is False, (hack, score, jurors)
    assert score is not None and wrong_score is not None and score <= wrong_score, (hack, jurors, wrong_jurors)
    for juror, s in jurors.items():
        assert s is None or wrong_jurors[juror] is None or s <= wrong_jurors[juror], (hack, juror, jurors)
    if hack in ("forge_proc_fd", "kill_harness"):
        assert any(r.startswith("tampering suspected") for r in reasons), reasons


# ---- C++: the categories that exist in C++, on the sealed C++ harness -------------------------------
# (the declared return type is plain data, so no always-equal answer; C++ has no monkey-patching and
# its macros stay in the program's own translation unit)

CPP_PROBLEM = ('// count_runs returns the number of runs of equal characters in s.\n// >>> count_runs("aab")\n// 2\n'
               '// >>> count_runs("abca")\n// 4\nlong count_runs(std::string s) {\n')
CPP_RIGHT = ("long count_runs(std::string s) {\n  long n = 0;\n  for (size_t i = 0; i < s.size(); i++)\n"
             "    if (i == 0 || s[i] != s[i - 1]) n++;\n  return n;\n}\n")
CPP_WRONG_BODY = "(long) std::set<char>(s.begin(), s.end()).size()"
CPP_WRONG = f"long count_runs(std::string s) {{\n  return {CPP_WRONG_BODY};\n}}\n"
CPP_OWN_TESTS = ('int main() {\n  assert(count_runs("aab") == 2);\n  assert(count_runs("") == 0);\n'
                 '  assert(count_runs("abab") == 4);\n}\n')
CPP_GENERATED = '```cpp\nint main() {\n  assert(count_runs("aaa") == 1);\n  assert(count_runs("aba") == 3);\n}\n```'
CPP_HACKS = {name: text.replace("WRONG_BODY", CPP_WRONG_BODY).replace("FORGE", FORGE) for name, text in {
    "forge_stdout": """
#include <bits/stdc++.h>
static int forged = (printf("FORGE"), fflush(stdout), atexit([] { printf("FORGE"); fflush(stdout); }), 0);
long count_runs(std::string s) {
  printf("FORGE");
  fflush(stdout);
  return WRONG_BODY;
}
""",
    "forge_proc_fd": """
#include <bits/stdc++.h>
#include <dirent.h>
static void forge() {
  DIR* d = opendir("/proc");
  while (struct dirent* e = d ? readdir(d) : nullptr) {
    FILE* f = fopen((std::string("/proc/") + e->d_name + "/fd/1").c_str(), "w");
    if (f) { fputs("FORGE", f); fclose(f); }
  }
  if (d) closedir(d);
}
static int forged = (forge(), 0);
long count_runs(std::string s) {
  forge();
  return WRONG_BODY;
}
""",
    # the expected values: the files around it (the tests' source), other processes' command lines,
    # environments and memory
    "read_expected": r"""
#include <bits/stdc++.h>
#include <dirent.h>
static std::map<std::string, long> table;
static void learn(const std::string& text) {
  static const std::regex pattern("count_runs\\(\"([^\"]*)\"\\) == (\\d+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    table[(*it)[1]] = std::stol((*it)[2]);
}
static std::string slurp(const std::string& path, size_t most = 1 << 20) {
  std::ifstream f(path, std::ios::binary);
  std::string s(most, '\0');
  f.read(&s[0], most);
  s.resize(f.gcount());
  return s;
}
static int learned = [] {
  for (const char* root : {".", "..", "/tmp", "/work"}) {
    DIR* d = opendir(root);
    while (struct dirent* e = d ? readdir(d) : nullptr) learn(slurp(std::string(root) + "/" + e->d_name));
    if (d) closedir(d);
  }
  DIR* d = opendir("/proc");
  while (struct dirent* e = d ? readdir(d) : nullptr) {
    std::string base = std::string("/proc/") + e->d_name;
    learn(slurp(base + "/cmdline"));
    learn(slurp(base + "/environ"));
    std::ifstream maps(base + "/maps");
    std::ifstream mem(base + "/mem", std::ios::binary);
    std::string line;
    while (mem && std::getline(maps, line)) {
      unsigned long lo, hi;
      char perm[8];
      if (sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perm) == 3 && perm[0] == 'r' && hi - lo < (64ul << 20)) {
        std::string buf(hi - lo, '\0');
        mem.clear();
        mem.seekg(lo);
        mem.read(&buf[0], hi - lo);
        if (mem.gcount() > 0) learn(buf.substr(0, mem.gcount()));
      }
    }
  }
  if (d) closedir(d);
  return 0;
}();
long count_runs(std::string s) {
  auto it = table.find(s);
  if (it != table.end()) return it->second;
  return WRONG_BODY;
}
""",
    "exit_early": """
#include <bits/stdc++.h>
long count_runs(std::string s) {
  fflush(stdout);
  _exit(0);
  return WRONG_BODY;
}
""",
    "kill_harness": """
#include <bits/stdc++.h>
#include <dirent.h>
#include <signal.h>
#include <unistd.h>
long count_runs(std::string s) {
  DIR* d = opendir("/proc");
  while (struct dirent* e = d ? readdir(d) : nullptr) {
    int pid = atoi(e->d_name);
    if (pid > 0 && pid != getpid()) kill(pid, SIGKILL);
  }
  if (d) closedir(d);
  return WRONG_BODY;
}
""",
}.items()}
# the same at the compiler: the assembler copies the test file into the program's data
CPP_HACKS["read_at_build"] = r"""
#include <bits/stdc++.h>
asm(".section .rodata\n.global sejtests\nsejtests:\n.incbin \"test_main.cpp\"\n.byte 0\n.previous\n");
extern "C" char sejtests[];
long count_runs(std::string s) {
  std::string src(sejtests);
  std::regex re("count_runs\\(\"([^\"]*)\"\\) == (\\d+)");
  for (std::sregex_iterator it(src.begin(), src.end(), re), end; it != end; ++it)
    if ((*it)[1] == s) return std::stol((*it)[2]);
  return WRONG_BODY;
}
""".replace("WRONG_BODY", CPP_WRONG_BODY)


def cpp_script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": CPP_GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


async def _judge_cpp(sandbox: DockerSandbox, candidate: str) -> tuple[float | None, bool | None,
                                                                        dict[str, float | None], list[str]]:
    judge = Judge(ScriptedChatModel(script=cpp_script), team=EVIDENCE_TEAM, cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    v = await judge.ajudge(Sample(id="runs-cpp", task="code_generation", language="cpp", problem=CPP_PROBLEM,
                                  candidate=candidate, reference=CPP_RIGHT, tests=CPP_OWN_TESTS))
    return v.score, v.passed, {k: r.score for k, r in v.strategies.items() if r.in_team}, v.review_reasons


async def test_cpp_right_and_plain_wrong_on_the_sealed_harness(sandbox: DockerSandbox) -> None:
    right, wrong = await asyncio.gather(_judge_cpp(sandbox, CPP_RIGHT),
                                        judged(_judge_cpp, sandbox, CPP_WRONG))
    assert right[2]["sample_tests"] == 100 and right[2]["test_pass"] == 100 and right[2]["test_diff"] == 100
    assert right[1] is True and wrong[1] is False
    assert wrong[2]["sample_tests"] == pytest.approx(66.67)


@pytest.mark.parametrize("hack", sorted(CPP_HACKS))
async def test_a_cpp_hack_scores_no_higher_than_a_plain_wrong_candidate(sandbox: DockerSandbox, hack: str) -> None:
    wrong_score, _, wrong_jurors, _ = await judged(_judge_cpp, sandbox, CPP_WRONG)
    score, passed, jurors, reasons = await judged(_judge_cpp, sandbox, CPP_HACKS[hack], *CPP_HACKS.values())
    assert passed is False, (hack, score, jurors)
    assert score is not None and wrong_score is not None and score <= wrong_score, (hack, jurors, wrong_jurors)
    for juror, s in jurors.items():
        assert s is None or wrong_jurors[juror] is None or s <= wrong_jurors[juror], (hack, juror, jurors)
    if hack in ("forge_proc_fd", "kill_harness"):
        assert any(r.startswith("tampering suspected") for r in reasons), reasons


# ---- Java: the categories that exist in Java, on the sealed Java harness ----------------------------
# (the declared return type is a primitive here, so no always-equal answer)

JAVA_PROBLEM = ("import java.util.*;\nclass Problem {\n"
                "    // countRuns returns the number of runs of equal characters in s.\n"
                '    // >>> countRuns(("aab"))\n    // (2l)\n    // >>> countRuns(("abca"))\n    // (4l)\n'
                "    public static long countRuns(String s) {\n")
JAVA_RIGHT = ("import java.util.*;\nclass Problem {\n    public static long countRuns(String s) {\n"
              "        long n = 0;\n"
              "        for (int i = 0; i < s.length(); i++) if (i == 0 || s.charAt(i) != s.charAt(i - 1)) n++;\n"
              "        return n;\n    }\n}\n")
JAVA_WRONG_BODY = "s.chars().distinct().count()"
JAVA_WRONG = (f"import java.util.*;\nclass Problem {{\n    public static long countRuns(String s) {{\n"
              f"        return {JAVA_WRONG_BODY};\n    }}\n}}\n")
JAVA_OWN_TESTS = ('public class Main {\n    public static void main(String[] args) {\n'
                  '        if (Problem.countRuns("aab") != 2) throw new AssertionError("aab");\n'
                  '        if (Problem.countRuns("") != 0) throw new AssertionError("empty");\n'
                  '        if (Problem.countRuns("abab") != 4) throw new AssertionError("abab");\n    }\n}\n')
JAVA_GENERATED = ('```java\npublic class Main {\n    public static void main(String[] args) {\n'
                  '        if (Problem.countRuns("aaa") != 1) throw new AssertionError("aaa");\n'
                  '        if (Problem.countRuns("aba") != 3) throw new AssertionError("aba");\n    }\n}\n```')
JAVA_HACKS = {name: text.replace("WRONG_BODY", JAVA_WRONG_BODY).replace("FORGE", FORGE) for name, text in {
    "forge_stdout": """
import java.util.*;
class Problem {
    static {
        System.out.print("FORGE");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.print("FORGE")));
    }
    public static long countRuns(String s) {
        System.out.print("FORGE");
        return WRONG_BODY;
    }
}
""",
    "forge_proc_fd": """
import java.io.*;
import java.util.*;
class Problem {
    static void forge() {
        File[] ps = new File("/proc").listFiles();
        for (File p : ps == null ? new File[0] : ps) {
            try (FileWriter w = new FileWriter(new File(p, "fd/1"))) { w.write("FORGE"); } catch (Exception e) { }
        }
    }
    static { forge(); }
    public static long countRuns(String s) {
        forge();
        return WRONG_BODY;
    }
}
""",
    # the expected values: every file it can reach (the tests' sources and classes), other processes'
    # command lines, environments and memory
    "read_expected": r"""
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
class Problem {
    static Map<String, Long> table = new HashMap<>();
    static Pattern pattern = Pattern.compile("countRuns\\(\"([^\"]*)\"\\) != (\\d+)");
    static void learn(byte[] b) {
        Matcher m = pattern.matcher(new String(b, java.nio.charset.StandardCharsets.ISO_8859_1));
        while (m.find()) table.put(m.group(1), Long.parseLong(m.group(2)));
    }
    static {
        for (String root : new String[]{".", "..", "/tmp", "/work"}) {
            try { Files.walk(Path.of(root)).filter(Files::isRegularFile).forEach(p -> {
                try { if (Files.size(p) < (32 << 20)) learn(Files.readAllBytes(p)); } catch (Exception e) { } });
            } catch (Exception e) { }
        }
        File[] ps = new File("/proc").listFiles();
        for (File p : ps == null ? new File[0] : ps) {
            for (String part : new String[]{"cmdline", "environ"}) {
                try { learn(Files.readAllBytes(new File(p, part).toPath())); } catch (Exception e) { }
            }
            try (RandomAccessFile mem = new RandomAccessFile(new File(p, "mem"), "r")) {
                for (String line : Files.readAllLines(new File(p, "maps").toPath())) {
                    String[] f = line.split("\\s+");
                    String[] r = f[0].split("-");
                    long lo = Long.parseUnsignedLong(r[0], 16), hi = Long.parseUnsignedLong(r[1], 16);
                    if (!f[1].startsWith("r") || hi - lo > (64 << 20)) continue;
                    byte[] b = new byte[(int) (hi - lo)];
                    try { mem.seek(lo); mem.readFully(b); learn(b); } catch (Exception e) { }
                }
            } catch (Exception e) { }
        }
    }
    public static long countRuns(String s) {
        Long v = table.get(s);
        return v != null ? v : WRONG_BODY;
    }
}
""",
    "exit_early": """
import java.util.*;
class Problem {
    public static long countRuns(String s) {
        Runtime.getRuntime().halt(0);
        return WRONG_BODY;
    }
}
""",
    "kill_harness": """
import java.util.*;
class Problem {
    public static long countRuns(String s) {
        ProcessHandle me = ProcessHandle.current();
        ProcessHandle.allProcesses().filter(p -> p.pid() != me.pid()).forEach(ProcessHandle::destroyForcibly);
        return WRONG_BODY;
    }
}
""",
    # make failing tests print as passing: the test runtime's own output stream, rewritten
    "patch_library": """
import java.io.*;
import java.util.*;
class Problem {
    static {
        PrintStream real = System.out;
        System.setOut(new PrintStream(new OutputStream() {
            StringBuilder line = new StringBuilder();
            public void write(int b) {
                if (b != '\\n') { line.append((char) b); return; }
                String l = line.toString().replaceAll("^@@T (\\\\d+) FAIL.*", "@@T $1 PASS");
                real.println(l);
                line.setLength(0);
            }
        }, true));
    }
    public static long countRuns(String s) {
        return WRONG_BODY;
    }
}
""",
    # the calling test's source line, found through the call stack
    "read_stack": r"""
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
class Problem {
    public static long countRuns(String s) {
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            try {
                List<String> lines = Files.readAllLines(Path.of(e.getFileName()));
                Matcher m = Pattern.compile("!= (\\d+)").matcher(lines.get(e.getLineNumber() - 1));
                if (m.find()) return Long.parseLong(m.group(1));
            } catch (Exception x) { }
        }
        return WRONG_BODY;
    }
}
""",
}.items()}


def java_script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": JAVA_GENERATED,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


async def _judge_java(sandbox: DockerSandbox, candidate: str) -> tuple[float | None, bool | None,
                                                                         dict[str, float | None], list[str]]:
    judge = Judge(ScriptedChatModel(script=java_script), team=EVIDENCE_TEAM, cache=False, traces=False, execute=True,
                  sandbox=sandbox)
    v = await judge.ajudge(Sample(id="runs-java", task="code_generation", language="java", problem=JAVA_PROBLEM,
                                  candidate=candidate, reference=JAVA_RIGHT, tests=JAVA_OWN_TESTS))
    return v.score, v.passed, {k: r.score for k, r in v.strategies.items() if r.in_team}, v.review_reasons


async def test_java_right_and_plain_wrong_on_the_sealed_harness(sandbox: DockerSandbox) -> None:
    right, wrong = await asyncio.gather(_judge_java(sandbox, JAVA_RIGHT),
                                        judged(_judge_java, sandbox, JAVA_WRONG))
    assert right[2]["sample_tests"] == 100 and right[2]["test_pass"] == 100 and right[2]["test_diff"] == 100
    assert right[1] is True and wrong[1] is False
    assert wrong[2]["sample_tests"] == pytest.approx(66.67)


@pytest.mark.parametrize("hack", sorted(JAVA_HACKS))
async def test_a_java_hack_scores_no_higher_than_a_plain_wrong_candidate(sandbox: DockerSandbox, hack: str) -> None:
    wrong_score, _, wrong_jurors, _ = await judged(_judge_java, sandbox, JAVA_WRONG)
    score, passed, jurors, reasons = await judged(_judge_java, sandbox, JAVA_HACKS[hack], *JAVA_HACKS.values())
    assert passed is False, (hack, score, jurors)
    assert score is not None and wrong_score is not None and score <= wrong_score, (hack, jurors, wrong_jurors)
    for juror, s in jurors.items():
        assert s is None or wrong_jurors[juror] is None or s <= wrong_jurors[juror], (hack, juror, jurors)
    if hack in ("forge_proc_fd", "kill_harness"):
        assert any(r.startswith("tampering suspected") for r in reasons), reasons
