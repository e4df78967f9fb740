# The sealed Python harness's checker: the tests' patches and mocks, lent to the program (runs in the
# sandbox, in the checker's namespace; standard library only).
#
# A test that patches a name the program calls (``@patch("urllib.request.urlopen")``,
# ``patch.object(os.path, "exists")``, ``with patch("builtins.open", mock_open(read_data=...))``,
# ``patcher.start()``, ``patch.dict(os.environ, ...)``) patches it in this process, where
# unittest.mock runs; the program runs in another.  So the patch is made there too: the program's
# process puts a stand-in (its ``Lent``) at the same name, and what the program does with the
# stand-in (a call, an attribute read, ``with``, ``for``) is done here, on the test's own mock, which
# records it as it would have in one process.  A mock, or a function or object the tests define,
# passed to the program as an argument is lent the same way.  The answer goes back as plain data, or
# as another lent object.
#
# What the program may do with a lent object is checked here (``use``): a mock's own bookkeeping
# (``call_count``, ``reset_mock``, ``return_value`` read without a call, ``assert_*``) is refused, so
# the program cannot fake having called it or not; no underscore name is read; a function lends its
# calls only; a mock takes plain data as an attribute and never another object; only the tests' own
# functions and objects and unittest.mock's mocks are lent (no module, no library function).  A
# check of the test's that fails inside a lent call (a side effect's ``assert``) fails the unit even
# if the program catches the error.
import itertools
import types

LENT = []  # the objects lent, by the reference the program's process holds
_LENT_IDS = {}  # id -> reference, for an object lent before (``LENT`` keeps it alive)
PATCHES = {}  # token -> (target, attribute, the value as sent): the patches in force, made again in a fresh process
ENVIRON = [False]  # a test patched os.environ: a fresh process gets it as it is now
MAX_USES = 100_000  # uses of lent objects in one unit
USES = [0]
MAX_ITEMS_LENT = 100_000  # the items a lent object's ``for`` gives
LENT_DUNDERS = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__", "__iter__", "__next__", "__len__",
                          "__getitem__", "__contains__",
                          "__bool__", "__str__", "__repr__", "__int__", "__float__", "__index__"})
_PATCH_TOKENS = itertools.count()
_API = []


def _mocks():
    return sys.modules.get("unittest.mock")


def mock_api():
    """The names of unittest.mock's own attributes (``called``, ``call_count``, ``return_value``,
    ``side_effect``, ``assert_called_with``, ``reset_mock``, ...): a mock's bookkeeping, not what it stands for."""
    if not _API:
        um = _mocks()
        names = set()
        for cls in (um.NonCallableMock, um.CallableMixin, um.NonCallableMagicMock, um.MagicMock, um.AsyncMock):
            names.update(n for n in dir(cls) if not n.startswith("__"))
        _API.append(frozenset(names))
    return _API[0]


def _is_mock(v):
    um = _mocks()
    return um is not None and isinstance(v, um.NonCallableMock)


def _of_tests(fn):
    """Is ``fn`` a function the tests' own text defines (not a library's, not the harness's)?"""
    code = getattr(fn, "__code__", None) if type(fn) is types.FunctionType else None
    return isinstance(code, types.CodeType) and (code.co_filename == "setup" or code.co_filename.startswith("test_"))


def _tests_class(t):
    import unittest

    return (isinstance(t, type) and t.__module__ == "solution" and not issubclass(t, (BaseException, unittest.TestCase))
            and t not in (Handle, Opaque) and type(t) is not ProgramClass)


def lendable(v):
    t = type(v)
    if _is_mock(v):
        return True
    if t is types.FunctionType:  # the tests' own, or unittest.mock's autospec of a function (its ``mock``)
        return _of_tests(v) or _is_mock(getattr(v, "mock", None))
    if t is types.MethodType:
        return _of_tests(v.__func__)
    return _tests_class(v) or _tests_class(t)


TOKENS = [False]  # answering a lent call: an object that is not lendable goes as a token (``lend``)


def lend(v):  # (codec.py's hook: an object the checker's ``enc`` would otherwise send as opaque)
    """``["CO", ref]`` for a lendable object; and, in a lent call's answer, for any other object too,
    as a token the program can use for nothing but to give it back (``mock.get.return_value =
    sentinel.x``: the program returns the very object)."""
    if not lendable(v) and not TOKENS[0]:
        return None
    ref = _LENT_IDS.get(id(v))
    if ref is None or LENT[ref] is not v:
        LENT.append(v)
        ref = _LENT_IDS[id(v)] = len(LENT) - 1
    return ["CO", ref]


def _refuse(*args, **kwargs):
    raise TypeError("a mock takes plain data from the program, not another object")


def answer_lent(msg):
    """The answer to the program's use of a lent object (``use``): the value as plain data (or lent),
    or the exception it raised, by its class's module and name."""
    USES[0] += 1
    if USES[0] > MAX_USES:
        REMOTE.kill()
        raise CandidateExited(f"the program used the tests' mocks more than {MAX_USES} times in one test")
    k = msg.get("cb")
    try:
        got = use(msg)
        awaited = type(got) is types.CoroutineType  # an ``AsyncMock``'s (or the tests' ``async def``'s) call
        if awaited:
            got = _run_through(got)
        TOKENS[0] = True
        try:
            return {"cb": k, "ok": enc(got), **({"awaited": 1} if awaited else {})}
        finally:
            TOKENS[0] = False
    except Exception as e:
        if isinstance(e, AssertionError):  # the test's own check failed: the unit fails, caught or not
            FAULT[0] = FAULT[0] or f"AssertionError {_text(e)}"
        t = type(e)
        return {"cb": k, "raise": str(t.__qualname__), "module": str(t.__module__), "msg": _text(e)}


def _run_through(coroutine):
    """The value of a coroutine of the tests' that waits on nothing (an ``AsyncMock``'s call: its
    return value or side effect), run here to its end; the program's process gets it as a coroutine
    to await.  One that waits on the event loop (``asyncio.sleep``) cannot run inside a call of the
    program's, which may itself be inside the test's running loop: it raises."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise TypeError("an async function of the tests that waits on the event loop is not lent to the program")


def _text(e):
    try:
        return str(e)[:300]
    except Exception:
        return ""


def use(msg):
    op, ref, name = msg.get("op"), msg.get("ref"), msg.get("name")
    if type(ref) is not int or not 0 <= ref < len(LENT):
        raise LookupError("no such object of the tests")
    obj = LENT[ref]
    if not lendable(obj):  # a token: given back, never used
        raise TypeError(f"an object of the tests' ({type(obj).__name__}) is not the program's to use")
    mock = _is_mock(obj)
    function = type(obj) in (types.FunctionType, types.MethodType)
    if op == "call":
        args, kwargs = dec(msg.get("args"), handle), dec(msg.get("kwargs"), handle)
        if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise TypeError("not a call")
        if not callable(obj):
            raise TypeError(f"'{type(obj).__name__}' object is not callable")
        return obj(*args, **kwargs)
    if op in ("getattr", "setattr"):
        if (type(name) is not str or not name.isidentifier() or name.startswith("_") or function
                or (mock and (name in mock_api() or name.startswith("assert")))):
            raise AttributeError(name if type(name) is str else "?")
        if op == "getattr":
            return getattr(obj, name)
        if not mock:
            raise AttributeError(f"{name}: the program does not change an object of the tests'")
        value = dec(msg.get("value"), _refuse)
        if any(_is_mock(held) for held in (obj._mock_children.get(name), vars(obj).get(name))):
            raise AttributeError(f"{name}: the program does not replace a mock")
        setattr(obj, name, value)
        return None
    if op == "dunder" and name in LENT_DUNDERS and not function:
        args = dec(msg.get("args"), handle)
        if type(args) is not list or len(args) > 3:
            raise TypeError("not a call")
        if name == "__exit__":  # (the program's exception stays the program's)
            args = [None, None, None]
        fn = getattr(type(obj), name, None)
        if fn is None and name == "__bool__":  # (truth as Python's: a length, else true)
            return use({**msg, "name": "__len__"}) > 0 if hasattr(type(obj), "__len__") else True
        if fn is None or not (mock or _of_tests(fn) or fn is getattr(object, name, None)):
            raise TypeError(f"'{type(obj).__name__}' object has no {name}")
        got = getattr(obj, name)(*args) if mock else fn(obj, *args)  # (a mock's: its own child mock)
        if name == "__iter__":
            return list(itertools.islice(got, MAX_ITEMS_LENT))
        return got
    raise TypeError("not a use of an object")


def _where(target):
    """Where a patched object is, as the program's process finds it: a module's name (``solution``:
    the program's own names) or a class's ``module:qualname``; None where it cannot."""
    if isinstance(target, types.ModuleType):
        return target.__name__
    if type(target) is ProgramClass:  # one of the program's classes, or one of its objects
        return f"solution#{type.__getattribute__(target, '_sejury_ref')}"
    if type(target) is Handle and ":" not in object.__getattribute__(target, "_kind"):
        return f"solution#{object.__getattribute__(target, '_ref')}"
    if isinstance(target, type) and "<" not in target.__qualname__ and target.__module__ not in ("solution", "__main__"):
        return f"{target.__module__}:{target.__qualname__}"
    return None


def _share(patcher):
    where = _where(patcher.target)
    if where is None:
        return
    sent = enc(getattr(patcher.target, patcher.attribute))
    if sent[0] == "O":  # neither plain data nor lendable (a library's function): it holds here alone
        return
    token = str(next(_PATCH_TOKENS))
    bind = binds(patcher.target, getattr(patcher.target, patcher.attribute))
    REMOTE.call({"patch": [where, patcher.attribute, sent, token, bind]})
    PATCHES[token] = (where, patcher.attribute, sent, bind)
    patcher._sejury_token = token


def _unshare(token):
    PATCHES.pop(token, None)
    if REMOTE.proc is None:
        return
    if FAULT[0]:  # the program's process may be busy or gone: a fresh one starts without the patch
        REMOTE.kill()
        return
    REMOTE.call({"unpatch": token})


def _share_environ():
    ENVIRON[0] = True
    if REMOTE.proc is not None:
        REMOTE.call({"environ": enc(dict(os.environ))})


def _captured_streams():
    """The streams a test captures now (pytest's ``capsys``, ``redirect_stdout``, a ``StringIO`` patched
    in as ``sys.stdout``), by the key the answer carries their text under.  (A mock patched in is lent
    instead, and records the writes itself.)"""
    return [(key, stream) for key, stream, own in (("out", sys.stdout, _out), ("err", sys.stderr, _ERR))
            if stream is not own and not _is_mock(stream)]


def captures():
    """The streams the program's process is to send what a call prints to, with its answer."""
    return [key for key, _ in _captured_streams()]


def deliver(reply):
    """What the program printed during a call, written to the test's own stream (never the channel);
    what it logged through a watched logger, handed to the checker's logger of that name."""
    for key, stream in _captured_streams():
        text = reply.get(key)
        if isinstance(text, str):
            try:
                stream.write(text)
            except Exception:  # noqa: S110 - a stream that takes no text: the test sees none, as it would
                pass
    logs, logging = reply.get("logs"), sys.modules.get("logging")
    if not isinstance(logs, list) or logging is None:
        return
    for item in logs[:MAX_RECORDS]:
        if not (isinstance(item, list) and len(item) == 4 and type(item[0]) is str and type(item[1]) is int
                and type(item[2]) is str and type(item[3]) is str):
            continue
        name, levelno, levelname, message = item
        record = logging.makeLogRecord({"name": name, "levelno": levelno, "levelname": levelname,
                                        "msg": message, "args": None})  # (the message as it was: no formatting)
        try:
            (logging.getLogger(name) if name and name != "root" else logging.getLogger()).handle(record)
        except Exception:  # noqa: S110 - a handler of the test's that refuses it: the test sees no record
            pass


_WATCHING = ("_CapturingHandler", "LogCaptureHandler")  # unittest's assertLogs, caplog's (below)


def watched_logs():
    """The loggers a test watches now (one with unittest's ``assertLogs`` or ``caplog``'s handler):
    [name ('' for the root), its level], for the program's process to watch the same."""
    logging = sys.modules.get("logging")
    if logging is None or ("unittest._log" not in sys.modules and not any(type(f) is LogCapture for f in FIXTURES)):
        return []  # (no assertLogs has run, no caplog is given: nothing watches)
    root = logging.getLogger()
    loggers = [root, *(x for x in list(logging.Logger.manager.loggerDict.values()) if isinstance(x, logging.Logger))]
    return [["" if x is root else x.name, x.level] for x in loggers
            if any(type(h).__name__ in _WATCHING for h in x.handlers)][:100]


class LogCapture:
    """pytest's ``caplog``: a handler on the root logger from its creation to the unit's end, the
    program's records reaching it as the test's own do (``deliver``); ``records``, ``messages``,
    ``record_tuples``, ``text``, ``clear()``, ``set_level(level, logger=None)``, ``at_level(...)``."""

    def __init__(self):
        import logging

        class LogCaptureHandler(logging.Handler):
            def __init__(self):
                super().__init__()
                self.records = []

            def emit(self, record):
                self.records.append(record)

        self.handler = LogCaptureHandler()
        self._levels = []
        logging.getLogger().addHandler(self.handler)
        FIXTURES.append(self)

    @property
    def records(self):
        return self.handler.records

    @property
    def messages(self):
        return [r.getMessage() for r in self.records]

    @property
    def record_tuples(self):
        return [(r.name, r.levelno, r.getMessage()) for r in self.records]

    @property
    def text(self):
        return "".join(f"{r.levelname:<8} {r.name}:{r.filename}:{r.lineno} {r.getMessage()}\n" for r in self.records)

    def clear(self):
        self.handler.records.clear()

    def set_level(self, level, logger=None):
        import logging

        target = logging.getLogger(logger)
        self._levels.append((target, target.level))
        target.setLevel(logging._nameToLevel.get(level, level) if isinstance(level, str) else level)
        self.handler.setLevel(target.level)

    def at_level(self, level, logger=None):
        import contextlib

        @contextlib.contextmanager
        def scope():
            kept = len(self._levels)
            self.set_level(level, logger)
            try:
                yield
            finally:
                self._restore_levels(kept)

        return scope()

    def _restore_levels(self, kept=0):
        """The loggers' levels as they were before all but the first ``kept`` changes, latest first."""
        while len(self._levels) > kept:
            target, old = self._levels.pop()
            target.setLevel(old)

    def undo(self):
        import logging

        logging.getLogger().removeHandler(self.handler)
        self._restore_levels()


class CaptureFixture:
    """pytest's ``capsys`` (and ``capfd``): the unit's ``sys.stdout`` and ``sys.stderr`` are buffers from
    its creation to the unit's end, the program's printed output written there (``deliver``);
    ``readouterr()`` gives ``(out, err)`` so far and empties them."""

    def __init__(self):
        import io

        self._kept = sys.stdout, sys.stderr
        self._out, self._err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = self._out, self._err
        FIXTURES.append(self)

    def readouterr(self):
        import collections

        got = collections.namedtuple("CaptureResult", "out err")(self._out.getvalue(), self._err.getvalue())
        for buffer in (self._out, self._err):
            buffer.seek(0)
            buffer.truncate()
        return got

    def undo(self):
        sys.stdout, sys.stderr = self._kept


_NOT_SET = object()


class MonkeyPatch:
    """pytest's ``monkeypatch`` fixture, made of unittest.mock's patches (so each reaches the program's
    process as they do): ``setattr`` (an object and a name, or ``"module.name"``), ``setenv``,
    ``delenv``, ``setitem``, ``delitem``, ``undo``; undone when the unit ends (``stop_patches``).
    Not here: ``delattr``, ``chdir``, ``syspath_prepend``, ``context``."""

    def __init__(self):
        self._started = []
        FIXTURES.append(self)

    def _start(self, patcher):
        got = patcher.start()
        self._started.append(patcher)
        return got

    def setattr(self, target, name, value=_NOT_SET, raising=True):
        import pkgutil

        if value is _NOT_SET:  # monkeypatch.setattr("os.getcwd", lambda: "/")
            if not isinstance(target, str) or "." not in target:
                raise TypeError("use setattr(target, name, value) or setattr('module.name', value)")
            value, (where, _, name) = name, target.rpartition(".")
            target = pkgutil.resolve_name(where)
        if raising and not hasattr(target, name):
            raise AttributeError(f"{target!r} has no attribute {name!r}")
        self._start(_mocks().patch.object(target, name, value, create=not raising))

    def setenv(self, name, value, prepend=None):
        value = str(value)
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self._start(_mocks().patch.dict(os.environ, {str(name): value}))

    def delenv(self, name, raising=True):
        self.delitem(os.environ, name, raising)

    def setitem(self, dic, name, value):
        self._start(_mocks().patch.dict(dic, {name: value}))

    def delitem(self, dic, name, raising=True):
        if raising and name not in dic:
            raise KeyError(name)
        self._start(_mocks().patch.dict(dic))
        dic.pop(name, None)
        if dic is os.environ:
            _share_environ()  # (if this fails, the unit's end undoes the patch started above)

    def undo(self):
        raise_first(undo_each(self._started, lambda patcher: patcher.stop()))


FIXTURES = []  # what the unit's fixtures undo (monkeypatch, capsys, a fixture's teardown) when it ends


def undo_each(items, undo):
    """``undo`` each of ``items``, the last first, each under an alarm of its own, whatever the
    others do: undoing a patch asks the program's process too, which may hang or die when asked,
    and one that did must not leave the rest in force here (a patched ``os.path.exists`` passing
    the next test).  A hang kills the program's process (it may still be computing: the next call
    starts a fresh one).  Returns ``(item, error)`` of each that raised, in the order undone."""
    failed = []
    while items:
        item = items.pop()
        if (e := timed(lambda: undo(item))) is not None:
            failed.append((item, e))
    return failed


def timed(fn):
    """``fn()`` under an alarm of its own (``PER_TEST``): the error it raised, or None.  A hang kills
    the program's process (it may still be computing: the next call starts a fresh one)."""
    signal.alarm(PER_TEST)
    try:
        fn()
        signal.alarm(0)
    except BaseException as e:
        signal.alarm(0)
        if isinstance(e, TimeoutError):
            REMOTE.kill()
        return e
    return None


def raise_first(failed):
    """Raise the first error ``undo_each`` met, when all are done."""
    if failed:
        raise failed[0][1]


def stop_patches():
    """A unit's fixtures are undone when the unit ends, the last made first, as pytest undoes them
    after the test (other patchers left running stay, as in one process).  Returns why the test
    fails there, or None: a teardown of the test's own that raised (a fixture's code after its
    ``yield``, ``teardown_method``, a finalizer), or one that hung (``PER_TEST``'s alarm); a patch
    that cannot be undone here changes no result."""
    for fixture, e in undo_each(FIXTURES, lambda fixture: fixture.undo()):
        if isinstance(e, TimeoutError):
            return "TimeoutError in the test's teardown"
        if getattr(fixture, "checks", False):
            return f"{type(e).__name__} in the test's teardown: {str(e)[:150]}"
    return None


def install_patches(base, load):
    """Make unittest.mock's patches apply in the program's process too, and give the tests a
    ``solution`` module of the program's names (``patch("solution.helper")``)."""
    import unittest.mock as um

    solution = types.ModuleType("solution")
    for name in load.get("callables", []) + list(load.get("modules", {})) + list(load.get("values", {})):
        if name in base:
            setattr(solution, name, base[name])
    sys.modules.setdefault("solution", solution)
    enter, leave = um._patch.__enter__, um._patch.__exit__
    patch_dict, unpatch_dict = um._patch_dict._patch_dict, um._patch_dict._unpatch_dict

    def __enter__(self):
        new = sharing(enter, self)
        self._sejury_token = None
        try:
            _share(self)
        except Exception:  # noqa: S110 - the program's process cannot make it (a module it lacks): it holds here
            pass
        except BaseException:  # the program's process died or hung when asked: the test fails, and the
            sharing(leave, self, None, None, None)  # patch is undone here too (no ``__exit__`` will come)
            raise
        return new

    def __exit__(self, *exc):
        token = getattr(self, "_sejury_token", None)
        self._sejury_token = None
        try:
            return sharing(leave, self, *exc)
        finally:
            if token is not None:
                _unshare(token)

    def _patch_dict(self):
        patch_dict(self)
        if self.in_dict is os.environ:
            try:
                _share_environ()
            except BaseException:  # (as ``__enter__``: undone here before the test fails)
                unpatch_dict(self)
                raise

    def _unpatch_dict(self):
        unpatch_dict(self)
        if self.in_dict is os.environ:
            _share_environ()

    base["sejury_monkeypatch"] = MonkeyPatch
    um._patch.__enter__, um._patch.__exit__ = __enter__, __exit__
    um._patch_dict._patch_dict, um._patch_dict._unpatch_dict = _patch_dict, _unpatch_dict
