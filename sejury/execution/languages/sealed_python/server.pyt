# The sealed Python harness's program side (runs in the sandbox; standard library only).  It loads
# the program and answers calls: arguments in, the returned value (or the exception) out, as
# plain data (codec.py).  It sees no test, no expected value and no result line; what it prints
# goes to a log, never to the channel the results travel on.
import builtins
import importlib
import json
import os
import sys
import types

answers = os.fdopen(os.dup(1), "w")  # the answer channel: a private copy of the pipe to the checker
requests = os.fdopen(os.dup(0), "r")
_null = os.open("/dev/null", os.O_RDONLY)
os.dup2(_null, 0)  # input() in the program reads nothing, and cannot eat the requests
_log = os.open("candidate.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
os.dup2(_log, 1)  # print() in the program goes to the log
os.close(_null)
os.close(_log)
exec(compile(open("codec.py").read(), "codec.py", "exec"))  # noqa: S102
HANDLES = []
# Did the call reach for the network (a name lookup, a connection)?  The sandbox has none, so what
# such a call answers is the sandbox's doing: the answer says so ("net"), and the checker counts no
# value or test of it (``differential.NETWORK``).
NET = [False]
_NET_EVENTS = frozenset({"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.getnameinfo",
                         "socket.connect", "socket.sendto", "socket.sendmsg"})


def _audit(event, args):
    if event in _NET_EVENTS and not (event == "socket.connect" and len(args) > 1 and isinstance(args[1], (str, bytes))):
        NET[0] = True  # (a connection to a local socket's path is not the network)


sys.addaudithook(_audit)


def own(ref, kind, lent=False, **kw):  # an object of the program's, sent back by the checker; or one it lends
    return Lent(ref) if lent else HANDLES[ref]


_dumps, _loads = json.dumps, json.loads  # the harness's own: a test may patch json's


def send(obj):
    if NET[0] and obj.get("id"):
        obj["net"] = True
    answers.write(_dumps(obj) + "\n")
    answers.flush()


# Patches.  A test's ``mock.patch("requests.get")`` puts a mock in place of ``requests.get`` in the
# checker's process; the checker asks this process to put a ``Lent`` there too.  A ``Lent`` is an
# object of the checker's (a mock, a function the tests define): the program's calls, attribute reads
# and ``with``/``for`` on it are asked of the checker, where the mock records them, and its answer
# comes back as plain data (or another ``Lent``).  What a patch lends is what the test gave it (its
# return values, its side effects); the checker refuses the mock's own bookkeeping (``call_count``,
# ``reset_mock``, ``return_value`` read without a call), so the program cannot fake being called.
_LENT_DUNDERS = ("__enter__", "__exit__", "__len__", "__getitem__", "__contains__", "__bool__", "__str__",
                 "__int__", "__float__", "__index__", "__next__", "__aenter__", "__aexit__")


def ask(msg):
    """Ask the checker to use an object it lent; while it answers, serve the calls it makes of the
    program (a mock's side effect may call back into it)."""
    ASKED[0] += 1
    msg["cb"] = k = ASKED[0]
    send(msg)
    while True:
        line = requests.readline()
        if not line:
            os._exit(0)
        req = _loads(line)
        if req.get("cb") == k and "id" not in req:
            break
        serve(req)
    if "raise" in req:
        raise rebuilt(req)
    value = dec(req.get("ok"), own)
    return ready(value) if req.get("awaited") else value  # a test's async mock: the program awaits it


LOOP = []  # the event loop the program's coroutines run on, made at the first


def run_awaited(coroutine):
    """A coroutine the program's function (or method) returned, run to its end here, on one event
    loop for the process (what the program keeps between calls, a lock, a session, stays on it); the
    tests get its value as a coroutine of their own (``"awaited"``)."""
    import asyncio

    if not LOOP:
        LOOP.append(asyncio.new_event_loop())
    if LOOP[0].is_running():  # called back while another of its coroutines runs
        coroutine.close()
        raise RuntimeError("a coroutine of the program started while another of its coroutines ran")
    return LOOP[0].run_until_complete(coroutine)


ASKED = [0]


def rebuilt(req):
    """The exception a lent object raised, as its class where this process has it (a library's, such
    as ``requests.exceptions.ConnectionError``, or a builtin), else a ``RuntimeError`` naming it."""
    module, name, msg = str(req.get("module", "")), str(req.get("raise", "")), str(req.get("msg", ""))
    found = None
    try:
        found = importlib.import_module(module) if module not in ("", "builtins") else None
        cls = sys.modules["builtins"] if found is None else found
        for part in name.split("."):
            cls = getattr(cls, part)
        if isinstance(cls, type) and issubclass(cls, Exception):
            return cls(msg)
    except Exception:
        pass
    return RuntimeError(f"{name}: {msg}")


class Lent:
    def __init__(self, ref):
        object.__setattr__(self, "_ref", ref)

    def _ask(self, op, **kw):
        return ask({"op": op, "ref": object.__getattribute__(self, "_ref"), **kw})

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name=name)

    def __setattr__(self, name, value):
        self._ask("setattr", name=name, value=enc(value, HANDLES))

    def __call__(self, *args, **kwargs):
        return self._ask("call", args=enc(list(args), HANDLES), kwargs=enc(kwargs, HANDLES))

    def __iter__(self):
        return iter(self._ask("dunder", name="__iter__", args=["L", []]))

    def __repr__(self):
        try:
            return self._ask("dunder", name="__repr__", args=["L", []])
        except Exception:
            return "<an object of the tests>"

    def __hash__(self):
        return id(self)


def _dunder(name):
    def forward(self, *args):
        return self._ask("dunder", name=name, args=enc(list(args), HANDLES))

    forward.__name__ = name
    return forward


for _name in _LENT_DUNDERS:
    setattr(Lent, _name, _dunder(_name))
PATCHED = {}  # token -> (the object patched, the attribute, what it held, whether it held one)


def _programs(ref):
    """The program's own class or object at ``ref`` (a test patches or sets nothing else there)."""
    obj = HANDLES[ref]
    if getattr(obj if isinstance(obj, type) else type(obj), "__module__", None) != "solution":
        raise TypeError("not an object of the program's")
    return obj


def _placed(obj, value, bind):
    """What goes on ``obj`` for ``value``: with ``bind`` (the checker's ``binds``: a test's function
    put on a class), a function standing in for the ``Lent``, so it binds ``self`` as a method."""
    if not (bind is True and isinstance(obj, type) and isinstance(value, Lent)):
        return value

    def stand_in(*args, **kwargs):
        return value(*args, **kwargs)

    return stand_in


def patch(target, attribute, value, token, bind=False):
    """Put ``value`` (decoded: plain data or a ``Lent``) at ``target.attribute`` (a module, or a class
    by ``module:qualname``; ``solution``: the program's own names, ``solution#ref`` one of its classes
    or objects), as the checker's patch did there."""
    module, _, qualname = target.partition(":")
    if module == "solution" and not qualname:
        held = attribute in ns
        PATCHED[token] = (ns, attribute, ns.get(attribute), held)
        ns[attribute] = value
        return
    if module.startswith("solution#"):
        obj = _programs(int(module[9:]))
        value = _placed(obj, value, bind)
    else:
        obj = importlib.import_module(module)
        for part in qualname.split(".") if qualname else ():
            obj = getattr(obj, part)
    held = attribute in vars(obj)
    PATCHED[token] = (obj, attribute, vars(obj).get(attribute), held)
    setattr(obj, attribute, value)


def unpatch(token):
    if token not in PATCHED:
        return
    obj, attribute, old, held = PATCHED.pop(token)
    if obj is ns:
        if held:
            ns[attribute] = old
        else:
            ns.pop(attribute, None)
    elif held:
        setattr(obj, attribute, old)
    else:
        try:
            delattr(obj, attribute)
        except AttributeError:
            pass


ns = {"__name__": "solution"}
try:
    exec(compile(open("solution.py").read(), "solution.py", "exec"), ns)  # noqa: S102
except BaseException as e:
    send({"id": 0, "loaded": False, "error": f"{type(e).__name__} {str(e)[:300]}"})
    sys.exit(0)
callables, values, modules = [], {}, {}
for name, value in list(ns.items()):
    if name.startswith("__"):
        continue
    if type(value).__name__ == "module":
        modules[name] = value.__name__
    elif callable(value) and getattr(value, "__module__", None) == "solution":
        callables.append(name)
    elif getattr(type(value), "__module__", None) == "builtins" and not callable(value):
        try:
            values[name] = enc(value)
        except Exception:
            pass
# the tests call these by name, each the function as loaded: a test's patch of one (``patch("solution.f",
# side_effect=...)``, ``mocker.spy``) puts its stand-in where the program's own code finds it, while a
# side effect that calls the original must reach the original, not the stand-in again
AS_LOADED = {name: ns[name] for name in callables}
# the program's classes, each held as an object the tests may read and patch (``Calculator.add``,
# ``Calculator.MAX``, ``patch.object(Calculator, "add")``): by name, its reference, its bases among them
# and, for an exception, the builtin one it derives from; all by identity (type's own slots, not what
# a metaclass or a renamed class says), so its objects answer ``isinstance`` by their real class
CLASS_REFS = {}  # id(class) -> its reference
_BASES, _MRO, _NAME = (type.__dict__[k] for k in ("__bases__", "__mro__", "__name__"))
for name in callables[:1000]:
    if issubclass(type(ns[name]), type):  # (``type()``, which no object can fake)
        CLASS_REFS.setdefault(id(ns[name]), keep(HANDLES, ns[name]))


def _builtin_base(cls):
    for b in _MRO.__get__(cls, type)[:64]:
        if isinstance(b, type) and issubclass(b, BaseException) and getattr(builtins, _NAME.__get__(b, type), None) is b:
            return _NAME.__get__(b, type)
    return ""


classes = {}
for name in callables[:1000]:
    if id(ns[name]) in CLASS_REFS:
        try:
            cls = ns[name]
            bases = [CLASS_REFS[id(b)] for b in _BASES.__get__(cls, type) if id(b) in CLASS_REFS][:16]
            classes[name] = [CLASS_REFS[id(cls)], bases, _builtin_base(cls)]
        except Exception:
            continue
send({"id": 0, "loaded": True, "callables": callables, "values": values, "modules": modules, "classes": classes})

def answer_of(req):
    rid = req["id"]
    NET[0] = False
    try:
        if "render" in req:  # the differential record's picture of a handle (``render``)
            return {"id": rid, "ok": render(HANDLES[int(req["render"])])}
        if "patch" in req:  # a test's patch, made here too (``patch``); or undone
            target, attribute, value, token = req["patch"][:4]
            patch(str(target), str(attribute), dec(value, own), str(token), req["patch"][4:5] == [True])
            return {"id": rid, "ok": ["N"]}
        if "setattr" in req:  # a test's ``Shop.OPEN = False``, ``c.limit = 3``: on the program's own
            ref, attribute, value, bind = req["setattr"]
            obj = _programs(int(ref))
            setattr(obj, str(attribute), _placed(obj, dec(value, own), bind))
            return {"id": rid, "ok": ["N"]}
        if "unpatch" in req:
            unpatch(str(req["unpatch"]))
            return {"id": rid, "ok": ["N"]}
        if "environ" in req:  # the environment as a test's ``patch.dict(os.environ, ...)`` left it
            os.environ.clear()
            os.environ.update({str(k): str(v) for k, v in dec(req["environ"]).items()})
            return {"id": rid, "ok": ["N"]}
        if "attr" in req:
            ref, name = req["attr"]
            got = getattr(HANDLES[ref], name)
            if callable(got) and (getattr(got, "__self__", None) is HANDLES[ref] or isinstance(HANDLES[ref], type)):
                # the method as read now (a class's: its function, called with ``self``): a test's patch
                # made later does not change it, as in one process (a spy's original is the original)
                return {"id": rid, "ok": ["M", keep(HANDLES, got), name]}
            result = got
        else:
            args, kwargs = dec(req["args"], own), dec(req["kwargs"], own)
            if "method" in req:
                ref, name = req["method"]  # a method as read (``"read"``), or the object's ``name`` now
                fn = HANDLES[ref] if req.get("read") else getattr(HANDLES[ref], name)
            else:
                fn = AS_LOADED[req["call"]] if req["call"] in AS_LOADED else ns[req["call"]]
                if "random" in req:  # the test's own random state, which it seeded or drew from
                    set_random_states(req["random"])
                else:  # a call of the problem's function starts from one random state, in both programs
                    seed_random()
            result = fn(*args, **kwargs)
        if type(result) is types.CoroutineType:  # an ``async def`` of the program's: run here
            return {"id": rid, "ok": enc(run_awaited(result), HANDLES), "awaited": 1}
        return {"id": rid, "ok": enc(result, HANDLES)}
    except BaseException as e:
        try:
            msg = str(e)[:300]
        except BaseException:
            msg = ""
        return {"id": rid, "raise": type(e).__name__, "msg": msg, "cls": CLASS_REFS.get(id(type(e)), -1)}


CAPTURE = 1 << 20  # the characters of a call's printed output sent with its answer


class Captured:
    """What the program prints during a call whose test captures the output (pytest's ``capsys``,
    ``redirect_stdout``, a patched ``sys.stdout``): kept up to ``CAPTURE`` characters and sent with
    the answer, as data; the checker writes it to the test's own stream."""

    encoding, errors = "utf-8", "replace"

    def __init__(self):
        self.parts, self.n = [], 0
        self.buffer = self

    def write(self, s):
        if isinstance(s, (bytes, bytearray)):
            s = bytes(s).decode("utf-8", "replace")
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        if self.n < CAPTURE:
            self.parts.append(s[:CAPTURE - self.n])
        self.n += len(s)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def text(self):
        return "".join(self.parts)


def watch_logs(watched):
    """While a test watches loggers (unittest's ``assertLogs``, pytest's ``caplog``: the checker sends
    each one's name and level), they have that level here too and a handler that keeps what the
    program logs through them, as data: (logger, level number, level name, message); sent with the
    answer, the checker hands each record to its own logger of that name.  Returns the records and
    how to undo it."""
    import logging

    records, seen, added = [], set(), []

    class Recorder(logging.Handler):
        def emit(self, record):
            if id(record) in seen or len(records) >= MAX_RECORDS:
                return
            seen.add(id(record))
            added.append(record)  # (kept alive: its id stays its own)
            try:
                message = record.getMessage()
            except Exception:
                message = str(record.msg)
            records.append([str(record.name), int(record.levelno), str(record.levelname), message[:10_000]])

    undo = []
    for name, level in watched[:100]:
        logger = logging.getLogger(str(name) or None)
        handler = Recorder()
        undo.append((logger, logger.level, handler))
        logger.setLevel(int(level))
        logger.addHandler(handler)

    def restore():
        for logger, level, handler in undo:
            logger.removeHandler(handler)
            logger.setLevel(level)

    return records, restore


def serve(req):
    wanted = req.get("capture") or ()  # "out", "err": the streams the test captures
    captured = {key: Captured() for key in ("out", "err") if key in wanted}
    kept = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = captured.get("out", sys.stdout), captured.get("err", sys.stderr)
    records, restore = watch_logs(req["logs"]) if isinstance(req.get("logs"), list) else (None, None)
    try:
        reply = answer_of(req)
    finally:
        sys.stdout, sys.stderr = kept
        if restore is not None:
            restore()
    for key, stream in captured.items():
        if stream.n:
            reply[key] = stream.text()
    if records:
        reply["logs"] = records
    send(reply)


while True:
    line = requests.readline()
    try:
        req = _loads(line)
        req["id"]
    except Exception:
        break
    serve(req)
