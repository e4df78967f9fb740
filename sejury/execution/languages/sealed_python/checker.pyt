# The sealed Python harness's checker (runs in the sandbox; standard library only).
#
# It holds the tests; the candidate's program runs in another process (server.py) that sees only
# the calls' arguments.  Every call of a name the program defines goes there as plain data and its
# answer comes back as plain data, decoded here type-strictly, so the tests' asserts compare values
# the checker made: the candidate's objects never decide a test, it cannot read the tests or their
# expected values (read, then deleted, before it starts), patch this process, or read its stack.
# Results leave on stdout, each line authenticated with a key only this process and the host know
# (HMAC-SHA256, numbered), so a line the candidate prints or forges does not count.
import builtins
import ctypes
import hashlib
import hmac
import json
import os
import re
import signal
import subprocess
import sys
import weakref

try:  # not dumpable: another process of this user cannot read this one's memory, fds or environ
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
except Exception:
    pass
with open("seal", "rb") as f:
    KEY = f.read().strip()
os.unlink("seal")
with open("tests.json") as f:
    SUITE = json.load(f)
os.unlink("tests.json")
PER_TEST = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# The run's own time limit (the sandbox's: the language's, and more on the scientific image, whose
# libraries take long to import on a busy machine) ends a slow load first; this only keeps the
# checker from waiting on a program's process for ever.
LOAD_SECONDS = 300
MAX_REPLY = 8 << 20
_seq = [0]
_out, _ERR = sys.stdout, sys.stderr


# the harness's own functions, bound before a test may patch them (``@patch("subprocess.Popen")``)
_OPEN, _POPEN, _HMAC, _SHA256 = builtins.open, subprocess.Popen, hmac.new, hashlib.sha256
_dumps, _loads = json.dumps, json.loads


def emit(line):
    line = line.replace("\n", " ").replace("\r", " ")
    mac = _HMAC(KEY, f"{_seq[0]}|{line}".encode(), _SHA256).hexdigest()[:32]
    _out.write(f"@@M {_seq[0]} {mac} {line}\n")
    _out.flush()
    _seq[0] += 1


exec(compile(open("codec.py").read(), "codec.py", "exec"))  # noqa: S102  enc / dec, shared with the server


NETWORK_FAILURE = "NetworkUnavailable the program reached for the network, which the sandbox does not have"


class CandidateError(Exception):
    """An exception the candidate's code raised that is not one of Python's own."""


# the harness's own failure in the unit running (the program's process ended, hung or broke the
# protocol; the test's time ran out): the unit fails with it even if the test caught it
FAULT = [""]


class CandidateExited(BaseException):
    """The candidate's process ended (exit, crash, kill) or broke the protocol during a call.  The
    harness's own failure, so no ``Exception``: a test's ``pytest.raises(Exception)``,
    ``assertRaises(Exception, ...)`` or ``except Exception`` never takes it for one the program raised
    (and ``FAULT`` fails the unit even if the test catches it all)."""

    def __init__(self, why):
        super().__init__(why)
        FAULT[0] = FAULT[0] or f"CandidateExited {why}"


class TimeoutError(BaseException):  # noqa: A001 - the checker's own, reported under the name it had
    """The test's time ran out (the checker's alarm, while it waited for the program too); a
    ``BaseException`` for the same reason, and not the builtin a test may expect the program to raise."""


def _alarm(signum, frame):
    FAULT[0] = FAULT[0] or "TimeoutError test took too long"
    raise TimeoutError("test took too long")


signal.signal(signal.SIGALRM, _alarm)


class Remote:
    """The candidate's process; restarted (fresh) after it dies or hangs."""

    def __init__(self):
        self.proc = None
        self.n = 0
        self.load = None

    def start(self):
        SEEN.clear()  # (a fresh process: its objects are new ones)
        log = _OPEN("candidate.log", "ab")
        self.proc = _POPEN([sys.executable, "-I", "-B", "server.py"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log, close_fds=True, pass_fds=())
        log.close()
        old = signal.alarm(LOAD_SECONDS)
        try:
            line = self.proc.stdout.readline(MAX_REPLY)
        except TimeoutError:
            line = b""
        finally:
            signal.alarm(old)
        try:
            self.load = json.loads(line) if line else None
        except ValueError:
            self.load = None
        if not isinstance(self.load, dict) or self.load.get("id") != 0:
            why = "the program's process ended while loading" if not line else "the program broke the protocol"
            self.kill()
            self.load = {"loaded": False, "error": why}
        elif not self.load.get("loaded"):
            self.kill()
        else:  # a fresh process (the last one died or hung): the patches the tests hold apply there too
            for token, (target, attribute, value, bind) in list(PATCHES.items()):
                try:
                    self.call({"patch": [target, attribute, value, token, bind]})
                except Exception:  # noqa: S110 - as when it was first made: it holds in the tests' process
                    pass
            if ENVIRON[0]:
                self.call({"environ": enc(dict(os.environ))})

    def kill(self):
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(2)
            except Exception:
                pass
        self.proc = None

    def write(self, payload):
        try:
            self.proc.stdin.write((_dumps(payload) + "\n").encode())
            self.proc.stdin.flush()
        except BaseException:
            self.kill()
            raise

    def call(self, payload):
        if self.proc is None:
            self.start()
            if self.proc is None:
                raise CandidateExited("the program's process could not be started again")
        self.n += 1
        n = payload["id"] = self.n
        capture, logs = captures(), watched_logs()
        if capture:
            payload["capture"] = capture
        if logs:
            payload["logs"] = logs
        self.write(payload)
        while True:
            try:
                line = self.proc.stdout.readline(MAX_REPLY)
            except BaseException:
                self.kill()
                raise
            if not line.endswith(b"\n"):
                self.kill()
                raise CandidateExited("the program's process ended during the call" if not line
                                      else "the program's answer was too long")
            try:
                reply = _loads(line)
            except ValueError:
                self.kill()
                raise CandidateExited("the program broke the protocol") from None
            if not (isinstance(reply, dict) and "cb" in reply and "id" not in reply):
                break
            self.write(answer_lent(reply))  # the program used an object the tests lent it (a mock)
            if self.proc is None:  # (answering, the tests called the program again, and it died)
                raise CandidateExited("the program's process ended during the call")
        if not isinstance(reply, dict) or reply.get("id") != n:
            self.kill()
            raise CandidateExited("the program broke the protocol")
        deliver(reply)
        if reply.get("net"):  # the call reached for the network: the unit and the next recorded value say so
            NET[0] = NET[1] = True
        if "raise" in reply:
            name, msg = str(reply.get("raise")), str(reply.get("msg", ""))[:300]
            RAISED[0] = name
            kind = getattr(builtins, name, None)
            if name in ("SystemExit", "KeyboardInterrupt", "GeneratorExit"):
                raise CandidateExited(f"the program raised {name} during the call")
            made = None
            own = BY_REF.get(reply.get("cls")) if type(reply.get("cls")) is int else None
            if own is not None and issubclass(own, Exception):  # the program's exception class, by identity
                made = type.__call__(own, msg)
            elif isinstance(kind, type) and issubclass(kind, Exception):
                try:
                    made = kind(msg)
                except TypeError:  # an exception class that wants other arguments
                    pass
            if made is not None:  # (raised here, not inside the try: a TypeError is one of Python's own)
                raise made
            raise CandidateError(f"{name}: {msg}")
        value = dec(reply.get("ok"), handle)
        return awaitable(value) if reply.get("awaited") else value


AWAITED = weakref.WeakKeyDictionary()  # a coroutine ``awaitable`` made -> its value (for the differential record)


def awaitable(value):
    """What a call of the program's ``async def`` gives the test: a coroutine of the checker's, whose
    value is the one the program's process computed when it ran the program's coroutine to its end
    (``server.run_awaited``), so ``await f(x)``, ``asyncio.run(f(x))`` and ``gather`` work."""
    made = ready(value)
    AWAITED[made] = value
    return made


REMOTE = Remote()
START = [None, False]  # the random states a unit starts from, and whether numpy's is one of them
RAISED = [""]  # the name of the exception the program's last call raised
# a call reached for the network (the program's process says so): [since the last recorded value, in the unit]
NET = [False, False]


class Handle:
    """An object living in the program's process (of a class the program defines, or a library's:
    a plot, a fitted model): its attributes are read and its methods called there; it equals
    nothing but itself.  A library object answers ``isinstance`` for the class it names, when the
    tests loaded that library.  The differential record shows only its class: what a plot draws
    beyond what the problem states (a title, the bins) is the reference's choice, not a duty."""

    def __init__(self, ref, kind, cls=-1):
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_cls", cls)  # a program's object: its class's reference, by identity

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return REMOTE.call({"attr": [self._ref, name]})

    def __setattr__(self, name, value):  # (a patch's own: made here, and there by ``_share``)
        if SHARING[0] or not set_there(self, object.__getattribute__(self, "_ref"), name, value):
            object.__setattr__(self, name, value)

    @property
    def __class__(self):
        found = BY_REF.get(object.__getattribute__(self, "_cls")) or claimed(object.__getattribute__(self, "_kind"))
        return found if found is not None else Handle

    def __len__(self):
        return method(self._ref, "__len__")()

    def __getitem__(self, key):
        return method(self._ref, "__getitem__")(key)

    def __iter__(self):
        return iter(method(self._ref, "__iter__")())

    def __bool__(self):
        for name in ("__bool__", "__len__"):
            try:
                return bool(method(self._ref, name)())
            except AttributeError:
                pass
        return True

    def __repr__(self):
        return f"<{self._kind.split('|')[0].rpartition(':')[2]} object of the program>"

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


_NAMED = {}
CLAIMS_DATA = object()  # what ``named_class`` answers for a handle that names a class travelling as data


def named_class(kind):
    """The class a library object's handle names (``matplotlib.axes._axes:Axes``, or several
    joined by ``|``: then a class made of the most derived of them), when its library is loaded
    here; else None; ``CLAIMS_DATA`` when one of them travels as data (the handle is refused)."""
    if kind in _NAMED:
        return _NAMED[kind]
    found = []
    for name in kind.split("|")[:8]:
        module, _, qualname = name.partition(":")
        if not qualname or module.split(".")[0] not in _LIBRARIES or module not in sys.modules:
            continue
        cls = sys.modules[module]
        for part in qualname.split("."):
            cls = getattr(cls, part, None)
        if isinstance(cls, type):
            found.append(cls)
    bases = tuple(c for c in found if not any(o is not c and issubclass(o, c) for o in found))
    made = None
    if any(data_class(c) for c in found):
        made = CLAIMS_DATA
    elif len(bases) == 1:
        made = bases[0]
    elif bases:
        try:
            made = type(kind.split("|")[0].rpartition(":")[2], bases, {})
        except Exception:
            made = bases[0]
    _NAMED[kind] = made
    return made


def claimed(kind):
    found = named_class(kind)
    return None if found is CLAIMS_DATA else found


SEEN = {}  # reference -> the handle of the program's object (one object, one handle: ``is``, ``==``)


def handle(ref, kind, method_=False, **kw):
    if kw.get("lent"):  # an object the tests lent the program, back here: itself
        if not 0 <= ref < len(LENT):
            raise ValueError("no such object")
        return LENT[ref]
    if kw.get("method") or method_:
        return method(ref, kind, read=True)
    if named_class(kind) is CLAIMS_DATA:
        return Opaque(kind.split("|")[0].rpartition(":")[2])  # a handle that claims to be data: refused
    if ref not in SEEN:
        SEEN[ref] = Handle(ref, kind, kw.get("cls", -1))
    return SEEN[ref]


SHARING = [False]  # a patch is being made or undone (``install_patches``): it goes there by ``_share``


def sharing(fn, *args):
    """``fn(*args)`` as a patch's own making or undoing: what it sets on the program's stand-ins is
    set here only (``_share`` makes the patch there)."""
    SHARING[0] = True
    try:
        return fn(*args)
    finally:
        SHARING[0] = False


def binds(target, value):
    """Does ``value`` put on ``target`` bind ``self`` in the program's process?  A function put on
    one of its classes is a method there (an autospec, a spy, a test's own ``def``); a mock is not."""
    return type(target) is ProgramClass and type(value) is types.FunctionType


def set_there(obj, ref, name, value):
    """A test's ``Shop.OPEN = False`` or ``cart.limit = 3`` made on the program's own class or object,
    where its code reads it (kept here too, the value would go stale as the program changes it):
    True when sent.  A function put on a class binds ``self`` there, as in one process."""
    if name.startswith("_") or (type(obj) is Handle and ":" in object.__getattribute__(obj, "_kind")):
        return False  # (a library's object: its attributes are its library's business)
    sent = enc(value)
    if sent[0] == "O":  # neither data nor lendable: it holds here alone
        return False
    REMOTE.call({"setattr": [ref, name, sent, binds(obj, value)]})
    return True


def stub(name):
    def call(*args, **kwargs):
        payload = {"call": name, "args": enc(list(args)), "kwargs": enc(kwargs)}
        if START[0] is not None:  # in a unit (the setup's calls start from the usual state)
            states = random_states(START[1])
            if states != START[0]:  # the test seeded or drew from them: the call starts where the test left
                # them (the program's draws, in its own process, do not move the test's: nothing comes back)
                payload["random"] = states
        if name not in RECORDED:
            return REMOTE.call(payload)
        RAISED[0] = ""
        try:
            return REMOTE.call(payload)
        except (Exception, CandidateExited, TimeoutError) as e:  # the differential record: the call raised, and what
            if _unit[0] >= 0:
                what = ("!network" if NET[0] else f"!raises {RAISED[0]}" if RAISED[0]
                        else "!exited" if isinstance(e, CandidateExited)
                        else "!timeout" if isinstance(e, TimeoutError) else f"!raises {type(e).__name__}")
                emit(f"@@V {_unit[0]} {_unit[2]} {what}|0")
                _unit[2] += 1
                NET[0] = False
            raise

    call.__name__ = call.__qualname__ = name
    return call


class ProgramClass(type):
    """The kind of the tests' stand-in for a class the program defines: calling it makes an object in
    the program's process (a ``Handle``, as the class's stub does); an attribute it does not hold here
    is read there (``Calculator.MAX``, ``Calculator.from_text``; a function is called there with the
    ``self`` it is given), so a test reads it, calls it and patches it as in one process
    (``patch.object(Calculator, "add")``, ``mocker.spy``: the patch is made there too, ``_where``).
    ``isinstance`` answers for the program's objects by their class.  The tests cannot derive from it
    (their subclass would make the program's objects, not theirs)."""

    def __new__(mcs, name, bases, namespace, made=False):
        if not made:
            raise TypeError(f"a class of the program's ({bases[0].__name__ if bases else name}) cannot be "
                            "subclassed in the tests")
        return super().__new__(mcs, name, bases, namespace)

    def __init__(cls, name, bases, namespace, made=False):
        super().__init__(name, bases, namespace)

    def __call__(cls, *args, **kwargs):
        return type.__getattribute__(cls, "_sejury_new")(*args, **kwargs)

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return REMOTE.call({"attr": [type.__getattribute__(cls, "_sejury_ref"), name]})

    def __setattr__(cls, name, value):  # (a patch's own: made here, and there by ``_share``)
        if SHARING[0] or not set_there(cls, type.__getattribute__(cls, "_sejury_ref"), name, value):
            type.__setattr__(cls, name, value)

    def __repr__(cls):
        return f"<class '{cls.__name__}' of the program>"


BY_REF = {}  # a class's reference -> its stand-in
MAX_CLASSES = 1000


def program_classes(classes):
    """The stand-ins of the program's classes, by name (``{name: [ref, [its bases' refs], the builtin
    exception it derives from]}``, as its process loaded them, by identity): one per class (two names
    of one class are one stand-in), each derived from its bases' where it can be; an exception's is an
    exception of this process too (``pytest.raises(InsufficientFunds)``, ``except``)."""
    rows = {}
    for n, v in list(classes.items())[:MAX_CLASSES]:
        if type(n) is str and n.isidentifier() and isinstance(v, list) and len(v) == 3 and type(v[0]) is int \
                and isinstance(v[1], list) and all(type(b) is int for b in v[1]) and type(v[2]) is str:
            rows.setdefault(v[0], [n, v[1][:16], v[2]])
    pending = dict(rows)
    while pending:
        ready_ = [r for r, (_, bases, _) in pending.items() if not any(b in pending and b != r for b in bases)] \
            or list(pending)[:1]  # (a cycle cannot be: the first of what is left, with no bases)
        for r in ready_:
            n, bases, builtin = pending.pop(r)
            made = [BY_REF[b] for b in bases if b in BY_REF and b != r]
            error = getattr(builtins, builtin, None) if builtin else None
            if not made and isinstance(error, type) and issubclass(error, BaseException):
                made = [error]
            body = {"_sejury_new": staticmethod(stub(n)), "_sejury_ref": r, "__module__": "solution"}
            try:
                BY_REF[r] = ProgramClass(n, tuple(made), body, made=True)
            except TypeError:  # (an order of bases Python cannot make: the class alone)
                BY_REF[r] = ProgramClass(n, (), body, made=True)
    return {n: BY_REF[v[0]] for n, v in classes.items() if isinstance(v, list) and v and v[0] in BY_REF
            and type(n) is str}


# methods that would ask the program's process whether its value equals one the checker holds
# (``result.equals(expected)``): the answer would be the program's, so they are not called
_ASKS_EQUAL = frozenset({"equals", "equal", "identical", "isclose", "allclose", "array_equal", "compare",
                         "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__contains__", "issubset",
                         "issuperset", "isdisjoint"})


def method(ref, name, read=False):
    """A call of the program's object's ``name``; ``read``: ``ref`` is the method itself, as a test
    read it (a patch made after does not change it, as in one process)."""
    if name in _ASKS_EQUAL or name.startswith("assert"):
        def refused(*args, **kwargs):
            raise TypeError(f"{name}() of the program's object is not asked: the checker compares values itself")

        return refused

    def call(*args, **kwargs):
        payload = {"method": [ref, name], "args": enc(list(args)), "kwargs": enc(kwargs)}
        return REMOTE.call({**payload, "read": 1} if read else payload)

    call.__name__ = name
    return call


exec(compile(open("lending.py").read(), "lending.py", "exec"))  # noqa: S102  patches and mocks, lent
exec(compile(open("fixtures.py").read(), "fixtures.py", "exec"))  # noqa: S102  pytest's fixtures
REMOTE.start()
load = REMOTE.load
if not load.get("loaded"):
    emit("@@LOAD FAIL " + str(load.get("error", ""))[:300])
    emit("@@DONE")
    sys.exit(3)
emit("@@LOAD OK")
base = {"__name__": "solution"}
exec(compile(open("prelude.py").read(), "prelude.py", "exec"), base)  # noqa: S102


def _a_module(name):
    """Whether the tests may mean a module by ``name``: the prelude's (``math``) or one of the image's."""
    import importlib.util

    try:
        return isinstance(base.get(name), type(sys)) or importlib.util.find_spec(name) is not None
    except Exception:
        return False


def tests_name(name, value):
    """Whether the program's ``name`` is the tests' too.  Never one of Python's builtins (a program's
    ``abs`` would answer the tests' own ``abs(got - want) < 1e-9``, its ``len`` or ``sorted`` theirs),
    nor a module's name for something whose attributes the program answers (its class or object:
    ``class math`` with a ``fabs`` of its own, where the tests use ``math`` unimported)."""
    if type(name) is not str or name in builtins.__dict__:
        return False
    return not ((isinstance(value, ProgramClass) or type(value) is Handle) and _a_module(name))


for alias, module in load.get("modules", {}).items():
    if tests_name(alias, None) and not (isinstance(base.get(alias), type(sys)) and base[alias].__name__ != module):
        try:
            base[alias] = __import__(module, fromlist=["_"])
        except BaseException:
            pass
classes = program_classes(load.get("classes") if isinstance(load.get("classes"), dict) else {})
for name in load.get("callables", []):
    value = classes[name] if name in classes else stub(name)
    if tests_name(name, value):
        base[name] = value
for name, value in load.get("values", {}).items():
    try:
        made = dec(value, handle)
    except Exception:
        continue
    if tests_name(name, made):
        base[name] = made


class TestNames(dict):
    """The tests' builtins.  A name the tests use without defining or importing it is looked up,
    on first use, as the usual alias of a library (``np``, ``pd``, ``plt``, ``sns``) or as a
    module of the image (``os``, ``matplotlib``): the model that writes tests often leaves their
    imports out.  Only names the tests' own text uses, and only what the image has (the work
    directory is not on the path); never anything the program's process says."""

    ALIASES = {"np": "numpy", "pd": "pandas", "plt": "matplotlib.pyplot", "sns": "seaborn"}

    def __missing__(self, name):
        import importlib
        import importlib.util

        found = None
        try:
            if name in self.ALIASES:
                found = importlib.import_module(self.ALIASES[name])
            elif name.isidentifier() and not name.startswith("_") and importlib.util.find_spec(name) is not None:
                found = importlib.import_module(name)
        except Exception:
            found = None
        if found is None:
            raise KeyError(name)
        self[name] = found
        return found


base["__builtins__"] = TestNames(builtins.__dict__)
if re.search(r"mock|patch", SUITE["setup"] + "\n".join(src for _, src in SUITE["units"])):
    install_patches(base, load)


SHOWN = 1000  # the longest value the record shows whole
_ADDRESS = re.compile(r"(?:0x[0-9a-fA-F]{6,}|@[0-9a-f]{5,8}\b)")  # differential.py's: an object's address


def _show(v):
    if type(v) is Handle:
        return _show_handle(v)
    if type(v) is Opaque:
        return f"<{v.kind}>"
    if type(v).__module__.split(".")[0] in ("numpy", "pandas"):
        return _show_data(v)
    if isinstance(v, float):
        return format(v, ".6g")
    if isinstance(v, list):
        return "[" + ", ".join(map(_show, v)) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_show, v)) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(sorted(_show(a) + ": " + _show(b) for a, b in v.items())) + "}"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_show, v))) + "}"
    return repr(v)


def _show_handle(h):
    """A library's object by its class and, unless it is a plot or of the program's own classes
    (whose attributes are its author's choice), by the plain-data picture its process sends of its
    public state (``render``): two apps configured differently do not look alike."""
    kind = object.__getattribute__(h, "_kind")
    first = kind.split("|")[0]
    if ":" not in first or first.partition(":")[0].split(".")[0] in _PLOTS:
        return repr(h)
    net, fault = NET[:], FAULT[0]
    try:
        state = REMOTE.call({"render": object.__getattribute__(h, "_ref")})
    except BaseException:
        return repr(h)
    finally:
        NET[:], FAULT[0] = net, fault  # showing a value is not the test's doing
    return f"<{first.rpartition(':')[2]} {_show(state)}>"


def _show_data(v):
    """numpy's and pandas' values alike in every program: their items (floats to six digits), shape
    and labels; not their repr, which elides and wraps by width."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is not None and isinstance(v, np.ndarray):
        return f"array({_show(v.tolist())}, {v.dtype.kind}{list(v.shape)})"
    if np is not None and isinstance(v, np.generic):
        return _show(v.item())
    if pd is not None and isinstance(v, pd.DataFrame):
        return (f"DataFrame(columns={_show(list(v.columns))}, index={_show(list(v.index))}, "
                f"rows={_show(v.to_numpy().tolist())})")
    if pd is not None and isinstance(v, pd.Series):
        return f"Series({_show(v.name)}, index={_show(list(v.index))}, values={_show(v.tolist())})"
    if pd is not None and isinstance(v, pd.Index):
        return f"Index({_show(list(v))})"
    return repr(v)


_unit = [-1, 0, 0]  # the unit running, its helpers' calls recorded so far, and the index of its next own call
# the functions whose calls the differential record wraps (``sejury_rec(0, 1, f(x))``): a call of
# one that raises is recorded as ``!raises <name>`` (what it shows, no value, cannot start so)
RECORDED = set(re.findall(r"sejury_rec\(-?\d+, \d+, (?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)\(",
                          SUITE["setup"] + "\n".join(src for _, src in SUITE["units"])))


def sejury_rec(i, k, v):  # differential testing: the value of a call, shown, then returned unchanged
    if i < 0:
        i, k = _unit[0], 1000 + _unit[1]
        _unit[1] += 1
    else:
        _unit[2] = k + 1
    if NET[0]:  # a value the sandbox's missing network made is no value
        NET[0] = False
        emit(f"@@V {i} {k} !network|0")
        return v
    try:
        s = _show(AWAITED[v] if type(v) is types.CoroutineType and v in AWAITED else v)  # an async call: its value
    except BaseException as e:
        s = "<unshowable %s>" % type(e).__name__
    s = s.replace("\n", "\\n")
    n = len(s)
    if n > SHOWN:  # its head, then a digest of the whole: values that differ past the head differ here too
        whole = _ADDRESS.sub("@", s).encode("utf-8", "replace")  # addresses blanked, as the host does
        s = s[:SHOWN - 40] + " ...#" + hashlib.sha256(whole).hexdigest()[:24]
    emit(f"@@V {i} {k} {s}|{n}")
    return v


base["sejury_rec"] = sejury_rec


def sejury_case(cls, name):
    """One test of a ``unittest.TestCase`` class, run as unittest runs it (``_unittest.py``): in a
    suite of its own, so the class's and the test's fixtures and cleanups run and each subtest
    counts; its first failure is raised as it was raised.  A skipped test fails; one marked as an
    expected failure passes when it fails and fails when it passes."""
    import unittest

    class First(unittest.TestResult):
        first = None

        def keep(self, error):
            if self.first is None:
                self.first = error

        def addError(self, test, err):
            self.keep(err[1])

        def addFailure(self, test, err):
            self.keep(err[1])

        def addSubTest(self, test, subtest, err):
            if err is not None:
                self.keep(err[1])

        def addSkip(self, test, reason):
            self.keep(unittest.SkipTest(f"skipped: {reason}"))

        def addUnexpectedSuccess(self, test):
            self.keep(AssertionError("marked as an expected failure, and it passed"))

    import inspect

    test = getattr(cls, name, None)
    if inspect.iscoroutinefunction(test) and not issubclass(cls, unittest.IsolatedAsyncioTestCase):
        # unittest calls it and passes it without running its body (a coroutine never awaited): no evidence
        raise AssertionError("an async test of a TestCase that is not an IsolatedAsyncioTestCase never runs")
    if inspect.isgeneratorfunction(test):  # unittest passes it too, its body never run
        raise AssertionError("a test that yields runs nothing")
    module_set_up()
    result = First()
    unittest.TestSuite([cls(name)]).run(result)
    if result.first is not None:
        raise result.first


_MODULE = {}  # the suite's setUpModule: run (or failed) once, before the first TestCase test


def module_set_up():
    """The suite's ``setUpModule``, run once before the first test of a ``TestCase`` class, as
    unittest runs it (the classes are defined in this checker's namespace, not in a module unittest
    could look it up in); if it raised, every such test fails with its error."""
    if "error" not in _MODULE:
        _MODULE["error"] = None
        set_up = base.get("setUpModule")
        if callable(set_up):
            try:
                set_up()
            except BaseException as e:
                _MODULE["error"] = e
    if _MODULE["error"] is not None:
        raise _MODULE["error"]


base["sejury_case"] = sejury_case
base["sejury_capsys"] = CaptureFixture  # pytest's capsys and caplog (lending.py)
base["sejury_caplog"] = LogCapture
base.update(sejury_fixture=sejury_fixture, sejury_request=FixtureRequest, sejury_xunit=sejury_xunit,  # pytest's
            sejury_tmp_path_factory=TempPathFactory, sejury_mocker=MockerFixture,  # (fixtures.py, _pytest.py)
            sejury_async=sejury_async, sejury_xunit_function=sejury_xunit_function)
try:
    exec(compile(SUITE["setup"], "setup", "exec"), base)  # noqa: S102
except BaseException as e:
    emit(f"@@SETUP FAIL {type(e).__name__} {str(e)[:300]}")
MODULE_ERROR = module_xunit("setup")  # pytest's ``setup_module`` (fixtures.py)
SETUP_FAULT = FAULT[0]
for i, src in SUITE["units"]:
    if MODULE_ERROR is not None:
        emit(f"@@T {i} FAIL {type(MODULE_ERROR).__name__} in setup_module: {str(MODULE_ERROR)[:180]}")
        continue
    env = dict(base)
    _unit[:] = [i, 0, 0]
    NET[:] = [False, False]
    seed_random()  # every unit starts from one random state, in both programs' runs (its inputs too)
    START[1] = "numpy" in sys.modules
    START[0] = random_states(START[1])
    FAULT[0] = SETUP_FAULT  # the setup's fault, if it had one: the unit's values may come from that call
    USES[0] = 0
    signal.alarm(PER_TEST)
    try:
        exec(compile(src, f"test_{i}", "exec"), env)  # noqa: S102
        signal.alarm(0)
        outcome = f"FAIL {FAULT[0][:200]}" if FAULT[0] else "PASS"  # a fault the test swallowed still fails it
    except BaseException as e:
        signal.alarm(0)
        if isinstance(e, TimeoutError):
            REMOTE.kill()  # it may still be computing: the next call starts a fresh one
        outcome = f"FAIL {type(e).__name__} {str(e)[:200]}"
    if NET[1]:  # what the test saw was the sandbox's missing network, not the program's answer
        outcome = "FAIL " + NETWORK_FAILURE
    torn = stop_patches()  # each under an alarm of its own: a teardown may call the program, which may hang
    if torn is not None and outcome == "PASS":
        outcome = f"FAIL {torn}"
    emit(f"@@T {i} {outcome}")
if _MODULE.get("error", 0) is None and callable(base.get("tearDownModule")):  # after setUpModule, as unittest
    timed(base["tearDownModule"])  # every test has reported: a cleanup's failure changes none
if MODULE_ERROR is None:
    module_xunit("teardown")  # every test has reported: it changes none
REMOTE.kill()
emit("@@DONE")
