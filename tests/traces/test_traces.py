"""The trace store (ids, put/get by prefix, listing, reopening, threads), the terminal tree, the
standalone HTML page (escaping, no network resource) and ``sejury trace``; the judgments come from
a real Judge run on the scripted fake model (with its tests executed by a local fake sandbox)."""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sejury import Sample
from sejury.cli import app
from sejury.errors import InputError, SejuryError
from sejury.schema import Verdict
from sejury.traces.store import StoredJudgment, TraceStore, new_judgment_id
from sejury.viewers.common import executed_tests, merge_rows
from sejury.viewers.html import render_html
from sejury.viewers.tree import judgment_tree
from tests.helpers.trace_helpers import HOSTILE, exec_verdict, hostile_verdict


@pytest.fixture(scope="module")
def executed() -> tuple[Sample, Verdict]:
    return exec_verdict()


@pytest.fixture(scope="module")
def hostile() -> tuple[Sample, Verdict]:
    return hostile_verdict()


def stored(pair: tuple[Sample, Verdict], tmp_path: Path) -> StoredJudgment:
    store = TraceStore(tmp_path / "traces.sqlite")
    jid = store.put(*pair, config={"model": pair[1].model, "execute": True})
    got = store.get(jid)
    store.close()
    return got


def fresh(v: Verdict) -> Verdict:
    """The same judgment under a new id (as judging it again would store it)."""
    return v.model_copy(update={"judgment_id": new_judgment_id()})


def tree_text(s: StoredJudgment, *, full: bool = False, width: int = 200) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(judgment_tree(s, full=full))
    return console.export_text()


# --- the store ---------------------------------------------------------------------------------

def test_ids_are_short_unique_and_sort_by_time() -> None:
    ids = [new_judgment_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    assert all(re.fullmatch(r"j[0-9a-hjkmnp-tv-z]{13}", i) for i in ids)


def test_put_then_get_by_id_or_unique_prefix(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    sample, verdict = executed
    store = TraceStore(tmp_path / "t.sqlite")
    jid = store.put(sample, verdict, config={"model": "scripted", "team": ["direct"]})
    assert jid == verdict.judgment_id
    got = store.get(jid)
    assert got.judgment_id == jid and got.sample == sample and got.verdict == verdict
    assert got.config == {"model": "scripted", "team": ["direct"]}
    assert store.get(jid[:-3]).judgment_id == jid  # the only one: any prefix will do
    assert store.get(f"  {jid.upper()} ").judgment_id == jid  # typed loosely
    store.close()


def test_unknown_and_ambiguous_ids_are_clear_input_errors(executed: tuple[Sample, Verdict],
                                                         tmp_path: Path) -> None:
    sample, verdict = executed
    store = TraceStore(tmp_path / "t.sqlite")
    a, b = store.put(sample, fresh(verdict)), store.put(sample, fresh(verdict))
    with pytest.raises(InputError, match="no judgment 'jzzz'") as unknown:
        store.get("jzzz")
    assert unknown.value.field == "judgment id"
    with pytest.raises(InputError, match="ambiguous") as ambiguous:
        store.get("j")
    assert a in str(ambiguous.value) and b in str(ambiguous.value)
    with pytest.raises(InputError, match="give a judgment id"):
        store.get(" ")
    with pytest.raises(ValueError, match="no judgment_id"):
        store.put(sample, verdict.model_copy(update={"judgment_id": None}))
    store.close()


def test_a_file_that_is_not_a_store_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("not a database, " * 100)
    with pytest.raises(SejuryError, match="not a usable trace store"):
        TraceStore(path)


def test_recent_lists_latest_first_and_survives_reopening(executed: tuple[Sample, Verdict],
                                                          hostile: tuple[Sample, Verdict], tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "t.sqlite"
    store = TraceStore(path)
    first = store.put(executed[0], fresh(executed[1]))
    second = store.put(hostile[0], fresh(hostile[1]))
    third = store.put(executed[0], fresh(executed[1]))
    store.close()

    again = TraceStore(path)  # a new process would see the same
    assert len(again) == 3
    rows = again.recent()
    assert [r.judgment_id for r in rows] == [third, second, first]
    top = rows[0]
    assert (top.sample_id, top.task, top.language, top.status) == ("add-exec", "code_generation", "python", "scored")
    assert top.score == executed[1].score and top.model == executed[1].model
    assert [r.judgment_id for r in again.recent(1)] == [third]
    assert [r.judgment_id for r in again.recent(sample_id="add-exec")] == [third, first]
    assert again.get(second).sample == hostile[0]
    again.close()


def test_puts_from_many_threads_are_all_kept(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    store = TraceStore(tmp_path / "t.sqlite")

    def work() -> None:
        for _ in range(10):
            store.put(executed[0], fresh(executed[1]))

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store) == 60
    store.close()


def test_a_judge_stores_each_judgment_under_its_id(make_judge: Callable[..., Any], codegen: Sample,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "judge-traces.sqlite"
    judge, _ = make_judge(team="S1,S3", trace_path=path)
    verdict = judge.judge(codegen)
    judge.close()
    assert verdict.judgment_id
    store = TraceStore(path)
    got = store.get(verdict.judgment_id)
    assert got.verdict.score == verdict.score and got.sample == codegen
    assert got.config.get("model") == verdict.model
    store.close()


# --- what the viewers read ---------------------------------------------------------------------

def test_executed_tests_pair_reference_and_candidate_outcomes(executed: tuple[Sample, Verdict]) -> None:
    _, v = executed
    s5 = executed_tests(v.strategies["generate_tests"])
    rows = {r.test: r.outcome for r in s5[0].rows}
    assert rows == {"assert add(1, 2) == 3": "pass", "assert add(-1, 1) == 0": "fail",
                    "assert add(2, 2) == 5": "invalid"}
    own = executed_tests(v.strategies["sample_tests"])[0]
    assert {r.test: r.outcome for r in own.rows} == {"assert add(2, 3) == 5": "pass",
                                                     "assert add(-2, 2) == 0": "fail"}
    merged = {r.name: r.counted for r in merge_rows(v)}
    assert merged == {"sample_tests": True, "direct": True, "generate_tests": True, "test_pass": True}


# --- the terminal tree -------------------------------------------------------------------------

def test_tree_shows_header_jurors_calls_tests_and_merge(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    s = stored(executed, tmp_path)
    v = s.verdict
    text = tree_text(s)
    for fact in (s.judgment_id, "add-exec", "code_generation, python", f"{v.score:g}/100", "spread",
                 "S1 direct", "S5 generate_tests", "S5-exec test_pass", "Sample-tests sample_tests",
                 "llm_call write_tests #1", "llm_call predict #1", "→ score 50", "Task: write tests",
                 "sandbox_run validate_on_reference", "sandbox_run run_candidate", "2/3 passed", "1/2 passed",
                 "PASS    assert add(1, 2) == 3", "FAIL    assert add(-1, 1) == 0",
                 "INVALID assert add(2, 2) == 5", "stdout: ", "@@LOAD OK",
                 f"{v.prompt_tokens}+{v.completion_tokens} tokens", "merge: evidence first: executed checks mean(",
                 "opinion mean(", "averaged"):
        assert fact in text, fact


def test_both_views_say_how_many_prompt_tokens_the_server_read_from_its_cache(
        executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    sample, v = executed
    name, juror = next((n, r) for n, r in v.strategies.items() if r.llm_calls)
    call = next(e for e in juror.trace if e.kind == "llm_call")
    trace = [e.model_copy(update={"cached_prompt_tokens": 7}) if e is call else e for e in juror.trace]
    juror = juror.model_copy(update={"cached_prompt_tokens": 7, "trace": trace})
    v = v.model_copy(update={"cached_prompt_tokens": 7, "strategies": {**v.strategies, name: juror}})
    s = stored((sample, v), tmp_path)
    text, page = tree_text(s), render_html(s)
    said = "(7 of the prompt's from the server's cache)"
    # the verdict's cost line, the juror's line and the call's line, in each view
    assert text.count(said) == 3 and page.count(html.escape(said)) == 3
    assert f"{v.prompt_tokens}+{v.completion_tokens} tokens {said}" in text


def test_tree_abbreviates_prompts_unless_full(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    s = stored(executed, tmp_path)
    short, full = tree_text(s, width=1000), tree_text(s, full=True, width=1000)
    assert "characters left out" in short and "characters left out" not in full
    prompt = next(e for e in s.verdict.strategies["direct"].trace if e.messages).messages or []
    user = prompt[-1]["content"].splitlines()
    assert any(ln in full and ln not in short for ln in user if len(ln.strip()) > 20)


def test_tree_prints_stored_text_as_is_never_as_markup(hostile: tuple[Sample, Verdict], tmp_path: Path) -> None:
    text = tree_text(stored(hostile, tmp_path))
    assert "[bold red]markup[/]" in text and "</pre><script>" in text


# --- the HTML page -----------------------------------------------------------------------------

_VOID = {"meta", "br", "hr", "img", "input", "link", "wbr", "col", "area", "base", "embed", "source"}


class _Tags(HTMLParser):
    """Checks the page's tags nest, and collects every URL-bearing attribute and tag."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.urls: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.csp = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "meta" and ("http-equiv", "Content-Security-Policy") in attrs:
            self.csp = dict(attrs).get("content") or ""
        self.urls += [v or "" for k, v in attrs if k in ("src", "href", "action", "srcset", "poster", "data")]
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> _Tags:
    p = _Tags()
    p.feed(page)
    p.close()
    assert p.stack == [], p.stack
    return p


def test_page_escapes_hostile_content(hostile: tuple[Sample, Verdict], tmp_path: Path) -> None:
    page = render_html(stored(hostile, tmp_path))
    tags = parse(page)
    assert "script" not in tags.tags and "img" not in tags.tags
    assert "<script" not in page.lower()
    assert "&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    text = "".join(tags.text)
    assert text.count(HOSTILE) >= 4  # the id, the problem, the candidate, the reply and its parsed reason


def test_page_references_no_network_resource(hostile: tuple[Sample, Verdict], executed: tuple[Sample, Verdict],
                                             tmp_path: Path) -> None:
    for pair in (hostile, executed):
        page = render_html(stored(pair, tmp_path))
        tags = parse(page)
        assert all(u.startswith("#") for u in tags.urls), tags.urls  # in-page anchors only
        assert not {"link", "script", "img", "iframe", "object", "embed", "video", "audio"} & set(tags.tags)
        css = "".join(re.findall(r"<style>(.*?)</style>", page, re.S))
        assert "@import" not in css and "url(" not in css
        assert tags.csp.startswith("default-src 'none';")  # the browser refuses any load anyway


def test_page_shows_calls_side_by_side_tests_and_merge(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    s = stored(executed, tmp_path)
    page = render_html(s)
    parse(page)
    for name in s.verdict.strategies:
        assert f'id="juror-{name}"' in page
    llm_calls = sum(1 for r in s.verdict.strategies.values() for e in r.trace if e.kind == "llm_call")
    assert page.count('<div class="pair">') == llm_calls
    assert page.count('class="col prompt"') == page.count('class="col reply"') == llm_calls
    # S5's generated tests and the sample's tests it ran too; the sample's tests as a juror
    assert page.count('<tr class="test-row">') == 3 + 2 + 2
    assert "assert add(2, 2) == 5" in page and ">invalid<" in page
    assert "mean(" in page and 'id="merge"' in page and f"{s.verdict.score:g}<small>/100" in page
    assert "@@LOAD OK" in page  # the sandbox's output


# --- the command -------------------------------------------------------------------------------

def test_cli_lists_shows_writes_html_and_json(executed: tuple[Sample, Verdict], tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = TraceStore(path)
    jid = store.put(*executed, config={"model": "scripted"})
    store.close()
    runner = CliRunner()

    listed = runner.invoke(app, ["trace", "--list", "--store", str(path)])
    assert listed.exit_code == 0, listed.output
    assert jid in listed.output and "add-exec" in listed.output and "scored" in listed.output

    shown = runner.invoke(app, ["trace", jid[:-2], "--store", str(path)])
    assert shown.exit_code == 0, shown.output
    assert jid in shown.output and "S5 generate_tests" in shown.output and "merge" in shown.output

    out = tmp_path / "pages" / "trace.html"
    written = runner.invoke(app, ["trace", jid, "--html", str(out), "--store", str(path)])
    assert written.exit_code == 0, written.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")

    as_json = runner.invoke(app, ["trace", jid, "--json", "--store", str(path)])
    assert StoredJudgment.model_validate_json(as_json.stdout).judgment_id == jid

    rows = runner.invoke(app, ["trace", "--list", "--json", "--store", str(path)])
    assert [json.loads(x)["judgment_id"] for x in rows.stdout.splitlines()] == [jid]


def test_cli_reads_the_store_from_the_environment(executed: tuple[Sample, Verdict], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "env.sqlite"
    store = TraceStore(path)
    jid = store.put(*executed)
    store.close()
    monkeypatch.setenv("SEJURY_TRACE_PATH", str(path))
    result = CliRunner().invoke(app, ["trace"])
    assert result.exit_code == 0 and jid in result.output


def test_cli_unknown_id_and_missing_store_are_one_line_errors(executed: tuple[Sample, Verdict],
                                                              tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = TraceStore(path)
    store.put(*executed)
    store.close()
    runner = CliRunner()
    unknown = runner.invoke(app, ["trace", "jnope", "--store", str(path)])
    assert unknown.exit_code == 2
    lines = unknown.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: field 'judgment id': no judgment 'jnope'")
    missing = runner.invoke(app, ["trace", "j1", "--store", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 2 and "no trace store at" in missing.stderr
    empty = runner.invoke(app, ["trace", "--list", "--store", str(tmp_path / "none.sqlite")])
    assert empty.exit_code == 0 and "no judgments stored yet" in empty.stderr
    assert not (tmp_path / "none.sqlite").exists()


def test_traces_from_before_per_test_outcomes_show_their_failures(executed: tuple[Sample, Verdict]) -> None:
    _, v = executed
    s5 = v.strategies["generate_tests"]
    execution = dict(s5.artifacts["execution"])
    for side in ("reference", "candidate"):
        execution[side] = {k: val for k, val in execution[side].items()
                           if k not in ("outcomes", "stdout_tail", "stderr_tail")}
    old = s5.model_copy(update={"artifacts": {**s5.artifacts, "execution": execution}})
    suite = executed_tests(old)[0]
    assert {r.test: r.outcome for r in suite.rows} == {"assert add(2, 2) == 5": "invalid",
                                                       "assert add(-1, 1) == 0": "fail"}
    assert "predates per-test outcomes" in suite.note
