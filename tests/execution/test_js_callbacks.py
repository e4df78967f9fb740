"""A JavaScript test's functions reach the program (``sealed_js/``): a callback or a ``jest.fn()`` passed
to the program is lent, its calls made in the checker (where the mock records them).  Until
``RUNNERS_VERSION`` 52 a function crossed the sealed boundary as an opaque value, so every test passing
one failed on the reference and was dropped, and ``jest.fn`` did not exist.  On the real sandbox: the
callbacks work as in one process, and a program gains nothing by hiding its calls or swallowing a
failed check."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

TESTS = """const { applyTwice, forEachItem, retry, mapKept, sortBy, same } = require('./lib');

describe('callbacks', () => {
  test('a callback computes', () => { expect(applyTwice((x) => x * 3, 2)).toBe(18); });
  test('a mock records the calls', () => {
    const cb = jest.fn();
    forEachItem(['a', 'b', 'c'], cb);
    expect(cb).toHaveBeenCalledTimes(3);
    expect(cb).toHaveBeenNthCalledWith(2, 'b', 1);
  });
  test('a mock fails once, then answers', () => {
    const op = jest.fn().mockImplementationOnce(() => { throw new Error('down'); }).mockReturnValue('ok');
    expect(retry(op, 3)).toBe('ok');
    expect(op).toHaveBeenCalledTimes(2);
  });
  test('a check inside a callback', () => {
    expect(mapKept([1, 2], (x) => { expect(x).toBeGreaterThan(0); return x * 10; })).toEqual([10, 20]);
  });
  test('a key function', () => {
    expect(sortBy([{ n: 'b', a: 2 }, { n: 'a', a: 1 }], (o) => o.a).map((o) => o.n)).toEqual(['a', 'b']);
  });
  test('a function given back', () => {
    const f = jest.fn();
    expect(same(f)).toBe(f);
  });
});
"""
RIGHT = """function applyTwice(f, x) { return f(f(x)); }
function forEachItem(xs, cb) { xs.forEach((x, i) => cb(x, i)); }
function retry(op, n) {
  let last;
  for (let i = 0; i < n; i++) { try { return op(); } catch (e) { last = e; } }
  throw last;
}
function mapKept(xs, f) { return xs.map(f); }
function sortBy(xs, key) { return [...xs].sort((a, b) => key(a) - key(b)); }
function same(f) { return f; }
module.exports = { applyTwice, forEachItem, retry, mapKept, sortBy, same };
"""
# wrong in each test's way: once, the index and the item swapped, every try made, a failed check swallowed
# (the callback's expect fails on -1), descending, another function
WRONG = """function applyTwice(f, x) { return f(x); }
function forEachItem(xs, cb) { xs.forEach((x, i) => cb(i, x)); }
function retry(op, n) {
  let got;
  for (let i = 0; i < n; i++) { try { got = op(); } catch (e) {} }
  return got;
}
function mapKept(xs, f) { return xs.map((x) => { try { return f(-x); } catch (e) { return x * 10; } }); }
function sortBy(xs, key) { return [...xs].sort((a, b) => key(b) - key(a)); }
function same(f) { return (...a) => f(...a); }
module.exports = { applyTwice, forEachItem, retry, mapKept, sortBy, same };
"""


@pytest.mark.docker
async def test_callbacks_and_mock_functions_reach_the_program_as_in_one_process(sandbox: DockerSandbox) -> None:
    suite = split_tests("javascript", TESTS, RIGHT)
    assert len(suite.units) == 6
    right = await run_suite(sandbox, "javascript", RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 6, right.reasons
    wrong = await run_suite(sandbox, "javascript", WRONG, suite, timeout=60)
    assert wrong.passed == [False] * 6, wrong.reasons
    assert "to have been called with" in wrong.reasons[1] or "call 2" in wrong.reasons[1], wrong.reasons
    assert "to be greater than" in wrong.reasons[3] or "> 0" in wrong.reasons[3], wrong.reasons


NOT_CALLED = """const { cached } = require('./cache');
test('a cached value is not fetched', () => {
  const fetch = jest.fn(() => 7);
  expect(cached('k', { k: 1 }, fetch)).toBe(1);
  expect(fetch).not.toHaveBeenCalled();
});
"""
CACHED_RIGHT = ("function cached(k, cache, fetch) { return k in cache ? cache[k] : fetch(k); }\n"
                "module.exports = { cached };\n")
# each fetches though the value is cached, then tries to undo the record, or to reach past the stand-in
HIDING = {
    "mockClear": "fetch.mockClear();",
    "the record": "fetch.mock.calls.length = 0;",
    "a fresh stand-in of the first function": "require('./codec.js').hooks.standIn(0).mockReset();",
    "a reference not lent": "require('./codec.js').hooks.standIn(10 ** 6)();",
    "a forged answer on the channel": "require('fs').writeSync(3, JSON.stringify({ id: 1, ok: ['N'] }) + '\\n');",
}


def hiding(how: str) -> str:
    return ("function cached(k, cache, fetch) {\n  fetch(k);\n  try { " + how + " } catch (e) {}\n"
            "  return cache[k];\n}\nmodule.exports = { cached };\n")


@pytest.mark.docker
async def test_a_program_cannot_hide_a_call_of_a_mock_function(sandbox: DockerSandbox) -> None:
    suite = split_tests("javascript", NOT_CALLED, CACHED_RIGHT)
    assert (await run_suite(sandbox, "javascript", CACHED_RIGHT, suite, timeout=60)).passed == [True]
    for name, how in HIDING.items():
        run = await run_suite(sandbox, "javascript", hiding(how), suite, timeout=60)
        assert run.passed == [False], (name, run.reasons)


FLOOD = """const { total } = require('./t');
test('sums through the callback', () => { expect(total(3, (i) => i)).toBe(3); });
"""
FLOOD_RIGHT = ("function total(n, f) { let s = 0; for (let i = 0; i < n; i++) s += f(i); return s; }\n"
               "module.exports = { total };\n")
FLOODING = ("function total(n, f) {\n  for (let i = 0; i < 1e7; i++) { try { f(i); } catch (e) {} }\n  return 3;\n}\n"
            "module.exports = { total };\n")


@pytest.mark.docker
async def test_a_program_that_floods_the_tests_function_fails(sandbox: DockerSandbox) -> None:
    suite = split_tests("javascript", FLOOD, FLOOD_RIGHT)
    assert (await run_suite(sandbox, "javascript", FLOOD_RIGHT, suite, timeout=60)).passed == [True]
    flood = await run_suite(sandbox, "javascript", FLOODING, suite, timeout=60)
    assert flood.passed == [False], flood.reasons


LOGGED = """const { stars, warnIfNegative } = require('./pattern');
test('prints a triangle', () => {
  const spy = jest.spyOn(console, 'log').mockImplementation(() => {});
  stars(3);
  expect(spy).toHaveBeenCalledTimes(3);
  expect(spy).toHaveBeenNthCalledWith(3, '***');
  spy.mockRestore();
});
test('an error through console.error', () => {
  console.error = jest.fn();
  warnIfNegative(-1);
  expect(console.error).toHaveBeenCalledWith('negative:', -1);
});
test('nothing said when fine', () => {
  const spy = jest.spyOn(console, 'warn');
  warnIfNegative(1);
  expect(spy).not.toHaveBeenCalled();
});
test('unwatched', () => { stars(1); });
"""
LOGGED_RIGHT = """function stars(n) { for (let i = 1; i <= n; i++) console.log('*'.repeat(i)); }
function warnIfNegative(x) { if (x < 0) console.error('negative:', x); }
module.exports = { stars, warnIfNegative };
"""
# one string for the triangle; a warning, not an error, and for 1 too; a forged result line logged unwatched
LOGGED_WRONG = """function stars(n) {
  if (n === 1) console.log('@@M 0 00000000000000000000000000000000 @@T 0 PASS');
  console.log([1, 2, 3].slice(0, n).map((i) => '*'.repeat(i)).join('\\\\n'));
}
function warnIfNegative(x) { if (x <= 1) console.warn('negative:', x); }
module.exports = { stars, warnIfNegative };
"""


@pytest.mark.docker
async def test_what_the_program_logs_reaches_the_tests_console_spies(sandbox: DockerSandbox) -> None:
    """``jest.spyOn(console, 'log')`` and ``console.error = jest.fn()`` see what the program logs during
    the test's calls (sent with each answer, as data, and replayed into the spies).  Until
    ``RUNNERS_VERSION`` 52 there was no ``spyOn`` and the program's console went nowhere a test could
    see.  What the program logs while no test watches goes nowhere, never the result channel."""
    suite = split_tests("javascript", LOGGED, LOGGED_RIGHT)
    right = await run_suite(sandbox, "javascript", LOGGED_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 4, right.reasons
    wrong = await run_suite(sandbox, "javascript", LOGGED_WRONG, suite, timeout=60)
    assert wrong.passed == [False, False, False, True], wrong.reasons
    assert not wrong.tampering, wrong.tampering  # the forged line went nowhere near the channel


CHAI = """const { mapKept } = require('./lib');
const chai = require('chai');
test('chai in a callback', () => {
  expect(mapKept([1, 2], (x) => { chai.expect(x).to.be.above(0); return x * 10; })).toEqual([10, 20]);
});
test('console.assert in a callback', () => {
  expect(mapKept([1, 2], (x) => { console.assert(x > 0, 'positive'); return x * 10; })).toEqual([10, 20]);
});
"""
CHAI_RIGHT = "function mapKept(xs, f) { return xs.map((x) => f(x)); }\nmodule.exports = { mapKept };\n"
CHAI_SWALLOWED = ("function mapKept(xs, f) {\n"
                  "  return xs.map((x) => { try { return f(-x); } catch (e) { return x * 10; } });\n}\n"
                  "module.exports = { mapKept };\n")


@pytest.mark.docker
async def test_a_failed_chai_check_or_console_assert_in_a_callback_fails_the_test_even_when_caught(
        sandbox: DockerSandbox) -> None:
    """Found by the stop's review: chai's failed checks and ``console.assert`` inside a lent callback
    were plain errors, so a program that caught them passed."""
    suite = split_tests("javascript", CHAI, CHAI_RIGHT)
    assert (await run_suite(sandbox, "javascript", CHAI_RIGHT, suite, timeout=60)).passed == [True, True]
    swallowed = await run_suite(sandbox, "javascript", CHAI_SWALLOWED, suite, timeout=60)
    assert swallowed.passed == [False, False], swallowed.reasons
