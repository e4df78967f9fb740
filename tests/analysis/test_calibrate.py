"""Team selection from recorded scores, on synthetic run files (no LLM call)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sejury import InputError, Strategy, TeamFile
from sejury.calibrate import Record, calibrate, candidate_teams, labelled_indices, read_run, report, score_team
from sejury.cli import app
from sejury.schema import Scale

S = Strategy


def verdict(i: int, human: float, scores: dict[str, float | None], *, scale: str = "0-4") -> dict[str, object]:
    strategies = {
        name: {"strategy": name, "status": "scored" if s is not None else "unscored", "score": s,
               "llm_calls": 0 if name in ("bleu", "chrf") else 1, "prompt_tokens": 100, "completion_tokens": 10}
        for name, s in scores.items()}
    return {"sample_id": f"s{i}", "task": "code_generation", "status": "scored", "score": 50,
            "strategies": strategies, "metadata": {"human_score": human, "scale": scale}, "model": "m",
            "prompt_version": "p"}


def synthetic(n: int = 40, seed: int = 3) -> list[dict[str, object]]:
    """direct tracks the human grade, rethink is noise, bleu tracks it loosely."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        h = rng.randint(0, 4)
        rows.append(verdict(i, h, {"direct": h * 25 + rng.uniform(-5, 5), "rethink": rng.uniform(0, 100),
                                   "bleu": h * 20 + rng.uniform(-20, 20), "equivalence": None}))
    return rows


def write(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


def test_candidate_teams_contain_s1_and_two_members() -> None:
    teams = candidate_teams([S.DIRECT, S("direct_ref"), S.RETHINK])
    assert teams == [[S.DIRECT, S("direct_ref")], [S.DIRECT, S.RETHINK], [S("direct_ref"), S.RETHINK],
                     [S.DIRECT, S("direct_ref"), S.RETHINK]]
    assert candidate_teams([S.RETHINK, S("equivalence")]) == []


def test_labelled_draw_is_the_papers() -> None:
    random.seed(12345)
    assert labelled_indices(100, 20, 12345) == random.sample(range(100), 20)
    with pytest.raises(InputError, match="none of the 10"):
        labelled_indices(10, 10, 0)


def test_team_score_is_the_mean_of_its_scored_members() -> None:
    recs = [Record(sample_id=str(i), task="code_generation", human=h, scores={S.DIRECT: d, S.RETHINK: r})
            for i, (h, d, r) in enumerate([(0, 0, 40), (1, 50, 20), (2, 100, 90)])]
    # team means: 20, 35, 95 -> perfectly ordered with the human scores
    t = score_team(recs, [S.DIRECT, S.RETHINK])
    assert (t.tau, t.rho) == (pytest.approx(1.0), pytest.approx(1.0))
    # rethink alone: 40, 20, 90 -> tau (2 concordant, 1 discordant) = 1/3, rho = 1 - 6*2/(3*8) = 0.5
    alone = score_team(recs, [S.RETHINK])
    assert alone.tau == pytest.approx(1 / 3) and alone.rho == pytest.approx(0.5)


def test_against_pass_fail_labels_the_report_counts_the_wrong_candidates_accepted() -> None:
    # labels 0/1 (a benchmark's test outcome): a score of 50 or more accepts the candidate
    cases = [(1, 90, 80), (1, 40, 100), (0, 60, 70), (0, 10, 0), (0, 50, 20), (1, 70, 30)] * 4
    recs = [Record(sample_id=str(i), task="code_generation", human=h, scores={S.DIRECT: d, S.RETHINK: r})
            for i, (h, d, r) in enumerate(cases)]
    t = score_team(recs[:6], [S.DIRECT])
    # wrong: 60 (accepted), 10, 50 (accepted); right: 90, 40 (rejected), 70 -> 3 of 6 agree
    assert (t.wrong, t.wrong_accepted, t.accuracy) == (3, 2, pytest.approx(3 / 6))
    team = score_team(recs[:6], [S.DIRECT, S.RETHINK])  # means 85, 70, 65, 5, 35, 50
    assert (team.wrong, team.wrong_accepted, team.accuracy) == (3, 1, pytest.approx(5 / 6))
    # graded labels (a human scale): not counted
    graded = [r.model_copy(update={"human": 2.0 + r.human}) for r in recs]
    assert score_team(graded, [S.DIRECT]).wrong is None
    cal = calibrate(recs, n_labelled=12, seed=3, resamples=50)
    assert cal.evaluation is not None and cal.evaluation.wrong is not None
    text = report(cal)
    e = cal.evaluation
    assert f"{e.wrong_accepted} of the {e.wrong} wrong candidates accepted" in text
    assert "held-out wrong accepted | accuracy |" in text
    assert "wrong candidates accepted" not in report(calibrate(graded, n_labelled=12, seed=3, resamples=50))


def test_a_weighted_member_counts_by_its_weight_as_the_supervisor_merges_it(tmp_path: Path) -> None:
    """S5-exec standing on a weak suite (``--mutation-check``) carries its mutation score as its
    weight in the verdict; calibration's team score weighs it the same way (``team_mean``)."""
    from sejury.calibrate import team_scores
    from sejury.schema import team_mean

    row = verdict(0, 2, {"direct": 80, "test_pass": 20})
    row["strategies"]["test_pass"]["weight"] = 0.25  # type: ignore[index]
    other = verdict(1, 1, {"direct": 60, "test_pass": 40})  # no weight: an older verdict, in full
    recs = read_run(write(tmp_path, [row, other]))
    assert recs[0].weights == {S.TEST_PASS: 0.25} and recs[1].weights == {}
    (_, a), (_, b) = team_scores(recs, [S.DIRECT, S.TEST_PASS])
    assert a == pytest.approx((80 + 0.25 * 20) / 1.25) and b == pytest.approx(50)
    assert team_mean([80, 20], [1, 0.25]) == pytest.approx(a)
    assert team_mean([20], [0.0]) == 20 and team_mean([30, 50], [0, 0]) == 40  # nothing outweighs it
    assert team_mean([], []) is None


def test_paper_protocol_maps_to_the_scale_and_rounds() -> None:
    recs = [Record(sample_id=str(i), task="code_generation", human=h, scores={S.DIRECT: d},
                   scale={"low": 0, "high": 4}) for i, (h, d) in enumerate([(0, 10), (1, 30), (3, 70), (4, 90)])]
    # 10 -> 0.4 -> 0; 30 -> 1.2 -> 1; 70 -> 2.8 -> 3; 90 -> 3.6 -> 4: exactly the human grades
    t = score_team(recs, [S.DIRECT], protocol="paper", round_mean=True)
    assert t.tau == pytest.approx(1.0)


def test_calibration_picks_the_informative_team_and_excludes_the_labelled(tmp_path: Path) -> None:
    records = read_run(write(tmp_path, synthetic()))
    cal = calibrate(records, n_labelled=20, seed=7, resamples=200)
    assert S.DIRECT in cal.chosen.members and S.RETHINK not in cal.chosen.members
    assert cal.evaluation is not None and cal.evaluation.n == 20  # only the other 20
    assert not set(cal.labelled_ids) & {r.sample_id for i, r in enumerate(records)
                                        if i not in set(labelled_indices(40, 20, 7))}
    assert cal.evaluation.ci is not None and cal.evaluation.ci.low <= cal.evaluation.mean <= cal.evaluation.ci.high
    assert all(cal.teams[i].mean >= cal.teams[i + 1].mean for i in range(len(cal.teams) - 1))
    assert S("equivalence") not in {m for t in cal.teams for m in t.members}  # never scored: not a member
    text = report(cal, max_teams=2)
    assert f"(best first; 2 of {len(cal.teams)})" in text and f"{len(cal.teams) - 2} more teams" in text


def test_against_pass_fail_labels_the_pass_mark_is_chosen_on_the_labelled_set(tmp_path: Path) -> None:
    # a juror whose right candidates score 100 and wrong ones 60-90 (they fail a test or two): at 50
    # it accepts every wrong one; the pass mark with the best accuracy on the labelled set is 100
    rng = random.Random(4)
    rows = []
    for i in range(40):
        ok = i % 3 == 0
        rows.append(verdict(i, 1.0 if ok else 0.0, {"direct": 100.0 if ok else rng.choice([60.0, 75.0, 90.0])},
                            scale="0-1"))
    cal = calibrate(read_run(write(tmp_path, rows)), n_labelled=20, seed=7, resamples=50)
    assert cal.threshold == 100.0 and cal.evaluation is not None
    e = cal.evaluation
    assert (e.threshold, e.wrong_accepted, e.accuracy) == (100.0, 0, 1.0) and e.wrong
    at_50 = score_team(read_run(write(tmp_path, rows)), [S.DIRECT])  # the default mark accepts every wrong one
    assert at_50.threshold == 50.0 and at_50.wrong_accepted == at_50.wrong == 26
    assert "at the pass mark 100 (chosen on the labelled set" in report(cal)
    tf = cal.team_file()
    assert tf.threshold == 100.0
    assert TeamFile.model_validate_json(tf.model_dump_json()).threshold == 100.0
    # graded labels: no pass mark
    graded = [verdict(i, float(i % 5), {"direct": float(20 * (i % 5))}) for i in range(40)]
    assert calibrate(read_run(write(tmp_path, graded)), n_labelled=20, seed=7, resamples=0).threshold is None


def test_the_report_says_how_settled_the_choice_is_on_resamples_of_the_labelled_set(tmp_path: Path) -> None:
    # direct tracks the grade closely: chosen again in (nearly) every resample
    clear = calibrate(read_run(write(tmp_path, synthetic())), n_labelled=20, seed=7, resamples=200)
    assert clear.stability_resamples == 200 and clear.stability[0].members == clear.chosen.members
    assert clear.stability[0].share >= 0.9 and sum(s.share for s in clear.stability) == pytest.approx(1.0)
    assert "do not settle the choice" not in report(clear)
    # three jurors of pure noise: whichever wins on the 20, the resamples disagree
    rng = random.Random(5)
    noise = [verdict(i, rng.randint(0, 4), {"direct": rng.uniform(0, 100), "rethink": rng.uniform(0, 100),
                                            "bleu": rng.uniform(0, 100)}) for i in range(40)]
    vague = calibrate(read_run(write(tmp_path, noise)), n_labelled=20, seed=7, resamples=200)
    mine = {tuple(s.members): s.share for s in vague.stability}.get(tuple(vague.chosen.members), 0.0)
    assert mine < 0.5 and len(vague.stability) >= 3
    text = report(vague)
    assert f"Chosen again in {100 * mine:.0f} % of 200 bootstrap resamples" in text
    assert "The labels do not settle the choice" in text
    # the RQ experiments calibrate many times without intervals: no resamples, no line
    assert calibrate(read_run(write(tmp_path, noise)), n_labelled=20, seed=7, resamples=0).stability == []


def test_ties_go_to_the_cheaper_team() -> None:
    recs = [Record(sample_id=str(i), task="code_generation", human=i,
                   scores={S.DIRECT: i * 10, S.RETHINK: i * 10, S("bleu"): i * 10},
                   calls={S.DIRECT: 1, S.RETHINK: 1, S("bleu"): 0}, scale=Scale(low=0, high=100)) for i in range(6)]
    cal = calibrate(recs, labelled=[0, 1, 2, 3], resamples=50, protocol="paper")
    assert cal.chosen.members == [S.DIRECT, S("bleu")]  # as good as any, and one LLM call fewer
    # the default protocol also tries one juror alone: BLEU is as good and makes no call
    assert calibrate(recs, labelled=[0, 1, 2, 3], resamples=50).chosen.members == [S("bleu")]


def test_baselines_are_never_chosen_and_a_feeder_is_paid_for() -> None:
    # vanilla tracks the grade perfectly, but a baseline is only reported, never a team member
    recs = [Record(sample_id=str(i), task="code_generation", human=i,
                   scores={S.DIRECT: (i * 37) % 100, S("vanilla"): i * 10, S.TEST_PASS: i * 10},
                   calls={S.DIRECT: 1, S("vanilla"): 1, S.GENERATE_TESTS: 2, S.TEST_PASS: 0},
                   scale=Scale(low=0, high=100)) for i in range(8)]
    cal = calibrate(recs, labelled=[0, 1, 2, 3, 4], resamples=0, protocol="paper")
    assert all(S("vanilla") not in t.members for t in cal.teams)
    assert S("vanilla") not in [m.members[0] for m in cal.strategies]
    assert cal.chosen.members == [S.DIRECT, S.TEST_PASS]
    # the pass ratio makes no call itself, but S5 (its feeder) runs for it: 1 + 2 calls
    assert cal.chosen.llm_calls == 3
    # the default protocol: the evidence alone wins, still paying for S5, and the report says so
    alone = calibrate(recs, labelled=[0, 1, 2, 3, 4], resamples=0)
    assert alone.chosen.members == [S.TEST_PASS] and alone.chosen.llm_calls == 2
    assert all(S("vanilla") not in t.members for t in alone.teams)
    assert "**The evidence alone won**: S5-exec beat every team" in report(alone)
    assert "S5 writes the tests" in report(alone) and "no model call at all" not in report(alone)
    # a juror that needs no feeder (Ex-fuzz: the problem's own examples) makes no call at all
    free = [r.model_copy(update={"scores": {S.DIRECT: r.scores[S.DIRECT], S("example_fuzz"): r.scores[S.TEST_PASS]},
                                 "calls": {S.DIRECT: 1, S("example_fuzz"): 0}}) for r in recs]
    ex = calibrate(free, labelled=[0, 1, 2, 3, 4], resamples=0)
    assert ex.chosen.members == [S("example_fuzz")] and ex.chosen.llm_calls == 0
    assert "**The evidence alone won**: Ex-fuzz beat every team" in report(ex) and "no model call at all" in report(ex)
    assert "The evidence alone won" not in report(cal) and "the paper's rule" in report(cal)


def test_run_file_errors_name_line_and_field(tmp_path: Path) -> None:
    rows = synthetic(3)
    del rows[1]["metadata"]["human_score"]  # type: ignore[index]
    p = write(tmp_path, rows)
    with pytest.raises(InputError, match=r"run.jsonl:2: field 'metadata.human_score'"):
        read_run(p)
    p.write_text('{"sample_id": "x", "metadata": {"human_score": 1}}\n')
    with pytest.raises(InputError, match=r"run.jsonl:1: not a sejury verdict line"):
        read_run(p)


def test_cli_from_run_writes_a_team_file_the_judge_reads(tmp_path: Path) -> None:
    run = write(tmp_path, synthetic())
    team = tmp_path / "team.json"
    res = CliRunner().invoke(app, ["calibrate", "--from-run", str(run), "-o", str(team), "--seed", "7"])
    assert res.exit_code == 0, res.output
    tf = TeamFile.model_validate_json(team.read_text())
    assert tf.task == "code_generation" and S.DIRECT in tf.strategies
    assert tf.calibration["seed"] == 7 and tf.calibration["n_labelled"] == 20
    # per-member and per-team figures are recorded; the first team is the chosen one
    assert {m["members"][0] for m in tf.calibration["strategies"]} == {"direct", "rethink", "bleu"}
    teams = tf.calibration["teams"]
    # every non-empty team of the three members; S1 alone tracks the grade
    assert teams[0]["members"] == [s.value for s in tf.strategies] and len(teams) == 7
    assert set(teams[0]) == {"members", "merge", "tau", "rho", "mean", "llm_calls"}
    assert teams[0]["merge"] == "mean"  # no evidence juror here: only the mean is tried
    assert "# Calibration (code_generation, default protocol)" in (tmp_path / "team.md").read_text()
    from sejury.config import parse_team as _team

    assert _team(str(team)) == tf  # the supervisor's team source


def test_calibrate_run_is_the_whole_workflow_in_the_api(tmp_path: Path) -> None:
    """``calibrate.run``: judge the labelled draw with every juror, choose, judge the rest."""
    import re

    from langchain_core.messages import BaseMessage

    from sejury import calibrate as cal
    from sejury.config import JudgeConfig
    from tests.helpers.fakes import ScriptedChatModel, good_script

    def script(messages: list[BaseMessage]) -> str:  # S1 reads the grade off the problem; S2 is noise
        user = str(messages[1].content)
        grade = int(re.search(r"grade (\d)", user).group(1))  # type: ignore[union-attr]
        if "Task: re-check" in user:  # a score unrelated to the grade
            noise = int(re.search(r"x = (\d+)", user).group(1)) * 53 % 100  # type: ignore[union-attr]
            return f"Checks:\n- fine: TRUE\nScore: {noise}"
        reply = good_script(messages)
        return reply if "Score" not in reply else f"Reasons:\n- ok\nScore: {grade * 25}"

    rng = random.Random(5)
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"s{i}", "task": "code_generation", "problem": f"grade {g}", "candidate": f"x = {i}",
        "human_score": g}) + "\n" for i, g in enumerate(rng.randint(0, 4) for _ in range(12))))
    model = ScriptedChatModel(script=script)
    phases: list[tuple[str, int]] = []
    def progress(phase: str, total: int) -> None:
        phases.append((phase, total))

    result = cal.run(data, config=JudgeConfig(cache=False), model=model, n=8, seed=3, rest=4,
                     workdir=tmp_path / "work", progress=progress)
    assert phases == [("labelled", 8), ("rest", 4)]
    # without a reference only S1 and S2 score; S1 alone tracks the grades, and is chosen alone
    assert result.chosen.members == [S.DIRECT] and result.n_labelled == 8
    assert [t.members for t in result.teams] == [[S.DIRECT], [S.DIRECT, S.RETHINK], [S.RETHINK]]
    alone = {t.members[0]: t for t in result.strategies}
    assert alone[S.DIRECT].mean == pytest.approx(1.0) and alone[S.RETHINK].mean < 0.5
    assert result.evaluation is not None and result.evaluation.n == 4
    labelled = [json.loads(x)["sample_id"] for x in (tmp_path / "work" / "labelled.jsonl").read_text().splitlines()]
    rest = [json.loads(x)["sample_id"] for x in (tmp_path / "work" / "rest.jsonl").read_text().splitlines()]
    assert sorted(labelled) == sorted(result.labelled_ids) and len(rest) == 4 and not set(rest) & set(labelled)
    calls = model.calls
    cal.run(data, config=JudgeConfig(cache=False), model=model, n=8, seed=3, rest=4, workdir=tmp_path / "work")
    assert model.calls == calls  # resumed from the run files: nothing judged twice


def test_calibration_chooses_the_merge_rule_and_records_it(tmp_path: Path) -> None:
    """Pass/fail labels where half the wrong candidates pass every generated test but carry definitive
    evidence against them (``against``: a failing own test, tampering) and the opinion is noise: by the
    mean they tie with the right ones; evidence first keeps them below the pass mark."""
    rng = random.Random(7)
    rows = []
    for i in range(60):
        right = i % 2 == 0
        exec_score = 100.0 if right or i % 4 == 1 else rng.choice([50.0, 66.67, 75.0, 80.0, 90.0])
        row = verdict(i, 1.0 if right else 0.0, {"direct": rng.uniform(40, 100), "test_pass": exec_score},
                      scale="0-1")
        if not right and i % 4 == 1:
            row["strategies"]["test_pass"]["against"] = "fails the sample's test assert f(2) == 3"  # type: ignore[index]
        rows.append(row)
    cal = calibrate(read_run(write(tmp_path, rows)), n_labelled=30, seed=1, resamples=50)
    assert cal.chosen.merge == "evidence_first" and S.TEST_PASS in cal.chosen.members
    assert {t.merge for t in cal.teams} == {"mean", "evidence_first"}
    team = cal.team_file()
    assert team.merge == "evidence_first" and team.calibration["teams"][0]["merge"] == "evidence_first"
    text = report(cal)
    assert "merged by evidence first" in text and "(evidence first)" in text
    # a team with no evidence juror is only ever merged by the mean
    assert all(t.merge == "mean" for t in cal.teams if t.members == [S.DIRECT])


def test_an_evidence_first_pass_mark_is_chosen_and_scored_as_the_judge_merges_at_it() -> None:
    """Evidence first places the scores around the pass mark the judge uses: the calibrated mark is
    chosen, and its accuracy reported, with the team merged at that mark, not at 50."""
    from sejury.calibrate import Record, score_team
    from sejury.calibrate._select import pass_mark

    def rec(i: int, passed: bool, **scores: float) -> Record:
        return Record(sample_id=f"p{i}", task="code_generation", human=float(passed),
                      scores={Strategy(k): v for k, v in scores.items()})

    records = ([rec(i, True, direct=0, test_pass=100) for i in range(2)]          # the tests pass: right
               + [rec(10 + i, True, direct=95) for i in range(6)]                # no test ran: opinion decides
               + [rec(20 + i, False, direct=85) for i in range(6)])
    team = [Strategy("direct"), Strategy("test_pass")]
    mark = pass_mark(records, team, merge="evidence_first")
    assert mark is not None and 85 < mark <= 95
    scored = score_team(records, team, threshold=mark, merge="evidence_first")
    assert scored.accuracy == 1.0  # merged at 50, the two tested ones score 80 and would fail this mark
