# The sealed Python harness's checker: pytest's fixtures as pytest makes them (runs in the sandbox, in
# the checker's namespace, after ``lending.py``, whose ``FIXTURES`` it adds to; standard library only).
#
# ``languages/_pytest.py`` writes each test's unit as the statements that make its fixtures, once
# each, in pytest's order (``sejury_fixture``, ``sejury_request``, ``sejury_xunit``), then the call.
# What a fixture leaves to do (a generator's code after its ``yield``, a finalizer, ``teardown_method``,
# a ``mocker``'s patches) is undone when the unit ends (``stop_patches``); an error in the test's own
# teardown code fails the test, as pytest errs it.


class _Teardown:
    """What runs when the unit ends: a generator fixture's rest, pytest's ``teardown_method``.  The
    test's own code (``checks``): an error there fails the test (pytest errs it), as a failed check
    would; not so the harness's own (closing the unit's event loop)."""

    def __init__(self, finish, checks=True):
        self.undo, self.checks = finish, checks
        FIXTURES.append(self)


def sejury_fixture(function, **kwargs):
    """A fixture's value for one test, made as pytest makes it (``_pytest.py`` writes the calls): a
    generator fixture's first value, the rest of it (its teardown) run when the unit ends; an
    ``async`` one's on the unit's event loop, as pytest-asyncio makes it."""
    import inspect

    if inspect.iscoroutinefunction(function):
        return sejury_async(function(**kwargs))
    if inspect.isasyncgenfunction(function):
        made = function(**kwargs)
        value = sejury_async(made.__anext__())
        _Teardown(lambda: _rest_of(made))
        return value
    if not inspect.isgeneratorfunction(function):
        return function(**kwargs)
    made = function(**kwargs)
    value = next(made)
    _Teardown(lambda: next(made, None))
    return value


def _rest_of(made):
    try:
        sejury_async(made.__anext__())
    except StopAsyncIteration:
        pass


_LOOP = []  # the unit's event loop: made by its first async test or fixture, closed when the unit ends


def _close(loop):
    _LOOP.clear()
    try:
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()


def sejury_async(awaitable):
    """An ``async`` test's (or fixture's) coroutine run to its end on the unit's event loop, as
    pytest-asyncio runs it (``_pytest.py`` writes ``sejury_async(test_x())``).  Called bare, the
    coroutine would never run, and the test would pass whatever the program does."""
    import asyncio

    if not _LOOP:
        loop = asyncio.new_event_loop()
        _LOOP.append(loop)
        _Teardown(lambda: _close(loop), checks=False)
    return _LOOP[0].run_until_complete(awaitable)


class FixtureRequest:
    """pytest's ``request`` as fixtures use it: ``param`` (a ``params=`` value, or an indirect row's)
    and ``addfinalizer``, its finalizers run when the unit ends, the last added first (an error in
    one fails the test, as ``_Teardown``'s)."""

    checks = True

    def __init__(self, *param):
        if param:
            self.param = param[0]
        self._finalizers = []
        FIXTURES.append(self)

    def addfinalizer(self, finalizer):
        self._finalizers.append(finalizer)

    def undo(self):
        raise_first(undo_each(self._finalizers, lambda finalizer: finalizer()))


def sejury_xunit(test, name):
    """pytest's xunit set-up of test ``name`` of a test class's instance ``test``: its class's
    ``setup_class`` then its ``setup_method``, their teardowns run when the unit ends (each unit makes
    its own instance, and runs ``setup_class`` for it)."""
    import inspect

    cls, method = type(test), getattr(test, name)

    def on_class(fn):  # a classmethod, or a plain function given the class
        return fn() if inspect.ismethod(fn) else fn(cls)

    def on_method(fn):  # ``setup_method(self, method)`` or ``setup_method(self)``
        try:
            takes = len(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            takes = 0
        return fn(method) if takes else fn()

    for owner, set_up, tear_down, run in ((cls, "setup_class", "teardown_class", on_class),
                                          (test, "setup_method", "teardown_method", on_method)):
        if callable(getattr(owner, set_up, None)):
            run(getattr(owner, set_up))
        if callable(getattr(owner, tear_down, None)):
            _Teardown(lambda fn=getattr(owner, tear_down), run=run: run(fn))


class TempPathFactory:
    """pytest's ``tmp_path_factory``: ``mktemp(basename)`` a fresh folder, ``getbasetemp()``."""

    def mktemp(self, basename, numbered=True):
        import pathlib
        import tempfile

        return pathlib.Path(tempfile.mkdtemp(prefix=f"{basename}-"))

    def getbasetemp(self):
        import pathlib
        import tempfile

        return pathlib.Path(tempfile.gettempdir())


class _MockerPatch:
    """``mocker.patch``, ``.object``, ``.dict``, ``.multiple``: unittest.mock's, started for the test."""

    def __init__(self, mocker):
        self._mocker = mocker

    def __call__(self, target, *args, **kwargs):
        return self._mocker._start(_mocks().patch(target, *args, **kwargs))

    def object(self, target, attribute, *args, **kwargs):
        return self._mocker._start(_mocks().patch.object(target, attribute, *args, **kwargs))

    def dict(self, in_dict, values=(), clear=False, **kwargs):
        return self._mocker._start(_mocks().patch.dict(in_dict, values, clear, **kwargs))

    def multiple(self, target, *args, **kwargs):
        return self._mocker._start(_mocks().patch.multiple(target, *args, **kwargs))


class MockerFixture:
    """pytest-mock's ``mocker``: unittest.mock's patches started for the test and stopped when it
    ends (so each reaches the program's process as a test's own patch does: ``install_patches``),
    ``spy``, ``stub``, ``resetall``, ``stopall``, and unittest.mock's names (``mocker.MagicMock``)."""

    def __init__(self):
        import unittest.mock as um

        self._patchers, self._mocks = [], []
        self.patch = _MockerPatch(self)
        for name in ("Mock", "MagicMock", "NonCallableMock", "NonCallableMagicMock", "AsyncMock", "PropertyMock",
                     "ANY", "DEFAULT", "call", "sentinel", "mock_open", "seal"):
            setattr(self, name, getattr(um, name))
        FIXTURES.append(self)

    def _start(self, patcher):
        got = patcher.start()
        self._patchers.append(patcher)
        if _is_mock(got):
            self._mocks.append(got)
        return got

    def spy(self, obj, name):
        """``obj.name`` patched with a mock that calls the original and records each call and its
        ``spy_return`` (``spy_return_list``, ``spy_exception``)."""
        import inspect

        original = getattr(obj, name)

        def through(*args, **kwargs):
            spy.spy_return, spy.spy_exception = None, None
            try:
                got = original(*args, **kwargs)
            except BaseException as e:
                spy.spy_exception = e
                raise
            spy.spy_return = got
            spy.spy_return_list.append(got)
            return got

        autospec = inspect.ismethod(original) or inspect.isfunction(original)
        spy = self._start(_mocks().patch.object(obj, name, side_effect=through, autospec=autospec))
        spy.spy_return, spy.spy_return_list, spy.spy_exception = None, [], None
        return spy

    def stub(self, name=None):
        return _mocks().MagicMock(spec=lambda *args, **kwargs: None, name=name)

    def resetall(self, *, return_value=False, side_effect=False):
        for mock in self._mocks:
            mock.reset_mock(return_value=return_value, side_effect=side_effect)

    def stopall(self):
        self._mocks.clear()
        raise_first(undo_each(self._patchers, lambda patcher: patcher.stop()))

    undo = stopall
