"""Calibration from a labelled dataset, end to end: judge the labelled set with every juror,
choose the team, judge the other samples with it, evaluate.  Run files go to ``workdir`` and are
resumed, so a killed calibration loses no finished judgment."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from langchain_core.language_models import BaseChatModel

from sejury.api import Judge, run_sync
from sejury.calibrate._records import read_run
from sejury.calibrate._select import Calibration, calibrate, labelled_indices
from sejury.config import JudgeConfig
from sejury.errors import InputError
from sejury.io import RunFile, read_jsonl
from sejury.llm import ChatClient
from sejury.schema import Sample, Strategy, Verdict
from sejury.strategies import spec

Progress = Callable[[str, int], Callable[[Sample, Verdict | BaseException], None] | None]


def run(data: str | Path, *, config: JudgeConfig | None = None, n: int = 20, seed: int = 0,
        protocol: Literal["default", "paper"] = "default", round_selection: bool = False,
        rest: int | None = None, label: str = "human_score", workdir: str | Path = "calibration",
        concurrency: int = 4, progress: Progress | None = None,
        model: BaseChatModel | ChatClient | None = None, also: Sequence[Strategy] = ()) -> Calibration:
    """Calibrate a team on ``n`` labelled samples of ``data`` (JSONL) drawn with ``seed``.

    Every juror but the baselines and the opt-in ones (``also`` adds those, e.g. S5-nl) judges the
    labelled set once (S5-exec too with
    ``config.execute``); the chosen team then judges the first ``rest`` other samples.  Each member
    is called once per sample content: a feeder runs once for its follower and as a member; a
    sample with the same content as another is judged once (``Judge.ajudge_many``); the held-out
    stage reuses the labelled stage's results through the cache, which with ``config.cache`` off is
    the calibration's own (``workdir/results.sqlite``), so a resumed calibration re-calls nothing
    either.
    ``progress(phase, total)`` may return a callback that sees each finished sample.  ``model``
    (any LangChain chat model, or a ``ChatClient``) overrides ``config.model``.

    >>> cal = run("../shared/data/conala.jsonl", n=20, seed=12345, rest=20)
    >>> cal.team_file().strategies
    """
    samples, errors = read_jsonl(data)
    if errors:
        raise errors[0]
    idx = labelled_indices(len(samples), n, seed)
    chosen_idx = set(idx)
    others = [i for i in range(len(samples)) if i not in chosen_idx][:rest]
    # every juror once per labelled sample (the opt-in variants when asked for)
    members = [s for s in Strategy if not s.is_baseline and (not spec(s).opt_in or s in also)]
    cfg = (config or JudgeConfig.build()).with_(team=members)
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    if not cfg.cache:  # still once per sample: a held-out sample like a labelled one, a resumed sample
        cfg = cfg.with_(cache=True, cache_path=work / "results.sqlite")  # reuse this calibration's results only
    judge = Judge(model, config=cfg)
    try:
        labelled_path = work / "labelled.jsonl"
        _judge_into(judge, [samples[i] for i in idx], labelled_path, concurrency, progress, "labelled")
        pre = {r.sample_id: r for r in read_run(labelled_path, label=label)}
        chosen = calibrate([pre[samples[i].id] for i in idx], labelled=range(len(idx)), seed=seed,
                           protocol=protocol, round_selection=round_selection)
        judge.context.team = chosen.chosen.members
        rest_path = work / "rest.jsonl"
        _judge_into(judge, [samples[i] for i in others], rest_path, concurrency, progress, "rest",
                    strict=False)  # a failed held-out sample is left out of the evaluation
    finally:
        judge.close()
    rest_recs = {r.sample_id: r for r in read_run(rest_path, label=label)} if rest_path.stat().st_size else {}
    order = sorted(idx) + others
    records = [pre[samples[i].id] if i in chosen_idx else rest_recs[samples[i].id] for i in order
               if samples[i].id in pre or samples[i].id in rest_recs]
    return calibrate(records, n_labelled=n, seed=seed, protocol=protocol, round_selection=round_selection,
                     labelled=list(range(len(idx))))


def _judge_into(judge: Judge, samples: list[Sample], path: Path, concurrency: int, progress: Progress | None,
                phase: str, *, strict: bool = True) -> None:
    run_file = RunFile(path)
    try:
        todo = [s for s in samples if s.id not in run_file.done]
        on_result = progress(phase, len(todo)) if progress else None
        failures = run_sync(judge.judge_into(todo, run_file, concurrency=concurrency, trace=False,
                                                on_result=on_result))
    finally:
        run_file.close()
    if failures and strict:
        raise InputError(f"{failures} sample(s) of the {phase} set failed; run again to retry them", file=str(path))
