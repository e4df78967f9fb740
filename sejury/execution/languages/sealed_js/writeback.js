// What crosses back from the program's process into the tests' own values, in the sealed JavaScript
// checker (checker.js; node's standard library only): what a call changed in the test's objects it was
// given, and the tests' data classes, whose objects cross as data of their class both ways (codec.js's
// "C").
"use strict";
const vm = require("vm");
const { hooks, setOwn, native, dataClasses } = require("./codec.js");

module.exports = (H) => {
  const SHARED = dataClasses();
  // what the program changed in the test's objects it was given (server.js's "after": [k, content]
  // each, k the object's number in the call's arguments, its content decoded with the test's objects
  // it holds as themselves), put in those objects: an array's items, an object's own fields, a Map's
  // or Set's entries; nothing of a frozen, sealed or fixed object, nor of another kind than it was
  // (a plain object's content in a plain object, a data class's in one of that class)
  const plainObject = (v) => v !== null && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v));
  function putIn(was, now) {
    if (was === null || typeof was !== "object" || H.isStandIn(was) || !Object.isExtensible(was)) return;
    if (now === null || typeof now !== "object") return;
    if (Array.isArray(was) && Array.isArray(now)) {
      for (let i = 0; i < now.length; i++) was[i] = now[i];
      was.length = now.length;
      return;
    }
    const proto = Object.getPrototypeOf(was);
    if ((plainObject(was) && plainObject(now)) || (SHARED.byProto.has(proto) && Object.getPrototypeOf(now) === proto)) {
      for (const k of Object.keys(was)) if (!Object.prototype.hasOwnProperty.call(now, k)) delete was[k];
      for (const [k, x] of Object.entries(now)) setOwn(was, k, x);
      return;
    }
    if (was instanceof Map && now instanceof Map) {
      was.clear();
      for (const [k, x] of now) was.set(k, x);
      return;
    }
    if (was instanceof Set && now instanceof Set) {
      was.clear();
      for (const x of now) was.add(x);
    }
  }
  function putBack(objects, after) {
    for (const [k, now] of after) {
      if (!Number.isInteger(k) || k <= 0 || k >= objects.length) continue;
      try { putIn(objects[k], now); } catch (e) { /* an object that refuses the change stays as it was */ }
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
  return { putBack, declareClasses };
};
