"""Judging the judge: checks that say when a verdict, or the tests under it, can be trusted
(``sejury tests check``: ``suites.py`` over ``mutants.py``; ``report.py`` writes the outputs)."""
