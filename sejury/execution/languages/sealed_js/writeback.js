// What crosses back from the program's process into the tests' own values, in the sealed JavaScript
// checker (checker.js; node's standard library only): the arguments a call changed in place, and the
// tests' data classes, whose objects cross as data of their class both ways (codec.js's "C").
"use strict";
const vm = require("vm");
const { hooks, setOwn, native, dataClasses } = require("./codec.js");

module.exports = (H) => {
  const SHARED = dataClasses();
  // what the program changed in the arguments it was given, put in the test's own values (the
  // program's process had copies): an array's items and an object's fields merged in place, so the
  // arrays and objects nested in them stay the test's own where they still are; a Map's or Set's
  // entries (not one keyed by objects, whose keys the copies cannot be); nothing of a frozen, sealed
  // or fixed value; an object the program's value holds twice (a cycle) merged once, into the test's
  // object it first met there (``pairs``)
  const plainObject = (v) => v !== null && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v));
  const objects = (xs) => [...xs].some((x) => x !== null && typeof x === "object");
  function merged(was, now, depth = 0, pairs = new Map()) {
    if (pairs.has(now)) return pairs.get(now);  // (a loop the program closed: back to the test's own object)
    if (was === null || typeof was !== "object" || H.isStandIn(was) || !Object.isExtensible(was) || depth > 100) return now;
    if (now === null || typeof now !== "object") return depth === 0 ? was : now;
    const into = (a, b) => merged(a, b, depth + 1, pairs);
    if (Array.isArray(was) && Array.isArray(now)) {
      pairs.set(now, was);
      for (let i = 0; i < now.length; i++) was[i] = i < was.length ? into(was[i], now[i]) : now[i];
      was.length = now.length;
      return was;
    }
    const proto = Object.getPrototypeOf(was);
    if ((plainObject(was) && plainObject(now)) || (SHARED.byProto.has(proto) && Object.getPrototypeOf(now) === proto)) {
      pairs.set(now, was);
      for (const k of Object.keys(was)) if (!Object.prototype.hasOwnProperty.call(now, k)) delete was[k];
      for (const [k, x] of Object.entries(now)) {
        setOwn(was, k, Object.prototype.hasOwnProperty.call(was, k) ? into(was[k], x) : x);
      }
      return was;
    }
    if (was instanceof Map && now instanceof Map && !objects(was.keys()) && !objects(now.keys())) {
      pairs.set(now, was);
      const old = new Map(was);
      was.clear();
      for (const [k, x] of now) was.set(k, old.has(k) ? into(old.get(k), x) : x);
      return was;
    }
    if (was instanceof Set && now instanceof Set && !objects(was) && !objects(now)) {
      pairs.set(now, was);
      was.clear();
      for (const x of now) was.add(x);
      return was;
    }
    return depth === 0 ? was : now;  // (a top-level value of another kind stays the test's)
  }
  function inPlace(args, after) {
    for (let i = 0; i < args.length && i < after.length; i++) {
      if (after[i] === null) continue;
      try { merged(args[i], after[i]); } catch (e) { /* a value that refuses the change stays as it was */ }
    }
  }
  // the tests' data classes by name (javascript.py's data_classes), once the tests' setup has declared
  // them; declared in the program's process too (server.js). An object of another class of the
  // tests' crosses as its data, of no class there (the program gets a plain object of its fields),
  // and nothing the program sends becomes an object of it; a built-in's object does not cross so
  function declareClasses(names) {
    for (const name of names) {
      try {
        const cls = vm.runInThisContext(name);
        if (typeof cls === "function" && cls.prototype) SHARED.add(name, cls);
      } catch (e) { /* not declared after all */ }
    }
    hooks.shared = SHARED.shared;
    hooks.sharedName = (proto) => {
      if (SHARED.byProto.has(proto)) return SHARED.byProto.get(proto);
      const own = Object.getOwnPropertyDescriptor(proto, "constructor");
      const c = own && own.value;
      return typeof c === "function" && !H.isStandIn(c) && !native(c, true) ? String(c.name || "object") : undefined;
    };
  }
  return { inPlace, declareClasses };
};
