// chai's expect and assert (the assertion library of most Mocha suites), as the sealed checker's
// own: `require('chai')` in the tests is this module (node's standard library only; the sandbox has
// no npm packages).  Values are plain data this process holds (the program's arrive decoded by
// codec.js), compared as chai compares them: `equal` is ===, `eql` and `deep` are deep and
// type-strict.  A chain word, flag or assertion this module lacks (a plugin's `.eventually`, say)
// throws, so that test fails on the reference and is dropped: never a pass.  See
// sejury/execution/languages/_bdd.py.
"use strict";
const CHECK = Symbol.for("sejury.check");  // a failed check: inside a lent call it still fails the test (checker.js)
const util = require("util");
const { setOwn } = require("./codec.js");
const { checked } = require("./expected.js");

const show = (v) => util.inspect(v, { depth: 6, breakLength: Infinity });
// chai's deep equality looks at an object's enumerable fields, not its prototype (`new Point(1, 2)`
// eql `{ x: 1, y: 2 }`; the program's objects arrive as stand-ins of its classes, handles.js)
function bare(v, made = new Map()) {
  if (v === null || typeof v !== "object" || v instanceof Map || v instanceof Set || v instanceof Date
    || v instanceof RegExp || v instanceof Error) return v;
  if (made.has(v)) return made.get(v);
  const out = Array.isArray(v) ? [] : {};
  made.set(v, out);
  if (Array.isArray(v)) { for (const x of v) out.push(bare(x, made)); return out; }
  for (const [k, x] of Object.entries(v)) setOwn(out, k, bare(x, made));
  return out;
}
const deepEq = (a, b) => Object.is(a, b) || util.isDeepStrictEqual(bare(a), bare(b));
const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set);

function typeOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  for (const [cls, name] of [[Map, "map"], [Set, "set"], [RegExp, "regexp"], [Date, "date"], [Promise, "promise"]]) {
    if (v instanceof cls) return name;
  }
  return typeof v;
}

function includes(hay, needle, deep) {
  const same = (x) => (deep ? deepEq(x, needle) : x === needle);
  if (typeof hay === "string") return typeof needle === "string" && hay.includes(needle);
  if (Array.isArray(hay)) return hay.some(same);
  if (hay instanceof Set) return deep ? [...hay].some(same) : hay.has(needle);
  if (hay instanceof Map) return [...hay.values()].some(same);
  if (plain(hay) && plain(needle)) {
    return Object.entries(needle).every(([k, v]) => k in hay && (deep ? deepEq(hay[k], v) : hay[k] === v));
  }
  return false;
}

function sameMembers(a, b, deep) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const rest = [...b];
  return a.every((x) => {
    const i = rest.findIndex((y) => (deep ? deepEq(x, y) : x === y));
    return i >= 0 && rest.splice(i, 1);
  });
}

function sizeOf(v) {
  if (v instanceof Map || v instanceof Set) return v.size;
  return v !== null && v !== undefined ? v.length : undefined;
}

function threw(fn, errLike, message) {
  let error;
  try { fn(); } catch (e) {
    if (e && e[Symbol.for("sejury.fault")]) throw e;  // the program's process ended or hung: never a throw
    error = [e];
  }
  if (!error) return false;
  const e = error[0];
  const text = e && e.message !== undefined ? String(e.message) : String(e);
  const fits = (want) => (want === undefined ? true : want instanceof RegExp ? want.test(text)
    : typeof want === "string" ? text.includes(want) : typeof want === "function" ? e instanceof want
      : want instanceof Error ? e === want : false);
  return fits(errLike) && fits(message);
}

const CHAINS = new Set(["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of", "same",
  "but", "does", "still", "also"]);
const ALIASES = { equals: "equal", eq: "equal", eqls: "eql", gt: "above", greaterThan: "above", gte: "least",
  greaterThanOrEqual: "least", lt: "below", lessThan: "below", lte: "most", lessThanOrEqual: "most",
  approximately: "closeTo", length: "lengthOf", includes: "include", contain: "include", contains: "include",
  an: "a", instanceof: "instanceOf", matches: "match", throws: "throw", Throw: "throw", satisfies: "satisfy",
  haveOwnProperty: "property", ownProperty: "property", key: "keys" };

function expect(actual, label) {
  const flags = { negate: false, deep: false };
  const check = (ok, what) => {
    if (Boolean(ok) === flags.negate) {
      throw Object.assign(new Error(`${label ? label + ": " : ""}expected ${show(actual)} ${flags.negate ? "not " : ""}${what}`),
        { [CHECK]: true });
    }
  };
  const PROPERTIES = {
    ok: () => check(actual, "to be truthy"),
    true: () => check(actual === true, "to be true"),
    false: () => check(actual === false, "to be false"),
    null: () => check(actual === null, "to be null"),
    undefined: () => check(actual === undefined, "to be undefined"),
    NaN: () => check(Number.isNaN(actual), "to be NaN"),
    exist: () => check(actual !== null && actual !== undefined, "to exist"),
    empty: () => check(typeof actual === "string" || Array.isArray(actual) ? actual.length === 0
      : actual instanceof Map || actual instanceof Set ? actual.size === 0
        : plain(actual) && Object.keys(actual).length === 0, "to be empty"),
  };
  const METHODS = {
    equal: (v) => check(flags.deep ? deepEq(actual, v) : actual === v, `to ${flags.deep ? "deeply " : ""}equal ${show(v)}`),
    eql: (v) => check(deepEq(actual, v), `to deeply equal ${show(v)}`),
    above: (n) => check(actual > n, `to be above ${show(n)}`),
    least: (n) => check(actual >= n, `to be at least ${show(n)}`),
    below: (n) => check(actual < n, `to be below ${show(n)}`),
    most: (n) => check(actual <= n, `to be at most ${show(n)}`),
    within: (lo, hi) => check(actual >= lo && actual <= hi, `to be within ${show(lo)}..${show(hi)}`),
    closeTo: (v, delta) => check(typeof actual === "number" && Math.abs(actual - v) <= delta,
      `to be close to ${show(v)} +/- ${show(delta)}`),
    lengthOf: (n) => check(sizeOf(actual) === n, `to have length ${show(n)}`),
    include: (v) => check(includes(actual, v, flags.deep), `to include ${show(v)}`),
    members: (list) => check(sameMembers(actual, list, flags.deep), `to have the same members as ${show(list)}`),
    oneOf: (list) => check(Array.isArray(list) && list.some((x) => (flags.deep ? deepEq(x, actual) : x === actual)),
      `to be one of ${show(list)}`),
    property: (name, ...value) => check(actual !== null && actual !== undefined && name in Object(actual)
      && (value.length === 0 || (flags.deep ? deepEq(actual[name], value[0]) : actual[name] === value[0])),
    `to have property ${show(name)}${value.length ? " of " + show(value[0]) : ""}`),
    keys: (...names) => {
      const want = (names.length === 1 && Array.isArray(names[0]) ? names[0] : names).map(String).sort();
      const have = actual instanceof Map ? [...actual.keys()].map(String).sort() : Object.keys(Object(actual)).sort();
      check(deepEq(have, want), `to have keys ${show(want)}`);
    },
    a: (type) => check(typeOf(actual) === String(type).toLowerCase(), `to be a ${type}`),
    instanceOf: (cls) => check(actual instanceof cls, `to be an instance of ${cls && cls.name}`),
    match: (re) => check(typeof actual === "string" && re.test(actual), `to match ${show(re)}`),
    string: (s) => check(typeof actual === "string" && actual.includes(s), `to contain the string ${show(s)}`),
    throw: (errLike, message) => check(typeof actual === "function" && threw(actual, errLike, message),
      `to throw${errLike === undefined ? "" : " " + show(errLike)}${message === undefined ? "" : " " + show(message)}`),
    satisfy: (fn) => check(fn(actual), "to satisfy the predicate"),
  };
  const chain = new Proxy({}, {
    get(_, name) {
      // not chai's: a test that returns its chain (`() => expect(x).to.equal(1)`) is looked at for `then`
      if (typeof name !== "string" || name === "then" || name === "toJSON" || name === "constructor") return undefined;
      if (CHAINS.has(name)) return chain;
      if (name === "not") { flags.negate = !flags.negate; return chain; }
      if (name === "deep") { flags.deep = true; return chain; }
      if (name === "own" || name === "nested" || name === "ordered" || name === "any" || name === "all") return chain;
      if (name in PROPERTIES) { PROPERTIES[name](); return chain; }
      const method = METHODS[ALIASES[name] || name];
      // a method is a chain word too, as chai's `a`, `an`, `include`, `length` are: `.an.instanceOf(C)`
      if (method) {
        const deep = flags.deep || (ALIASES[name] || name) === "eql";  // (expected.js: a comparison of values)
        return new Proxy((...args) => { checked(() => method(...args), actual, args, deep); return chain; }, { get: (f, key) => chain[key] });
      }
      throw new Error(`chai's .${name} is not read by this checker`);
    },
  });
  return chain;
}

// chai's assert: each the expect above, or node's own comparison where chai's is loose (==)
const fail = (message) => { throw Object.assign(new Error(message), { [CHECK]: true }); };
const is = (ok, message, what) => { if (!ok) fail(message || what); };
const assert = Object.assign((value, message) => is(value, message, `expected ${show(value)} to be truthy`), {
  equal: (a, b, m) => is(a == b, m, `expected ${show(a)} to equal ${show(b)}`),  // eslint-disable-line eqeqeq
  notEqual: (a, b, m) => is(a != b, m, `expected ${show(a)} not to equal ${show(b)}`),  // eslint-disable-line eqeqeq
  strictEqual: (a, b, m) => expect(a, m).to.equal(b),
  notStrictEqual: (a, b, m) => expect(a, m).not.to.equal(b),
  deepEqual: (a, b, m) => expect(a, m).to.eql(b),
  notDeepEqual: (a, b, m) => expect(a, m).not.to.eql(b),
  ok: (v, m) => expect(v, m).to.be.ok, isOk: (v, m) => expect(v, m).to.be.ok, isNotOk: (v, m) => expect(v, m).not.to.be.ok,
  isTrue: (v, m) => expect(v, m).to.be.true, isFalse: (v, m) => expect(v, m).to.be.false,
  isNull: (v, m) => expect(v, m).to.be.null, isNotNull: (v, m) => expect(v, m).not.to.be.null,
  isUndefined: (v, m) => expect(v, m).to.be.undefined, isDefined: (v, m) => expect(v, m).not.to.be.undefined,
  isNaN: (v, m) => expect(v, m).to.be.NaN, exists: (v, m) => expect(v, m).to.exist,
  isAbove: (a, b, m) => expect(a, m).to.be.above(b), isBelow: (a, b, m) => expect(a, m).to.be.below(b),
  isAtLeast: (a, b, m) => expect(a, m).to.be.at.least(b), isAtMost: (a, b, m) => expect(a, m).to.be.at.most(b),
  closeTo: (a, b, d, m) => expect(a, m).to.be.closeTo(b, d), approximately: (a, b, d, m) => expect(a, m).to.be.closeTo(b, d),
  lengthOf: (a, n, m) => expect(a, m).to.have.lengthOf(n),
  include: (a, b, m) => expect(a, m).to.include(b), notInclude: (a, b, m) => expect(a, m).not.to.include(b),
  deepInclude: (a, b, m) => expect(a, m).to.deep.include(b),
  sameMembers: (a, b, m) => expect(a, m).to.have.members(b), sameDeepMembers: (a, b, m) => expect(a, m).to.have.deep.members(b),
  isArray: (v, m) => expect(v, m).to.be.an("array"), isString: (v, m) => expect(v, m).to.be.a("string"),
  isNumber: (v, m) => expect(v, m).to.be.a("number"), isBoolean: (v, m) => expect(v, m).to.be.a("boolean"),
  isObject: (v, m) => expect(v, m).to.be.an("object"), isFunction: (v, m) => expect(v, m).to.be.a("function"),
  typeOf: (v, t, m) => expect(v, m).to.be.a(t), instanceOf: (v, c, m) => expect(v, m).to.be.instanceOf(c),
  isEmpty: (v, m) => expect(v, m).to.be.empty, isNotEmpty: (v, m) => expect(v, m).not.to.be.empty,
  match: (v, re, m) => expect(v, m).to.match(re), property: (v, p, m) => expect(v, m).to.have.property(p),
  propertyVal: (v, p, x, m) => expect(v, m).to.have.property(p, x), oneOf: (v, l, m) => expect(v, m).to.be.oneOf(l),
  throws: (fn, e, msg, m) => expect(fn, m).to.throw(e, msg), doesNotThrow: (fn, e, msg, m) => expect(fn, m).not.to.throw(e, msg),
  fail: (message) => fail(message || "assert.fail()"),
});

// (expected.js: each of assert's checks, its expected values every argument after the first)
for (const [k, f] of Object.entries(assert)) {
  if (typeof f === "function") assert[k] = (...a) => checked(() => f(...a), a[0], a.slice(1), /deep|members/i.test(k));
}
module.exports = { expect, assert, should: () => fail("chai's should is not read by this checker") };
