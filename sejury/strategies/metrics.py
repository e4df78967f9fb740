"""The metric jurors (no model call): similarity of the candidate to the reference, 0-100, from the reference
implementations: BLEU (sentence-level, exponential smoothing) and ChrF++ (character n-grams plus
word bigrams) from sacrebleu, ROUGE-L (F-measure) from rouge-score, CodeBLEU from codebleu
(code only, in the languages its parsers cover), METEOR from NLTK (with the WordNet 3.0 database:
see ``wordnet``).
Cheap and, with a small model, often better correlated with human grades than the model's own
opinion; calibration decides whether a team leans on them.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import threading
import warnings
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from sejury import paths
from sejury.context import JudgeContext
from sejury.execution import languages
from sejury.schema import Sample, StrategyResult, Task
from sejury.scoring import ParsedReply
from sejury.strategies.base import Kind, Outcome, Recorder, StrategySpec, register
from sejury.workers import MIB, Worker, WorkerFailed


# the libraries load, and their versions are read, when a metric first runs or is keyed: the graph
# loads every juror's module, and a judge that computes no metric should not pay for them
@cache
def sacrebleu_version() -> str:
    return f"sacrebleu-{version('sacrebleu')}"


@cache
def rouge_version() -> str:
    return f"rouge-score-{version('rouge-score')}"


@cache
def codebleu_version() -> str:
    return f"codebleu-{version('codebleu')}-hashseed0"  # see _codebleu_worker


@cache
def _chrf() -> Any:
    from sacrebleu.metrics.chrf import CHRF

    return CHRF(word_order=2)  # chrF++


def applies(sample: Sample) -> str | None:
    return None if sample.reference else "no reference to compare with"


async def run_bleu(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    import sacrebleu

    # in a thread, as every metric here: 1 MB of text takes a second or two, and the loop judges others meanwhile
    score = (await asyncio.to_thread(sacrebleu.sentence_bleu, sample.candidate, [sample.reference or ""])).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": sacrebleu_version()})


async def run_chrf(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = (await asyncio.to_thread(_chrf().sentence_score, sample.candidate, [sample.reference or ""])).score
    return Outcome(ParsedReply(score=round(min(100.0, max(0.0, score)), 4)), artifacts={"metric": sacrebleu_version()})


def applies_codebleu(sample: Sample) -> str | None:
    if sample.task is Task.CODE_SUMMARIZATION:
        return "CodeBLEU compares code, not summaries"
    if _codebleu_name(sample.language) is None:
        return f"CodeBLEU has no parser for {sample.language!r} here"
    return applies(sample)


def _codebleu_name(language: str) -> str | None:
    lang = languages.get(language)
    return lang.codebleu if lang else None


@cache
def _rouge() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"])  # built once, not per sample


# rouge-score finds the longest common subsequence with a full table of the two texts' tokens, in
# Python: time and memory grow with their product (6,000 x 6,000 tokens took 6.9 s; two 1 MB texts,
# ~200,000 tokens each, would need hours and hundreds of GB).  The largest pair in the shared data
# is 223 x 1,432 tokens (an APR patch); a pair over this bound is left unscored, with the reason.
ROUGE_L_PAIRS = 4_000_000


def _rouge_l(reference: str, candidate: str) -> tuple[float | None, str | None]:
    from rouge_score import tokenize

    pairs = len(tokenize.tokenize(reference, None)) * len(tokenize.tokenize(candidate, None))
    if pairs > ROUGE_L_PAIRS:
        return None, (f"ROUGE-L compares every token of the reference with every token of the candidate: "
                      f"{pairs:,} pairs, over the {ROUGE_L_PAIRS:,} it reads")
    return _rouge().score(reference, candidate)["rougeL"].fmeasure, None


async def run_rouge_l(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    f, why = await asyncio.to_thread(_rouge_l, sample.reference or "", sample.candidate)  # the loop stays free
    if f is None:
        return Outcome(None, detail=why)
    return Outcome(ParsedReply(score=round(100 * f, 4)), artifacts={"metric": "rouge-score rougeL F"})


# One long-lived ``_codebleu_worker`` process (hash seed fixed: codebleu's data-flow score otherwise
# changes from one interpreter to the next), one request at a time, restarted once if it dies.  Its
# tree-sitter parses read the candidate, so it runs within a memory and a time limit (``workers``).
_codebleu = Worker("sejury.strategies._codebleu_worker", memory=1024 * MIB, seconds=120, what="CodeBLEU",
                   env={"PYTHONHASHSEED": "0"}, retries=1)


def _codebleu_scores(reference: str, candidate: str, lang: str) -> dict[str, float]:
    try:
        res = _codebleu.ask({"references": [reference], "predictions": [candidate], "lang": lang})
    except WorkerFailed as exc:
        raise RuntimeError(str(exc)) from None
    if "error" in res:
        raise RuntimeError(f"CodeBLEU: {res['error']}")
    return {k: float(v) for k, v in res.items()}




async def run_codebleu(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    res = await asyncio.to_thread(_codebleu_scores, sample.reference or "", sample.candidate,
                                  _codebleu_name(sample.language) or sample.language)
    return Outcome(ParsedReply(score=round(100 * float(res["codebleu"]), 4)),
                   artifacts={"metric": "codebleu", "parts": {k: round(float(v), 4) for k, v in res.items()}})


# --- METEOR ---------------------------------------------------------------------------------
# NLTK's METEOR needs WordNet, which NLTK downloads at run time (impossible offline).  Debian's
# `wordnet-base` ships the same WordNet 3.0 database files, minus `lexnames` (a fixed table of the
# 45 lexicographer files, documented in lexnames(5WN)); NLTK's reader takes such a folder once
# `lexnames` is beside them.  Its path check refuses symlinks and hard links out of the folder, so
# the files (28 MB) are copied into ~/.cache/sejury/wordnet once.
WORDNET_DIRS = ("/usr/share/wordnet",)
_LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute",
    "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
    "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant",
    "noun.possession", "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state",
    "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition", "verb.communication",
    "verb.competition", "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
_WN_FILES = [f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")] + \
    [f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")]
_TOKEN = re.compile(r"\w+|[^\w\s]")


def wordnet_source() -> Path | None:
    """A WordNet 3.0 database folder: $SEJURY_WORDNET, else Debian's wordnet-base."""
    named = paths.wordnet_named()
    for d in [*([named] if named else []), *map(Path, WORDNET_DIRS)]:
        if all((d / f).is_file() for f in _WN_FILES):
            return d
    return None


def _prepare_wordnet(src: Path) -> Path:
    dest = paths.wordnet_dir()
    dest.mkdir(parents=True, exist_ok=True)
    for name in [*_WN_FILES, "cntlist.rev"]:
        if (src / name).is_file() and not (dest / name).exists():
            part = dest / f".{name}.{os.getpid()}.part"
            shutil.copyfile(src / name, part)
            part.replace(dest / name)
    lexnames = (src / "lexnames").read_text() if (src / "lexnames").is_file() else "".join(
        f"{i:02d}\t{n}\t{_CATEGORY[n.split('.')[0]]}\n" for i, n in enumerate(_LEXNAMES))
    target = dest / "lexnames"
    if not target.is_file() or target.read_text() != lexnames:  # atomic: other runs may be reading it
        part = dest / f".lexnames.{os.getpid()}.part"
        part.write_text(lexnames)
        part.replace(target)
    return dest


@cache
def _wordnet() -> Any:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    src = wordnet_source()
    if src is None:
        raise FileNotFoundError("no WordNet database")
    root = _prepare_wordnet(src)
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    class WordNet30(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # this is WordNet 3.0 itself: no mapping to NLTK's downloadable copy

    with warnings.catch_warnings():  # "multilingual functions are not available": not used
        warnings.simplefilter("ignore")
        return WordNet30(str(root), None)


def meteor_version() -> str:
    return f"nltk-{version('nltk')}-meteor-wordnet-3.0"


def applies_meteor(sample: Sample) -> str | None:
    if wordnet_source() is None:
        return ("METEOR needs the WordNet 3.0 database: apt-get install wordnet-base, or set "
                "SEJURY_WORDNET to a WordNet dict folder")
    return applies(sample)


_WORDNET_LOCK = threading.Lock()


def meteor(reference: str, candidate: str) -> float:
    """NLTK's METEOR (default alpha, beta, gamma; Porter stems and WordNet synonyms) on word and
    punctuation tokens, lower-cased, as 0-100.  One at a time, reader construction included: NLTK's
    WordNet reader seeks and reads shared file handles (a batch of concurrent samples once failed on
    a garbled data line)."""
    from nltk.translate.meteor_score import meteor_score

    ref, hyp = _TOKEN.findall(reference.lower()), _TOKEN.findall(candidate.lower())
    if not ref or not hyp:
        return 0.0
    with _WORDNET_LOCK:
        return 100 * float(meteor_score([ref], hyp, wordnet=_wordnet()))


async def run_meteor(sample: Sample, ctx: JudgeContext, rec: Recorder, feed: StrategyResult | None) -> Outcome:
    score = await asyncio.to_thread(meteor, sample.reference or "", sample.candidate)
    return Outcome(ParsedReply(score=round(score, 4)), artifacts={"metric": meteor_version()})


def _metric(value: str, paper_name: str, run: Any, rank: float, version: Any, applies: Any = applies,
            aliases: tuple[str, ...] = (), summary: str = "") -> StrategySpec:
    return register(StrategySpec(value=value, paper_name=paper_name, kind=Kind.METRIC, run=run, rank=rank,
                                 version=version, applies=applies, aliases=aliases, summary=summary))


BLEU_SPEC = _metric("bleu", "BLEU", run_bleu, 60, sacrebleu_version, summary="sentence BLEU against the reference")
CHRF_SPEC = _metric("chrf", "ChrF++", run_chrf, 61, sacrebleu_version, summary="character n-gram F-score (chrF++)")
ROUGE_L_SPEC = _metric("rouge_l", "ROUGE-L", run_rouge_l, 62, rouge_version,
                       summary="longest-common-subsequence F-measure")
CODEBLEU_SPEC = _metric("codebleu", "CodeBLEU", run_codebleu, 63, codebleu_version, applies_codebleu,
                        summary="BLEU with syntax and data-flow matches (code only)")
METEOR_SPEC = _metric("meteor", "METEOR", run_meteor, 64, meteor_version, applies_meteor,
                      summary="unigram matches with stems and WordNet synonyms")
