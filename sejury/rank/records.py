"""What ranking reads and returns: each attempt's behaviour in the sandbox, and the ranking."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sejury.execution.languages import canonical_language
from sejury.schema import TraceEvent

Winner = Literal["a", "b", "tie"]  # the model's choice between two attempts (``compare``)
TieBreakOption = Literal["model", "none"]
FormOption = Literal["stdio", "function"] | None
FORM_HELP = ("'stdio': the attempts are programs that read stdin and print, run on the problem's Input/Output "
             "examples, your tests and mutations of them; 'function': they are not. Found from the problem and the "
             "attempts when not given.")
MAX_TIED_BEHAVIOURS = 4  # the tie-break's round-robin: k tied behaviours cost k(k-1) model calls
TIE_BREAK_HELP = (
    "'model': where attempts that behave differently share the top score, the model chooses between them "
    "(compare's question, asked in both orders: a choice that follows the order is none; at most "
    f"{MAX_TIED_BEHAVIOURS} behaviours, 2 model calls per pair; the choice still needs review). 'none' (the "
    "default until it is measured): agreement, then the input order.")


class Behaviour(BaseModel):
    """One attempt's run of the problem's probe suite: the generated tests and the example inputs."""

    loaded: bool  # the program loads or compiles
    load_error: str = ""
    passed: list[bool] = Field(default_factory=list)  # per generated test (the suite's test units)
    values: dict[int, list[str]] = Field(default_factory=dict)  # recorded values per probe unit
    user_passed: list[bool] | None = None  # per test of the user's own (None: the user gave none)
    seconds: float = 0.0
    tampering: list[str] = Field(default_factory=list)  # what the sealed harness saw it do to the run


class RankedCandidate(BaseModel):
    """One attempt, where it ranks and on what evidence."""

    index: int  # its position in the input
    id: str | None = None
    rank: int  # 1: the chosen one
    score: float  # 0-100 (the ranking's own scale: see ``Ranking.rule``)
    group: int  # attempts with the same behaviour on every probe input share a group (1: the top one's)
    support: float  # how many loaded attempts behave like this one (each counted by the share of inputs agreed)
    loaded: bool
    tests_passed: int = 0  # generated tests (the valid ones, with a reference)
    tests_total: int = 0
    agreed: int | None = None  # with a reference: inputs on which it returned the reference's value
    inputs: int | None = None  # of them, inputs the reference answered
    user_tests_passed: int | None = None
    user_tests_total: int | None = None
    # without a reference: the problem's examples with a stated output (those some attempt returns)
    examples_passed: int | None = None
    examples_total: int | None = None
    needs_review: bool = False
    reasons: list[str] = Field(default_factory=list)  # what the score rests on, and why to review it


class TiePair(BaseModel):
    """Two tied behaviours, one attempt each, put to the model in both orders (``compare``'s prompt)."""

    a: int  # the attempts (their index in the input)
    b: int
    verdicts: list[Winner | None]  # with a shown first, then with b shown first, as a/b; None: unreadable, no vote
    replies: list[str]  # the model's (last) reply in each order, as the trace keeps it
    winner: Winner  # "tie" unless both orders were read and the choice did not follow the position
    flipped: bool = False  # the choice followed the position (the one shown first both times): a tie
    outcome: str = ""  # in words, by attempt

    @property
    def counted(self) -> str:
        """What the pair counted for: "won" (a choice in both orders read, not the position's), "flipped"
        (the position decided: a tie), "unreadable" (an order's reply could not be read: no win) or
        "alike" (the model found them alike)."""
        if self.winner != "tie":
            return "won"
        return "flipped" if self.flipped else "unreadable" if None in self.verdicts else "alike"


class TieBreak(BaseModel):
    """The model's round-robin among the behaviours that share the top score (``tie_break="model"``)."""

    score: float  # the score they share
    attempts: list[int]  # one attempt per tied behaviour asked (the first in the evidence's order), in that order
    not_asked: list[int] = Field(default_factory=list)  # tied behaviours beyond the cap: they follow, in order
    pairs: list[TiePair] = Field(default_factory=list)
    wins: list[int] = Field(default_factory=list)  # per attempt asked: the pairs it won
    # the attempts asked, by wins, then the evidence's order (applied where some pair was won)
    order: list[int] = Field(default_factory=list)
    chosen: int | None = None  # the attempt whose behaviour won every pair it was in (None: not settled)
    model_calls: int = 0
    seconds: float = 0.0

    def why_not_settled(self) -> str:
        """Why no attempt won every pair it was in, in words ("" when the model settled it)."""
        if self.chosen is not None:
            return ""
        counted = [p.counted for p in self.pairs]
        said = [f"{n} pair{'s' if n > 1 else ''} {what}" for n, what in (
            (counted.count("flipped"), "chosen by the position, not the code (counted a tie)"),
            (counted.count("alike"), "found alike"),
            (counted.count("unreadable"), "with a reply unreadable (no vote)")) if n]
        if any(self.wins):
            said.append("no attempt won every pair it was in")
        return "; ".join(said)


class Ranking(BaseModel):
    """The attempts at one problem, best first, and the one chosen."""

    problem_id: str
    language: str
    chosen: int | None  # index (in the input) of the chosen attempt; None when no attempt loads
    validated: bool  # the tests were checked on a reference (else they count by agreement)
    rule: str  # how the score was computed, in words
    candidates: list[RankedCandidate]  # best first
    needs_review: bool
    reasons: list[str] = Field(default_factory=list)  # why the choice needs a human's look
    tests: str = ""  # the tests the model wrote, once for every attempt
    tests_total: int = 0  # test units read from them and run (those inside the problem's domain)
    tests_out_of_domain: int = 0  # test units left out: they call the function outside the domain its examples show
    outside_domain: list[str] = Field(default_factory=list)  # the first such calls
    tests_valid: int | None = None  # with a reference: of them, those the reference passes
    probe_inputs: int = 0  # units whose calls are recorded (tests and example inputs)
    model_calls: int = 0
    sandbox_runs: int = 0
    seconds: float = 0.0
    events: list[TraceEvent] = Field(default_factory=list)  # the trace: the model call and every run
    trace_id: str | None = None  # where the trace store keeps it (``sejury trace ID``)
    # the model's tie-break, where it was asked (``tie_break="model"`` and a tie of different behaviours)
    tie_break: TieBreak | None = None
    # where the tie-break was asked for but nothing was put to the model: why ("not needed: ...",
    # "not possible: ..."); "" otherwise
    tie_break_skipped: str = ""

    @property
    def left_out(self) -> str:
        """What the tests' line says of the tests left out ("" when none was): the table's and the
        page's words."""
        if not self.tests_out_of_domain or not self.outside_domain:
            return ""
        return (f" ({self.tests_out_of_domain} more left out: outside the problem's domain, e.g. "
                f"{self.outside_domain[0][:80]})")

    @property
    def written_tests(self) -> str | None:
        """The tests' clause of the table's footer and the page ("3 tests written once, 3 valid on the
        reference (...)"); None where no test was read and none validated (programs are ranked on
        inputs, without tests)."""
        if not self.tests_total and self.tests_valid is None:
            return None
        return (f"{self.tests_total} tests written once"
                + (f", {self.tests_valid} valid on the reference" if self.tests_valid is not None else "")
                + self.left_out)

    def attempt_name(self, index: int) -> str:
        """``#3`` or ``#3 (its id)``: an attempt as the table's head and the tie-break's words name it."""
        given = next((c.id for c in self.candidates if c.index == index), None)
        return f"#{index}" + (f" ({given})" if given else "")

    @property
    def tie_break_line(self) -> str:
        """The model's tie-break in one line ("" when it was not asked for): the table's and the page's
        words.  Ids are the attempts' own: escape the line where it is shown."""
        tb = self.tie_break
        if tb is None:
            return f"asked for, {self.tie_break_skipped}" if self.tie_break_skipped else ""
        calls = f"{tb.model_calls} model call{'s' if tb.model_calls != 1 else ''}"
        beyond = (f"; {len(tb.not_asked)} more tied behaviour(s) not asked (at most {MAX_TIED_BEHAVIOURS} are): "
                  + ", ".join(self.attempt_name(i) for i in tb.not_asked)) if tb.not_asked else ""
        if tb.chosen is not None:
            n = len(tb.attempts) - 1
            return (f"the model chose {self.attempt_name(tb.chosen)} among {len(tb.attempts)} tied behaviours "
                    f"at score {tb.score:g}: it won {'its pair' if n == 1 else f'all {n} of its pairs'}, asked in both "
                    f"orders ({calls}){beyond}")
        kept = ("the order is by pairs won, then the evidence's" if any(tb.wins) else
                "the order stays the evidence's")
        first = self.attempt_name(self.chosen) if self.chosen is not None else "none"
        return (f"the model did not settle the tie of {len(tb.attempts)} behaviours at score {tb.score:g}: "
                f"{tb.why_not_settled()}; {kept}, so {first} comes first ({calls}){beyond}")

    @property
    def best(self) -> RankedCandidate | None:
        return self.candidates[0] if self.candidates and self.chosen is not None else None


MAX_ATTEMPTS = 64  # one request's attempts: each is a sandbox run


class RankRequest(BaseModel):
    """What ``/rank``, the rank tool and the rank graph take: one problem and its attempts."""

    model_config = ConfigDict(extra="forbid")

    problem: str = Field(min_length=1, description="The problem (prompt, signature, docstring).")
    candidates: list[str] = Field(min_length=1, max_length=MAX_ATTEMPTS, description="The attempts to rank.")
    language: str = "python"
    reference: str | None = Field(None, description="A known-correct solution: the tests are validated on it.")
    tests: str | None = Field(None, description="Your own tests: an attempt failing one ranks below all that pass.")
    problem_id: str = "problem"
    ids: list[str | None] | None = Field(None, description="The attempts' own ids, one per attempt.")
    tie_break: TieBreakOption = Field("none", description=TIE_BREAK_HELP)
    form: FormOption = Field(None, description=FORM_HELP)

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        return canonical_language(v)

    @model_validator(mode="after")
    def _ids(self) -> RankRequest:
        if self.ids is not None and len(self.ids) != len(self.candidates):
            raise ValueError(f"{len(self.ids)} ids for {len(self.candidates)} candidates")
        return self


class CompareRequest(BaseModel):
    """What ``/compare``, the compare tool and the compare graph take: one problem and two attempts."""

    model_config = ConfigDict(extra="forbid")

    problem: str = Field(min_length=1, description="The problem (prompt, signature, docstring).")
    a: str = Field(description="The first attempt.")
    b: str = Field(description="The second attempt.")
    language: str = "python"
    reference: str | None = Field(None, description="A known-correct solution: the tests are validated on it.")
    tests: str | None = Field(None, description="Your own tests: an attempt failing more of them loses.")
    problem_id: str = "problem"
    form: FormOption = Field(None, description=FORM_HELP)

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        return canonical_language(v)
