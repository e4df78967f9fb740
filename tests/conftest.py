from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# rich's consoles, made when sejury.cli is imported, keep the COLUMNS of that moment (pytest-xdist
# gives its workers 80; a shell may export one): the tests that set COLUMNS for one CLI call would
# then read a table at the other width
os.environ.pop("COLUMNS", None)

from sejury import Judge, Sample
from tests.helpers.fakes import ScriptedChatModel, good_script

if TYPE_CHECKING:
    from sejury.llm import ChatClient
    from sejury.sandbox.docker import DockerSandbox


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never touch the user's cache; the embedded model's location is kept."""
    if "SEJURY_CACHE_DIR" not in os.environ:
        monkeypatch.setenv("SEJURY_CACHE_DIR", str(Path.home() / ".cache" / "sejury"))
    monkeypatch.setenv("SEJURY_TRACE_PATH", str(tmp_path / "traces.sqlite"))  # each test its own trace store


def _docker_ready() -> str | None:
    try:
        from sejury.paths import sandbox_image
        from sejury.sandbox.docker import prereqs

        prereqs.require_image(prereqs.client(), sandbox_image())
        return None
    except Exception as exc:
        return str(exc)


# What a test needs beyond Python and a fake model; a test marked with any of these is in the real
# tier (``real``, added at collection), every other test in the fast tier (``scripts/test.sh``).
NEEDS = {
    "embedded": None,  # declared in pyproject.toml, as is docker
    "docker": None,
    "browser": "drives a real headless browser (chromium through playwright)",
    "ray": "starts a real Ray cluster",
    "langgraph": "starts the LangGraph server (`langgraph dev`)",
    "process": "starts real servers or subprocesses that take seconds (`sejury serve`, mkdocs, ...)",
}
TIERS = ("fast", "real")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--tier", choices=TIERS, default=None,
                     help="run one tier: fast (fakes only) or real (marked embedded, docker, browser, ray, "
                          "langgraph or process); both by default")
    parser.addoption("--embedded", choices=("only", "skip"), default=None,
                     help="only the tests on the embedded model, or all but them (scripts/test.sh runs the "
                          "real tier as the two: the others on a worker per core, then these one at a time)")


def pytest_configure(config: pytest.Config) -> None:
    pytest_version = tuple(map(int, pytest.__version__.split(".")[:2]))
    if getattr(config.option, "dist", None) == "loadgroup" and pytest_version >= (9, 2):
        # with pytest 9.2 pytest-xdist 3.8's loadgroup spreads the tests one by one (pytest-xdist#1386):
        # two workers would then, say, start `langgraph dev` on one port
        raise pytest.UsageError("--dist loadgroup does not group tests with pytest>=9.2 (pytest-xdist#1386): "
                                "install pytest<9.2 (pyproject.toml's dev extra), or run with -n 0")
    for name, meaning in NEEDS.items():
        if meaning is not None:
            config.addinivalue_line("markers", f"{name}: {meaning} (real tier)")
    config.addinivalue_line("markers", "real: in the real tier; added at collection to every test marked "
                                       + ", ".join(NEEDS) + " (do not set it by hand)")


def on_model(item: pytest.Item) -> bool:
    return item.get_closest_marker("embedded") is not None


def tier_of(item: pytest.Item) -> str:
    return "real" if any(item.get_closest_marker(name) is not None for name in NEEDS) else "fast"


@pytest.hookimpl(tryfirst=True)  # before -m reads the markers: `-m real` works too
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's tier, and ``--tier``'s selection; then Docker tests need a real engine and the
    image.  CI (SEJURY_REQUIRE_DOCKER=1) fails without them; elsewhere they are skipped, saying why."""
    for item in items:
        if tier_of(item) == "real":
            item.add_marker(pytest.mark.real)
        # under pytest-xdist's --dist loadgroup (scripts/test.sh), a group runs on one worker, one
        # test after another: each module's tests (what a module shares, a memo, a Ray instance, a
        # server's port, is made once, as in one process), and the tests on the embedded model (the
        # machine runs one model job at a time; scripts/test.sh runs them apart, after the others)
        item.add_marker(pytest.mark.xdist_group("embedded-model" if on_model(item) else item.path.stem))
    tier, embedded = config.getoption("--tier"), config.getoption("--embedded")

    def chosen(item: pytest.Item) -> bool:
        return (tier is None or tier_of(item) == tier) and (embedded is None or on_model(item) == (embedded == "only"))
    if tier is not None or embedded is not None:
        keep = [item for item in items if chosen(item)]
        if len(keep) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if not chosen(item)])
            items[:] = keep
    if not any("docker" in item.keywords for item in items):
        return
    why = _docker_ready()
    if why is None:
        return
    if os.environ.get("SEJURY_REQUIRE_DOCKER") == "1":
        raise pytest.UsageError(f"SEJURY_REQUIRE_DOCKER=1 but the sandbox is not ready: {why}")
    for item in items:
        if "docker" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=f"no Docker sandbox: {why}"))


@pytest.fixture(scope="session")
def embedded_server() -> ChatClient:
    """The machine's embedded model server, started (or joined) once and held by the test session:
    every ``sejury`` process a test starts joins it, as any process on the machine would, instead
    of loading the model again.  Built from the settings a ``sejury`` command reads, so it is the
    server such a command asks for."""
    from sejury.config import JudgeConfig
    from sejury.models import ModelSettings, make_client

    # as `sejury judge` builds it: EmbeddedServer.shared, which this process holds until it exits
    return make_client(ModelSettings.of(JudgeConfig()))


@pytest.fixture(autouse=True)
def _one_model_server(request: pytest.FixtureRequest) -> None:
    """Tests marked ``embedded`` share ``embedded_server``.  Tests of the server's own life give
    their processes a registry of their own (``SEJURY_RUN_DIR``), so they start their own."""
    if request.node.get_closest_marker("embedded") is not None:
        request.getfixturevalue("embedded_server")


@pytest.fixture(scope="session")
def _shared_sandbox() -> Iterator[DockerSandbox]:
    from sejury.sandbox.docker import DockerSandbox

    sb = DockerSandbox(size=2)  # another pool of this process, closed, removes only its own containers
    yield sb
    sb._close_blocking()


@pytest.fixture
def sandbox(_shared_sandbox: DockerSandbox) -> DockerSandbox:
    """The real Docker sandbox, two warm containers (tests marked ``docker``; a test module may
    override it, as the containment tests do with tighter limits).  One pool serves the whole
    session, as one serves every judgment of a ``sejury serve``: its containers start once, and
    Go's build cache (kept between runs) is filled once, not per test."""
    return _shared_sandbox


@pytest.fixture
def codegen() -> Sample:
    return Sample(id="cg-1", task="code_generation", language="python",
                  problem="Write add(a, b) returning the sum of a and b.",
                  candidate="def add(a, b):\n    return a + b\n",
                  reference="def add(a, b):\n    return a + b\n")


@pytest.fixture
def make_judge(tmp_path: Path) -> Callable[..., tuple[Judge, ScriptedChatModel]]:
    def make(script: Callable[..., str] = good_script, **kwargs: Any) -> tuple[Judge, ScriptedChatModel]:
        model = ScriptedChatModel(script=script, delay=kwargs.pop("delay", 0.0),
                                  fail_times=kwargs.pop("fail_times", 0), failure=kwargs.pop("failure", None))
        kwargs.setdefault("cache", False)
        return Judge(model, **kwargs), model

    return make
