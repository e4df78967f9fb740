"""`sejury trace rID --html`: a ranking's or a comparison's trace as one standalone page (it wrote
nothing before, and said nothing).  The page is checked in a real browser in test_trace_page.py."""

from __future__ import annotations

import re
from pathlib import Path

from ranking_pages import COMPARISON, RANKING, stored
from typer.testing import CliRunner

from sejury.cli import app


def test_a_ranking_and_a_comparison_are_written_as_standalone_pages(tmp_path: Path) -> None:
    rank_id, compare_id = stored(tmp_path / "traces.sqlite")
    pages = {}
    for rid, name in ((rank_id, "ranking"), (compare_id, "comparison")):
        page = tmp_path / "out" / f"{name}.html"
        res = CliRunner().invoke(app, ["trace", rid, "--html", str(page),
                                       "--store", str(tmp_path / "traces.sqlite")])
        assert res.exit_code == 0, res.output
        assert f"wrote {page}" in res.output.replace("\n", "") and f"{name} {rid}" in res.output.replace("\n", "")
        pages[name] = page.read_text(encoding="utf-8")

    ranking = pages["ranking"]
    assert "default-src &#x27;none&#x27;" in ranking or "default-src 'none'" in ranking
    assert "<script" not in ranking and "evil.example/x.png\">" not in ranking  # every stored string escaped
    assert "&lt;/pre&gt;&lt;script&gt;" in ranking
    assert "chose add-1, score 100" in ranking and "needs review" in ranking
    assert "not validated: no reference, attempts count by agreement; 2 written once; 5 inputs recorded" in ranking
    rows = re.findall(r'<tr class="attempt-row">(.*?)</tr>', ranking)
    assert len(rows) == len(RANKING.candidates) == 3
    assert "add-1" in rows[0] and "chosen" in rows[0] and "does not load" in rows[2]
    assert ranking.count('class="call llm-call"') == 1 and ranking.count('class="run"') == 2
    assert "The tests the model wrote" in ranking and "1 model call · 3 sandbox runs · 4.2 s" in ranking

    comparison = pages["comparison"]
    assert "add-1 is better" in comparison and "decided by</dt><dd>model" in comparison
    assert "A/B: b, B/A: a; its choice followed the position: counted a tie" in comparison
    assert len(re.findall(r'<tr class="attempt-row">', comparison)) == 2
    assert comparison.count('class="run"') == len(COMPARISON.events) - 1


def test_an_unknown_ranking_id_fails_clearly(tmp_path: Path) -> None:
    stored(tmp_path / "traces.sqlite")
    res = CliRunner().invoke(app, ["trace", "rzzzz", "--html", str(tmp_path / "x.html"),
                                   "--store", str(tmp_path / "traces.sqlite")])
    assert res.exit_code != 0 and "rzzzz" in res.output and not (tmp_path / "x.html").exists()


def test_the_recent_rankings_and_comparisons_are_listed(tmp_path: Path) -> None:
    import json

    rank_id, compare_id = stored(tmp_path / "traces.sqlite")
    store = ["--store", str(tmp_path / "traces.sqlite")]
    res = CliRunner().invoke(app, ["trace", "--list", "--rankings", "--json", *store])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [(r["ranking_id"], r["kind"]) for r in rows] == [(compare_id, "compare"), (rank_id, "rank")]
    shown = CliRunner().invoke(app, ["trace", "--rankings", *store], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and rank_id in shown.output and compare_id in shown.output
    assert "recent rankings and comparisons" in shown.output
    judgments = CliRunner().invoke(app, ["trace", "--list", "--json", *store])
    assert judgments.exit_code == 0 and judgments.output == ""  # --list alone: judgments, as before
