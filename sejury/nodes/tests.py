"""S5 generate tests, then assess: the first call writes tests from the problem and the reference
(never from the candidate); the second predicts whether the candidate passes each.

Execution of the tests in a sandbox is a separate capability (the Docker backend); without it the
score is the LLM's prediction, and the result says so (``artifacts["execution"]``).
"""

from __future__ import annotations

import re

from sejury import prompts
from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder, ask_score, ask_text
from sejury.schema import Sample, Strategy, StrategyResult, Task
from sejury.scoring import ParsedReply, extract_code

MAX_TEST_LINES = 60
_TEST_LINE = {
    "python": re.compile(r"^\s*assert\b"),
    "javascript": re.compile(r"console\.assert\(|\bassert(\.\w+)?\("),
    "java": re.compile(r"AssertionError|\bassert\w*\("),
    "cpp": re.compile(r"\bassert\s*\("),
    "go": re.compile(r"t\.(Errorf|Error|Fatalf|Fatal)\("),
}


def applies(sample: Sample) -> str | None:
    if sample.task is Task.CODE_SUMMARIZATION:
        return "tests do not apply to code summaries"
    return None if sample.reference else "no reference to derive tests from"


def read_tests(text: str, language: str, cut_off: bool) -> tuple[str, int]:
    """The test code and how many tests it holds (assertion lines, else non-blank lines)."""
    lines = extract_code(text).splitlines()
    if cut_off and lines:
        lines = lines[:-1]
    lines = lines[:MAX_TEST_LINES]
    code = "\n".join(lines).strip()
    pattern = _TEST_LINE.get(language)
    count = sum(1 for ln in lines if pattern.search(ln)) if pattern else 0
    if count == 0:
        count = sum(1 for ln in lines if ln.strip() and not ln.strip().startswith(("#", "//", "import")))
    return code, count


async def run(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    S = Strategy.GENERATE_TESTS
    written = await ask_text(ctx, rec, "write_tests", prompts.render(
        S, sample.task, "write", language=sample.language, problem=sample.problem,
        reference=sample.reference, test_style=prompts.test_style(sample.language)))
    tests, n_tests = read_tests(written.text, sample.language, written.finish_reason == "length")
    artifacts: dict[str, object] = {"tests": tests, "n_tests": n_tests,
                                    "execution": "not run: LLM prediction only"}
    if n_tests == 0:
        return Outcome(None, detail="no tests could be read from the reply", artifacts=artifacts)
    user = prompts.render(S, sample.task, "predict", language=sample.language, problem=sample.problem,
                          candidate=sample.candidate, tests=tests)
    parsed, error = await ask_score(ctx, rec, "predict", user)
    if parsed is not None:
        parsed = score_from_verdicts(parsed, artifacts)
    return Outcome(parsed, detail=error or None, artifacts=artifacts)


_PASS = re.compile(r"\bPASS(?:ES|ED)?\b", re.IGNORECASE)
_FAIL = re.compile(r"\bFAIL(?:S|ED)?\b", re.IGNORECASE)


def score_from_verdicts(parsed: ParsedReply, artifacts: dict[str, object]) -> ParsedReply:
    """The prompt defines S5's score as the share of tests predicted to pass.  Small models get the
    arithmetic wrong ("PASS, FAIL, PASS, PASS, PASS / Score: 100"), so when every check line carries
    one verdict the score is their tally; the stated score stays in the artifacts and the trace."""
    verdicts = []
    for line in parsed.reasons:
        has_pass, has_fail = bool(_PASS.search(line)), bool(_FAIL.search(line))
        if has_pass == has_fail:
            return parsed  # a line without exactly one verdict: keep the stated score
        verdicts.append(has_pass)
    if not verdicts:
        return parsed
    artifacts["stated_score"] = parsed.score
    artifacts["predicted_pass"] = sum(verdicts)
    artifacts["predicted_total"] = len(verdicts)
    return ParsedReply(score=round(100 * sum(verdicts) / len(verdicts), 2), reasons=parsed.reasons)
