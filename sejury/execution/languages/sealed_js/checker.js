// The sealed JavaScript harness's checker (node's standard library only).  It holds the tests; the
// program runs in another process (server.js) that sees only each call's arguments and
// answer with plain data (codec.js), so the tests' asserts compare values this process made.  The
// tests and the run's key are read, then deleted, before any program process starts; this process
// runs from an execute-only copy of node where the sandbox has one, so another process of the same
// user cannot read its memory.  Result lines are authenticated: HMAC-SHA256 under the key, numbered.
"use strict";
const fs = require("fs"), vm = require("vm"), crypto = require("crypto");
// plain (a second argument "plain"): the same tests' world with the program loaded in this process, as
// the user's own runner has it; no key, no program process.  The program can print a pass here, so
// only a failure in this run counts (javascript.py's plain_harness, evidence.py's confirm_failures).
const PLAIN = process.argv[3] === "plain";
const KEY = PLAIN ? "" : fs.readFileSync("seal", "utf8").trim();
if (!PLAIN) fs.unlinkSync("seal");
const SUITE = JSON.parse(fs.readFileSync("tests.json", "utf8"));
fs.unlinkSync("tests.json");
const PER_TEST_MS = Number(process.argv[2] || 5) * 1000;
let seq = 0;
const emit = (line) => {
  line = line.replace(/[\r\n]/g, " ");
  if (PLAIN) { fs.writeSync(1, line + "\n"); return; }
  const mac = crypto.createHmac("sha256", KEY).update(`${seq}|${line}`).digest("hex").slice(0, 32);
  fs.writeSync(1, `@@M ${seq} ${mac} ${line}\n`);
  seq++;
};
const { enc, dec, hooks, Opaque, raised, STANDARD, MAX_LOGGED, declaredClass } = require("./codec.js");
// the harness's own failures (the program's process ended, hung or broke the protocol) carry FAULT:
// bdd.js and chai.js never count one as the throw or rejection a test expects
const FAULT = Symbol.for("sejury.fault");
let faulted = "";  // the unit's first such failure: it fails the unit even if the test caught it
const fault = (e) => { faulted = faulted || String(e); return e; };
class CandidateExited extends Error { get [FAULT]() { return true; } }
let deadline = Date.now() + 20000;
// The program runs in one server.js process for the suite, driven by a worker thread of this process:
// a call posts its request to the worker and waits (Atomics.wait, with the test's time left) for the
// answer, so the tests stay synchronous and a call that hangs is killed (the next call gets a fresh
// process) without stopping the suite.
const { Worker, MessageChannel, receiveMessageOnPort } = require("worker_threads");
// SIGNAL[0]: the driver's answers so far; SIGNAL[1]: the program processes ended so far (a stand-in of
// an object made before one ended is gone, handles.js)
const SIGNAL = new Int32Array(new SharedArrayBuffer(8));
const { port1: answers, port2: answerPort } = new MessageChannel();
const DRIVER = `
const { workerData } = require("worker_threads"), cp = require("child_process");
const { signal, port, node } = workerData;
let child = null, ready = null, loadError = "", queued = null, pending = null, nested = [], buf = "", idle = 0;
const reply = (m) => { port.postMessage(m); Atomics.add(signal, 0, 1); Atomics.notify(signal, 0); };
function stop() { if (child) { try { child.kill("SIGKILL"); } catch (e) {} Atomics.add(signal, 1, 1); } child = null; ready = null; pending = null; queued = null; nested = []; idle = 0; }
function spawn() {
  const me = cp.spawn(node, ["server.js"], { stdio: ["pipe", "ignore", "ignore", "pipe", "pipe"] });
  child = me; ready = null; buf = "";
  me.stdin.on("error", () => {});
  me.stdio[4].on("error", () => {});
  me.stdio[3].setEncoding("utf8");
  me.stdio[3].on("data", (d) => {
    if (child !== me) return;
    buf += d;
    if (buf.length > (16 << 20)) { const id = pending; stop(); if (id !== null) reply({ id, broke: true }); return; }
    let end;
    while (child === me && (end = buf.indexOf("\\n")) >= 0) { const line = buf.slice(0, end); buf = buf.slice(end + 1); heard(line); }
  });
  me.on("exit", () => {
    if (child !== me) return;
    Atomics.add(signal, 1, 1);
    const id = pending !== null ? pending : queued ? queued.id : null, inner = nested;
    child = null; ready = null; pending = null; queued = null; nested = []; idle = 0;
    for (const n of inner.reverse()) reply({ id: n, exited: true });
    if (id !== null) reply({ id, exited: true });
  });
}
function heard(line) {
  let m; try { m = JSON.parse(line); } catch (e) { m = null; }
  if (ready === null) {
    if (!m || m.id !== 0) { const id = queued ? queued.id : null; stop(); if (id !== null) reply({ id, broke: true }); return; }
    ready = m.loaded === true; loadError = String(m.error || "");
    if (queued) { const q = queued; queued = null; send(q); }
    return;
  }
  // each answer stamped with the process it came from (the processes ended before it): its handles are that process's
  const life = Atomics.load(signal, 1);
  if (m && m.cb !== undefined && m.id === undefined) {  // the program calls a test's function
    if (pending === null && !nested.length) idle++;  // between requests (a timer's callback): id -1
    reply({ id: nested.length ? nested[nested.length - 1] : pending !== null ? pending : -1, lent: m, life });
    return;
  }
  if (nested.length && m && m.id === nested[nested.length - 1]) { nested.pop(); reply({ ...m, life }); return; }
  if (pending === null || !m || m.id !== pending) { const id = pending; stop(); if (id !== null) reply({ id, broke: true }); return; }
  pending = null;
  reply({ ...m, life });
}
function send(req) {
  if (req.load) { reply({ id: req.id, loaded: ready, error: loadError }); return; }
  if (!ready) { reply({ id: req.id, exited: true }); return; }
  pending = req.id;
  child.stdin.write(JSON.stringify(req) + "\\n");
}
require("worker_threads").parentPort.on("message", (m) => {
  if (m.answer) {
    if (child && (pending !== null || idle > 0)) child.stdio[4].write(JSON.stringify(m.answer) + "\\n");
    if (m.idle) idle = Math.max(0, idle - 1);
    return;
  }
  if (m.nested) {  // a request of a test's function the program is calling: it goes with the answers
    if (child && (pending !== null || idle > 0) && nested.length < 100) { nested.push(m.nested.id); child.stdio[4].write(JSON.stringify(m.nested) + "\\n"); }
    else reply({ id: m.nested.id, exited: true });
    return;
  }
  if (m.kill || pending !== null) stop();  // a call the checker gave up on (its test timed out) ends its process
  if (m.kill) return;
  if (!child) spawn();
  if (ready === null) queued = m.req; else send(m.req);
});
`;
const driver = PLAIN ? null : new Worker(DRIVER, { eval: true, workerData: { signal: SIGNAL, port: answerPort, node: process.execPath },
                                    transferList: [answerPort] });
let lastId = 0, waiting = 0;  // waiting: requests posted and not answered (nested ones too)
// a process ended by the checker counts at once (the driver counts it again when it acts: only the order matters)
const killing = () => { Atomics.add(SIGNAL, 1, 1); driver.postMessage({ kill: true }); };
// A test the vm's timeout stopped mid-request (no finally ran) left its request waiting: the program's
// process, busy with it, is ended before the next unit asks anything
function reap() {
  if (waiting > 0 || lending > 0) { killing(); waiting = 0; lending = 0; }
}
const life = () => Atomics.load(SIGNAL, 1);
function rpc(req) {
  const id = ++lastId;
  let seen = Atomics.load(SIGNAL, 0);
  driver.postMessage(lending ? { nested: { ...req, id } } : { req: { ...req, id } });
  waiting++;
  try { return answerTo(id, seen); } finally { waiting--; }
}
function answerTo(id, seen) {
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0 || Atomics.wait(SIGNAL, 0, seen, left) === "timed-out") {
      killing();
      throw fault(Object.assign(new Error("test took too long"), { [FAULT]: true }));
    }
    seen = Atomics.load(SIGNAL, 0);
    for (let m = receiveMessageOnPort(answers); m; m = receiveMessageOnPort(answers)) {
      const reply = m.message;
      if (reply && reply.id === -1 && reply.lent) { idleLent(reply); continue; }
      if (!reply || reply.id !== id) continue;  // the late answer of a call that timed out
      if (reply.exited) throw fault(new CandidateExited("the program's process ended during the call"));
      if (reply.broke) throw fault(new CandidateExited("the program broke the protocol"));
      if (reply.lent) { driver.postMessage({ answer: answerLent(reply.lent, reply.life) }); continue; }
      return reply;
    }
  }
}
// The tests' functions passed to the program (a callback, a jest.fn()) are lent: the program's process
// gets a stand-in (codec.js's "FN"), and each call of it comes here, where the function runs (a mock
// records the call) and its value goes back as plain data.  Only calls: the program reads no property
// of a lent function (a mock's record, its implementation).  A check of the test's that fails inside
// one (an expect in a callback) fails the unit even if the program catches the error; a unit that
// calls lent functions more than MAX_USES times fails; a lent function that calls the program again
// fails the unit (the program's process is busy with the call that called it).
const LENT = [], LENT_REFS = new Map(), MAX_USES = 100000;
let uses = 0, lending = 0;  // lending: how deep in the tests' functions the program is calling
hooks.lend = (fn) => {
  let ref = LENT_REFS.get(fn);
  if (ref === undefined) { ref = LENT.push(fn) - 1; LENT_REFS.set(fn, ref); }
  return ["FN", ref];
};
hooks.standIn = (ref) => (Number.isInteger(ref) && ref >= 0 && ref < LENT.length ? LENT[ref] : new Opaque("function"));
const CHECK = Symbol.for("sejury.check");
function answerLent(m, life) {
  const cb = m.cb;
  if (++uses > MAX_USES) {
    driver.postMessage({ kill: true });
    throw fault(new CandidateExited(`the program called the tests' functions more than ${MAX_USES} times in one test`));
  }
  if (!Number.isInteger(m.ref) || m.ref < 0 || m.ref >= LENT.length) return { cb, raise: "ReferenceError", msg: "no such function of the tests" };
  let args;
  try { args = H.decodeAt(life, m.args); } catch (e) { return { cb, raise: "TypeError", msg: "not a call" }; }
  if (!Array.isArray(args)) return { cb, raise: "TypeError", msg: "not a call" };
  lending++;
  try {
    return { cb, ok: enc(LENT[m.ref](...args)) };
  } catch (e) {
    if (e && e[FAULT]) throw e;
    if (e && (e[CHECK] || e.code === "ERR_ASSERTION")) fault(e);  // the test's own check failed in the call
    return { cb, ...raised(e) };
  } finally { lending--; }
}
// A test's function the program calls between requests (from a timer: `debounce`, `setTimeout(cb)`)
// runs when the checker next waits: on the event loop while a test awaits, or inside the next request
function idleLent(reply) {
  try { driver.postMessage({ answer: answerLent(reply.lent, reply.life), idle: true }); } catch (e) { /* a fault: its kill is sent */ }
}
if (!PLAIN) {
  answers.on("message", (reply) => { if (reply && reply.id === -1 && reply.lent) idleLent(reply); });
  answers.unref();
}
// console, as the tests see it: what they log goes nowhere (never the result channel); a method a test
// replaces (jest.spyOn(console, "log"), console.log = jest.fn()) is watched in the program's process
// during each call, and what the program logged through it is replayed here, after the call, as data
const CONSOLE = ["log", "info", "warn", "error", "debug"], QUIET = {};
for (const m of CONSOLE) { QUIET[m] = () => {}; console[m] = QUIET[m]; }
const watched = () => CONSOLE.filter((m) => console[m] !== QUIET[m] && typeof console[m] === "function");
function replay(reply) {
  if (!reply || !Array.isArray(reply.console)) return;
  for (const entry of reply.console.slice(0, MAX_LOGGED)) {
    if (!Array.isArray(entry) || !CONSOLE.includes(entry[0])) continue;
    let args;
    try { args = dec(entry[1]); } catch (e) { continue; }
    if (Array.isArray(args) && typeof console[entry[0]] === "function") console[entry[0]](...args);
  }
}
function call(name, args) {
  return ask({ call: name, args: sent(args) }, args);
}
// the tests' values as data for the program; one too large or too deep to send is the harness's
// limit, a fault, never a throw a test expects.  The arrays, objects, Maps and Sets written, by
// their number (codec.js), are kept with the encoding: the program's answer names them (["A", k])
const SENT_OBJECTS = new WeakMap();
function sent(v) {
  const seen = new Map();
  try { const e = enc(v, undefined, 0, seen); SENT_OBJECTS.set(e, [...seen.keys()]); return e; } catch (e) {
    throw fault(Object.assign(new Error(`the test's value cannot be sent to the program: ${String(e).slice(0, 100)}`), { [FAULT]: true }));
  }
}
// a request to the program's process (a call, or a read, write or call of one of its objects,
// handles.js) and its answer: the value, a method's number, a promise of an async call's value, or
// the exception, of the program's own error class where it threw one (handles.js's stand-in of it)
let asked = 0, quiet = 0;  // the requests made so far, but those made to show a value (expected.js)
function ask(req, args) {
  if (quiet === 0) asked++;
  const spied = watched();
  const reply = rpc({ ...req, ...(spied.length ? { console: spied } : {}) });
  replay(reply);
  if (reply && Number.isInteger(reply.method) && !reply.awaited) return { [H.METHOD]: reply.method, [H.FRESH]: reply.life, handle: reply.handle };
  if (reply && "raise" in reply) {
    const e = raisedHere(reply);
    if (reply.awaited) return Promise.reject(e);
    throw e;
  }
  if (!reply || !("ok" in reply)) throw fault(new CandidateExited("the program broke the protocol"));
  let value, after = [];
  const objects = (req.args && SENT_OBJECTS.get(req.args)) || [];
  hooks.arg = (k) => {  // a test's object the call was given, named by the program's answer: itself
    if (!Number.isInteger(k) || k <= 0 || k >= objects.length) throw new TypeError("no such argument");
    return objects[k];
  };
  try {
    value = H.decodeAt(reply.life, reply.ok);
    if (Array.isArray(reply.after)) {  // what the program changed in the test's objects (writeback.js)
      try {
        const made = [];  // (the contents' one numbering, server.js's changed)
        after = reply.after.map((x) => (Array.isArray(x) && x.length === 2 ? [x[0], H.decodeAt(reply.life, x[1], made)] : [-1, null]));
      } catch (e) { after = []; /* the test's values stay as they were */ }
    }
  }
  catch (e) { throw e && e[FAULT] ? e : fault(new CandidateExited(`the program broke the protocol (${String(e).slice(0, 100)})`)); }
  finally { hooks.arg = null; }
  if (req.op === "names" && Array.isArray(value)) value[H.FRESH] = reply.life;
  putBack(objects, after);
  return reply.awaited ? Promise.resolve(value) : value;
}
function raisedHere(reply) {
  const kind = STANDARD[reply.raise];
  let cls = null;
  try { cls = Array.isArray(reply.cls) ? H.decodeAt(reply.life, reply.cls) : null; } catch (e) { cls = null; }
  if (cls === null || !H.isStandIn(cls)) return kind ? new kind(String(reply.msg)) : new Error(`${reply.raise}: ${reply.msg}`);
  const e = new Error(String(reply.msg));  // the program's error class: `instanceof` it answers true
  Object.setPrototypeOf(e, cls.prototype);
  Object.defineProperty(e, "name", { value: String(reply.raise), writable: true, configurable: true });
  e.stack = `${reply.raise}: ${reply.msg}`;  // (a message shows the program's error, not this file's lines)
  return e;
}
const H = require("./handles.js")(ask, life, (v) => sent(v),
  () => fault(new CandidateExited("the program's object is gone: its process ended after the object was made")),
  (why) => fault(Object.assign(new Error(why), { [FAULT]: true })));
const { putBack, declareClasses } = require("./writeback.js")(H);
let load, loaded = null;  // loaded: the program's own module.exports, in a plain run
if (PLAIN) {
  globalThis.module = { exports: {} }; globalThis.exports = globalThis.module.exports; globalThis.require = require;
  try {
    vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
    load = { loaded: true };
  } catch (e) { load = { loaded: false, error: String(e) }; }
  loaded = globalThis.module.exports;
} else {
  try { load = rpc({ load: true }); } catch (e) { load = { loaded: false, error: String(e) }; }
}
if (!load || !load.loaded) {
  emit("@@LOAD FAIL " + String((load && load.error) || "").slice(0, 300));
  emit("@@DONE");
  process.exit(3);
}
emit("@@LOAD OK");
globalThis.assert = require("./expected.js").guarded(require("assert"));
globalThis.module = { exports: {} }; globalThis.exports = module.exports;
console.assert = (c, ...m) => { if (!c) throw Object.assign(new Error("assertion failed " + m.join(" ")), { [CHECK]: true }); };
// Jest's, Mocha's and node:test's forms (bdd.js): describe/it/test, their hooks, expect
const bdd = require("./bdd.js");
const fields = (v, depth) => { quiet++; try { return H.shown(v, depth); } finally { quiet--; } };
bdd.shownBy(fields);  // a failure's message shows the program's objects by their fields
// a check whose expected value holds the program's object, decided by the program's answers: a fault
const EXPECTED = require("./expected.js");
if (!PLAIN) {
  const SENT = new WeakSet();  // the arrays, objects, Maps and Sets decoded from the program's answers
  hooks.decoded = (o) => { SENT.add(o); };
  EXPECTED.judgeWith(H.isProgramObject, (v) => SENT.has(v), () => asked, () => fault(Object.assign(new Error("the check compares the program's own object "
    + "with what the program answered: not evidence"), { [FAULT]: true })));
}
// The program's names are the tests' globals, except a name the tests' world already has: the
// harness's own (expect, assert, test, ...) and JavaScript's and node's (Number, JSON, isNaN, ...).
// A program defining `function expect() {...}` or `function assert() {}` would otherwise answer
// the tests' checks itself; it stays reachable by `require('./program')`.
const HARNESS = new Set([...Object.keys(bdd.api), ...SUITE.harness]);  // (javascript.py's HARNESS_NAMES)
const own = (name) => {  // a plain run: the program's own value of a name it defines
  try { return vm.runInThisContext(name); } catch (e) { return loaded && loaded[name]; }
};
// each name as the program's process answers it (a class, a function or an object: a stand-in of it,
// handles.js; other values as data); a name it does not answer is called by name, as before
let values = [];
if (!PLAIN) {
  try { values = ask({ op: "names", names: SUITE.names, exports: true }); } catch (e) { values = []; }
}
// the program's own data classes (javascript.py's program_data_classes), declared here anew: a test's
// `new ListNode(...)` makes its object in this process, of data the program never sees
const OWN = new Map();
for (const [name, source] of Object.entries(!PLAIN && SUITE.own && typeof SUITE.own === "object" ? SUITE.own : {})) {
  // (never one of the checker's own names or globals: `function Boolean(v) {...}` would be chai's Boolean)
  const cls = HARNESS.has(name) || name in globalThis ? undefined : declaredClass(name, source, "the program's data classes");
  if (cls !== undefined) { OWN.set(name, cls); globalThis[name] = cls; }
}
const answeredNames = new Map(Array.isArray(values) ? values.filter((x) => Array.isArray(x) && x.length === 2).map((x) => [x[0], x[1]]) : []);
for (const name of SUITE.names) {
  if (PLAIN) { module.exports[name] = own(name); continue; }  // its declarations are this context's already
  if (OWN.has(name)) { module.exports[name] = OWN.get(name); continue; }
  let stub;
  try { stub = answeredNames.has(name) ? H.named(name, answeredNames.get(name), call, values[H.FRESH]) : undefined; } catch (e) { stub = undefined; }
  if (stub === undefined) {
    stub = (...args) => call(name, args);
    Object.defineProperty(stub, "name", { value: name });
  }
  if (!HARNESS.has(name) && !(name in globalThis)) globalThis[name] = stub;
  module.exports[name] = stub;
}
// the names the program exports without declaring them: the tests' require gives them, no global does
let DEFAULT;  // the program's module.exports when it is a function or class itself (`module.exports = (a, b) => a + b`)
for (const row of Array.isArray(values) ? values : []) {
  if (Array.isArray(row) && row.length === 3 && row[0] === "*") {
    try { DEFAULT = H.named("*", row[1], call, values[H.FRESH], true); } catch (e) { /* left out */ }
    continue;
  }
  if (!Array.isArray(row) || row.length !== 3 || typeof row[0] !== "string" || row[0] in module.exports) continue;
  try { module.exports[row[0]] = H.named(row[0], row[1], call, values[H.FRESH], true); } catch (e) { /* left out */ }
}
for (const [name, value] of Object.entries(bdd.api)) globalThis[name] = value;
globalThis.sejuryReset = bdd.reset;
globalThis.sejuryTest = bdd.run;
// the tests' require: the program under test (a relative path: `require('./rle')`) is its stubs, a
// function when it defines one name (`const rle = require('./rle')`); a test runner's module is
// bdd.js, and chai is chai.js
const TEST_RUNNERS = new Set(["@jest/globals", "vitest", "node:test", "mocha"]);
const ASSERTS = new Set(["assert", "node:assert", "assert/strict", "node:assert/strict"]);
const exportsNames = Object.keys(module.exports);
const only = DEFAULT !== undefined ? DEFAULT : exportsNames.length === 1 ? module.exports[exportsNames[0]] : null;
globalThis.require = (path) => (typeof path === "string" && /^\.{1,2}\//.test(path)
  ? (only ? (H.isStandIn(only) ? only : Object.assign((...args) => only(...args), module.exports)) : module.exports)
  : TEST_RUNNERS.has(path) ? bdd.api : path === "chai" ? require("./chai.js")
    : ASSERTS.has(path) ? require("./expected.js").guarded(require(path)) : require(path));
// the differential record's picture of a value: an object of the program's class by its class (its
// fields are its author's choice); one of no class (an object of methods, data too deep or cyclic to
// send whole) by its data, as plain data would be shown, to a bounded depth
const sejuryShow = (v, depth = 0, budget = { n: 10000 }) => {
  if (depth > 12 || --budget.n < 0) return "...";  // (a value sent with references can be walked far longer)
  const shown = (x) => sejuryShow(x, depth + 1, budget);
  if (H.isStandIn(v)) {
    if (!H.classless(v)) return `<${H.label(v) || "value"} of the program>`;
    v = fields(v, 3);
  }
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return "[" + v.map(shown).join(", ") + "]";
  if (v instanceof Map) {
    return "Map{" + [...v].map(([a, b]) => shown(a) + ": " + shown(b)).sort().join(", ") + "}";
  }
  if (v instanceof Set) return "Set{" + [...v].map(shown).sort().join(", ") + "}";
  return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ": " + shown(v[k])).join(", ") + "}";
};
const sejuryUnit = [-1, 0];
globalThis.sejury_rec = (i, k, v) => {
  if (i < 0) { i = sejuryUnit[0]; k = 1000 + sejuryUnit[1]++; }
  const was = faulted;  // (showing a value is not the test's doing: a fault in reading it is no failure of the test)
  let s; try { s = sejuryShow(v); } catch (e) { s = "<unshowable>"; } finally { faulted = was; }
  s = s.replace(/\n/g, "\\n");
  emit(`@@V ${i} ${k} ${s.slice(0, 1000)}|${s.length}`);
  return v;
};
try { vm.runInThisContext(SUITE.setup, { filename: "setup" }); }
catch (e) { emit("@@SETUP FAIL " + String(e).slice(0, 300)); }
// (a program's class not declared here, above, is none: the name is the checker's own)
const OWN_SOURCES = !PLAIN && SUITE.own && typeof SUITE.own === "object" ? SUITE.own : {};
declareClasses(Array.isArray(SUITE.classes) && !PLAIN
  ? SUITE.classes.filter((name) => !Object.prototype.hasOwnProperty.call(OWN_SOURCES, name) || OWN.has(name)) : []);
// a test that returns a promise (an async test of bdd.js) is awaited, up to the test's time left
const settle = (promise, ms) => new Promise((ok, no) => {
  const timer = setTimeout(() => no(new Error("TimeoutError: the test's promise did not settle in time")), ms);
  promise.then((v) => { clearTimeout(timer); ok(v); }, (e) => { clearTimeout(timer); no(e); });
});
const setupFault = faulted;
(async () => {
  for (const [i, src] of SUITE.units) {
    sejuryUnit[0] = i; sejuryUnit[1] = 0; uses = 0;
    if (!PLAIN) reap();
    deadline = Date.now() + PER_TEST_MS;
    faulted = setupFault;  // the setup's fault, if it had one: the unit's values may come from that call
    try {
      const r = vm.runInThisContext(src, { filename: `test_${i}`, timeout: PER_TEST_MS });
      if (r && typeof r.then === "function") await settle(r, Math.max(1, deadline - Date.now()));
      emit(faulted ? `@@T ${i} FAIL ` + faulted.slice(0, 200) : `@@T ${i} PASS`);  // a fault caught by the test too
    } catch (e) { emit(`@@T ${i} FAIL ` + String(e).slice(0, 200)); }
  }
  emit("@@DONE");
  process.exit(0);  // the driver thread and the program's process end with this one
})();
