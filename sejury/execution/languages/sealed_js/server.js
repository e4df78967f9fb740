// The sealed JavaScript harness's program side (node's standard library only): one process for the
// suite (another after a call that timed out or ended it). It loads the program, answers
// {"id":0,"loaded":...}, then answers each request line (a call's id, name and arguments, nothing of
// the tests) with the value as plain data, or the exception, on fd 3. What the program prints goes to
// its own stdout, which the checker drops; what it writes on fd 3 out of turn breaks the protocol.
"use strict";
const fs = require("fs"), vm = require("vm");
const { enc, dec, hooks, raised, STANDARD, MAX_LOGGED, native, dataClasses, declaredClass } = require("./codec.js");
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
  for (;;) {
    let end;
    while ((end = unread.indexOf("\n")) < 0) {
      const n = fs.readSync(ANSWERS, buf, 0, buf.length, null);
      if (n === 0) process.exit(0);
      unread += buf.toString("utf8", 0, n);
    }
    const m = JSON.parse(unread.slice(0, end));
    unread = unread.slice(end + 1);
    if (m && m.id !== undefined && m.cb === undefined) {  // the test's function asks the program in turn
      const r = callOf(m);  // (an async answer cannot settle while the program waits for the test's)
      const sent = r instanceof Promise ? { id: m.id, raise: "Error", msg: "an async call of the program's inside its call of a test's function" } : r;
      fs.writeSync(3, JSON.stringify(sent) + "\n");  // (not the stream: this loop holds the event loop)
      continue;
    }
    if (!m || m.cb !== cb) process.exit(0);
    if ("raise" in m) {
      const kind = STANDARD[m.raise];
      throw kind ? new kind(String(m.msg)) : Object.assign(new Error(String(m.msg)), { name: String(m.raise) });
    }
    return dec(m.ok);
  }
}
const STAND_INS = new WeakMap();  // a stand-in, given back (a callback returned, passed on): the test's own
hooks.standIn = (ref) => {
  const standIn = (...args) => ask(ref, args);
  STAND_INS.set(standIn, ref);
  return standIn;
};
hooks.lend = (fn) => (STAND_INS.has(fn) ? ["FN", STAND_INS.get(fn)] : hooks.keep(fn, false) || ["O", "function"]);
// The program's own objects and functions the tests hold (an instance of its class, the class, a
// closure, an object of methods) stay here, kept under a number; the checker gets a handle
// ["H", id, kind, chain, root, iterable] (kind "object", "function" or "class"; chain: [id, name] of
// each class from the object's up, root: the built-in error class the chain ends on, else "Object")
// and reads, sets and calls them by number (answerOf's ops).  A built-in's object (a Date, a Promise)
// stays an opaque name, as before.
const KEPT = [], IDS = new Map(), MAX_KEPT = 100000, MAX_CHAIN = 50;
const source = (f) => { try { return Function.prototype.toString.call(f); } catch (e) { return ""; } };
const isClass = (f) => /^class\b/.test(source(f));
function kept(v) {
  let id = IDS.get(v);
  if (id === undefined) {
    if (KEPT.length >= MAX_KEPT) throw new RangeError("the tests hold too many of the program's objects");
    id = KEPT.push(v) - 1;
    IDS.set(v, id);
  }
  return id;
}
// the classes of an object's prototype chain up to a built-in's ([id, name] each), the built-in error
// class it ends on (else "Object"), and whether any of it is the program's (a prototype of its own:
// a class's, a constructor function's, an object given as `X.prototype = {...}`)
function chainOf(proto) {
  const chain = [];
  let root = "Object", program = false;
  for (let p = proto; p && p !== Object.prototype && chain.length < MAX_CHAIN; p = Object.getPrototypeOf(p)) {
    const own = Object.getOwnPropertyDescriptor(p, "constructor");
    const c = own && own.value;
    if (typeof c === "function" && native(c)) { if (STANDARD[c.name] === c) root = c.name; break; }
    program = true;
    if (typeof c === "function") chain.push([kept(c), String(c.name || "")]);
  }
  return [chain, root, program];
}
const iterable = (v) => { try { return typeof v[Symbol.iterator] === "function"; } catch (e) { return false; } };
function holdsCode(v) {
  for (const k of Object.keys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (d && (!("value" in d) || (typeof d.value === "function" && !STAND_INS.has(d.value)))) return true;
  }
  return false;
}
hooks.keep = (v, plain) => {
  if (typeof v === "function") {
    if (STAND_INS.has(v) || native(v)) return null;
    const [chain, root] = v.prototype && typeof v.prototype === "object" ? chainOf(v.prototype) : [[], "Object"];
    return ["H", kept(v), isClass(v) ? "class" : "function", chain, root, false];
  }
  if (plain === "force" || (plain && holdsCode(v))) return ["H", kept(v), "object", [], "Object", iterable(v)];
  if (plain) return null;
  if (Object.prototype.toString.call(v) === "[object Generator]") return ["H", kept(v), "object", [], "Object", true];
  const [chain, root, program] = chainOf(Object.getPrototypeOf(v));
  return program ? ["H", kept(v), "object", chain, root, iterable(v)] : null;
};
hooks.handle = (v) => {
  if (!Number.isInteger(v[1]) || v[1] < 0 || v[1] >= KEPT.length) throw new ReferenceError("no such object of the program's");
  return KEPT[v[1]];
};
globalThis.assert = require("assert");
// the program's module (`exports.f = ...`, `module.exports = {...}`), not this file's own
const program = { exports: {} };
globalThis.module = program; globalThis.exports = program.exports; globalThis.require = require;
// the tests' data classes (javascript.py's data_classes: a constructor that only sets fields from its
// parameters, LeetCode's ListNode and TreeNode), declared here before the program, as LeetCode's judge
// provides them; their objects are made of them (codec.js's "C") and go back as theirs
const SHARED = dataClasses();
function declare(declarations) {
  if (declarations === null || typeof declarations !== "object") return;
  for (const [name, source] of Object.entries(declarations)) {
    if (SHARED.byName.has(name)) continue;
    // a property of the global object, not a declaration: the program's own of that name wins
    const cls = declaredClass(name, source, "the data classes");
    if (cls === undefined) continue;
    globalThis[name] = cls;
    SHARED.add(name, cls);
  }
}
try { declare(JSON.parse(fs.readFileSync("classes.json", "utf8"))); } catch (e) { /* none */ }
hooks.shared = SHARED.shared;
hooks.sharedName = SHARED.sharedName;
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
  for (const [name, cls] of [...SHARED.byName]) {  // a program declaring the class itself: its objects are of its own
    let own;
    try { own = vm.runInThisContext(name); } catch (e) { continue; }
    if (own !== cls && typeof own === "function" && own.prototype) {
      SHARED.add(name, own);
    }
  }
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
  try { reply = answerOf(request); } finally { if (!(reply instanceof Promise)) watched.restore(); }
  if (reply instanceof Promise) {
    return reply.then((r) => { watched.restore(); if (watched.logged.length) r.console = watched.logged; return r; });
  }
  if (watched.logged.length) reply.console = watched.logged;
  return reply;
}
// a name the program defines, as its code sees it
const named = (name) => { try { return vm.runInThisContext(name); } catch (e) { return program.exports && program.exports[name]; } };
const IDENT = /^[A-Za-z_$][\w$]*$/;
hooks.named = (name, exported) => {
  if (!IDENT.test(name) && !(exported && name === "*")) throw new ReferenceError("not a name");
  return exported ? (name === "*" ? program.exports : program.exports[name]) : named(name);
};
// a value already written as plain data (an answer made of parts written one by one)
class Encoded { constructor(value) { this.value = value; } }
// an answer as plain data, or, for an object too deep or too large to send whole, a handle the tests
// read part by part; an answer holding a loop (a doubly linked list) is such an object, so the tests
// read the same node as the same object each time (no references within it, codec.js)
function encOr(v) {
  try { return enc(v, undefined, 0, null); } catch (e) {
    if (e instanceof RangeError && v !== null && typeof v === "object") { const h = hooks.keep(v, "force"); if (h) return h; }
    throw e;
  }
}
const prop = (p) => { if (typeof p !== "string") throw new TypeError("not a property name"); return p; };
const SEEN_NAMES = Object.create(null);  // the declared names' values, as "names" last read them
function target(request) {
  if (request.exported === "*") return program.exports;  // the module is the function or class itself
  if (typeof request.exported === "string" && IDENT.test(request.exported)) return program.exports[request.exported];
  if (typeof request.name === "string" && IDENT.test(request.name)) return named(request.name);
  return hooks.handle(["H", request.ref]);
}
// the tests' reads, writes and calls of the program's objects, by handle (or by the name of a class or
// function the program defines, which a new process of the program answers too)
const OPS = {
  // each name's value: a class or function by handle, an object as a live handle, else data; with
  // `exports`, also the names the program's module.exports holds that it does not declare
  // (`module.exports = { NotFound: httpError(404) }`), as [name, value, 1]
  names: (r) => {
    const out = [], asked = new Set();
    const value = (v) => {
      const proto = v !== null && typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
      return proto === Object.prototype || proto === null ? hooks.keep(v, "force") : encOr(v);
    };
    for (const name of Array.isArray(r.names) ? r.names.slice(0, 10000) : []) {
      if (typeof name !== "string" || !IDENT.test(name)) continue;
      asked.add(name);
      const v = named(name);
      SEEN_NAMES[name] = v;
      out.push([name, value(v)]);
    }
    const ex = program.exports;
    if (r.exports && typeof ex === "function" && !Object.values(SEEN_NAMES).includes(ex)) out.push(["*", value(ex), 1]);
    if (r.exports && ex !== null && typeof ex === "object") {
      for (const name of Object.keys(ex).slice(0, 10000)) if (IDENT.test(name) && !asked.has(name)) out.push([name, value(ex[name]), 1]);
    }
    return out;  // (each value written already: the checker reads it with the generation of this answer)
  },
  make: (r) => { const C = target(r); return new C(...given(r)); },
  apply: (r) => Reflect.apply(target(r), undefined, given(r)),
  invoke: (r) => Reflect.apply(hooks.handle(["H", r.fn]), target(r), given(r)),
  set: (r) => { target(r)[prop(r.prop)] = dec(r.value); return true; },
  has: (r) => prop(r.prop) in Object(target(r)),
  del: (r) => delete target(r)[prop(r.prop)],
  keys: (r) => Object.keys(target(r)),
  own: (r) => {
    const o = target(r), d = Object.getOwnPropertyDescriptor(o, prop(r.prop));
    return d ? new Encoded(["L", [["B", Boolean(d.enumerable)], encOr("value" in d ? d.value : o[r.prop])]]) : null;
  },
  iter: (r) => {  // an iterator over the object, item by item (an endless generator too)
    const it = target(r)[Symbol.iterator]();
    const step = (r) => ({ value: r.value, done: Boolean(r.done) });
    return { next: () => step(it.next()), return: () => step(typeof it.return === "function" ? it.return() : { done: true }) };
  },
};
// a property read: a method (a function that is not a class) by its handle, called with the object
function got(r) {
  const v = target(r)[prop(r.prop)];
  if (typeof v === "function" && !STAND_INS.has(v) && !isClass(v)) return { method: kept(v), handle: hooks.keep(v, false) };
  return { ok: encOr(v) };
}
// an error of the program's own class goes back with its class, so `toThrow(TheClass)` can tell it
function thrown(e) {
  const out = raised(e);
  try {
    const c = e !== null && typeof e === "object" ? e.constructor : undefined;
    if (typeof c === "function" && !native(c)) out.cls = hooks.keep(c, false);
  } catch (_) {}
  return out;
}
function answerOf(request) {
  if (request.op !== undefined) {
    try {
      if (request.op === "get") return { id: request.id, ...got(request) };
      if (!Object.prototype.hasOwnProperty.call(OPS, request.op)) throw new TypeError("no such request");
      return settled(request.id, OPS[request.op](request), request);
    } catch (e) { return { id: request.id, ...thrown(e) }; }
  }
  let result;
  try {
    let fn;
    try { fn = vm.runInThisContext(request.call); } catch (e) { fn = program.exports && program.exports[request.call]; }
    if (typeof fn !== "function" && program.exports && typeof program.exports[request.call] === "function") {
      fn = program.exports[request.call];
    }
    result = settled(request.id, fn(...given(request)), request);
  } catch (e) {
    result = { id: request.id, ...thrown(e) };
  }
  return result;
}
// A promise the program returns (an async function's) is awaited here: its value or rejection is the
// answer, marked "awaited" (the checker gives the test a promise of it)
function settled(id, v, request) {
  if (!(v instanceof Promise)) return changed({ id, ok: v instanceof Encoded ? v.value : aliased(v, request) }, request);
  return v.then((x) => changed({ id, awaited: true, ok: aliased(x, request) }, request), (e) => changed({ id, awaited: true, ...thrown(e) }, request))
    .catch((e) => ({ id, awaited: true, ...thrown(e) }));
}
// A call's arguments are the test's own values: each array, object, Map and Set in them (numbered as
// the checker wrote them, the arguments' array 0) is the test's object of that number.  An answer
// holding one names it (["A", k]: `return nums` after sorting it in place, a node of the test's list,
// `middleNode(head)`), and what the program changed in one (`moveZeroes(nums)`, `reverseList(head)`'s
// links, a loop closed) goes back with the answer ("after": [k, its content now] each), the test's
// objects it holds named so too, and an object it made held by two of them written once (the contents
// written in order with one numbering, codec.js's "R"): the checker puts it in the test's own object.
// A container whose content now holds an opaque name (a Date, a test's class's object) is not put back.
function aliased(v, request) {
  hooks.alias = request && request.alias instanceof Map && request.alias.size ? request.alias : null;
  try { return encOr(v); } finally { hooks.alias = null; }
}
const DATA = new Set([Array.prototype, Object.prototype, null, Map.prototype, Set.prototype]);
// the container's content as data (``seen``: the numbering it shares with other contents), or null
// for one of no data kind or too large to send
function contentOf(o, alias, seen = new Map()) {
  const proto = Object.getPrototypeOf(o);
  if (!(DATA.has(proto) || SHARED.byProto.has(proto))) return null;
  hooks.alias = alias; hooks.open = o;
  try { return enc(o, undefined, 0, seen); } catch (e) { return null; } finally { hooks.alias = null; hooks.open = null; }
}
const shownOf = (content) => (content === null ? null : JSON.stringify(content));
function given(request) {
  const made = [];
  request.given = dec(request.args, 0, made);
  request.made = made;
  request.alias = new Map();
  made.forEach((o, k) => { if (k > 0 && !request.alias.has(o)) request.alias.set(o, k); });
  request.before = made.map((o, k) => (k > 0 ? shownOf(contentOf(o, request.alias)) : null));
  return request.given;
}
function changed(reply, request) {
  if (!request || !Array.isArray(request.made)) return reply;
  const changedOnes = [];
  request.made.forEach((o, k) => {
    if (k === 0 || request.before[k] === null) return;
    const now = shownOf(contentOf(o, request.alias));
    if (now !== null && now !== request.before[k] && !now.includes('["O",')) changedOnes.push(k);
  });
  if (!changedOnes.length) return reply;
  const seen = new Map();  // (one numbering for all: an object the program made, held by two of them)
  const after = [];
  for (const k of changedOnes) {
    const content = contentOf(request.made[k], request.alias, seen);
    if (content === null) return reply;  // (the numbering is broken: nothing is put back)
    after.push([k, content]);
  }
  reply.after = after;
  return reply;
}
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const reply = callOf(JSON.parse(line));
    if (reply instanceof Promise) reply.then(answer); else answer(reply);
  }
});
process.stdin.on("end", () => process.exit(0));
