// Plain data across the sealed harness's process boundary (node's standard library only): enc writes
// a value as tagged JSON by its exact kind (an array or object whose prototype is not the plain one,
// a class instance is not plain data: the program's own objects and functions travel as handles, kept
// in its process (server.js's hooks.keep, checker.js's handles.js), a built-in's object as an opaque
// name; a function of the tests is lent, checker.js); dec reads it back.  Within one value, an array,
// object, Map or Set met again (a cycle: a doubly linked list, a list with a loop; or one object in two
// places) is written as ["R", n], the n-th such container of the value in the order written, so it
// arrives as one object, as it was; ``seen`` null: no references (a loop is then too deep to send).
"use strict";
const vm = require("vm");
const MAX_ITEMS = 1000000, MAX_DEPTH = 1000;
class Opaque {
  constructor(kind) { this.kind = kind; }
  toString() { return `<${this.kind} (not plain data)>`; }
}
// the own fields of an object, [key, value] each; null where one is not plain data (a getter)
function fields(v) {
  const out = [];
  for (const k of Object.keys(v)) {
    const desc = Object.getOwnPropertyDescriptor(v, k);
    if (!desc || !("value" in desc)) return null;
    out.push([k, desc.value]);
  }
  return out;
}
function enc(v, budget = { n: MAX_ITEMS }, depth = 0, seen = new Map()) {
  if (--budget.n < 0 || depth > MAX_DEPTH) throw new RangeError("the value is too large or too deep to compare");
  const d = depth + 1;
  if (v === null) return ["N"];
  if (v === undefined) return ["U"];
  const t = typeof v;
  if (t === "boolean") return ["B", v];
  if (t === "number") return ["F", Object.is(v, -0) ? "-0" : String(v)];
  if (t === "bigint") return ["I", v.toString()];
  if (t === "string") return ["S", v];
  if ((t === "object" || t === "function") && hooks.ref) {  // the checker's: a handle, given back
    const ref = hooks.ref(v);
    if (ref !== undefined) return typeof ref === "number" ? ["H", ref] : ["HN", String(ref.name), ref.exported ? 1 : 0];
  }
  if (t === "function" && hooks.lend) return hooks.lend(v);  // a test's function, lent; the program's, kept
  if (t !== "object") return ["O", t];
  if (v instanceof Opaque) return ["O", v.kind];  // (sent back as it came)
  // the program's: a test's object it was given in the call's arguments (the one written whole: itself)
  if (hooks.alias && hooks.alias.has(v) && !(depth === 0 && v === hooks.open)) return ["A", hooks.alias.get(v)];
  if (seen !== null && seen.has(v)) return ["R", seen.get(v)];
  const at = (x) => { if (seen !== null) seen.set(x, seen.size); };  // (numbered before its items: dec makes it first too)
  const e = (x) => enc(x, budget, d, seen);
  const proto = Object.getPrototypeOf(v);
  const shared = hooks.sharedName && proto !== null && proto !== Object.prototype ? hooks.sharedName(proto) : undefined;
  if (shared !== undefined) {  // an object of a class the tests declare and the program uses: data, with its class's name
    const own = fields(v);
    if (own === null) return ["O", shared];
    at(v);
    const out = own.map(([k, x]) => [k, e(x)]);
    return Object.isExtensible(v) ? ["C", shared, out] : ["C", shared, out, held(v)];
  }
  if (proto === Array.prototype && Array.isArray(v)) {
    at(v);
    const items = [];
    for (let i = 0; i < v.length; i++) items.push(e(v[i]));
    return Object.isExtensible(v) ? ["L", items] : ["L", items, held(v)];
  }
  if (proto === Map.prototype) { at(v); return ["M", [...Map.prototype.entries.call(v)].map(([a, b]) => [e(a), e(b)])]; }
  if (proto === Set.prototype) { at(v); return ["E", [...Set.prototype.values.call(v)].map(e)]; }
  if (proto === Object.prototype || proto === null) {
    const kept = hooks.keep && hooks.keep(v, true);  // the program's object holding code (methods, getters)
    if (kept) return kept;
    const own = fields(v);
    if (own === null) return ["O", "object with getters"];
    at(v);
    const out = own.map(([k, x]) => [k, e(x)]);
    return Object.isExtensible(v) ? ["D", out] : ["D", out, held(v)];
  }
  const kept = hooks.keep && hooks.keep(v, false);  // an object of the program's classes
  if (kept) return kept;
  return ["O", (proto && proto.constructor && proto.constructor.name) || "object"];
}
// a field set as an own, enumerable, writable data property: never through a setter, and "__proto__"
// a key like any other (an assignment would set the prototype)
const setOwn = (o, k, value) => Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
// a function of the runtime's, not written in JavaScript (its source reads "{ [native code] }");
// ``unreadable``: what a function whose source cannot be read counts as
function native(f, unreadable = false) {
  let source;
  try { source = Function.prototype.toString.call(f); } catch (e) { return unreadable; }
  return /\{\s*\[native code\]\s*\}\s*$/.test(source);
}
// a data class from the source javascript.py wrote anew for it (a constructor function setting fields
// from its parameters), declared as a function's value, not a declaration; undefined if it is none
function declaredClass(name, source, filename) {
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || typeof source !== "string") return undefined;
  let cls;
  try { cls = vm.runInThisContext(`(function () {\n${source}\nreturn ${name};\n})()`, { filename }); } catch (e) { return undefined; }
  return typeof cls === "function" && cls.prototype ? cls : undefined;
}
// the tests' data classes one side knows (javascript.py's data_classes), by name and by prototype;
// ``add`` of a name known replaces its class (a program declaring ListNode itself: its objects are of
// its own); ``shared`` and ``sharedName``: the codec's hooks of those names, as each side sets them
function dataClasses() {
  const byName = new Map(), byProto = new Map();
  const add = (name, cls) => {
    const was = byName.get(name);
    if (was !== undefined) byProto.delete(was.prototype);
    byName.set(name, cls); byProto.set(cls.prototype, name);
  };
  return { byName, byProto, add, shared: (name) => byName.get(name), sharedName: (proto) => byProto.get(proto) };
}
// an array or object the other side cannot change as it likes: frozen, sealed, or not extensible
const held = (v) => (Object.isFrozen(v) ? "frozen" : Object.isSealed(v) ? "sealed" : "fixed");
const hold = (v, how) => (how === "frozen" ? Object.freeze(v) : how === "sealed" ? Object.seal(v)
  : how === "fixed" ? Object.preventExtensions(v) : v);
function dec(v, depth = 0, made = []) {
  if (!Array.isArray(v) || depth > MAX_DEPTH) throw new TypeError("not a tagged value");
  const d = depth + 1;
  const x_ = (x) => dec(x, d, made);
  const mine = (o) => {  // (numbered before its items, as enc numbers them)
    made.push(o);
    if (hooks.decoded) hooks.decoded(o);
    return o;
  };
  switch (v[0]) {
    case "N": return null;
    case "U": return undefined;
    case "B": return v[1] === true;
    case "F": return v[1] === "-0" ? -0 : Number(v[1]);
    case "I": return BigInt(v[1]);
    case "S": return String(v[1]);
    case "L": {
      const out = mine([]);
      for (const x of v[1]) out.push(x_(x));
      return hold(out, v[2]);
    }
    case "M": {
      const out = mine(new Map());
      for (const [a, b] of v[1]) { const k = x_(a); out.set(k, x_(b)); }
      return out;
    }
    case "E": {
      const out = mine(new Set());
      for (const x of v[1]) out.add(x_(x));
      return out;
    }
    case "D": {  // each key an own property, "__proto__" too
      const o = mine({});
      for (const [k, x] of v[1]) setOwn(o, String(k), x_(x));
      return hold(o, v[2]);
    }
    case "C": {  // an object of a class of the tests' (their ListNode, TreeNode): made of that class where there is one
      const cls = hooks.shared ? hooks.shared(String(v[1])) : undefined;  // (a class this side lacks: a plain object)
      const o = mine(typeof cls === "function" && cls.prototype ? Object.create(cls.prototype) : {});
      for (const [k, x] of v[2]) setOwn(o, String(k), x_(x));
      return hold(o, v[3]);
    }
    case "R": {  // a container of this value met again: the same object
      if (!Number.isInteger(v[1]) || v[1] < 0 || v[1] >= made.length) throw new TypeError("not a tagged value");
      return made[v[1]];
    }
    case "FN": if (hooks.standIn) return hooks.standIn(Number(v[1]));  // the program's: a stand-in for it
    // falls through
    case "H": if (v[0] === "H" && hooks.handle) return hooks.handle(v);  // the checker's: a stand-in; the program's: the object
    // falls through
    case "HN": if (v[0] === "HN" && hooks.named) return hooks.named(String(v[1]), v[2] === 1);  // the program's: a name it defines
    // falls through
    case "A": if (v[0] === "A" && hooks.arg) return hooks.arg(v[1]);  // the checker's: the test's own argument
    // falls through
    default: return new Opaque(String(v[1] || "object"));
  }
}
// A thrown value as either side sends it: the name of its class and its message, plain strings.
function raised(e) {
  let name = "Error", msg = "";
  try { name = String((e && e.constructor && e.constructor.name) || typeof e); msg = String(e && e.message !== undefined ? e.message : e); } catch (_) {}
  return { raise: name, msg: msg.slice(0, 300) };
}
// the errors either side raises again as their own class (any other name: a plain Error)
const STANDARD = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
const MAX_LOGGED = 10000;  // console calls of the program's sent with one answer (server.js), replayed (checker.js)
// each side's own: the checker lends the tests' functions (``lend``: a value to ["FN", ref]), the
// program's process calls them from afar (``standIn``: a reference to a function that asks); the
// program's process keeps its objects (``keep``: an object to ["H", ...] or null; ``handle``: ["H", id]
// to the object), the checker holds stand-ins of them (``handle``: ["H", ...] to a stand-in; ``ref``: a
// stand-in to its id, {name} for a name the program defines, else undefined; ``named``: the
// program's, a name's value; ``alias``: the program's, while it writes an answer or what it changed,
// the arrays, objects, Maps and Sets of the call's arguments by their number (as the checker wrote
// them), so one it holds is ["A", k] (``open``: the one being written whole, itself); ``arg``: the
// checker's, the test's own object of that number; ``shared``/``sharedName``: each side's, a class the tests declare and
// the program uses, by name, and the name of such a class's prototype; ``decoded``: the checker's, each
// array, object, Map and Set dec makes, as it makes it)
const hooks = { lend: null, standIn: null, keep: null, handle: null, ref: null, named: null, alias: null, arg: null,
  shared: null, sharedName: null, decoded: null, open: null };
module.exports = { enc, dec, Opaque, hooks, raised, STANDARD, MAX_LOGGED, setOwn, native, dataClasses, declaredClass };
