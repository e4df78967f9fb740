// The sealed JavaScript harness's program side (node's standard library only): one process for the
// suite (another after a call that timed out or ended it). It loads the program, answers
// {"id":0,"loaded":...}, then answers each request line (a call's id, name and arguments, nothing of
// the tests) with the value as plain data, or the exception, on fd 3. What the program prints goes to
// its own stdout, which the checker drops; what it writes on fd 3 out of turn breaks the protocol.
"use strict";
const fs = require("fs"), vm = require("vm");
const { enc, dec, hooks, raised, STANDARD, MAX_LOGGED } = require("./codec.js");
const channel = fs.createWriteStream(null, { fd: 3 });
const answer = (obj) => channel.write(JSON.stringify(obj) + "\n");
// A function of the tests passed to the program (a callback, a jest.fn()) stays in the checker: the
// program gets a stand-in, and each call of it asks the checker (its arguments out on fd 3, the
// answer in on fd 4, both while the program's call waits), where the test's function runs and a
// mock records the call.
const ANSWERS = 4;
let asked = 0, unread = "";
function ask(ref, args) {
  const cb = ++asked;
  fs.writeSync(3, JSON.stringify({ cb, ref, args: enc(args) }) + "\n");
  const buf = Buffer.alloc(65536);
  let end;
  while ((end = unread.indexOf("\n")) < 0) {
    const n = fs.readSync(ANSWERS, buf, 0, buf.length, null);
    if (n === 0) process.exit(0);
    unread += buf.toString("utf8", 0, n);
  }
  const m = JSON.parse(unread.slice(0, end));
  unread = unread.slice(end + 1);
  if (!m || m.cb !== cb) process.exit(0);
  if ("raise" in m) {
    const kind = STANDARD[m.raise];
    throw kind ? new kind(String(m.msg)) : Object.assign(new Error(String(m.msg)), { name: String(m.raise) });
  }
  return dec(m.ok);
}
const STAND_INS = new WeakMap();  // a stand-in, given back (a callback returned, passed on): the test's own
hooks.standIn = (ref) => {
  const standIn = (...args) => ask(ref, args);
  STAND_INS.set(standIn, ref);
  return standIn;
};
hooks.lend = (fn) => (STAND_INS.has(fn) ? ["FN", STAND_INS.get(fn)] : hooks.handle(fn));  // (its own: kept here)
// The program's objects (an instance of its class, a function it returns) stay here: the tests get a
// reference (["H", ref, class name, class ref] or ["HF", ref]) and read, set and call through it.  Its
// classes are known by identity (``CLASS_OF``: a class's prototype object -> the class's reference).
const HANDLES = [], KEPT = new Map(), CLASS_OF = new Map();
const keep = (v) => { let r = KEPT.get(v); if (r === undefined) { r = HANDLES.push(v) - 1; KEPT.set(v, r); } return r; };
function classOf(v) {
  try {
    for (let p = Object.getPrototypeOf(v), n = 0; p !== null && n < 64; p = Object.getPrototypeOf(p), n++) {
      if (CLASS_OF.has(p)) return CLASS_OF.get(p);
    }
  } catch (e) {}
  return -1;
}
hooks.handle = (v) => {
  if (typeof v === "function") return ["HF", keep(v)];
  let name = "object";
  try { const c = Object.getPrototypeOf(v).constructor; name = typeof c === "function" ? String(c.name) : name; } catch (e) {}
  return ["H", keep(v), name.slice(0, 100), classOf(v)];
};
hooks.handleOf = (v) => {
  const ref = Number(v[1]);
  if (!Number.isInteger(ref) || ref < 0 || ref >= HANDLES.length) throw new TypeError("no such object of the program's");
  return HANDLES[ref];
};
hooks.classOf = (e) => (e !== null && typeof e === "object" ? classOf(e) : -1);
globalThis.assert = require("assert");
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
  answer({ id: 0, loaded: true });
} catch (e) {
  answer({ id: 0, loaded: false, error: String(e).slice(0, 300) });
  channel.end(() => process.exit(0));
}
// A test that spies on console (jest.spyOn(console, "log"), console.log = jest.fn()) names the methods
// it watches with each call: what the program logs through them during the call is sent with the
// answer, as data (up to MAX_LOGGED calls), and the checker replays it into the test's spies.
function watching(methods) {
  const logged = [], kept = {};
  for (const m of Array.isArray(methods) ? methods : []) {
    if (typeof m !== "string" || typeof console[m] !== "function") continue;
    kept[m] = console[m];
    console[m] = (...args) => {
      if (logged.length >= MAX_LOGGED) return;
      try { logged.push([m, enc(args)]); } catch (e) { logged.push([m, ["L", [["S", "<too large>"]]]]); }
    };
  }
  return { logged, restore: () => Object.assign(console, kept) };
}
function callOf(request) {
  const watched = watching(request.console);
  let reply;
  try { reply = answerOf(request); } finally { watched.restore(); }
  if (watched.logged.length) reply.console = watched.logged;
  return reply;
}
function named(name) {  // one of the program's names, as its script defined it (or exported it)
  try { return vm.runInThisContext(String(name)); } catch (e) { return module.exports && module.exports[name]; }
}
function classes(names) {  // its classes (and functions a test may ``new``), by identity, and their bases
  const out = {};
  for (const name of Array.isArray(names) ? names.slice(0, 1000) : []) {
    const C = named(name);
    if (typeof C !== "function" || C.prototype === undefined || C.prototype === null) continue;
    const ref = keep(C);
    if (!CLASS_OF.has(C.prototype)) CLASS_OF.set(C.prototype, ref);
    out[name] = ref;
  }
  const bases = {};
  for (const ref of Object.values(out)) {
    const base = Object.getPrototypeOf(HANDLES[ref].prototype);
    bases[ref] = base !== null && CLASS_OF.has(base) ? CLASS_OF.get(base) : -1;
  }
  return { names: out, bases };
}
function held(ref) {
  if (!Number.isInteger(ref) || ref < 0 || ref >= HANDLES.length) throw new TypeError("no such object of the program's");
  return HANDLES[ref];
}
function answerOf(request) {
  let result;
  try {
    if (request.classes) return { id: request.id, ok: ["S", JSON.stringify(classes(request.classes))] };
    if (request.make) {  // ``new Cart(...)``
      const C = named(request.make);
      return { id: request.id, ok: enc(new C(...dec(request.args))) };
    }
    if (request.get) return { id: request.id, ok: enc(held(request.get[0])[String(request.get[1])]) };
    if (request.set) {
      held(request.set[0])[String(request.set[1])] = dec(request.set[2]);
      return { id: request.id, ok: ["U"] };
    }
    if (request.apply) {  // a function of the program's, on the object the test called it on
      const [fn, self] = request.apply;
      return { id: request.id, ok: enc(held(fn).apply(self >= 0 ? held(self) : undefined, dec(request.args))) };
    }
    let fn;
    try { fn = vm.runInThisContext(request.call); } catch (e) { fn = module.exports && module.exports[request.call]; }
    if (typeof fn !== "function" && module.exports && typeof module.exports[request.call] === "function") {
      fn = module.exports[request.call];
    }
    result = { id: request.id, ok: enc(fn(...dec(request.args))) };
  } catch (e) {
    result = { id: request.id, ...raised(e) };
  }
  return result;
}
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    answer(callOf(JSON.parse(line)));
  }
});
process.stdin.on("end", () => process.exit(0));
