"""The paper's experiments on a synthetic run file: tables, exclusions, agreement, plots."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sejury import InputError
from sejury.calibrate import calibrate, read_run
from sejury.cli import app
from sejury.evaluate import evaluate
from sejury.schema import Strategy, TeamFile
from tests.analysis.test_calibrate import verdict


def rows(n: int = 60, seed: int = 5) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h = rng.randint(0, 4)
        v = verdict(i, h, {"direct": h * 25 + rng.uniform(-8, 8), "rethink": rng.uniform(0, 100),
                           "bleu": h * 20 + rng.uniform(-25, 25), "vanilla": rng.choice([0, 100])})
        meta = v["metadata"]
        assert isinstance(meta, dict)
        # rater a copies the grade, rater b is off by one half of the time
        meta["human_scores"] = {"a": h, "b": min(4, h + (i % 2))}
        meta["test_passed"] = h >= 2
        out.append(v)
    return out


@pytest.fixture
def run(tmp_path: Path) -> Path:
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    return p


def test_tables_exclude_the_labelled_samples_and_rank_the_informative_juror(run: Path) -> None:
    records = read_run(run)
    team = TeamFile(task="code_generation", strategies=["direct", "bleu"],
                    calibration={"labelled_ids": [f"s{i}" for i in range(20)]})
    ev = evaluate(records, team=team, ns=[6, 20], seeds=3, resamples=200)
    assert ev.excluded_labelled == 20 and all(r.n == 40 for r in ev.rq1)
    by_name = {r.name: r for r in ev.rq1}
    assert by_name["S1"].mean > 0.8 and abs(by_name["S2"].mean) < 0.4
    assert by_name["calibrated team"].members == [Strategy.DIRECT, Strategy("bleu")]
    assert by_name["S2"].p_vs_team is not None and by_name["S2"].p_vs_team < 0.05  # S2's errors are larger
    # the vanilla baseline is a row of its own, outside "all LLM strategies merged" and every team
    assert "Vanilla (baseline)" in by_name
    assert by_name["all LLM strategies merged"].members == [Strategy.DIRECT, Strategy.RETHINK]
    assert all("Vanilla" not in str(r["most_chosen"]) for r in ev.rq3_n)
    assert [r["N"] for r in ev.rq3_n] == [6, 20] and all(r["seeds"] == 3 for r in ev.rq3_n)
    # RQ2: one human pair, two human-tool pairs; a and b agree exactly on the even half
    assert len(ev.rq2["H-H"]) == 1 and len(ev.rq2["H-T"]) == 2
    # RQ4: the informative juror tracks test outcomes
    assert {r.name: r for r in ev.rq4}["S1"].mean > 0.6


def test_outputs_and_the_cli(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "ev"
    res = CliRunner().invoke(app, ["evaluate", str(run), "-o", str(out), "--ns", "6", "--seeds", "2"])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text()
    assert "## RQ1" in text and "## RQ2" in text and "## RQ3" in text and "## RQ4" in text
    assert "METEOR" in text  # what is not available is said
    assert "## Agreement beyond correlation" in text and "accepts wrong code" in text
    for name in ("rq1.csv", "rq2.csv", "rq3_n.csv", "rq4.csv", "rq1_bars.png", "rq2_kappa_box.png",
                 "agreement_alpha.csv", "agreement_binary.csv", "unscored.csv"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "rq1_bars.png").read_bytes()[:4] == b"\x89PNG"


def test_agreement_beyond_correlation_on_known_values(run: Path) -> None:
    """Alpha, ROC-AUC, the threshold from the labelled samples, the confusion matrix, ECE and the
    unscored rate, each checked against values worked out by hand."""
    import krippendorff
    import numpy as np

    from sejury import agreement
    from sejury.calibrate import Record
    from sejury.schema import Scale

    def rec(i: int, score: float | None, passed: bool) -> Record:
        return Record(sample_id=f"r{i}", task="code_generation", human=float(passed),
                      scores={} if score is None else {Strategy.TEST_PASS: score}, scale=Scale(low=0, high=1),
                      test_passed=passed, unscored=[Strategy.TEST_PASS] if score is None else [])

    # labelled: the best threshold there is 60 (40 -> wrong, 60 and 90 -> right)
    labelled = [rec(0, 40, False), rec(1, 60, True), rec(2, 90, True), rec(3, 10, False)]
    rest = [rec(10, 100, True), rec(11, 70, False), rec(12, 55, True), rec(13, 0, False), rec(14, None, True)]
    b = agreement.binary("S5-exec", labelled, rest, [Strategy.TEST_PASS])
    assert b is not None and b.threshold == 60 and b.n == 4
    assert (b.tp, b.fp, b.tn, b.fn) == (1, 1, 1, 1) and b.accuracy == 0.5
    assert b.accepts_wrong == 0.5 and b.rejects_right == 0.5
    assert b.auc == 0.75  # of the 4 right/wrong pairs, 3 are ordered right
    # ECE, 10 bins: {0: wrong} |0-0|, {0.55: right} |1-.55|, {0.7: wrong} |0-.7|, {1.0: right} |1-1|
    assert abs(b.ece - (0.45 + 0.7) / 4) < 1e-9
    (u,) = agreement.unscored_rates(labelled + rest)
    assert (u.juror, u.run_on, u.unscored) == ("S5-exec", 9, 1)
    # alpha against the package on the same reliability data
    a = agreement.alpha_with_humans("S5-exec", rest, [Strategy.TEST_PASS], Scale(low=0, high=1))
    want = krippendorff.alpha(reliability_data=np.array([[1.0, 0.7, 0.55, 0.0], [1, 0, 1, 0]]),
                              level_of_measurement="interval")
    assert a.n == 4 and abs(a.interval - want) < 1e-9
    # among humans: rater a copies the grade, rater b is off by one on half the samples
    h = agreement.alpha_among_humans(read_run(run))
    assert h is not None and 0.5 < h.interval < 1.0


def test_evaluate_reads_a_run_without_s1_given_a_team_file(tmp_path: Path) -> None:
    """An execution-only run (S5-exec, no S1): every table comes out; the default protocol's N study
    calibrates the evidence alone, where the paper's rule (S1 in every team) has nothing to choose."""
    vs = [verdict(i, h, {"test_pass": 100.0 * h if i % 5 else None}, scale="0-1")
          for i, h in enumerate([1, 0] * 10)]
    for v in vs:
        v["metadata"]["test_passed"] = bool(v["metadata"]["human_score"])  # type: ignore[index]
    records = read_run(_write(tmp_path, vs))
    team = TeamFile(task="code_generation", strategies=["test_pass"],
                    calibration={"labelled_ids": [f"s{i}" for i in range(6)]})
    ev = evaluate(records, team=team, ns=[6], seeds=2, resamples=50)
    assert [(r["N"], r["most_chosen"]) for r in ev.rq3_n] == [(6, "S5-exec")]
    assert not any("N study skipped" in n for n in ev.notes)
    with pytest.raises(InputError, match="under the paper protocol every candidate team must contain S1"):
        calibrate(records, n_labelled=6, protocol="paper")
    (b,) = [x for x in ev.binary if x.name == "calibrated team"]
    assert b.accuracy == 1.0 and b.auc == 1.0
    assert [(u.juror, u.unscored, u.run_on) for u in ev.unscored] == [("S5-exec", 4, 20)]


def _write(tmp_path: Path, vs: list[dict[str, object]]) -> Path:
    p = tmp_path / "noS1.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in vs))
    return p


def test_the_needs_review_flag_is_measured_against_the_outcome() -> None:
    """Flagged when the jurors disagree by more than 50 or one scored: 2 of the 5 flagged verdicts
    are wrong, none of the 12 others; Fisher's one-sided p is C(5,2) / C(17,2) = 10/136."""
    from sejury import agreement
    from sejury.calibrate import Record
    from sejury.schema import Scale

    def rec(i: int, a: float, b: float | None, passed: bool) -> Record:
        scores = {Strategy.TEST_PASS: a} | ({} if b is None else {Strategy("test_diff"): b})
        return Record(sample_id=f"q{i}", task="code_generation", human=float(passed), scores=scores,
                      scale=Scale(low=0, high=1), test_passed=passed)

    agree = [rec(i, 100, 90, True) for i in range(6)] + [rec(i + 6, 0, 10, False) for i in range(6)]
    split = [rec(20 + i, 100, 0, i % 2 == 1) for i in range(4)]  # mean 50: thresholded at 50 as right
    team = [Strategy.TEST_PASS, Strategy("test_diff")]
    r = agreement.review_flag([], [*agree, *split, rec(30, 70, None, True)], team, Scale(low=0, high=1))
    assert r is not None and (r.n, r.flagged) == (17, 5)  # the split four, and one with one juror scored
    assert (r.flagged_wrong, r.unflagged_wrong) == (2, 0)
    assert r.flagged_error == 0.4 and r.unflagged_error == 0.0 and abs(r.p_value - 10 / 136) < 1e-12


def test_bias_per_generator_finds_the_generator_a_juror_favours(tmp_path: Path) -> None:
    """S1 adds 0.5 (of the 0-4 scale read on [0, 1]) to every candidate of generator "kind-to",
    and tracks the label exactly elsewhere: its bias there is +0.5, significant; 0 elsewhere."""
    rng = random.Random(1)
    vs = []
    for i in range(40):
        h = rng.randint(0, 2)
        system = "kind-to" if i % 2 else "fair"
        s1 = h * 25 + (50 if system == "kind-to" else 0)
        v = verdict(i, h, {"direct": s1, "bleu": rng.uniform(0, 100)})
        v["metadata"]["system"] = system  # type: ignore[index]
        vs.append(v)
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in vs))
    team = TeamFile(task="code_generation", strategies=["direct"], calibration={"labelled_ids": []})
    ev = evaluate(read_run(p), team=team, ns=[], resamples=50)
    got = {(b.juror, b.system): b for b in ev.bias}
    assert got[("S1", "kind-to")].coefficient == pytest.approx(0.5) and got[("S1", "kind-to")].p_value < 0.001
    assert got[("S1", "fair")].coefficient == 0 and got[("S1", "fair")].n == 20
    out = tmp_path / "ev"
    from sejury.evaluate_report import write_outputs

    text = write_outputs(ev, out).read_text()
    assert "| S1 | kind-to | 20 | +0.500 |" in text
    assert (out / "bias_heatmap.png").read_bytes()[:4] == b"\x89PNG" and (out / "bias.csv").exists()


def test_example_level_correlation_sees_what_the_corpus_level_hides(tmp_path: Path) -> None:
    """S1 scores by the problem (its difficulty), and within each problem ranks the candidates
    backwards: corpus-level correlation is high, example-level is -1."""
    vs = []
    for k in range(4):
        for j in range(3):
            v = verdict(3 * k + j, k + j * 0.25, {"direct": 25.0 * k + (2 - j)})
            v["problem_digest"] = f"p{k}"
            vs.append(v)
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in vs))
    team = TeamFile(task="code_generation", strategies=["direct"], calibration={"labelled_ids": []})
    ev = evaluate(read_run(p), team=team, ns=[], resamples=50)
    (lv,) = [x for x in ev.levels if x.juror == "S1"]
    assert lv.corpus > 0.6 and lv.problems == 4 and lv.example == pytest.approx(-1.0)


def test_verdicts_carry_the_problem_digest(make_judge: Any) -> None:
    from sejury.schema import Sample

    judge, _ = make_judge(team="S1")
    a = Sample(id="a", task="code_generation", problem="add two numbers", candidate="def add(a, b): return a + b")
    b = a.model_copy(update={"id": "b", "candidate": "def add(a, b): return a - b"})
    c = a.model_copy(update={"id": "c", "problem": "subtract two numbers"})
    va, vb, vc = (judge.judge(x) for x in (a, b, c))
    judge.close()
    assert va.problem_digest == vb.problem_digest == a.problem_digest() != vc.problem_digest


def test_the_team_is_evaluated_by_its_own_merge_rule() -> None:
    """A team file merged evidence first is evaluated as the judge merges it, not by the mean: an
    opinion juror at 100 cannot lift a candidate whose executed tests fail above one whose pass."""
    from sejury.calibrate import Record

    def rec(i: int, opinion: float, tests: float, passed: bool) -> Record:
        return Record(sample_id=f"e{i}", task="code_generation", human=float(passed), test_passed=passed,
                      scores={Strategy.DIRECT: opinion, Strategy.TEST_PASS: tests})

    # wrong code the model likes, right code it doubts: the mean ranks them backwards
    records = [rec(i, 100, 60, False) for i in range(6)] + [rec(10 + i, 0, 100, True) for i in range(6)]
    team = {"task": "code_generation", "strategies": ["direct", "test_pass"], "calibration": {"labelled_ids": []}}
    by_rule = {}
    for rule in ("mean", "evidence_first"):
        ev = evaluate(records, team=TeamFile.model_validate({**team, "merge": rule}), ns=[], seeds=1, resamples=50)
        by_rule[rule] = next(r for r in ev.rq4 if r.name == "calibrated team")
        assert ("evidence first" in ev.team_source) == (rule == "evidence_first")
    assert by_rule["mean"].mean < 0 < by_rule["evidence_first"].mean  # 80 vs 50 by the mean; 49 vs 80 evidence first


def test_a_run_file_line_holding_a_unicode_line_separator_is_one_verdict(tmp_path: Path) -> None:
    """The run file writes text as it is (``ensure_ascii=False``): U+2028 in a reason or the metadata
    stays inside its line, and the reader must not split there."""
    v = verdict(0, 3, {"direct": 80.0})
    meta = v["metadata"]
    assert isinstance(meta, dict)
    meta["note"] = "one\u2028line\u2029still\x85"
    p = tmp_path / "run.jsonl"
    p.write_text(json.dumps(v, ensure_ascii=False) + "\n", encoding="utf-8")
    (r,) = read_run(p)
    assert r.sample_id == "s0" and r.scores == {Strategy.DIRECT: 80.0}


def test_every_reader_of_json_lines_keeps_a_unicode_line_separator_inside_its_line(tmp_path: Path) -> None:
    """The same for the other readers of files we write (``io.text_lines``, their one home): here
    S5's suites read back from a run file (before, ``splitlines`` cut the line: not valid JSON)."""
    from sejury.checks.suites import s5_suites
    from sejury.io import text_lines

    tests = "assert f('one\u2028line') == 1\n"
    v = {"sample_id": "s0", "strategies": {"generate_tests": {"artifacts": {"tests": tests}}}}
    p = tmp_path / "run.jsonl"
    p.write_text(json.dumps(v, ensure_ascii=False) + "\n", encoding="utf-8")
    assert s5_suites(p) == {"s0": tests}
    assert text_lines(p) == [json.dumps(v, ensure_ascii=False), ""]
