"""The records calibration and evaluation read: one judged sample of a run file (a ``sejury batch``
output) each, with the members' scores, the labels and what the verdict recorded."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field

from sejury.errors import InputError
from sejury.io import text_lines
from sejury.roster import resolve
from sejury.schema import Scale, Strategy, Task


class Record(BaseModel):
    """One judged sample of a run file: the members' scores and the human label."""

    sample_id: str
    task: Task
    human: float
    scores: dict[Strategy, float]  # scored members only
    weights: dict[Strategy, float] = Field(default_factory=dict)  # below 1 only (``StrategyResult.weight``)
    calls: dict[Strategy, int] = Field(default_factory=dict)
    tokens: dict[Strategy, int] = Field(default_factory=dict)
    scale: Scale | None = None  # the human scale, from the sample's metadata ("0-4")
    annotations: dict[str, float] = Field(default_factory=dict)  # individual raters, when published
    test_passed: bool | None = None  # the benchmark's own test outcome (RQ4), when known
    unscored: list[Strategy] = Field(default_factory=list)  # run, but no score read (unscored or failed)
    # the jurors that reported definitive evidence against the candidate (``StrategyResult.against``)
    against: list[Strategy] = Field(default_factory=list)
    system: str | None = None  # the generator of the candidate (``metadata.system``), for the bias report
    problem: str | None = None  # the verdict's problem digest: candidates of one problem share it
    author: str | None = None  # who wrote the candidate (``metadata.author``: human or model), for the bias report
    repeat: int | None = None  # ``sejury batch --repeats``: which judgment of the sample
    model: str = ""
    prompt_version: str = ""


def read_run(path: str | Path, *, label: str = "human_score", repeats: bool = False) -> list[Record]:
    """Records from a ``sejury batch`` output; errors name the file, line and field.  A run judged
    with ``--repeats`` holds several verdicts per sample: only the first (repeat 0) is read, unless
    ``repeats`` (then every one, each with its ``repeat``)."""
    p = Path(path)
    records: list[Record] = []
    for n, raw in enumerate(text_lines(p), 1):
        if not raw.strip():
            continue
        try:
            v = json.loads(raw)
            repeat = v.get("repeat")
            if repeat and not repeats:
                continue
            meta = v.get("metadata") or {}
            human = meta.get(label)
            if human is None:
                raise InputError(f"no human label {label!r} in the verdict's metadata", file=str(p), line=n,
                                 field=f"metadata.{label}")
            scores, calls, tokens, unscored, weights, against = {}, {}, {}, [], {}, []
            for name, r in v["strategies"].items():
                s = resolve(name)  # ``direct@second``: a juror asked of a jury model, derived on first reading
                if r.get("against"):
                    against.append(s)
                calls[s] = int(r.get("llm_calls", 0))
                tokens[s] = int(r.get("prompt_tokens", 0)) + int(r.get("completion_tokens", 0))
                if r.get("status") == "scored" and r.get("score") is not None:
                    scores[s] = float(r["score"])
                    if float(r.get("weight", 1.0)) < 1:
                        weights[s] = float(r["weight"])
                elif r.get("status") in ("unscored", "failed"):
                    unscored.append(s)
            scale = Scale.parse(str(meta["scale"])) if meta.get("scale") else None
            raters = meta.get("human_scores") or {}
            passed = meta.get("test_passed")
            records.append(Record(sample_id=v["sample_id"], task=v["task"], human=float(human), scores=scores,
                                  weights=weights,
                                  calls=calls, tokens=tokens, scale=scale, model=v.get("model", ""),
                                  prompt_version=v.get("prompt_version", ""),
                                  annotations={str(k): float(x) for k, x in raters.items() if x is not None},
                                  test_passed=bool(passed) if passed is not None else None, unscored=unscored,
                                  against=against,
                                  system=str(meta["system"]) if meta.get("system") is not None else None,
                                  author=str(meta["author"]) if meta.get("author") is not None else None,
                                  repeat=int(repeat) if repeat is not None else None,
                                  problem=v.get("problem_digest")))
        except InputError:
            raise
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"not a sejury verdict line ({type(exc).__name__}: {exc})", file=str(p),
                             line=n) from None
    if not records:
        raise InputError("no verdicts in the run file", file=str(p))
    return records
