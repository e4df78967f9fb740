"""``sejury batch --engine ray``: a batch's samples judged on a Ray cluster, into the same run file.

Each Ray actor (``JudgeActor``) holds one ``Judge`` in its own worker process, so its model client,
cache and, with ``execute``, its Docker sandbox live on the actor's node; Ray runs up to
``concurrency`` of its async ``ajudge`` calls at once on the actor's event loop.  This process, the
driver, hands each actor ``concurrency`` samples, gives it the next one as each finishes (in
completion order, ``ray.wait``), and is the run file's only writer: one verdict per line, fsynced as
it lands, so resuming works exactly as with the local engine (the caller skips finished samples);
samples with the same content are judged once, as there too.
Only JSON crosses the boundary: the config and each sample in, each verdict (or error message) out.

Ray is an optional extra (``pip install 'sejury[ray]'``); without an address a local Ray instance
is started for the run and stopped after it.  Every node needs sejury installed, as here.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections import deque
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from sejury.api import Judge
from sejury.config import JudgeConfig
from sejury.errors import SejuryError
from sejury.io import RunFile
from sejury.schema import Sample, Verdict

__all__ = ["JudgeActor", "RemoteSampleError", "judge_on_ray"]

OnResult = Callable[[Sample, Verdict | BaseException], None]


class RemoteSampleError(SejuryError):
    """A sample that failed on a Ray actor; the message is the original error's."""


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise SejuryError("--engine ray needs Ray: pip install 'sejury[ray]'") from None
    return ray


class JudgeActor:
    """One ``Judge`` per Ray actor (made a remote class by ``judge_on_ray``).  Errors are returned
    as messages, never raised, so one failed sample costs neither the actor nor the others."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.judge: Judge | None = None
        self.error: str | None = None
        try:
            self.judge = Judge(config=JudgeConfig.build(**config))
        except Exception as exc:  # reported by ``ready``: the driver stops with this message
            self.error = str(exc) if isinstance(exc, SejuryError) else f"{type(exc).__name__}: {exc}"

    async def ready(self) -> tuple[str, str | None]:
        """This actor's node id and its start-up error, if any."""
        return _ray().get_runtime_context().get_node_id(), self.error

    async def ajudge(self, sample: dict[str, Any]) -> tuple[str | None, str | None]:
        """A sample (as JSON) in; its verdict as JSON, or the error's message, out."""
        assert self.judge is not None, "judged on an actor that did not start"
        try:
            verdict = await self.judge.ajudge(Sample.model_validate(sample))
        except Exception as exc:
            return None, str(exc)
        return verdict.model_dump_json(), None

    async def aclose(self) -> None:
        if self.judge is not None:
            await self.judge.aclose()


def judge_on_ray(samples: Sequence[Sample], run: RunFile, config: JudgeConfig, *, address: str | None = None,
                 actors: int | None = None, concurrency: int = 4, trace: bool = True,
                 on_result: OnResult | None = None, note: Callable[[str], None] | None = None) -> int:
    """Judge ``samples`` on Ray into ``run``; returns how many failed (each one is passed to
    ``on_result`` as an error, like the local engine's ``Judge.judge_into``).

    ``address``: an existing cluster (``auto``, ``host:port`` or ``ray://host:10001``); None starts a
    local instance (a process that already called ``ray.init`` keeps its connection).  ``actors``:
    one ``Judge`` each (default: one per CPU of the cluster); ``concurrency``: samples in flight per
    actor.  ``note`` receives one line saying where the samples go."""
    if concurrency < 1:
        raise ValueError("concurrency must be >= 1")
    if actors is not None and actors < 1:
        raise ValueError("actors must be >= 1")
    if not samples:
        return 0
    ray = _ray()
    connected = _connect(ray, address)
    try:
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        n = actors or max(1, int(cpus))
        handles, nodes = _start_actors(ray, config, n, concurrency, cpus)
        try:
            if note is not None:
                where = address or ("a local Ray instance" if connected else "this process's Ray connection")
                note(f"ray: {n} actor(s) on {nodes} node(s) of {where}, {concurrency} sample(s) in flight each")
            return _dispatch(ray, handles, samples, run, concurrency=concurrency, trace=trace, on_result=on_result)
        finally:
            _stop_actors(ray, handles)
    finally:
        if connected:
            ray.shutdown()


def _connect(ray: ModuleType, address: str | None) -> bool:
    """Connect this process to Ray; False if it already was (then it stays connected after)."""
    if ray.is_initialized():
        return False
    try:
        if address is None:
            ray.init(address="local", include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as exc:
        raise SejuryError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    return True


def _start_actors(ray: ModuleType, config: JudgeConfig, n: int, concurrency: int, cpus: float,
                  ) -> tuple[list[Any], int]:
    """``n`` started actors and how many nodes they are on; an actor's start-up error stops the run.
    Each reserves an equal share of the cluster's CPUs (at most one), so all ``n`` can be placed."""
    share = min(1.0, math.floor(cpus / n * 1000) / 1000)
    cls = ray.remote(JudgeActor).options(max_concurrency=concurrency, num_cpus=share, scheduling_strategy="SPREAD")
    payload = config.model_dump(mode="json")
    handles = [cls.remote(payload) for _ in range(n)]
    try:
        ready: list[tuple[str, str | None]] = ray.get([h.ready.remote() for h in handles])
        for _, error in ready:
            if error is not None:
                raise SejuryError(error)
    except ray.exceptions.RayError as exc:  # the worker could not even import sejury, or died
        _stop_actors(ray, handles)
        raise SejuryError(f"a Ray actor did not start (is sejury installed on every node?): {exc}") from None
    except BaseException:
        _stop_actors(ray, handles)
        raise
    return handles, len({node for node, _ in ready})


def _dispatch(ray: ModuleType, handles: list[Any], samples: Sequence[Sample], run: RunFile, *,
              concurrency: int, trace: bool, on_result: OnResult | None) -> int:
    """Judge ``samples`` on ``handles`` into ``run``; returns how many failed.  As in the local
    engine, samples with the same content are judged once: the others get ``duplicate_for`` copies."""
    same: dict[str, list[Sample]] = {}  # content hash -> its samples, the one judged first
    for sample in samples:
        same.setdefault(sample.content_hash(), []).append(sample)
    queue = deque(group[0] for group in same.values())
    running: dict[Any, tuple[Sample, Any]] = {}  # object ref -> (sample, actor)
    failures = 0

    def submit(actor: Any) -> None:
        if queue:
            sample = queue.popleft()
            running[actor.ajudge.remote(sample.model_dump(mode="json"))] = (sample, actor)

    def deliver(judged: Sample, result: Verdict | BaseException) -> None:
        nonlocal failures
        for i, sample in enumerate(same[judged.content_hash()]):
            own = result.duplicate_for(sample) if i and isinstance(result, Verdict) else result
            if isinstance(own, Verdict):
                run.write(own, trace=trace)
            else:
                failures += 1
            if on_result is not None:
                on_result(sample, own)

    for _ in range(concurrency):
        for actor in handles:  # one sample per actor per round: the first ones spread over all of them
            submit(actor)
    while running:
        [ref], _ = ray.wait(list(running), num_returns=1)
        sample, actor = running.pop(ref)
        try:
            verdict_json, message = ray.get(ref)
        except ray.exceptions.RayActorError as exc:  # its process died: it gets no more samples
            deliver(sample, RemoteSampleError(f"the Ray actor judging it died: {exc}"))
            continue
        except ray.exceptions.RayError as exc:
            deliver(sample, RemoteSampleError(f"Ray could not judge it: {exc}"))
        else:
            deliver(sample, Verdict.model_validate_json(verdict_json) if message is None
                    else RemoteSampleError(message))
        submit(actor)
    for sample in queue:  # left only when every actor died
        deliver(sample, RemoteSampleError("no Ray actor left to judge it"))
    return failures


def _stop_actors(ray: ModuleType, handles: list[Any]) -> None:
    """Close each judge (its sandbox's containers, its stores), then end the actors."""
    with contextlib.suppress(Exception):  # a dead or stuck actor: ending it below is all that is left to do
        ray.get([h.aclose.remote() for h in handles], timeout=60)
    for h in handles:
        ray.kill(h)
