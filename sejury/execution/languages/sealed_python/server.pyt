# The sealed Python harness's program side (runs in the sandbox; standard library only).  It loads
# the program and answers calls: arguments in, the returned value (or the exception) out, as
# plain data (codec.py).  It sees no test, no expected value and no result line; what it prints
# goes to a log, never to the channel the results travel on.
import json
import os
import sys

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


def own(ref, kind, **kw):  # an object of the program's, sent back by the checker
    return HANDLES[ref]


def send(obj):
    if NET[0] and obj.get("id"):
        obj["net"] = True
    answers.write(json.dumps(obj) + "\n")
    answers.flush()


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
send({"id": 0, "loaded": True, "callables": callables, "values": values, "modules": modules})

for line in requests:
    try:
        req = json.loads(line)
        rid = req["id"]
    except Exception:
        break
    NET[0] = False
    try:
        if "render" in req:  # the differential record's picture of a handle (``render``)
            send({"id": rid, "ok": render(HANDLES[int(req["render"])])})
            continue
        if "attr" in req:
            ref, name = req["attr"]
            got = getattr(HANDLES[ref], name)
            if callable(got) and getattr(got, "__self__", None) is HANDLES[ref]:
                send({"id": rid, "ok": ["M", ref, name]})
                continue
            result = got
        else:
            args, kwargs = dec(req["args"], own), dec(req["kwargs"], own)
            if "method" in req:
                ref, name = req["method"]
                fn = getattr(HANDLES[ref], name)
            else:
                fn = ns[req["call"]]
                if "random" in req:  # the test's own random state, which it seeded or drew from
                    set_random_states(req["random"])
                else:  # a call of the problem's function starts from one random state, in both programs
                    seed_random()
            result = fn(*args, **kwargs)
        send({"id": rid, "ok": enc(result, HANDLES)})
    except BaseException as e:
        try:
            msg = str(e)[:300]
        except BaseException:
            msg = ""
        send({"id": rid, "raise": type(e).__name__, "msg": msg})
