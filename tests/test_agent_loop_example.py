"""examples/agent_loop.py end to end, as a user runs it: the embedded model, the Docker sandbox,
a small attempt budget.  The draft's verdict is deterministic (the problem's tests, really run);
what the model writes next is not, so the loop's outcome is reported, not asserted."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

pytestmark = [pytest.mark.embedded, pytest.mark.docker]


def test_the_agent_loop_feeds_failing_tests_back_and_ranks_the_retries() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "agent_loop.py"), "--attempts", "2", "--samples", "2"],
                       capture_output=True, text=True, timeout=900)
    print(r.stdout)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    # the buggy draft: 3 of the 5 tests pass, so it fails at the default threshold (all must pass)
    assert "FAIL: score 60/100 (threshold 100)." in r.stdout
    assert "Tests run (sample_tests): 3/5 of the sample's tests passed." in r.stdout
    assert "Failing test (sample_tests): assert second_largest([5, 5, 4]) == 4" in r.stdout
    # ... and the feedback went back to the model, which wrote two attempts; judge.rank chose one to judge
    assert "--- attempt 2: the model wrote 2; sejury ranked them ---" in r.stdout
    assert "--- attempt 2: sample 0 chosen ---" in r.stdout or "--- attempt 2: sample 1 chosen ---" in r.stdout
    assert r.stdout.count("--- sejury says ---") == 2
    assert ("PASSED after 2 attempt(s)" in r.stdout) is (r.returncode == 0)
