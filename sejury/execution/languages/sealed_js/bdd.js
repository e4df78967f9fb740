// Jest's, Mocha's and node:test's test forms in the sealed JavaScript checker (node's standard
// library only): describe/it/test and their hooks register a suite; sejuryTest(k) runs its k-th test
// with the hooks around it, as those runners do, and throws its first failure.  expect(...) is the
// part of Jest's matchers tests use most, comparing plain data this process holds (the program's
// values arrive decoded by codec.js), type-strictly.  See sejury/execution/languages/_bdd.py.
"use strict";
const util = require("util");
const { setOwn } = require("./codec.js");
const { checked } = require("./expected.js");

function node(name, parent) {
  return { name, parent, children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
}
const root = node("", null);
let current = root;
let tests = [];  // the tests registered since the last reset, in order
let skipping = 0;  // inside describe.skip
// a function taking a callback (Mocha's and node:test's `done`) as a promise of that callback
const settled = (fn) => (fn.length > 0 ? () => new Promise((ok, no) => fn((e) => (e ? no(e) : ok()))) : fn);

function describe(name, fn) {
  const d = node(String(name), current);
  current.children.push(d);
  const outer = current;
  current = d;
  try { fn(); } finally { current = outer; }
}
function register(skip) {
  return (name, fn) => {
    tests.push({ name: String(name), fn, skip: skip || skipping > 0 || typeof fn !== "function", parent: current });
  };
}
function each(table, skip) {  // test.each([[1, 2], ...])("name %i", (a, b) => ...): one test, every row
  return (name, fn) => register(skip)(name, function () {
    let chain;
    for (const row of table) {
      const args = Array.isArray(row) ? row : [row];
      chain = chain && typeof chain.then === "function" ? chain.then(() => fn(...args)) : fn(...args);
    }
    return chain;
  });
}
const test = Object.assign(register(false), {
  only: register(false), skip: register(true), todo: (name) => register(true)(name),
  each: (table) => each(table, false), concurrent: register(false),
});
test.skip.each = (table) => each(table, true);
test.only.each = (table) => each(table, false);
const suite = Object.assign(describe, {
  only: describe,
  skip: (name, fn) => { skipping++; try { describe(name, fn); } finally { skipping--; } },
  each: (table) => (name, fn) => { for (const row of table) describe(name, () => fn(...(Array.isArray(row) ? row : [row]))); },
});
const hook = (kind) => (fn) => { current[kind].push(settled(fn)); };

let oneText = false;  // the unit's block holds one test's text: run(0) runs every test it registers
function reset(one) {  // a unit starts: its own block registers its tests (the setup's hooks stay)
  oneText = one === true;
  tests = [];
  root.children = [];
  current = root;
  skipping = 0;
}

// run steps in order; synchronous until a step returns a promise, then the rest after it settles
function sequence(steps, state) {
  for (let i = 0; i < steps.length; i++) {
    const [always, fn] = steps[i];
    if (state.error !== undefined && !always) continue;
    let r;
    try { r = fn(); } catch (e) { if (state.error === undefined) state.error = e; continue; }
    if (r && typeof r.then === "function") {
      return r.then(() => {}, (e) => { if (state.error === undefined) state.error = e; })
        .then(() => sequence(steps.slice(i + 1), state));
    }
  }
  return undefined;
}

function run(k) {
  if (oneText && k === 0 && tests.length > 1) {  // a describe.each's rows, a loop's tests: each in turn
    const all = tests.map((_, i) => i);
    oneText = false;
    const next = (rest) => {
      for (let j = 0; j < rest.length; j++) {
        const r = run(rest[j]);
        if (r && typeof r.then === "function") return r.then(() => next(rest.slice(j + 1)));
      }
      return undefined;
    };
    return next(all);
  }
  const t = tests[k];
  if (t === undefined) throw new Error(`no test number ${k} in this block`);
  if (t.skip) throw new Error(`skipped: ${t.name}`);
  const chain = [];
  for (let d = t.parent; d; d = d.parent) chain.unshift(d);
  const steps = [];
  for (const d of chain) for (const f of d.beforeAll) steps.push([false, f]);
  for (const d of chain) for (const f of d.beforeEach) steps.push([false, f]);
  steps.push([false, settled(t.fn)]);
  for (const d of [...chain].reverse()) for (const f of d.afterEach) steps.push([true, f]);
  for (const d of [...chain].reverse()) for (const f of d.afterAll) steps.push([true, f]);
  const state = { error: undefined };
  const pending = sequence(steps, state);
  const done = () => { if (state.error !== undefined) throw state.error; };
  if (pending) return pending.then(done);
  return done();
}

// --- expect: Jest's common matchers, on plain data ---
const own = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Map)
  && !(v instanceof Set) && !(v instanceof Date) && !(v instanceof RegExp));
function defined(v, made = new Map()) {  // toEqual leaves out properties whose value is undefined
  if (made.has(v)) return made.get(v);  // (a cycle: a doubly linked list's)
  if (Array.isArray(v)) {
    const out = [];
    made.set(v, out);
    for (const x of v) out.push(defined(x, made));
    return out;
  }
  if (own(v)) {
    const out = {};
    made.set(v, out);
    for (const [k, x] of Object.entries(v)) {
      if (x !== undefined) setOwn(out, k, defined(x, made));
    }
    return out;
  }
  return v;
}
let shownAs = (v) => v;  // checker.js's: the program's objects as their fields (handles.js)
const show = (v) => util.inspect(shownAs(v), { depth: 6, breakLength: Infinity });
function matchesObject(actual, expected) {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((x, i) => matchesObject(actual[i], x));
  }
  if (own(expected)) {
    return actual !== null && typeof actual === "object"
      && Object.entries(expected).every(([k, x]) => k in actual && matchesObject(actual[k], x));
  }
  return util.isDeepStrictEqual(actual, expected);
}
function property(v, path) {
  const keys = Array.isArray(path) ? path : String(path).replace(/\[(\d+)\]/g, ".$1").split(".");
  let cur = v;
  for (const k of keys) {
    if (cur === null || cur === undefined || !(Object(cur) instanceof Object) || !(k in Object(cur))) return [false];
    cur = cur[k];
  }
  return [true, cur];
}
const CHECK = Symbol.for("sejury.check");  // a failed expect: inside a lent call it still fails the test (checker.js)
// the harness's own failure (checker.js: the program's process ended or hung): never a throw
const fault = (e) => Boolean(e && e[Symbol.for("sejury.fault")]);
function thrown(fn) {
  try { fn(); } catch (e) {
    if (fault(e)) throw e;
    return [true, e];
  }
  return [false];
}
// toEqual's equality (a mock's calls and results are compared so too); one object on both sides is
// equal without reading it
const equal = (a, b) => Object.is(a, b) || util.isDeepStrictEqual(defined(a), defined(b));
const MATCHERS = {
  toBe: (a, b) => [Object.is(a, b), `${show(a)} to be ${show(b)}`],
  toEqual: (a, b) => [equal(a, b), `${show(a)} to equal ${show(b)}`],
  toStrictEqual: (a, b) => [Object.is(a, b) || util.isDeepStrictEqual(a, b), `${show(a)} to strictly equal ${show(b)}`],
  toBeTruthy: (a) => [Boolean(a), `${show(a)} to be truthy`],
  toBeFalsy: (a) => [!a, `${show(a)} to be falsy`],
  toBeNull: (a) => [a === null, `${show(a)} to be null`],
  toBeUndefined: (a) => [a === undefined, `${show(a)} to be undefined`],
  toBeDefined: (a) => [a !== undefined, `${show(a)} to be defined`],
  toBeNaN: (a) => [Number.isNaN(a), `${show(a)} to be NaN`],
  toBeCloseTo: (a, b, digits = 2) => [typeof a === "number" && Math.abs(a - b) < 10 ** -digits / 2,
    `${show(a)} to be close to ${show(b)} (${digits} digits)`],
  toBeGreaterThan: (a, b) => [a > b, `${show(a)} > ${show(b)}`],
  toBeGreaterThanOrEqual: (a, b) => [a >= b, `${show(a)} >= ${show(b)}`],
  toBeLessThan: (a, b) => [a < b, `${show(a)} < ${show(b)}`],
  toBeLessThanOrEqual: (a, b) => [a <= b, `${show(a)} <= ${show(b)}`],
  toContain: (a, b) => [(typeof a === "string" && typeof b === "string" && a.includes(b))
    || (Array.isArray(a) && a.includes(b)) || (a instanceof Set && a.has(b)), `${show(a)} to contain ${show(b)}`],
  toContainEqual: (a, b) => [Array.isArray(a) && a.some((x) => util.isDeepStrictEqual(defined(x), defined(b))),
    `${show(a)} to contain an item equal to ${show(b)}`],
  toHaveLength: (a, n) => [a !== null && a !== undefined && a.length === n, `${show(a)} to have length ${n}`],
  toMatch: (a, p) => [typeof a === "string" && (p instanceof RegExp ? p.test(a) : a.includes(String(p))),
    `${show(a)} to match ${show(p)}`],
  toMatchObject: (a, b) => [matchesObject(a, b), `${show(a)} to match the object ${show(b)}`],
  toHaveProperty: (a, path, ...value) => {
    const [has, v] = property(a, path);
    return [has && (value.length === 0 || util.isDeepStrictEqual(defined(v), defined(value[0]))),
      `${show(a)} to have property ${show(path)}${value.length ? " = " + show(value[0]) : ""}`];
  },
  toBeInstanceOf: (a, cls) => [a instanceof cls, `${show(a)} to be an instance of ${cls && cls.name}`],
  toThrow: (fn, want) => {
    const [did, e] = thrown(fn);
    const msg = e && e.message !== undefined ? String(e.message) : String(e);
    const ok = did && (want === undefined || (want instanceof RegExp ? want.test(msg)
      : typeof want === "string" ? msg.includes(want) : typeof want === "function" ? e instanceof want
        : want instanceof Error ? msg === want.message : true));
    return [ok, `the function to throw${want === undefined ? "" : " " + show(want)}${did ? ` (it threw ${show(msg)})` : ""}`];
  },
};
MATCHERS.toThrowError = MATCHERS.toThrow;

// --- jest.fn() / vi.fn(): a mock function, its calls and results recorded (passed to the program, it
// is lent: checker.js runs it here for each call the program makes) ---
const MOCK = Symbol("sejury.mock");
function fn(impl) {
  const once = [];
  let body = impl, name = "jest.fn()";
  const mock = function (...args) {  // (a spy on a method calls it with the object it was called on)
    mock.mock.calls.push(args);
    const run = once.length ? once.shift() : body;
    try {
      const value = run ? run.apply(this, args) : undefined;
      mock.mock.results.push({ type: "return", value });
      return value;
    } catch (e) {
      mock.mock.results.push({ type: "throw", value: e });
      throw e;
    }
  };
  mock[MOCK] = true;
  mock.mock = { calls: [], results: [] };
  const chain = (f) => (...a) => { f(...a); return mock; };
  Object.assign(mock, {
    mockImplementation: chain((f) => { body = f; }), mockImplementationOnce: chain((f) => { once.push(f); }),
    mockReturnValue: chain((v) => { body = () => v; }), mockReturnValueOnce: chain((v) => { once.push(() => v); }),
    mockResolvedValue: chain((v) => { body = () => Promise.resolve(v); }),
    mockRejectedValue: chain((v) => { body = () => Promise.reject(v); }),
    mockClear: chain(() => { mock.mock.calls = []; mock.mock.results = []; }),
    mockReset: chain(() => { mock.mock.calls = []; mock.mock.results = []; body = undefined; once.length = 0; }),
    mockName: chain((n) => { name = String(n); }), getMockName: () => name,
  });
  return mock;
}
const calls = (m) => (m && m[MOCK] ? m.mock.calls : null);
function called(check, what) {
  return (m, ...args) => {
    const c = calls(m);
    if (c === null) return [false, `${show(m)} to be a mock function (jest.fn())`];
    return [check(c, ...args), `the mock ${what(...args)} (its calls: ${show(c)})`];
  };
}
Object.assign(MATCHERS, {
  toHaveBeenCalled: called((c) => c.length > 0, () => "to have been called"),
  toHaveBeenCalledTimes: called((c, n) => c.length === n, (n) => `to have been called ${n} times`),
  toHaveBeenCalledWith: called((c, ...a) => c.some((x) => equal(x, a)), (...a) => `to have been called with ${show(a)}`),
  toHaveBeenLastCalledWith: called((c, ...a) => c.length > 0 && equal(c[c.length - 1], a),
    (...a) => `to have been last called with ${show(a)}`),
  toHaveBeenNthCalledWith: called((c, n, ...a) => c.length >= n && equal(c[n - 1], a),
    (n, ...a) => `call ${n} to have been with ${show(a)}`),
  toHaveReturnedWith: (m, v) => [Boolean(m && m[MOCK]) && m.mock.results.some((r) => r.type === "return" && equal(r.value, v)),
    `the mock to have returned ${show(v)}`],
});
for (const [alias, name] of [["toBeCalled", "toHaveBeenCalled"], ["toBeCalledTimes", "toHaveBeenCalledTimes"],
  ["toBeCalledWith", "toHaveBeenCalledWith"], ["lastCalledWith", "toHaveBeenLastCalledWith"],
  ["nthCalledWith", "toHaveBeenNthCalledWith"]]) MATCHERS[alias] = MATCHERS[name];
function spyOn(obj, name) {  // the method replaced by a mock calling it; mockRestore puts it back
  const original = obj[name];
  if (typeof original !== "function") throw new TypeError(`Cannot spy on ${String(name)}: not a function`);
  const spy = fn(function (...args) { return original.apply(this, args); });
  spy.mockRestore = () => { obj[name] = original; };
  obj[name] = spy;
  return spy;
}
const jest = { fn, spyOn };

// the matchers that compare values, not identity (expected.js)
const DEEP = new Set(["toEqual", "toStrictEqual", "toMatchObject", "toContainEqual", "toHaveProperty",
  "toHaveBeenCalledWith", "toHaveBeenLastCalledWith", "toHaveBeenNthCalledWith", "toHaveReturnedWith",
  "toBeCalledWith", "lastCalledWith", "nthCalledWith"]);
function expect(actual) {
  const make = (negated) => {
    const out = {};
    for (const [name, m] of Object.entries(MATCHERS)) {
      out[name] = (...args) => checked(() => {  // (expected.js: an expected value the program made)
        const [ok, what] = m(actual, ...args);
        if (ok === negated) throw Object.assign(new Error(`expected ${negated ? "not " : ""}${what}`), { [CHECK]: true });
      }, actual, args, DEEP.has(name));
    }
    return out;
  };
  const positive = make(false);
  positive.not = make(true);
  const settle = (negated, rejects) => new Proxy({}, {
    get: (_, name) => (...args) => Promise.resolve(actual).then(
      (v) => { if (rejects) throw new Error("expected the promise to reject, and it resolved"); return v; },
      (e) => { if (!rejects || fault(e)) throw e; return e; })
      .then((v) => { const e = expect(rejects && name.startsWith("toThrow") ? () => { throw v; } : v); (negated ? e.not : e)[name](...args); }),
  });
  positive.resolves = settle(false, false);
  positive.rejects = settle(false, true);
  return positive;
}

const api = {
  describe: suite, context: suite, suite, it: test, test, specify: test,
  beforeAll: hook("beforeAll"), afterAll: hook("afterAll"), beforeEach: hook("beforeEach"), afterEach: hook("afterEach"),
  before: hook("beforeAll"), after: hook("afterAll"), expect, jest, vi: jest,
};
const shownBy = (f) => { shownAs = f; };
module.exports = { api, reset, run, shownBy };
