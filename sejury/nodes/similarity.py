"""Non-LLM jurors: similarity of the candidate to the reference, 0-100, with sacrebleu.

BLEU (sentence-level, exponential smoothing) and ChrF++ (character n-grams plus word bigrams).
Cheap and, with a small model, often better correlated with human grades than the model's own
opinion; calibration decides whether a team leans on them.
"""

from __future__ import annotations

import sacrebleu
from sacrebleu.metrics.chrf import CHRF

from sejury.graph.context import JudgeContext
from sejury.nodes._base import Outcome, Recorder
from sejury.schema import Sample, StrategyResult
from sejury.scoring import ParsedReply

VERSION = f"sacrebleu-{sacrebleu.__version__}"
_CHRF = CHRF(word_order=2)  # chrF++


def applies(sample: Sample) -> str | None:
    return None if sample.reference else "no reference to compare with"


async def run_bleu(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = sacrebleu.sentence_bleu(sample.candidate, [sample.reference or ""]).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": VERSION})


async def run_chrf(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = _CHRF.sentence_score(sample.candidate, [sample.reference or ""]).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": VERSION})
