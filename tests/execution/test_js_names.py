"""A JavaScript program's names never answer the tests' own checks (``sealed_js/checker.js``'s
``HARNESS``): the program's names are the tests' globals, except the harness's (``expect``,
``assert``, ``test``, ...) and what JavaScript and node already have (``Number``, ``isNaN``, ...).
Until ``RUNNERS_VERSION`` 57 a wrong program defining ``function assert() {}`` passed every
``assert(...)`` test, and in a Jest suite the tests' ``const assert = require('assert')`` was
dropped as "a copy" of the program's.  Found by the review of a change that was not kept (the
program's objects as stand-ins).  On the real sandbox."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

SHADOWS = '''function add(a, b) { return a - b; }
function assert() {}
function isNaN() { return false; }
function expect() { return undefined; }
module.exports = { add };
'''
RIGHT = '''function add(a, b) { return a + b; }
function assert() {}
module.exports = { add };
'''
SCRIPT = '''assert(add(2, 2) === 4);
assert(!isNaN(add(1, 1)) && add(1, 1) === 2);
'''
NO_OP_ASSERT = '''function add(a, b) { return a - b; }  // wrong
const assert = Object.assign(function assert() {},
  { strictEqual() {}, deepStrictEqual() {}, equal() {}, ok() {}, throws() {} });
module.exports = { add };
'''
JEST = '''const assert = require('assert');
const { add } = require('./solution');
test('adds', () => { assert.strictEqual(add(2, 2), 4); });
test('adds bare', () => { assert(add(2, 2) === 4); });
test('deep', () => { assert.deepStrictEqual([add(1, 1)], [2]); });
'''
NO_OP_EXPECT = '''function add(a, b) { return a - b; }  // wrong
class Matchers { constructor() { this.not = this; this.resolves = this; this.rejects = this; }
  toBe() {} toEqual() {} toStrictEqual() {} toThrow() {} toBeTruthy() {} toContain() {} }
function expect(x) { return new Matchers(); }
module.exports = { add };
'''
JEST_EXPECT = '''const { add } = require('./solution');
test('adds', () => { expect(add(2, 2)).toBe(4); });
test('adds more', () => { expect(add(1, 5)).toEqual(6); expect(add(1, 1)).not.toBe(0); });
'''


def test_a_test_defining_a_harness_name_is_the_tests_not_a_copy_of_the_programs() -> None:
    suite = split_tests("javascript", JEST, NO_OP_ASSERT)
    assert "const assert = require('assert');" in suite.setup


@pytest.mark.docker
async def test_a_program_defining_assert_expect_or_a_builtin_does_not_answer_the_tests(sandbox: DockerSandbox) -> None:
    script = await run_suite(sandbox, "javascript", SHADOWS, split_tests("javascript", SCRIPT, SHADOWS), timeout=60)
    assert script.passed == [False, False], script.reasons  # before 57: both passed
    right = await run_suite(sandbox, "javascript", RIGHT, split_tests("javascript", SCRIPT, RIGHT), timeout=60)
    assert right.passed == [True, True], right.reasons  # a right program with an assert of its own still passes
    jest = await run_suite(sandbox, "javascript", NO_OP_ASSERT, split_tests("javascript", JEST, NO_OP_ASSERT),
                           timeout=60)
    assert jest.passed == [False, False, False], jest.reasons
    own = await run_suite(sandbox, "javascript", NO_OP_EXPECT,
                          split_tests("javascript", JEST_EXPECT, NO_OP_EXPECT), timeout=60)
    assert own.passed == [False, False], own.reasons
    assert "expected 0 to be 4" in own.reasons[0]
