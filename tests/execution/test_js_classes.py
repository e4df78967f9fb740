"""A JavaScript program's classes and objects as the tests see them (``sealed_js/checker.js``): until
``RUNNERS_VERSION`` 57 an object of the program's class crossed the sealed boundary as an opaque
name and its classes were plain functions in the tests' process, so ``new Cart()``, ``Cart.TAX``,
``Cart.fromItems(...)``, a method call, ``instanceof`` and ``toThrow(InsufficientFunds)`` each failed
on a right program (a user's class-based Jest suite said nothing, or, without a reference, rejected
the right candidate).  Now an object of the program's stays in its process and the tests read, set
and call it from afar; ``instanceof`` answers by the program's classes known by identity.  On the
real sandbox, each suite as Jest runs it."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_pair

RIGHT = '''class Cart {
  static TAX = 0.2;
  constructor() { this.lines = []; }
  add(item, price, qty = 1) { this.lines.push([item, price, qty]); }
  lineTotal(line) { return line[1] * line[2]; }
  subtotal() { return this.lines.reduce((s, l) => s + this.lineTotal(l), 0); }
  total() { return Math.round(this.subtotal() * (1 + Cart.TAX) * 100) / 100; }
  static fromItems(pairs) { const c = new Cart(); for (const [i, p] of pairs) c.add(i, p); return c; }
}
class DiscountCart extends Cart {
  subtotal() { return super.subtotal() * 0.9; }
}
module.exports = { Cart, DiscountCart };
'''
WRONG = '''class Cart {
  static TAX = 0.2;
  constructor() { this.lines = []; }
  add(item, price, qty = 1) { this.lines.push([item, price, qty]); }
  lineTotal(line) { return line[1]; }
  subtotal() { return this.lines.reduce((s, l) => s + this.lineTotal(l), 0); }
  total() { return Math.round(this.subtotal() * (1 + Cart.TAX) * 100) / 100; }
  static fromItems(pairs) { const c = new Cart(); for (const [i, p] of pairs) c.add(i, p); return c; }
}
class DiscountCart {
  constructor() { this.lines = []; }
  add(item, price) { this.lines.push([item, price, 1]); }
  total() { return 10.8; }
}
module.exports = { Cart, DiscountCart };
'''
TESTS = '''const { Cart, DiscountCart } = require('./cart');
describe('Cart', () => {
  let cart;
  beforeEach(() => { cart = new Cart(); });
  it('starts empty', () => { expect(cart.lines).toEqual([]); expect(cart.subtotal()).toBe(0); });
  it('counts quantities', () => { cart.add('pen', 1.5, 2); expect(cart.total()).toBe(3.6); });
  it('is one object', () => { const same = cart; expect(same).toBe(cart); expect(new Cart()).not.toBe(cart); });
  it('sets a field', () => { cart.lines = [['x', 2, 3]]; expect(cart.subtotal()).toBe(6); });
  it('discount is a cart', () => { const d = new DiscountCart(); expect(d).toBeInstanceOf(Cart); });
  it('not equal to a plain object', () => { expect(cart).not.toEqual({}); });
});
'''
MORE = '''class BankError extends Error {}
class InsufficientFunds extends BankError {
  constructor(msg) { super(msg); this.name = "InsufficientFunds"; }
}
class Account {
  constructor(balance = 100) { this.balance = balance; }
  withdraw(n) { if (n > this.balance) throw new InsufficientFunds("no money"); this.balance -= n; return this.balance; }
}
function Stack() { this.items = []; }
Stack.prototype.push = function (x) { this.items.push(x); return this; };
Stack.prototype.pop = function () { return this.items.pop(); };
function makeCounter() { let n = 0; return () => ++n; }
module.exports = { Account, InsufficientFunds, BankError, Stack, makeCounter };
'''
MORE_TESTS = '''const { Account, InsufficientFunds, BankError, Stack, makeCounter } = require('./bank');
test('throws its own error', () => {
  expect(() => new Account(5).withdraw(10)).toThrow(InsufficientFunds);
  expect(() => new Account(5).withdraw(10)).toThrow(BankError);
  expect(() => new Account(5).withdraw(10)).toThrow("no money");
});
test('balance', () => { const a = new Account(); expect(a.withdraw(30)).toBe(70); expect(a.balance).toBe(70); });
test('old-style constructor', () => {
  const s = new Stack(); s.push(1).push(2);
  expect(s.pop()).toBe(2); expect(s instanceof Stack).toBe(true);
});
test('a returned function', () => { const c = makeCounter(); c(); expect(c()).toBe(2); });
test('error is not a stack', () => { expect(new Account() instanceof Stack).toBe(false); });
'''
HOSTILE = '''class Cart { constructor() { this.n = 1; } }
// a local class of the same name
function makeCart() { class Cart { constructor() { this.n = 1; } } return new Cart(); }
class Fake {}
Object.defineProperty(Fake, "name", { value: "Cart" });
function makeFake() { return new Fake(); }
class Slow { get value() { for (;;) {} } }
function makeSlow() { return new Slow(); }
module.exports = { Cart, makeCart, makeFake, makeSlow };
'''
HOSTILE_TESTS = '''test('local class', () => { expect(makeCart()).toBeInstanceOf(Cart); });
test('renamed class', () => { expect(makeFake() instanceof Cart).toBe(true); });
test('not a plain object', () => { expect(makeCart()).toEqual({ n: 1 }); });
test('hangs when read', () => { expect(makeSlow().value).toBe(1); });
test('after', () => { expect(new Cart().n).toBe(1); });
'''


@pytest.mark.docker
async def test_objects_made_with_new_their_fields_methods_and_classes(sandbox: DockerSandbox) -> None:
    """The right cart passes all 6 (the last: an object of the program's is not a plain object); the
    wrong one (a line's total ignores its quantity, a ``DiscountCart`` that is no ``Cart``) fails the
    tests that show it."""
    suite = split_tests("javascript", TESTS, RIGHT)
    right = await run_suite(sandbox, "javascript", RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 6, right.reasons
    wrong = await run_suite(sandbox, "javascript", WRONG, suite, timeout=60)
    assert wrong.passed == [True, False, True, False, False, True], wrong.reasons
    assert "expected 1.8 to be 3.6" in wrong.reasons[1]


@pytest.mark.docker
async def test_the_programs_errors_old_style_constructors_and_returned_functions(sandbox: DockerSandbox) -> None:
    report = await run_suite(sandbox, "javascript", MORE, split_tests("javascript", MORE_TESTS, MORE), timeout=60)
    assert report.passed == [True] * 5, report.reasons


@pytest.mark.docker
async def test_a_class_of_the_same_name_is_not_the_class_and_a_hang_fails_one_test(sandbox: DockerSandbox) -> None:
    """A local class named ``Cart``, a class renamed ``Cart``: not ``instanceof Cart``; an object of the
    program's never deep-equals a plain object (here stricter than Jest, which ignores types: a right
    program can fail such a test, a wrong one never passes it); a getter that hangs fails its test,
    and the next runs."""
    report = await run_suite(sandbox, "javascript", HOSTILE, split_tests("javascript", HOSTILE_TESTS, HOSTILE),
                             timeout=60)
    assert report.passed == [False, False, False, False, True], report.reasons


@pytest.mark.docker
async def test_the_bundled_javascript_cart_pair_by_the_users_own_tests() -> None:
    """``examples/classes/cartjs_*``: a Jest suite of ``new``, a static member and method, methods and
    ``toBeInstanceOf``, no reference.  Until ``RUNNERS_VERSION`` 57 both candidates passed 0 of 4 (the
    right one rejected at 0); now the right one passes 4 of 4 and the wrong one fails the test that
    shows its bug."""
    got = await judge_pair("classes", "cartjs")
    right, wrong = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert right.score == 100, right.detail
    assert wrong.score == 75, wrong.detail
    assert got["right"].passed is True and got["wrong"].passed is False
    assert "Cart > total adds tax" in " ".join(got["wrong"].against)
