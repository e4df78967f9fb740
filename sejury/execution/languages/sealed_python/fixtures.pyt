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


def _with_optional(fn, arg):
    """An xunit function called as pytest calls it: given ``arg`` (its module, class or test) when it
    takes an argument, else bare."""
    import inspect

    try:
        takes = len(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        takes = 0
    return fn(arg) if takes else fn()


def sejury_xunit(test, name):
    """pytest's xunit set-up of test ``name`` of a test class's instance ``test``: its class's
    ``setup_class`` then its ``setup_method``, their teardowns run when the unit ends (each unit makes
    its own instance, and runs ``setup_class`` for it)."""
    import inspect

    cls, method = type(test), getattr(test, name)

    def on_class(fn):  # a classmethod, or a plain function given the class
        return fn() if inspect.ismethod(fn) else fn(cls)

    for owner, set_up, tear_down, run in ((cls, "setup_class", "teardown_class", on_class),
                                          (test, "setup_method", "teardown_method",
                                           lambda fn: _with_optional(fn, method))):
        if callable(getattr(owner, set_up, None)):
            run(getattr(owner, set_up))
        if callable(getattr(owner, tear_down, None)):
            _Teardown(lambda fn=getattr(owner, tear_down), run=run: run(fn))


def _suites_own(name):
    """The suite's own module-level function ``name`` (its text's, not the program's), or None."""
    fn = base.get(name)
    return fn if type(fn) is types.FunctionType and fn.__code__.co_filename == "setup" else None


def sejury_xunit_function(name, unit):
    """pytest's ``setup_function`` before a module-level test ``name`` (``python.py`` writes the call
    first in each of its units, with the unit's namespace), its ``teardown_function`` when the unit
    ends, once the set-up has not raised (pytest's order).  Each is given a function of the test's
    name, and reads the unit's names (the suite's steps, ``store = Store()``, are made in each unit)."""
    set_up, tear_down = (_in(_suites_own(f"{which}_function"), unit) for which in ("setup", "teardown"))

    def function():
        pass

    function.__name__ = function.__qualname__ = name
    if set_up is not None:
        _with_optional(set_up, function)
    if tear_down is not None:
        _Teardown(lambda: _with_optional(tear_down, function))


def _in(fn, unit):
    """``fn`` reading the names of ``unit`` (a unit's namespace) instead of the suite's."""
    if fn is None:
        return None
    return types.FunctionType(fn.__code__, unit, fn.__name__, fn.__defaults__, fn.__closure__)


class _Module:
    """The module pytest gives ``setup_module(module)``: the suite's own names (``module.store = ...``
    sets one for every test)."""

    def __getattr__(self, name):
        try:
            return base[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        base[name] = value


def module_xunit(which):
    """The suite's ``setup_module`` (``which``: ``"setup"``), run once before its first test in the
    suite's own namespace, so each test sees what it made; or its ``teardown_module``, after the last.
    None, or the error it raised (pytest errs every test of the module with a set-up's; a teardown's
    changes no result).  Under the test's time limit: it may call the program, which may hang."""
    fn = _suites_own(f"{which}_module")
    return None if fn is None else timed(lambda: _with_optional(fn, _Module()))


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
