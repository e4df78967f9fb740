"""Best of N: rank several attempts at one problem by the evidence they share (``Judge.rank``).

Tests are written once per problem and, with the problem's example inputs and mutations of them,
run on every attempt in the sandbox (``evidence``).  With a reference the tests are validated on it
and each attempt is scored by its agreement with the reference; without one, attempts are scored
by CodeT's dual agreement: how many attempts behave alike, times how many tests they pass
(``agreement``).  Programs that read stdin and print run on the problem's Input/Output examples,
the user's tests and mutations of the examples instead (``programs``).  The records are pydantic
models (``records``)."""

from sejury.rank.records import Behaviour, RankedCandidate, Ranking, RankRequest

__all__ = ["Behaviour", "RankRequest", "RankedCandidate", "Ranking"]
