"""`sejury trace rID --html`: a ranking's or a comparison's trace as one standalone page (it wrote
nothing before, and said nothing).  The page is checked in a real browser in test_trace_page.py."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sejury.cli import app
from sejury.rank.records import Ranking
from tests.helpers.ranking_pages import COMPARISON, RANKING, stored


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


def _page(tmp_path: Path, record: Ranking, name: str) -> str:
    """``record``'s page as ``sejury trace rID --html`` writes it."""
    from tests.helpers.ranking_pages import store_one

    rid = store_one(tmp_path / "traces.sqlite", "rank", record)
    page = tmp_path / f"{name}.html"
    res = CliRunner().invoke(app, ["trace", rid, "--html", str(page), "--store", str(tmp_path / "traces.sqlite")])
    assert res.exit_code == 0, res.output
    return page.read_text(encoding="utf-8")


def test_the_tie_break_has_its_section_every_id_and_reply_escaped(tmp_path: Path) -> None:
    """--tie-break model: who was tied, each pair in both orders (a win, a flip, an unreadable reply),
    both replies, and the outcome; an id and replies with a script in them stay text."""
    from tests.helpers.ranking_pages import EVIL_ID, TIED

    html = _page(tmp_path, TIED, "tied")
    assert "<script" not in html and "evil.example/x.png\">" not in html
    evil = 'add-1 &lt;script&gt;alert(&quot;id&quot;)&lt;/script&gt;'
    assert EVIL_ID not in html and evil in html
    section = html.split('<section class="card" id="tie-break">', 1)[1].split("</section>", 1)[0]
    outcome = ("the model did not settle the tie of 3 behaviours at score 50: 1 pair chosen by the position, not the "
               "code (counted a tie); 1 pair with a reply unreadable (no vote); no attempt won every pair it was in; "
               "the order is by pairs won, then the evidence&#x27;s, so #0 (add-0) comes first (7 model calls)")
    assert f'<p class="tie-outcome">{outcome}</p>' in section
    assert f"<dt>tie-break</dt><dd>{outcome}</dd>" in html  # and in the summary's facts
    assert "Tied at the top (3 behaviours, score 50)" in section
    tied = re.findall(r'<tr class="tied-row">(.*?)</tr>', section)
    assert len(tied) == 3 and "#0 (add-0)</td><td>#4 (add-4)</td><td class=\"num\">1<" in tied[0]
    assert evil in tied[1]
    pairs = re.findall(r'<tr class="tie-pair">(.*?)</tr>', section)
    assert len(pairs) == 3
    assert "#0 (add-0) shown first:</span> chose #0 (add-0)" in pairs[0] and f"#1 ({evil}) shown first:</span> " \
        "chose #0 (add-0)" in pairs[0] and "#0 (add-0) wins" in pairs[0] and "<td>no</td>" in pairs[0]
    assert "#2 (add-2) shown first:</span> chose #2 (add-2)" in pairs[1] and "<td>yes</td>" in pairs[1]
    assert "flipped: the position chose" in pairs[1]
    assert f"#1 ({evil}) shown first:</span> <span class=\"badge b-warn\">unreadable</span>" in pairs[2]
    assert "no vote" in pairs[2]
    replies = re.findall(r'<details class="tie-replies" open>(.*?)</details>', section, re.DOTALL)
    assert len(replies) == 3 and replies[0].count("<pre>") == 2
    assert "Better: B\n&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in replies[0]


def test_a_tie_break_asked_for_but_not_needed_is_one_line(tmp_path: Path) -> None:
    from tests.helpers.ranking_pages import SEPARATED

    html = _page(tmp_path, SEPARATED, "separated")
    assert ("<dt>tie-break</dt><dd>asked for, not needed: the evidence separates the top: #1 (add-1) scores 100, "
            "the next (#0 (add-0)) 50</dd>") in html
    assert 'id="tie-break"' not in html
    plain = _page(tmp_path, RANKING, "plain")  # not asked for: not a word of it
    assert "tie-break" not in plain


def test_the_rank_table_says_the_tie_breaks_outcome_its_ids_as_text(tmp_path: Path) -> None:
    """`sejury trace rID` prints the rank table again: its tie-break line, with ids that carry markup
    shown as they are; and the line that says why nothing was asked."""
    from sejury.rank.tiebreak import skipped
    from tests.helpers.ranking_pages import SEPARATED, TIED, store_one

    marked = "[bold red]evil[/] <script>x</script>"
    assert TIED.tie_break is not None
    settled = TIED.tie_break.model_copy(update={"chosen": 1, "wins": [0, 2, 0]})
    evil_top = TIED.model_copy(update={"tie_break": settled, "chosen": 1})
    evil_top.candidates = [c.model_copy(update={"id": marked}) if c.index == 1 else c for c in evil_top.candidates]
    store = tmp_path / "traces.sqlite"
    said = {}
    for name, record in (("tied", TIED), ("settled", evil_top), ("separated", SEPARATED), ("plain", RANKING)):
        rid = store_one(store, "rank", record)
        res = CliRunner().invoke(app, ["trace", rid, "--store", str(store)], env={"COLUMNS": "400"})
        assert res.exit_code == 0, res.output
        said[name] = res.output
    assert ("tie-break: the model did not settle the tie of 3 behaviours at score 50: 1 pair chosen by the position"
            in said["tied"])
    assert "asked in both orders: 0 over 1 (chose 0 with 0 shown first, chose 0 with 1 shown first); 0 vs 2: the " \
        "position decided" in said["tied"]
    assert f"tie-break: the model chose #1 ({marked}) among 3 tied behaviours at score 50: it won all 2 of its " \
        "pairs" in said["settled"]  # the markup shown as text, not applied
    assert "tie-break: asked for, not needed: the evidence separates the top" in said["separated"]
    assert "tie-break" not in said["plain"]
    # the words come from the ranking: an id with markup in the one line that says why nothing was asked
    alone = RANKING.model_copy(update={"candidates": [RANKING.candidates[0].model_copy(update={"id": marked})]})
    assert skipped(alone) == f"not needed: one attempt (#1 ({marked}))"
    rid = store_one(store, "rank", alone.model_copy(update={"tie_break_skipped": skipped(alone)}))
    res = CliRunner().invoke(app, ["trace", rid, "--store", str(store)], env={"COLUMNS": "400"})
    assert f"tie-break: asked for, not needed: one attempt (#1 ({marked}))" in res.output
