"""``sejury evaluate`` on ``sejury compare``'s comparisons: how the pairs were decided, the model's
position bias (how often the order it saw them in changed its verdict), and pairwise accuracy
against the labels of the rows compare read; bad lines named by file, line and field."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sejury.cli import app
from sejury.rank.compare import Comparison, DecidedBy, Winner
from sejury.rank.records import RankedCandidate

HOSTILE = "he-6|`x`\n# heading [red]boom[/red] \x1b[31mred\x1b[0m </script>\u2028end"


def side(index: int) -> RankedCandidate:
    return RankedCandidate(index=index, id="ab"[index], rank=index + 1, score=50, group=index + 1, support=1,
                           loaded=True)


def pair(pid: str, decided_by: DecidedBy, winner: Winner, verdicts: list[Winner | None] | None = None,
         flipped: bool = False, language: str = "python") -> Comparison:
    return Comparison(problem_id=pid, language=language, winner=winner, decided_by=decided_by, a=side(0), b=side(1),
                      validated=False, model_verdicts=verdicts or [], flipped=flipped)


# (comparison, test_passed of a and b in the rows compare read)
PAIRS: list[tuple[Comparison, tuple[Any, Any]]] = [
    (pair("he-1", "loading", "a"), (True, False)),
    (pair("he-2", "generated tests", "b"), (True, False)),  # the evidence got it wrong
    (pair("he-3", "model", "tie", ["a", "b"], flipped=True), (False, True)),  # the first shown, both times
    (pair("he-4", "model", "b", ["b", "b"]), (False, True)),  # the orders agree, and are right
    (pair("he-5", "model", "a", ["a", None]), (True, False)),  # one reply unreadable: that order alone
    (pair(HOSTILE, "model", "tie", ["b", "a"], flipped=True), (True, False)),  # the second shown, both times
    (pair("he-7", "model", "a", ["a", "tie"]), (False, True)),  # a tie in one order only
    (pair("he-8", "undecided", "tie", [None, None]), (True, False)),  # no reply read: no verdict
    (pair("he-9", "same behaviour", "tie"), (True, True)),  # the same label on both: left out of accuracy
    (pair("he-10", "reference", "a"), (None, None)),  # no label
]


def write(tmp_path: Path, pairs: list[tuple[Comparison, tuple[Any, Any]]] = PAIRS) -> tuple[Path, Path]:
    """The comparisons as `sejury compare -o` writes them, and the rows it read (two per problem)."""
    comparisons = tmp_path / "comparisons.jsonl"
    comparisons.write_text("".join(c.model_dump_json(exclude={"events"}) + "\n" for c, _ in pairs), encoding="utf-8")
    rows = []
    for k, (c, labels) in enumerate(pairs):
        for i, passed in enumerate(labels):
            row: dict[str, Any] = {"id": f"row-{k}-{i}", "task": "code_generation", "language": c.language,
                                   "problem": f"def f{k}(x):\n    '''problem {k}'''\n",
                                   "candidate": f"    return {i}\n", "metadata": {"problem_id": c.problem_id}}
            if passed is not None:
                row["test_passed"] = passed
            rows.append(row)
    samples = tmp_path / "pairs.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return comparisons, samples


def invoke(*args: str | Path) -> Any:
    return CliRunner().invoke(app, ["evaluate", *map(str, args)])


def test_evaluate_reports_how_pairs_were_decided_the_position_bias_and_the_accuracy(tmp_path: Path) -> None:
    comparisons, samples = write(tmp_path)
    out = tmp_path / "ev"
    res = invoke(comparisons, "--pairs", samples, "-o", out)
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text(encoding="utf-8")
    assert res.output.startswith(report)  # printed, as the run file's report is
    assert "# Pairwise comparisons (10 pairs, from" in report
    assert "Decided by execution evidence: 4; by the model: 5; undecided (no reply of the model read): 1." in report
    assert "| generated tests | 1 | 1 | 0 | 1 | 0 | 0 % |" in report
    assert "| model | 5 | 5 | 2 | 1 | 2 | 40 % |" in report
    # of 6 pairs asked, 4 with both replies read: 1 agree, 3 changed by the order (2 by position, 1 half tie)
    assert "on 6 pair(s) the evidence did not decide: both replies read on 4, one on 1" in report
    assert "none on 1 (undecided)" in report
    assert "| the two orders agree | 1 (25 %) |" in report
    assert "| the order changed the verdict (flip rate) | 3 (75 %) |" in report
    assert "| of them, the first shown chosen both times (a tie) | 1 (25 %) |" in report
    assert "| of them, the second shown chosen both times (a tie) | 1 (25 %) |" in report
    assert "| of them, a tie in one order only | 1 (25 %) |" in report
    assert "the choice followed the position on 2 of 4 (50 %)" in report
    # each order: he-3 a,b; he-4 b,b; hostile b,a; he-7 a,tie (the first shown in B/A is b)
    assert "| a shown first | 2 (50 %) | 2 (50 %) | 0 (0 %) | 1 |" in report
    assert "| b shown first | 2 (50 %) | 1 (25 %) | 1 (25 %) | 2 |" in report
    # accuracy over the 8 pairs with one right attempt: he-1, he-4, he-5 right; he-2, he-7 wrong; he-3, he-6,
    # he-8 ties.  With flips decided by the first order, he-3 (a) and he-6 (b) become wrong
    assert "8 pair(s) with one right attempt; 1 with the same label on both (left out); 1 without one." in report
    assert "| flips as ties (compare's verdict) | 8 | 3 | 2 | 3 | 38 % | 60 % |" in report
    assert "| flips by the first order (as if asked once, a shown first) | 8 | 3 | 4 | 1 | 38 % | 43 % |" in report
    figures = json.loads((out / "pairs.json").read_text(encoding="utf-8"))
    assert figures["bias"]["flip_rate"] == 0.75 and figures["bias"]["position_rate"] == 0.5
    assert figures["bias"]["orders"][1] == {"order": "b shown first", "first": 2, "second": 1, "tie": 1,
                                            "unreadable": 2}
    assert figures["accuracy"]["flips as ties (compare's verdict)"]["decided_accuracy"] == 0.6
    assert (figures["by_evidence"], figures["by_model"], figures["labelled"]) == (4, 5, 8)
    assert "rows" not in figures
    with (out / "pairs.csv").open(encoding="utf-8", newline="") as f:
        listed = list(csv.DictReader(f))
    assert [r["problem_id"] for r in listed] == [c.problem_id for c, _ in PAIRS]  # hostile id kept whole
    assert listed[5] | {"problem_id": ""} == {"line": "6", "problem_id": "", "language": "python",
                                              "decided_by": "model", "winner": "tie", "a_first": "b", "b_first": "a",
                                              "flipped": "True", "label": "a"}
    assert (listed[4]["b_first"], listed[8]["label"], listed[9]["label"]) == ("", "same", "")


def test_hostile_text_in_a_record_stays_inert_in_the_report_and_on_the_terminal(tmp_path: Path) -> None:
    comparisons, _ = write(tmp_path, [(pair(HOSTILE, "model", "tie", ["a", "b"], flipped=True,
                                            language="py`|\x1b]0;title\x07"), (True, False))])
    out = tmp_path / "ev"
    res = invoke(comparisons, "-o", out)
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text(encoding="utf-8")
    for text in (report, res.output):
        assert "\x1b" not in text and "\x07" not in text and "\u2028" not in text
        assert "[red]boom[/red]" in text  # rich markup printed as it is, not applied
    (listed,) = [ln for ln in report.splitlines() if ln.startswith("- ")]
    assert listed.startswith("- ``he-6|`x`\\x0a# heading [red]boom[/red] \\x1b[31mred\\x1b[0m </script>\\u2028end`` ")
    assert "(``py`|\\x1b]0;title\\x07``, line 1): a with a shown first, b with b shown first" in listed
    assert "No labels: give the rows `sejury compare` read with `--pairs FILE`" in report
    assert not (out / "pairs.json").read_text(encoding="utf-8").count("\n# heading")


def test_a_line_that_is_not_a_comparison_is_named_by_file_line_and_field(tmp_path: Path) -> None:
    comparisons, _ = write(tmp_path)
    good = comparisons.read_text(encoding="utf-8").splitlines()
    bad = json.loads(good[1])
    bad["winner"] = "c"
    (tmp_path / "wrong.jsonl").write_text("\n".join([good[0], json.dumps(bad), *good[2:]]) + "\n", encoding="utf-8")
    res = invoke(tmp_path / "wrong.jsonl", "-o", tmp_path / "ev")
    assert res.exit_code == 2
    assert (f"error: {tmp_path / 'wrong.jsonl'}:2: field 'winner': Input should be 'a', 'b' or 'tie' (each line is a "
            "comparison, as `sejury compare -o` writes them)") in " ".join(res.output.split())
    assert not (tmp_path / "ev").exists()
    cases = {
        "list.jsonl": (json.dumps([1, 2]), "3: expected a JSON object, got list"),
        "torn.jsonl": ('{"winner": "a", "decided_by"', "3: not valid JSON"),
        "verdict.jsonl": (json.dumps({"sample_id": "s1", "winner": "a"}), "3: field 'problem_id': is required but "
                                                                          "missing"),
        "orders.jsonl": (json.dumps({**json.loads(good[3]), "model_verdicts": ["a"]}),
                         "3: field 'model_verdicts': 1 verdicts: the model is asked in two orders (or not at all)"),
    }
    for name, (line, said) in cases.items():
        (tmp_path / name).write_text("\n".join([good[0], "", line]) + "\n", encoding="utf-8")
        res = invoke(tmp_path / name)
        assert res.exit_code == 2, name
        assert f"{tmp_path / name}:{said}" in " ".join(res.output.split()), res.output


def test_labels_options_and_files_that_do_not_fit_are_errors(tmp_path: Path) -> None:
    comparisons, samples = write(tmp_path)
    rows = samples.read_text(encoding="utf-8").splitlines()
    row = json.loads(rows[0])
    row["test_passed"] = "yes"
    (tmp_path / "text.jsonl").write_text("\n".join([json.dumps(row), *rows[1:]]) + "\n", encoding="utf-8")
    res = invoke(comparisons, "--pairs", tmp_path / "text.jsonl")
    assert res.exit_code == 2
    assert (f"{tmp_path / 'text.jsonl'}: field 'test_passed': sample row-0-0: str value; a label is true/false or a "
            "number") in " ".join(res.output.split())
    (tmp_path / "three.jsonl").write_text("\n".join([*rows, json.dumps({**row, "id": "extra", "test_passed": 1})])
                                          + "\n", encoding="utf-8")
    res = invoke(comparisons, "--pairs", tmp_path / "three.jsonl")
    assert res.exit_code == 2 and "problem he-1: 3 attempts; compare takes two per problem" in res.output
    res = invoke(comparisons, "--team", tmp_path / "team.json")
    assert res.exit_code == 2 and "--team, --kappa-weights and --self-system are for run files" in res.output
    res = invoke(samples, "--pairs", samples)
    assert res.exit_code == 2 and "--pairs is for those" in res.output


def test_a_numeric_label_says_which_attempt_is_right_and_rows_without_it_are_counted(tmp_path: Path) -> None:
    comparisons, samples = write(tmp_path, [(pair("p1", "model", "a", ["a", "a"]), (3, 1)),
                                            (pair("p2", "model", "a", ["a", "a"]), (0.5, 2)),
                                            (pair("p3", "model", "b", ["b", "b"]), (None, 1))])
    text = samples.read_text(encoding="utf-8").replace('"test_passed"', '"human_score"')
    samples.write_text(text, encoding="utf-8")
    out = tmp_path / "ev"
    res = invoke(comparisons, "--pairs", samples, "--label", "human_score", "-o", out)
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "Labels: `human_score` of the rows in" in report
    assert "| flips as ties (compare's verdict) | 2 | 1 | 1 | 0 | 50 % | 50 % |" in report
    assert "1 of 3 pair(s) have no label" in report
    assert "The model's position bias" in report and "| the two orders agree | 3 (100 %) |" in report


def test_evidence_alone_needs_no_bias_section_and_a_repeated_problem_is_noted(tmp_path: Path) -> None:
    one = pair("p1", "loading", "a")
    comparisons, _ = write(tmp_path, [(one, (True, False))])
    comparisons.write_text(comparisons.read_text(encoding="utf-8") * 2, encoding="utf-8")
    out = tmp_path / "ev"
    res = invoke(comparisons, "-o", out)
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "The evidence decided every pair: the model was not asked." in report
    assert "1 problem(s) appear more than once (an output appended to twice?)" in report


@pytest.mark.parametrize("verdicts,flipped,said", [
    (["a", "b"], True, "the model, asked in both orders on 1, chose by position on 1 (position bias 100%"),
    (["a", "a"], False, "chose by position on 0 (position bias 0%"),
])
def test_compare_ends_with_the_same_figures(verdicts: list[Winner], flipped: bool, said: str) -> None:
    from sejury.cli.ranking import position_bias

    assert said in position_bias([pair("p", "model", "tie", verdicts, flipped=flipped), pair("q", "loading", "a")])


@pytest.mark.docker
def test_what_sejury_compare_writes_is_what_evaluate_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real compare path (the sandbox; a scripted model that always answers "A"): one pair the
    generated tests decide, one they cannot, where the model's choice follows the position."""
    from sejury import Judge
    from sejury.cli import ranking
    from tests.helpers.fakes import ScriptedChatModel
    from tests.rank.test_rank import ADD, _compare_script

    loose = "assert add(2, 3) == 5\nassert add(4, 4) >= 0\n"
    right, wrong, odd = "    return a + b\n", "    return a - b\n", "    return a + b if a != 4 else a + b + 1\n"
    rows = [{"id": f"{pid}-{i}", "task": "code_generation", "problem": problem, "candidate": code, "test_passed": ok}
            for pid, problem, attempts in (("sub", ADD, ((wrong, False), (right, True))),
                                           ("odd", ADD.replace("sum", "total"), ((right, True), (odd, False))))
            for i, (code, ok) in enumerate(attempts)]
    samples = tmp_path / "pairs.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr(ranking, "Judge", lambda config: Judge(ScriptedChatModel(script=_compare_script("A", loose)),
                                                               cache=False, execute=True))
    comparisons = tmp_path / "comparisons.jsonl"
    res = CliRunner().invoke(app, ["compare", str(samples), "-o", str(comparisons)])
    assert res.exit_code == 0, res.output
    assert f"`sejury evaluate {comparisons} --pairs {samples}`" in " ".join(res.output.split())
    written = [Comparison.model_validate_json(line) for line in comparisons.read_text(encoding="utf-8").splitlines()]
    assert [(c.problem_id, c.winner, c.decided_by == "model", c.flipped) for c in written] == [
        ("sub", "b", False, False), ("odd", "tie", True, True)]  # sub: the evidence decides, odd: the model
    out = tmp_path / "ev"
    res = invoke(comparisons, "--pairs", samples, "-o", out)
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "Decided by execution evidence: 1; by the model: 1;" in report
    assert "| of them, the first shown chosen both times (a tie) | 1 (100 %) |" in report
    assert "| flips as ties (compare's verdict) | 2 | 1 | 0 | 1 | 50 % | 100 % |" in report
    assert "| flips by the first order (as if asked once, a shown first) | 2 | 2 | 0 | 0 | 100 % | 100 % |" in report
