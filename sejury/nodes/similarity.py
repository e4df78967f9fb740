"""Non-LLM jurors: similarity of the candidate to the reference, 0-100, from the reference
implementations: BLEU (sentence-level, exponential smoothing) and ChrF++ (character n-grams plus
word bigrams) from sacrebleu, ROUGE-L (F-measure) from rouge-score, CodeBLEU from codebleu
(code only, in the languages its parsers cover).
Cheap and, with a small model, often better correlated with human grades than the model's own
opinion; calibration decides whether a team leans on them.
"""

from __future__ import annotations

import asyncio
from functools import cache
from importlib.metadata import version
from typing import Any

import sacrebleu
from sacrebleu.metrics.chrf import CHRF

from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder
from sejury.schema import Sample, StrategyResult, Task
from sejury.scoring import ParsedReply

VERSION = f"sacrebleu-{sacrebleu.__version__}"
ROUGE_VERSION = f"rouge-score-{version('rouge-score')}"
CODEBLEU_VERSION = f"codebleu-{version('codebleu')}"
CODEBLEU_LANGS = {"python": "python", "java": "java", "javascript": "javascript", "js": "javascript",
                  "go": "go", "cpp": "cpp", "c++": "cpp"}
_CHRF = CHRF(word_order=2)  # chrF++


def applies(sample: Sample) -> str | None:
    return None if sample.reference else "no reference to compare with"


async def run_bleu(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = sacrebleu.sentence_bleu(sample.candidate, [sample.reference or ""]).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": VERSION})


async def run_chrf(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = _CHRF.sentence_score(sample.candidate, [sample.reference or ""]).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": VERSION})


def applies_codebleu(sample: Sample) -> str | None:
    if sample.task is Task.CODE_SUMMARIZATION:
        return "CodeBLEU compares code, not summaries"
    if sample.language not in CODEBLEU_LANGS:
        return f"CodeBLEU has no parser for {sample.language!r} here"
    return applies(sample)


@cache
def _rouge() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"])  # built once, not per sample


async def run_rouge_l(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    f = _rouge().score(sample.reference or "", sample.candidate)["rougeL"].fmeasure
    return Outcome(ParsedReply(score=round(100 * f, 4)), artifacts={"metric": "rouge-score rougeL F"})


async def run_codebleu(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    from codebleu import calc_codebleu

    res = await asyncio.to_thread(calc_codebleu, [sample.reference or ""], [sample.candidate],
                                  lang=CODEBLEU_LANGS[sample.language])
    return Outcome(ParsedReply(score=round(100 * float(res["codebleu"]), 4)),
                   artifacts={"metric": "codebleu", "parts": {k: round(float(v), 4) for k, v in res.items()}})
