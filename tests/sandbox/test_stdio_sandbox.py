"""Programs that read stdin and print, judged for real in the Docker sandbox in all five languages:
the problem's examples and their mutations (Sample-tests, Ex-fuzz), S5's inputs (S5-exec, S5-diff,
S5-runs, S5-fuzz), time limits, and programs that attack the loop."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status
from sejury.review import review_reasons
from sejury.sandbox.docker import DockerSandbox
from sejury.strategies._s5_lines import detail_lines
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of
from tests.helpers.paths import EXAMPLES

pytestmark = pytest.mark.docker
STDIO = EXAMPLES / "stdio"
PROBLEM = json.loads((STDIO / "longest_run_wrong.json").read_text())["problem"]
REFERENCE = json.loads((STDIO / "longest_run_wrong.json").read_text())["reference"]

# the longest strictly increasing run; WRONG counts equal neighbours as increasing (>=)
PROGRAMS = {
    "python": ("n = int(input())\na = list(map(int, input().split()))\nbest = cur = 1\nfor i in range(1, n):\n"
               "    cur = cur + 1 if a[i] OP a[i - 1] else 1\n    best = max(best, cur)\nprint(best)\n"),
    "javascript": ("const d = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\n"
                   "let best = 1, cur = 1;\nfor (let i = 2; i <= d[0]; i++) {\n"
                   "  cur = d[i] OP d[i - 1] ? cur + 1 : 1;\n  if (cur > best) best = cur;\n}\nconsole.log(best);\n"),
    "java": ("import java.util.*;\npublic class Main {\n  static class Run { int best = 1, cur = 1; }\n"
             "  public static void main(String[] args) {\n    Scanner in = new Scanner(System.in);\n"
             "    int n = in.nextInt();\n    long prev = in.nextLong();\n    Run r = new Run();\n"
             "    for (int i = 1; i < n; i++) {\n      long x = in.nextLong();\n"
             "      r.cur = x OP prev ? r.cur + 1 : 1;\n      r.best = Math.max(r.best, r.cur);\n      prev = x;\n"
             "    }\n    System.out.println(r.best);\n  }\n}\n"),
    "cpp": ("#include <bits/stdc++.h>\nint main() {\n  int n; std::cin >> n;\n  long long prev, x; std::cin >> prev;\n"
            "  int best = 1, cur = 1;\n  for (int i = 1; i < n; i++) {\n    std::cin >> x;\n"
            "    cur = x OP prev ? cur + 1 : 1;\n    best = std::max(best, cur);\n    prev = x;\n  }\n"
            "  printf(\"%d\\n\", best);\n}\n"),
    "go": ("package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n"
           "\tr := bufio.NewReader(os.Stdin)\n\tvar n int\n\tfmt.Fscan(r, &n)\n\tvar prev, x int64\n"
           "\tfmt.Fscan(r, &prev)\n\tbest, cur := 1, 1\n\tfor i := 1; i < n; i++ {\n\t\tfmt.Fscan(r, &x)\n"
           "\t\tif x OP prev {\n\t\t\tcur++\n\t\t} else {\n\t\t\tcur = 1\n\t\t}\n"
           "\t\tif cur > best {\n\t\t\tbest = cur\n\t\t}\n\t\tprev = x\n\t}\n\tfmt.Println(best)\n}\n"),
}


def program(language: str, *, right: bool) -> str:
    return PROGRAMS[language].replace("OP", ">" if right else ">=")


def sample(candidate: str, language: str = "python", **kw: object) -> Sample:
    fields: dict[str, object] = {"reference": program(language, right=True), **kw}
    return Sample(id=f"run-{language}", task="code_generation", language=language, problem=PROBLEM,
                  candidate=candidate, **fields)  # type: ignore[arg-type]


INPUTS = "```\n4\n5 5 5 5\n```\n\n```\n5\n2 4 7 8 9\n```\n\n```\n2\n9 1\n```"


def script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_inputs": INPUTS,
            "predict": "Checks:\n- first: PASS\n- second: PASS\n- third: PASS\nScore: 100"}[step_of(messages)]


def judge(sandbox: DockerSandbox, team: str) -> Judge:
    return Judge(ScriptedChatModel(script=script), team=team, cache=False, execute=True, sandbox=sandbox)


@pytest.mark.parametrize("language", ["python", "javascript", "java", "cpp", "go"])
async def test_a_right_program_passes_and_a_wrong_one_fails_on_the_problems_examples(
        sandbox: DockerSandbox, language: str) -> None:
    j = judge(sandbox, "Sample-tests,Ex-fuzz")
    right = await j.ajudge(sample(program(language, right=True), language))
    wrong = await j.ajudge(sample(program(language, right=False), language))
    for name in ("sample_tests", "example_fuzz"):
        assert right.strategies[name].score == 100, (name, right.strategies[name].detail)
    assert right.passed and not right.against
    own = wrong.strategies["sample_tests"]
    assert own.score == pytest.approx(66.67), own.detail  # 2 of the 3 examples: 100 100 ... is not increasing
    assert own.artifacts["source"] == "the problem's examples"
    assert own.artifacts["execution"]["form"] == "stdio"
    assert not wrong.passed and wrong.against and "100 100 100" in wrong.against[0]
    fuzz = wrong.strategies["example_fuzz"]
    assert fuzz.score is not None and fuzz.score < 100 and fuzz.artifacts["made"] == 20


async def test_s5_writes_inputs_the_reference_answers_and_every_execution_juror_reads_them(
        sandbox: DockerSandbox) -> None:
    j = judge(sandbox, "S5-exec,S5-diff,S5-runs,S5-fuzz")
    right = await j.ajudge(sample(program("python", right=True)))
    wrong = await j.ajudge(sample(program("python", right=False)))
    ex = right.strategies["generate_tests"].artifacts["execution"]
    assert ex["form"] == "stdio" and ex["generated"] == 3 and ex["valid"] == 3, ex
    assert ex["valid"] + ex["invalid_on_reference"] == ex["generated"]
    for name in ("test_pass", "test_diff", "executability", "test_fuzz"):
        assert right.strategies[name].score == 100, (name, right.strategies[name].detail)
    assert wrong.strategies["test_pass"].score == pytest.approx(66.67)  # "4 / 5 5 5 5" tells them apart
    assert wrong.strategies["test_diff"].score == pytest.approx(66.67)
    assert wrong.strategies["executability"].score == 100  # it runs to the end on every input
    assert wrong.strategies["test_fuzz"].score is not None and wrong.strategies["test_fuzz"].score < 100
    assert not wrong.passed


async def test_the_samples_own_tests_and_a_reference_that_fails_an_input(sandbox: DockerSandbox) -> None:
    own = json.dumps([{"input": "3\n1 1 2\n", "output": "2\n"}, {"input": "1\n7\n", "output": "1\n"},
                      {"input": "2\n1 2\n", "output": "5\n"}])  # the last one's output is wrong
    v = await judge(sandbox, "Sample-tests").ajudge(sample(program("python", right=False), tests=own))
    r = v.strategies["sample_tests"]
    assert r.artifacts["source"] == "the sample's tests"
    ex = r.artifacts["execution"]
    assert ex["valid"] == 2 and ex["invalid_on_reference"] == 1 and ex["several_answers"]  # the reference disagreed
    assert r.score == 50 and r.against is None  # several answers may be right: not definitive
    assert any("several" in x for x in review_reasons(v))


async def test_a_slow_right_program_is_told_from_a_wrong_one_and_from_a_hung_one(sandbox: DockerSandbox) -> None:
    slow = "import time\ntime.sleep(2.6)\n" + program("python", right=True)
    hung = "while True:\n    pass\n"
    j = judge(sandbox, "Sample-tests")
    # judged side by side: each waits out its time limit in a container of its own
    sv, hv = await asyncio.gather(j.ajudge(sample(slow)), j.ajudge(sample(hung)))
    s = sv.strategies["sample_tests"]
    assert s.score == 0 and "too slow" in s.artifacts["execution"]["candidate"]["failures"][0]["why"]
    h = hv.strategies["sample_tests"]
    assert h.score == 0 and "no output within" in h.artifacts["execution"]["candidate"]["failures"][0]["why"]


async def test_a_program_that_does_not_compile_is_definitive_evidence(sandbox: DockerSandbox) -> None:
    v = await judge(sandbox, "Sample-tests").ajudge(sample("int main() { return 0 }\n", "cpp"))
    assert v.strategies["sample_tests"].score == 0
    assert v.against and "does not load or compile" in v.against[0]


# Attacks on the loop: it runs outside the program's reach, authenticated, with the expected outputs
# on the host; each must leave the program no better than a plain wrong one (Sample-tests 66.67).
FORGE = """import hashlib, os, signal
line = "@@IO 0 0 1 2 " + hashlib.sha256(b"3\\n").hexdigest() + " Mwo= -"
pid, loop = os.getppid(), None
while pid > 1:  # up from this process to the loop
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        if b"loop.py" in f.read():
            loop = pid
            break
    with open(f"/proc/{pid}/stat") as f:
        pid = int(f.read().rsplit(")", 1)[1].split()[1])
for target in (f"/proc/{loop}/fd/1", "/proc/1/fd/1"):
    try:
        with open(target, "w") as f:
            f.write(line + "\\n@@DONE\\n")
    except OSError as exc:
        print("blocked", exc)
print(line)  # on its own stdout: that is its output, nothing more
os.kill(loop, signal.SIGKILL)
"""
READ_KEY = """import glob, os
found = []
for path in glob.glob("/work/r/*") + glob.glob("/work/r/.*") + glob.glob("/tmp/*"):
    try:
        found.append(open(path).read())
    except OSError:
        pass
print(3 if any("@@" in x or "seal" in x for x in found) else 1)
"""


@pytest.mark.parametrize("attack", ["forge_and_kill", "read_the_run"])
async def test_programs_attacking_the_loop_gain_nothing(sandbox: DockerSandbox, attack: str) -> None:
    j = judge(sandbox, "Sample-tests")
    plain = (await j.ajudge(sample(program("python", right=False)))).strategies["sample_tests"].score
    hack = await j.ajudge(sample(FORGE if attack == "forge_and_kill" else READ_KEY))
    r = hack.strategies["sample_tests"]
    assert r.status is Status.SCORED and r.score is not None and plain is not None and r.score <= plain
    assert not hack.passed
    if attack == "forge_and_kill":
        assert hack.against and "tampering suspected" in hack.against[0], hack.against


# S5's repair round: a suite that does not load on the reference is asked for again, once
BROKEN = "```python\nassert same(add(1, 2), 3)\nassert same(add(0, 0), 0)\n```"  # a helper it never defines
REPAIRED = "```python\nassert add(1, 2) == 3\nassert add(0, 0) == 0\nassert add(-1, 1) == 0\n```"


def repair_script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": BROKEN, "repair_tests": REPAIRED}[step_of(messages)]


async def test_a_suite_that_does_not_load_on_the_reference_is_written_again_once(sandbox: DockerSandbox) -> None:
    s = Sample(id="add", task="code_generation", problem="def add(a, b):\n    \"\"\"The sum.\"\"\"\n",
               candidate="    return a - b\n", reference="    return a + b\n")
    model = ScriptedChatModel(script=repair_script)
    v = await Judge(model, team="S5-exec", cache=False, execute=True, sandbox=sandbox).ajudge(s)
    r = v.strategies["generate_tests"]
    ex = r.artifacts["execution"]
    assert ex["repair"]["saved"] and ex["repair"]["valid"] == 3, ex["repair"]
    assert "same" in ex["repair"]["errors"]  # the model was shown the undefined name
    assert r.artifacts["tests"].startswith("assert add(1, 2) == 3")  # the new suite replaced the broken one
    assert v.strategies["test_pass"].score == pytest.approx(33.33)  # 0 + 0 passes; 1 + 2 and -1 + 1 do not
    lines = detail_lines(r)
    assert any("repair round wrote 3 tests again, 3 valid" in line for line in lines), lines
    # a suite that loads is never asked for again
    asked: list[str] = []

    def plain(messages: list[BaseMessage]) -> str:
        asked.append(step_of(messages))
        return {**GOOD_REPLIES, "write_tests": REPAIRED}[asked[-1]]

    v2 = await Judge(ScriptedChatModel(script=plain), team="S5-exec", cache=False, execute=True,
                     sandbox=sandbox).ajudge(s)
    assert v2.strategies["generate_tests"].artifacts["execution"]["repair"] is None
    assert "repair_tests" not in asked and "write_tests" in asked
