"""The trace page in a real headless browser: Debian's chromium driven by playwright (never a
downloaded browser).  It checks what a reader sees: the score, every juror's section, each LLM
call's prompt and reply side by side, the executed tests, and that the page asked the network for
nothing.  Skipped, saying why, when chromium or playwright is missing, unless
SEJURY_REQUIRE_BROWSER=1 (then it fails)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sejury.traces.store import TraceStore
from sejury.viewers.html import render_html
from tests.helpers.trace_helpers import HOSTILE, exec_verdict, hostile_verdict

pytestmark = pytest.mark.browser
CHROMIUM = os.environ.get("SEJURY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (.venv/bin/pip install playwright; it drives Debian's chromium)"
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium, or set SEJURY_CHROMIUM)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("SEJURY_REQUIRE_BROWSER") == "1":
            pytest.fail(f"SEJURY_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


class Visit:
    """A page opened from a file, with every request it made and every console error."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.goto(path.as_uri(), wait_until="load")

    def _console(self, message: Any) -> None:
        if message.type == "error":  # a refused load (the page's CSP) would show here
            self.errors.append(message.text)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            route.abort()

    def network(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("file:", "data:"))]

    def close(self) -> None:
        self.context.close()


def write_page(pair: Any, tmp_path: Path, name: str) -> tuple[Path, Any]:
    store = TraceStore(tmp_path / f"{name}.sqlite")
    stored = store.get(store.put(*pair, config={"model": pair[1].model}))
    store.close()
    path = tmp_path / f"{name}.html"
    path.write_text(render_html(stored), encoding="utf-8")
    return path, stored


def test_trace_page_in_chromium(browser: Any, tmp_path: Path) -> None:
    path, stored = write_page(exec_verdict(), tmp_path, "exec")
    v = stored.verdict
    visit = Visit(browser, path)
    page = visit.page
    try:
        score = page.locator(".bigscore")
        assert score.is_visible() and score.inner_text().startswith(f"{v.score:g}")
        for name, r in v.strategies.items():
            section = page.locator(f"#juror-{name}")
            section.scroll_into_view_if_needed()
            assert section.is_visible() and r.strategy.paper_name in section.locator("h2").inner_text()

        pairs = page.locator(".llm-call .pair")
        n_calls = sum(1 for r in v.strategies.values() for e in r.trace if e.kind == "llm_call")
        assert pairs.count() == n_calls >= 3
        for i in range(pairs.count()):
            pair = pairs.nth(i)
            pair.scroll_into_view_if_needed()
            prompt = pair.locator(".col.prompt").bounding_box()
            reply = pair.locator(".col.reply").bounding_box()
            assert prompt and reply
            assert reply["x"] >= prompt["x"] + prompt["width"] - 1, (prompt, reply)  # to the right
            assert abs(reply["y"] - prompt["y"]) < 1  # on the same row
            assert prompt["width"] > 400 and reply["width"] > 400
            assert pair.locator(".col.reply pre").is_visible()
            assert pair.locator(".col.prompt .msg pre").last.is_visible()  # the user message, unfolded

        rows = page.locator("#juror-generate_tests table.tests").first.locator("tr.test-row")
        assert rows.count() == 3
        texts = [rows.nth(i).inner_text() for i in range(3)]
        assert any("add(2, 2) == 5" in t and "invalid" in t for t in texts)
        assert any("add(-1, 1) == 0" in t and "fail" in t for t in texts)
        assert rows.first.is_visible()
        assert page.locator("#juror-sample_tests tr.test-row").count() == 2
        assert "mean(" in page.locator("#merge .formula").inner_text()

        shot = tmp_path / "trace-page.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 20_000
        assert visit.network() == [], visit.network()
        assert visit.errors == [], visit.errors
    finally:
        visit.close()


def test_hostile_page_runs_nothing_and_loads_nothing(browser: Any, tmp_path: Path) -> None:
    path, _ = write_page(hostile_verdict(), tmp_path, "hostile")
    visit = Visit(browser, path)
    try:
        page = visit.page
        assert page.locator("script, img").count() == 0
        assert HOSTILE in page.locator("#sample").inner_text()
        assert visit.dialogs == [] and visit.network() == [] and visit.errors == []
    finally:
        visit.close()


def test_a_ranking_page_in_chromium(browser: Any, tmp_path: Path) -> None:
    """`sejury trace rID --html`: the attempts ranked, the chosen one marked, the model call's
    prompt and reply side by side, the sandbox runs; nothing asked of the network, no script run."""
    from typer.testing import CliRunner

    from sejury.cli import app
    from tests.helpers.ranking_pages import RANKING, stored

    rank_id, _ = stored(tmp_path / "traces.sqlite")
    path = tmp_path / "ranking.html"
    res = CliRunner().invoke(app, ["trace", rank_id, "--html", str(path), "--store", str(tmp_path / "traces.sqlite")])
    assert res.exit_code == 0, res.output
    visit = Visit(browser, path)
    page = visit.page
    try:
        assert page.locator(".verdict").inner_text() == "chose add-1, score 100"
        rows = page.locator("tr.attempt-row")
        assert rows.count() == len(RANKING.candidates)
        assert rows.first.locator(".badge", has_text="chosen").is_visible()
        assert "does not load" in rows.nth(2).inner_text()
        pair = page.locator(".llm-call .pair").first
        pair.scroll_into_view_if_needed()
        prompt, reply = pair.locator(".col.prompt").bounding_box(), pair.locator(".col.reply").bounding_box()
        assert prompt and reply and reply["x"] >= prompt["x"] + prompt["width"] - 1
        assert page.locator(".run").count() == 2
        assert HOSTILE in page.locator("#tests pre").inner_text()  # shown as text, not run
        assert visit.network() == [] and visit.errors == [] and visit.dialogs == []
    finally:
        visit.close()


def test_a_ranking_pages_tie_break_in_chromium(browser: Any, tmp_path: Path) -> None:
    """`sejury rank --tie-break model`'s record on the page: the outcome in the summary and in its own
    section, who was tied, each pair in both orders with both replies side by side; an attempt id and
    a reply with a script in them read as text, nothing run, nothing loaded."""
    from typer.testing import CliRunner

    from sejury.cli import app
    from tests.helpers.ranking_pages import EVIL_ID, SEPARATED, TIED, store_one

    paths = {}
    for name, record in (("tied", TIED), ("separated", SEPARATED)):
        rid = store_one(tmp_path / "traces.sqlite", "rank", record)
        paths[name] = tmp_path / f"{name}.html"
        res = CliRunner().invoke(app, ["trace", rid, "--html", str(paths[name]),
                                       "--store", str(tmp_path / "traces.sqlite")])
        assert res.exit_code == 0, res.output
    visit = Visit(browser, paths["tied"])
    page = visit.page
    try:
        assert page.locator("script, img").count() == 0
        facts = page.locator("#summary dl.facts").inner_text()
        assert "tie-break" in facts and "the model did not settle the tie of 3 behaviours at score 50" in facts
        section = page.locator("#tie-break")
        section.scroll_into_view_if_needed()
        assert section.is_visible() and section.locator("h2").inner_text() == "The model's tie-break"
        assert "so #0 (add-0) comes first" in section.locator(".tie-outcome").inner_text()
        tied = section.locator("tr.tied-row")
        assert tied.count() == 3 and f"#1 ({EVIL_ID})" in tied.nth(1).inner_text()  # the id, as text
        pairs = section.locator("tr.tie-pair")
        assert pairs.count() == 3
        assert "#0 (add-0) wins" in pairs.nth(0).inner_text()
        assert "flipped: the position chose" in pairs.nth(1).inner_text()
        assert "unreadable" in pairs.nth(2).inner_text() and "no vote" in pairs.nth(2).inner_text()
        replies = section.locator("details.tie-replies")
        assert replies.count() == 3
        first = replies.nth(0)
        first.scroll_into_view_if_needed()
        one, other = first.locator(".col").nth(0), first.locator(".col").nth(1)
        assert one.is_visible() and other.is_visible()  # open, side by side
        a, b = one.bounding_box(), other.bounding_box()
        assert a and b and b["x"] >= a["x"] + a["width"] - 1 and abs(a["y"] - b["y"]) < 1
        assert HOSTILE in other.locator("pre").inner_text()  # the reply shown as text, not run
        assert HOSTILE in replies.nth(2).locator(".col").nth(0).locator("pre").inner_text()
        assert visit.network() == [] and visit.errors == [] and visit.dialogs == []
    finally:
        visit.close()
    visit = Visit(browser, paths["separated"])
    try:
        assert visit.page.locator("#tie-break").count() == 0
        assert "asked for, not needed: the evidence separates the top" in visit.page.locator("#summary").inner_text()
    finally:
        visit.close()
