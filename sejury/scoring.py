"""The one way to read a score (and its reasons) from a judge's reply.

Rules, in order:
1. A reply cut off by the token limit is not trusted: its last "score" may be an echo of the data.
2. If the reply echoes one of our data blocks, only the text after the last block end is read,
   so a ``Score: 100`` planted in the candidate cannot win.
3. Of every ``Score: N`` / ``Final score = N`` / ``N [END]`` match, the last one wins.
4. The score must lie in 0..100; anything else is a parse failure, never a silent 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sejury.errors import ScoreParseError

PARSER_VERSION = "2"

# `Score: 85`, `**Final Score**: 85/100`, `score = 85.5`, `SCORE - 85`
_LABELLED = re.compile(
    r"(?i)\b(?:final\s+|overall\s+|correctness\s+)?score\b\**\s*(?:\(0\s*-\s*100\))?\s*[:=\-]\s*\**\s*"
    r"(-?\d{1,3}(?:\.\d+)?)\s*(?:/\s*100|%)?"
)
# `85 [END]` (the paper's format)
_END_TAG = re.compile(r"(-?\d{1,3}(?:\.\d+)?)\s*\[END\]", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*\S)\s*$")
_DATA_END = re.compile(r"\[END [A-Z ]+\]")
_DATA_MARKER = re.compile(r"\[(BEGIN|END) [A-Z ]+\]")


@dataclass(frozen=True)
class ParsedReply:
    score: float
    reasons: list[str] = field(default_factory=list)


def _verdict_region(text: str) -> str:
    ends = list(_DATA_END.finditer(text))
    return text[ends[-1].end():] if ends else text


def parse_score(text: str | None, *, finish_reason: str | None = None) -> ParsedReply:
    """Read the final 0-100 score and the bullet reasons before it; raise ScoreParseError."""
    if text is None or not text.strip():
        raise ScoreParseError("empty reply")
    if finish_reason == "length":
        raise ScoreParseError("reply cut off by the token limit before it finished")
    region = _verdict_region(text)
    matches = [(m.start(), m.group(1)) for m in _LABELLED.finditer(region)]
    matches += [(m.start(), m.group(1)) for m in _END_TAG.finditer(region)]
    if not matches:
        raise ScoreParseError("no 'Score: N' line in the reply")
    pos, raw = max(matches)
    score = float(raw)
    if not 0 <= score <= 100:
        raise ScoreParseError(f"score {raw} is outside 0-100")
    reasons = parse_bullets(region[:pos])
    if not reasons and region is not text:
        # the reply echoed a block marker as an item: reasons (never the score) may come from before it
        before = text[: len(text) - len(region) + pos]
        stripped = (_DATA_MARKER.sub("", b).strip(" -:>") for b in parse_bullets(before))
        reasons = [r for r in stripped if r]
    return ParsedReply(score=score, reasons=reasons)


def parse_bullets(text: str) -> list[str]:
    """Bullet or numbered lines, in order (reasons, properties, test verdicts)."""
    out = []
    for line in text.splitlines():
        m = _BULLET.match(line)
        if m:
            out.append(m.group(1).strip())
    return out


_CODE_BLOCK = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)


def extract_code(text: str) -> str:
    """The contents of the fenced code blocks of a reply (all of them, joined); else the reply."""
    blocks = [b.strip("\n") for b in _CODE_BLOCK.findall(text)]
    blocks = [b for b in blocks if b.strip()]
    return "\n\n".join(blocks) if blocks else text.strip()


# ICE-Score's replies: "Functional Correctness (scores ONLY): 3", "Score: 3", or a bare "3".
RUBRIC_PARSER_VERSION = "1"
_RUBRIC_LABELLED = re.compile(
    r"(?i)\b(?:score|correctness|adequacy)\b[^:=\n]{0,40}[:=]\s*\**\s*(-?\d+(?:\.\d+)?)(?:\s*/\s*(\d+))?")
_BARE_NUMBER = re.compile(r"^\s*\**\s*(-?\d+(?:\.\d+)?)\s*\**\s*\.?\s*$")


def parse_rubric_score(text: str | None, *, finish_reason: str | None = None, low: float = 0,
                       high: float = 4) -> ParsedReply:
    """A score on a small rubric scale (ICE-Score's 0-4), mapped linearly to 0-100.

    The last labelled number after our data blocks wins; a reply that is only a number counts too.
    Out of range, missing or cut off: a parse failure, never a silent 0."""
    if text is None or not text.strip():
        raise ScoreParseError("empty reply")
    if finish_reason == "length":
        raise ScoreParseError("reply cut off by the token limit before it finished")
    region = _verdict_region(text)
    labelled = list(_RUBRIC_LABELLED.finditer(region))
    if labelled:
        m = labelled[-1]
        if m.group(2) and float(m.group(2)) != high:
            raise ScoreParseError(f"score {m.group(1)}/{m.group(2)} is not on the {low:g}-{high:g} scale")
        raw = m.group(1)
    elif bare := _BARE_NUMBER.match(region):
        raw = bare.group(1)
    else:
        raise ScoreParseError(f"no {low:g}-{high:g} score in the reply")
    value = float(raw)
    if not low <= value <= high:
        raise ScoreParseError(f"score {raw} is outside {low:g}-{high:g}")
    return ParsedReply(score=round(100 * (value - low) / (high - low), 4), reasons=[])
