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
const { dec, hooks, STANDARD, setOwn } = require("./codec.js");
const MAX_KEYS = 100000, MAX_CHAIN = 50;

// ask(req): the program's answer to a request (a value, METHOD with the method's number, or a throw,
// as checker.js's ask makes it); life(): the program process's generation now (the processes ended so
// far); send(v): the tests' value as data for the program; gone(): the error a stand-in of an ended
// process raises; refuse(why): the harness's fault.  A handle belongs to the process that
// sent it: the generation the driver stamped on that answer (decodeAt), not the one at decoding time.
module.exports = function handles(ask, life, send, gone, refuse) {
  const METHOD = Symbol("method"), FRESH = Symbol("fresh");  // FRESH: an answer's generation, asked for
  const REFS = new WeakMap();  // stand-in -> its record
  const SEEN = new Map();  // "generation:id" -> stand-in (one object, one stand-in: `toBe`)
  const PROTOS = new Map();  // "generation:id" of a class -> the prototype made for it (a class by identity)
  const CLASSES = new Map();  // "generation:id" -> the stand-in of a class or function
  const NAMED_IDS = new Map();  // the stand-ins of the names the program defines, by "generation:id"
  let at = life();  // the generation of the answer being decoded
  let serial = 0;  // the program's objects given so far: each object's stand-in is numbered when first given
  function decodeAt(generation, value, made = []) {  // (made: dec's numbering, shared by several values)
    const was = at;
    at = Number.isInteger(generation) ? generation : life();
    try { return dec(value, 0, made); } finally { at = was; }
  }

  // the object a request goes to: its number in the program's process, or its name there
  function where(rec) {
    if (rec.life !== life() && !rec.name) throw gone();
    return rec.name ? (rec.exported ? { exported: rec.name } : { name: rec.name }) : { ref: rec.id };
  }
  // a name's class or function as the process now running knows it (its number, its chain)
  function fresh(rec) {
    if (!rec.name || rec.life === life()) return rec;
    const answer = ask({ op: "names", names: rec.exported ? [] : [rec.name], exports: rec.exported });
    const row = Array.isArray(answer) ? answer.find((x) => Array.isArray(x) && x[0] === rec.name) : null;
    const got = row ? row[1] : null;
    if (Array.isArray(got) && got[0] === "H" && Number.isInteger(got[1])) {
      Object.assign(rec, valid(got), { kind: rec.kind, life: answer[FRESH] });
      NAMED_IDS.set(rec.life + ":" + rec.id, rec.self);
    }
    return rec;
  }
  const request = (rec, op, more, args) => ask({ op, ...where(rec), ...more }, args);

  function protoOf(chain, root, generation) {
    if (!chain.length) return STANDARD[root] ? STANDARD[root].prototype : Object.prototype;
    const key = generation + ":" + chain[0][0];
    let proto = PROTOS.get(key);
    if (proto === undefined) {
      proto = Object.create(protoOf(chain.slice(1), root, generation));
      PROTOS.set(key, proto);
      const own = NAMED_IDS.get(key);  // the program's class as the tests name it, where they do
      Object.defineProperty(proto, "constructor", { value: own || classOf(chain[0][0], chain, root, generation), writable: true, configurable: true });
    }
    return proto;
  }
  // a function read from an object: called, it is called on that object (a method); `new` and
  // `instanceof` take it as itself (a constructor kept on a namespace object: `shapes.Circle`)
  function method(rec, got) {
    const fn = got[METHOD], generation = got[FRESH];  // (the method's number is its process's)
    const key = generation + ":" + fn;
    if (!rec.methods.has(key)) {
      const h = Array.isArray(got.handle) && got.handle[1] === fn ? valid(got.handle) : { chain: [], root: "Object" };
      const was = at;
      at = generation;
      try {
        rec.methods.set(key, standIn({ ...h, id: fn, kind: "function", iterable: false,
          call: (args) => request(rec, "invoke", { fn, args: send(args) }, args) }));
      } finally { at = was; }
    }
    return rec.methods.get(key);
  }
  function read(rec, prop) {
    const got = request(rec, "get", { prop });
    return got && got[METHOD] !== undefined ? method(rec, got) : got;
  }
  const traps = (rec) => ({
    get(t, k) {
      if (typeof k === "symbol") {
        if (k === Symbol.iterator && rec.iterable) {
          return () => {  // each item asked for as the test takes it (an endless generator too)
            const it = request(rec, "iter", {});
            return { next: () => it.next(), return: () => it.return(), [Symbol.iterator]() { return this; } };
          };
        }
        return rec.kind === "object" ? undefined : Reflect.get(t, k);
      }
      if (k === "then") return undefined;  // not a thenable: `await` gives the stand-in itself
      if (rec.name && k === rec.name) return rec.self;  // `const { Cart } = require('./cart')` of a module that is Cart
      if (k === "__proto__") return rec.proto;
      if (rec.kind === "object") return k === "constructor" && rec.chain.length ? rec.proto.constructor : read(rec, k);
      if (k === "prototype") { fresh(rec); return rec.chain.length ? protoOf(rec.chain, rec.root, rec.life) : Reflect.get(t, k); }
      if (k === "name") return rec.label;
      if (k === "call" || k === "apply" || k === "bind") return Reflect.get(t, k);
      return read(rec, k);
    },
    set(t, k, v) {
      if (typeof k === "symbol") return false;
      request(rec, "set", { prop: k, value: send(v) });
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
      request(rec, "set", { prop: k, value: send(d.value) });
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
      apply(t, self, args) {
        if (rec.life !== life() && !rec.name) throw gone();
        return rec.call ? rec.call(args) : request(rec, "apply", { args: send(args) }, args);
      },
      construct(t, args) {
        const before = serial;
        const made = request(rec, "make", { args: send(args) }, args);
        // a constructor giving back an object the tests already hold (its function's answer): the
        // program would decide what is one object on both sides of a check (expected.js)
        if (REFS.has(made) && REFS.get(made).kind === "object" && !(REFS.get(made).serial > before)) {
          throw refuse("the program's constructor gave back an object it had given before: not evidence");
        }
        return made !== null && (typeof made === "object" || typeof made === "function") ? made : {};
      },
    }),
  });

  // a stand-in: rec = { id, kind, chain, root, iterable, name?, call? }
  function standIn(rec) {
    rec.life = at;
    rec.methods = new Map();
    rec.label = rec.name || (rec.chain.length ? rec.chain[0][1] : "");
    rec.proto = rec.kind === "object" ? protoOf(rec.chain, rec.root, at) : Function.prototype;
    const target = rec.kind === "object" ? Object.create(rec.proto) : function () {};
    if (rec.kind !== "object") Object.defineProperty(target, "name", { value: rec.label });  // (a message shows it)
    const made = new Proxy(target, traps(rec));
    REFS.set(made, rec);
    rec.self = made;
    return made;
  }
  function classOf(id, chain, root, generation) {
    const key = generation + ":" + id;
    if (NAMED_IDS.has(key)) return NAMED_IDS.get(key);
    if (!CLASSES.has(key)) {
      const was = at;
      at = generation;
      try { CLASSES.set(key, standIn({ id, kind: "class", chain, root, iterable: false })); } finally { at = was; }
    }
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
    const rec = valid(v);
    const key = at + ":" + rec.id;
    if (NAMED_IDS.has(key)) return NAMED_IDS.get(key);  // a name's own object, class or function
    if (rec.kind !== "object") return classOf(rec.id, rec.chain, rec.root, at);
    if (!SEEN.has(key)) { rec.serial = ++serial; SEEN.set(key, standIn(rec)); }
    return SEEN.get(key);
  };
  hooks.ref = (v) => {
    const rec = REFS.get(v);
    if (rec === undefined) return undefined;
    if (rec.name) return { name: rec.name, exported: rec.exported };  // (its number may be an ended process's)
    if (rec.life !== life()) throw gone();
    return rec.id;
  };

  // the stand-ins of the names the program defines (a class, a function, an object), from the
  // program's answer to "names": a function's calls go by its name (call(name, args), as before)
  function named(name, v, call, generation, exported) {
    if (!Array.isArray(v) || v[0] !== "H" || !Number.isInteger(v[1])) return decodeAt(generation, v);
    const rec = { ...valid(v), name, exported: Boolean(exported) };
    if (rec.kind !== "object" && !exported) rec.call = (args) => call(name, args);
    const was = at;
    at = Number.isInteger(generation) ? generation : life();
    let made;
    try { made = standIn(rec); } finally { at = was; }
    NAMED_IDS.set(rec.life + ":" + rec.id, made);
    return made;
  }
  // a value shown in a failure's message: the program's objects by their class and own fields
  function shown(v, depth = 0, seen = new Map()) {  // (from a depth given: that many levels fewer)
    const rec = v !== null && (typeof v === "object" || typeof v === "function") ? REFS.get(v) : undefined;
    if (rec === undefined && !(Array.isArray(v) && depth < 4)) return v;
    if (rec !== undefined && rec.kind !== "object") return v;
    if (seen.has(v)) return seen.get(v);  // (each array or object once: an answer sent with references)
    const out = rec === undefined ? [] : Object.create(rec.proto);
    seen.set(v, out);
    if (rec === undefined) {
      for (const x of v) out.push(shown(x, depth + 1, seen));
      return out;
    }
    try {
      if (depth < 4) {
        for (const [k, x] of Object.entries(v)) setOwn(out, k, shown(x, depth + 1, seen));
      }
    } catch (e) { /* the failure's own words matter more than the fields */ }
    return out;
  }
  const isStandIn = (v) => v !== null && (typeof v === "object" || typeof v === "function") && REFS.has(v);
  const classless = (v) => { const r = REFS.get(v); return Boolean(r && r.kind === "object" && !r.chain.length); };
  const isProgramObject = (v) => { const r = isStandIn(v) ? REFS.get(v) : undefined; return Boolean(r && r.kind === "object"); };
  return { METHOD, FRESH, decodeAt, named, shown, isStandIn, classless, isProgramObject, label: (v) => { const r = REFS.get(v); return r ? r.label || r.kind : ""; } };
};
