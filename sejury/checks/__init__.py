"""Judging the judge, above the API: ``sejury tests check`` (``suites.py``: are a dataset's tests
strong enough, by the reference's one-bug mutants of ``execution/mutants.py``; ``report.py`` writes
the outputs) and ``sejury probe`` (``probe.py`` over ``variants.py``: does a verdict move when it
should, and only then)."""
