// The program's objects in the sealed JavaScript checker (node's standard library only).  An object
// of the program's classes, a class or function it defines, a closure it returns, an object of its
// methods: each lives in the program's process (server.js keeps it), and the tests hold a stand-in,
// a Proxy whose every read, write, call and `new` is a request there.  What comes back is plain data
// (or another stand-in): the tests' checks compare values this process holds, so no method of the
// program's decides a check (`toEqual` reads the object's own fields, as data; `toBe` is identity).
// `instanceof` answers by the class chain the program's process reported, through prototypes made
// here of those names (rooted on Error for the program's error classes); a stand-in is never an Array,
// a Map or a test's own class.  A stand-in made before the program's process ended (a call that hung)
// is gone, unless it stands for a name the program defines (its class, its function, its object),
// which the next process answers again.
"use strict";
const { enc, dec, hooks, STANDARD } = require("./codec.js");
const MAX_KEYS = 100000, MAX_CHAIN = 50;

// ask(req): the program's answer to a request (a value, METHOD with the method's number, or a throw,
// as checker.js's answered makes it); life(): the program process's generation now; gone(): the
// error a stand-in of an ended process raises
module.exports = function handles(ask, life, gone) {
  const METHOD = Symbol("method");
  const REFS = new WeakMap();  // stand-in -> its record
  const SEEN = new Map();  // "generation:id" -> stand-in (one object, one stand-in: `toBe`)
  const PROTOS = new Map();  // the chain's names -> the prototype made of them
  const CLASSES = new Map();  // "generation:id" -> the stand-in of a class or function
  const NAMED = new Map(), NAMED_IDS = new Map();  // the stand-ins of the names the program defines: by name, by "generation:id"
  let seenLife = life();

  // the object a request goes to: its number in the program's process, or its name there
  function where(rec) {
    if (rec.life !== life()) {
      if (!rec.name) throw gone();
      rec.life = life();
    }
    return rec.name ? { name: rec.name } : { ref: rec.id };
  }
  const request = (rec, op, more) => ask({ op, ...where(rec), ...more });

  function protoOf(chain, root) {
    if (!chain.length) return STANDARD[root] ? STANDARD[root].prototype : Object.prototype;
    const key = JSON.stringify([chain.map((c) => c[1]), root]);
    let proto = PROTOS.get(key);
    if (proto === undefined) {
      proto = Object.create(protoOf(chain.slice(1), root));
      PROTOS.set(key, proto);
      const own = NAMED.get(chain[0][1]);  // the program's class as the tests name it, where they do
      Object.defineProperty(proto, "constructor", { value: own || classOf(chain[0][0], chain, root), writable: true, configurable: true });
    }
    return proto;
  }
  function method(rec, fn) {
    const key = "m" + fn;
    if (!rec.methods.has(key)) rec.methods.set(key, (...args) => request(rec, "invoke", { fn, args: enc(args) }));
    return rec.methods.get(key);
  }
  function read(rec, prop) {
    const got = request(rec, "get", { prop });
    return got && got[METHOD] !== undefined ? method(rec, got[METHOD]) : got;
  }
  const traps = (rec) => ({
    get(t, k) {
      if (typeof k === "symbol") {
        if (k === Symbol.iterator && rec.iterable) return () => request(rec, "iter", {})[Symbol.iterator]();
        return rec.kind === "object" ? undefined : Reflect.get(t, k);
      }
      if (k === "then") return undefined;  // not a thenable: `await` gives the stand-in itself
      if (rec.name && k === rec.name) return rec.self;  // `const { Cart } = require('./cart')` of a module that is Cart
      if (k === "__proto__") return rec.proto;
      if (rec.kind === "object") return k === "constructor" && rec.chain.length ? rec.proto.constructor : read(rec, k);
      if (k === "prototype") return rec.chain.length ? protoOf(rec.chain, rec.root) : Reflect.get(t, k);
      if (k === "name") return rec.label;
      if (k === "call" || k === "apply" || k === "bind") return Reflect.get(t, k);
      return read(rec, k);
    },
    set(t, k, v) {
      if (typeof k === "symbol") return false;
      request(rec, "set", { prop: k, value: enc(v) });
      return true;
    },
    has(t, k) {
      if (typeof k === "symbol") return k === Symbol.iterator && rec.iterable;
      return Object.prototype.hasOwnProperty.call(t, k) || request(rec, "has", { prop: k }) === true;
    },
    deleteProperty(t, k) {
      return typeof k !== "symbol" && !Object.prototype.hasOwnProperty.call(t, k) && request(rec, "del", { prop: k }) === true;
    },
    defineProperty(t, k, d) {
      if (typeof k === "symbol" || !("value" in d)) return false;
      request(rec, "set", { prop: k, value: enc(d.value) });
      return true;
    },
    getPrototypeOf() { return rec.proto; },
    setPrototypeOf() { return false; },
    preventExtensions() { return false; },
    ...(rec.kind === "object" ? {
      ownKeys() {
        const keys = request(rec, "keys", {});
        if (!Array.isArray(keys) || keys.length > MAX_KEYS) throw new TypeError("the program's object gave no list of its keys");
        return [...new Set(keys.filter((k) => typeof k === "string"))];
      },
      getOwnPropertyDescriptor(t, k) {
        if (typeof k === "symbol") return undefined;
        const d = request(rec, "own", { prop: k });
        if (!Array.isArray(d) || d.length !== 2) return undefined;
        return { value: d[1], enumerable: d[0] === true, writable: true, configurable: true };
      },
    } : {
      apply(t, self, args) { return rec.call ? rec.call(args) : request(rec, "apply", { args: enc(args) }); },
      construct(t, args) {
        const made = request(rec, "make", { args: enc(args) });
        return made !== null && (typeof made === "object" || typeof made === "function") ? made : {};
      },
    }),
  });

  // a stand-in: rec = { id, kind, chain, root, iterable, name?, call? }
  function standIn(rec) {
    rec.life = life();
    rec.methods = new Map();
    rec.label = rec.name || (rec.chain.length ? rec.chain[0][1] : "");
    rec.proto = rec.kind === "object" ? protoOf(rec.chain, rec.root) : Function.prototype;
    const target = rec.kind === "object" ? Object.create(rec.proto) : function () {};
    if (rec.kind !== "object") Object.defineProperty(target, "name", { value: rec.label });  // (a message shows it)
    const made = new Proxy(target, traps(rec));
    REFS.set(made, rec);
    rec.self = made;
    return made;
  }
  function classOf(id, chain, root) {
    const key = life() + ":" + id;
    if (NAMED_IDS.has(key)) return NAMED_IDS.get(key);
    if (!CLASSES.has(key)) CLASSES.set(key, standIn({ id, kind: "class", chain, root, iterable: false }));
    return CLASSES.get(key);
  }
  // ["H", id, kind, chain, root, iterable] from the program's process, checked: it may say anything
  function valid(v) {
    const chain = Array.isArray(v[3]) ? v[3].slice(0, MAX_CHAIN)
      .filter((c) => Array.isArray(c) && Number.isInteger(c[0]) && c[0] >= 0 && typeof c[1] === "string")
      .map((c) => [c[0], c[1].slice(0, 200)]) : [];
    return { id: v[1], kind: ["object", "function", "class"].includes(v[2]) ? v[2] : "object", chain,
      root: typeof v[4] === "string" && STANDARD[v[4]] ? v[4] : "Object", iterable: v[5] === true };
  }
  hooks.handle = (v) => {
    if (!Number.isInteger(v[1]) || v[1] < 0) throw new TypeError("not a handle");
    if (seenLife !== life()) { SEEN.clear(); seenLife = life(); }
    const rec = valid(v);
    if (rec.kind !== "object") return classOf(rec.id, rec.chain, rec.root);
    const key = life() + ":" + rec.id;
    if (!SEEN.has(key)) SEEN.set(key, standIn(rec));
    return SEEN.get(key);
  };
  hooks.ref = (v) => {
    const rec = REFS.get(v);
    if (rec === undefined) return undefined;
    if (rec.name) return { name: rec.name };  // (its number may be an ended process's)
    if (rec.life !== life()) throw gone();
    return rec.id;
  };

  // the stand-ins of the names the program defines (a class, a function, an object), from the
  // program's answer to "names": a function's calls go by its name (call(name, args), as before)
  function named(name, v, call) {
    if (!Array.isArray(v) || v[0] !== "H" || !Number.isInteger(v[1])) return dec(v);
    const rec = { ...valid(v), name };
    if (rec.kind !== "object") rec.call = (args) => call(name, args);
    const made = standIn(rec);
    NAMED.set(name, made);
    NAMED_IDS.set(rec.life + ":" + rec.id, made);
    return made;
  }
  // a value shown in a failure's message: the program's objects by their class and own fields
  function shown(v, depth = 0) {
    const rec = v !== null && (typeof v === "object" || typeof v === "function") ? REFS.get(v) : undefined;
    if (rec === undefined) {
      if (Array.isArray(v) && depth < 4) return v.map((x) => shown(x, depth + 1));
      return v;
    }
    if (rec.kind !== "object") return v;
    const out = Object.create(rec.proto);
    try {
      if (depth < 4) {
        for (const [k, x] of Object.entries(v)) {
          Object.defineProperty(out, k, { value: shown(x, depth + 1), enumerable: true, writable: true, configurable: true });
        }
      }
    } catch (e) { /* the failure's own words matter more than the fields */ }
    return out;
  }
  const isStandIn = (v) => v !== null && (typeof v === "object" || typeof v === "function") && REFS.has(v);
  return { METHOD, named, shown, isStandIn, label: (v) => { const r = REFS.get(v); return r ? r.label || r.kind : ""; } };
};
