"""A program's classes as the tests see them (``sealed_python/checker.pyt``'s ``ProgramClass``): until
``RUNNERS_VERSION`` 54 each class the program defines was a function in the tests' process that made
its objects, so ``Cart.TAX``, ``Calculator.double(4)``, ``isinstance(c, Calculator)``,
``patch.object(Calculator, "add")`` and ``mocker.spy(Calculator, "add")`` each failed on a right
program: on a sample without a reference that was a test the right candidate "failed", counted as
definitive evidence against it.  On the real sandbox, against real pytest's outcomes (with pytest-mock,
the same texts): the right program passes every test, the wrong one fails each test pytest fails."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_pair

TESTS = '''from unittest.mock import ANY, patch

import pytest
import solution
from solution import *


def test_spy_counts_the_programs_own_calls(mocker):
    spy = mocker.spy(Calculator, "add")
    assert Calculator().total([1, 2, 3]) == 6
    assert spy.call_count == 3
    assert spy.spy_return == 6


def test_patched_method_is_what_the_program_calls():
    with patch.object(Calculator, "add", return_value=10):
        assert Calculator().total([1, 2]) == 10
    assert Calculator().total([1, 2]) == 3


def test_autospec_binds_self():
    with patch.object(Calculator, "add", autospec=True, return_value=4) as add:
        assert Calculator().total([7]) == 4
        add.assert_called_once_with(ANY, 0, 7)


def test_class_constant_and_static_and_class_methods():
    assert Calculator.MAX == 100
    assert Calculator.double(4) == 8
    assert Calculator.named("x").name == "x"


def test_unbound_call_and_isinstance():
    c = Calculator()
    assert Calculator.add(c, 2, 3) == 5
    assert isinstance(c, Calculator)
    assert isinstance(Dog(), Animal) and not isinstance(Animal(), Dog)


def test_patch_of_an_object():
    c = Calculator()
    with patch.object(c, "add", return_value=7):
        assert c.total([1]) == 7
    assert c.total([1]) == 1


def test_patch_by_name():
    with patch("solution.Calculator.add", return_value=1):
        assert Calculator().total([5, 5]) == 1


def test_monkeypatch_with_a_function(monkeypatch):
    monkeypatch.setattr(Calculator, "add", lambda self, a, b: a - b)
    assert Calculator().total([1, 2]) == -3


def test_mock_side_effect_takes_no_self(mocker):
    mocker.patch.object(Calculator, "add", side_effect=lambda a, b: a * 10 + b)
    assert Calculator().total([1, 2]) == 12


def test_base_class_patched_reaches_the_subclass(mocker):
    mocker.patch.object(Dog, "speak", return_value="meow")
    assert Dog().greet() == "I say meow"
    assert Animal().greet() == "I say ..."


def test_spy_on_inherited_method(mocker):
    spy = mocker.spy(Animal, "greet")
    assert Dog().greet() == "I say woof"
    spy.assert_called_once()
'''
RIGHT = '''class Calculator:
    MAX = 100

    def add(self, a, b):
        return a + b

    def total(self, xs):
        t = 0
        for x in xs:
            t = self.add(t, x)
        return t

    @staticmethod
    def double(x):
        return 2 * x

    @classmethod
    def named(cls, name):
        c = cls()
        c.name = name
        return c


class Animal:
    def speak(self):
        return "..."

    def greet(self):
        return "I say " + self.speak()


class Dog(Animal):
    def speak(self):
        return "woof"
'''
WRONG = '''class Calculator:
    MAX = 99

    def add(self, a, b):
        return a + b

    def total(self, xs):
        return sum(xs)

    @staticmethod
    def double(x):
        return x + x

    @classmethod
    def named(cls, name):
        c = cls()
        c.name = name.upper()
        return c


class Animal:
    def speak(self):
        return "..."

    def greet(self):
        return "I say " + self.speak()


class Dog:
    def speak(self):
        return "woof"

    def greet(self):
        return "I say woof"
'''
# pytest (8, with pytest-mock) on these texts: the right program passes all 11 tests, the wrong one
# fails all 11; the harness splits a test of plain asserts into one unit per assert
# (``test_class_constant_...``: 3 units, ``test_unbound_call_...``: 3)
PYTEST_WRONG_FAILS = [True, True, True, True, False, True, False, False, True, True, True, True, True, True, True]


@pytest.mark.docker
async def test_a_programs_classes_are_read_called_and_patched_as_in_one_process(sandbox: DockerSandbox) -> None:
    suite = split_tests("python", TESTS, RIGHT)
    assert len(suite.units) == 15
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 15, right.reasons
    wrong = await run_suite(sandbox, "python", WRONG, suite, timeout=60)
    assert [not ok for ok in wrong.passed] == PYTEST_WRONG_FAILS, wrong.reasons
    assert "Expected 'greet' to have been called once. Called 0 times" in wrong.reasons[-1], wrong.reasons


SUBCLASS = '''def test_subclass():
    class Loud(Animal):
        def speak(self):
            return "WOOF"
    assert Loud().greet() == "I say WOOF"

def test_after():
    assert Dog().greet() == "I say woof"
'''


@pytest.mark.docker
async def test_a_test_deriving_from_a_programs_class_fails_with_the_reason_and_the_rest_run(
        sandbox: DockerSandbox) -> None:
    """A subclass made in the tests would make the program's objects, not the test's: refused, said
    so, and the next test runs."""
    report = await run_suite(sandbox, "python", RIGHT, split_tests("python", SUBCLASS, RIGHT), timeout=60)
    assert report.passed == [False, True], report.reasons
    assert "a class of the program's (Animal) cannot be subclassed in the tests" in report.reasons[0]


@pytest.mark.docker
async def test_the_bundled_cart_pair_by_the_users_own_tests() -> None:
    """``examples/classes``: a user's pytest file of class constants, a classmethod, ``isinstance``,
    a subclass and a ``mocker.spy`` of a method, no reference.  Until ``RUNNERS_VERSION`` 54 the right
    candidate passed 2 of 7 (merged 14.29, rejected "on definitive evidence"); now 7 of 7, and the wrong
    one (a line's total ignores its quantity) fails the test that shows it."""
    got = await judge_pair("classes", "cart")
    right, wrong = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert right.score == 100, right.detail
    assert wrong.score == pytest.approx(85.71, abs=0.01), wrong.detail
    assert got["right"].passed is True and got["wrong"].passed is False
    assert "test_total_adds_tax" in " ".join(got["wrong"].against)


# Programs that try to pass what they fail (the review of the first version of this, which trusted the
# names the program's process gave): each by pytest fails every test below; so must the harness
IMPOSTORS = '''from enum import Enum

class Shape:
    pass

def make_shape():
    class Shape:  # a local class of the same name
        pass
    return Shape()

class _Fake:
    pass
_Fake.__name__ = "Shape"

def make_fake():
    return _Fake()

class Node:
    pass

class Tree:
    class Node:  # a nested class of the same name
        pass

    def __init__(self):
        self.root = Tree.Node()

class Animal:
    pass

class Meta(type):
    @property
    def __bases__(cls):
        return (Animal,)

class Dog(metaclass=Meta):  # says it derives from Animal
    pass

class Impostor:
    pass
Impostor.__name__ = "Animal"

class Cat(Impostor):
    pass

class Color(Enum):
    RED = 1
    GREEN = 2

class Light:
    def __init__(self):
        self.color = Color.RED

    def next(self):
        return self.color  # never changes

class Shop:
    OPEN = True

    def can_buy(self, item):
        return not self.OPEN  # inverted
'''
IMPOSTOR_TESTS = '''from solution import *

def test_local_class():
    assert isinstance(make_shape(), Shape)

def test_renamed_class():
    assert isinstance(make_fake(), Shape) or make_fake().__class__ is Shape

def test_nested_class():
    assert isinstance(Tree().root, Node)

def test_metaclass_bases():
    assert issubclass(Dog, Animal) or isinstance(Dog(), Animal)

def test_renamed_base():
    assert issubclass(Cat, Animal) or isinstance(Cat(), Animal)

def test_changes():
    assert Light().next() != Color.RED

def test_not_in():
    assert Light().next() not in (Color.RED,)

def test_closed_by_the_class():
    Shop.OPEN = False
    try:
        assert Shop().can_buy("apple") is False
    finally:
        Shop.OPEN = True

def test_closed_by_the_object():
    shop = Shop()
    shop.OPEN = False
    assert shop.can_buy("apple") is False
'''


@pytest.mark.docker
async def test_a_program_gains_nothing_by_naming_its_classes_or_by_objects_that_equal_nothing(
        sandbox: DockerSandbox) -> None:
    """A class is known by identity (its process's registry of the program's names, type's own
    slots), not by the name it gives; an object sent twice is one handle (``!=``, ``not in`` as in
    one process); a test's ``Shop.OPEN = False`` is made on the program's class, where it reads it.
    Each of these tests passed the program above in the review's run."""
    report = await run_suite(sandbox, "python", IMPOSTORS, split_tests("python", IMPOSTOR_TESTS, IMPOSTORS),
                             timeout=60)
    assert report.loaded, report.load_error
    assert report.passed == [False] * 9, report.reasons


FORMS = '''import pytest
from unittest.mock import patch
from solution import *

def test_one_object_one_handle():
    light = Light()
    assert light.color == Color.RED and light.color is Color.RED and Color(2) is Color.GREEN

def test_settings_reach_the_program():
    shop = Shop()
    shop.OPEN = False
    assert shop.can_buy("apple") is False and shop.OPEN is False

def test_a_method_read_before_a_patch_stays_the_original():
    c = Calculator()
    add = c.add
    with patch.object(Calculator, "add", return_value=0):
        assert add(1, 2) == 3 and c.total([5]) == 0

def test_wraps_the_original():
    c = Calculator()
    with patch.object(Calculator, "add", wraps=c.add) as add:
        assert c.total([1, 2]) == 3
        assert add.call_count == 2

def test_the_programs_exceptions():
    with pytest.raises(InsufficientFunds, match="no money"):
        Account().withdraw(1000)
    with pytest.raises(BankError):
        Account().withdraw(1000)
    assert issubclass(InsufficientFunds, Exception)

def test_except_clause():
    try:
        Account().freeze()
    except InsufficientFunds:
        raise AssertionError("a Frozen is not an InsufficientFunds")
    except BankError:
        pass
'''
FORMS_RIGHT = '''from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

class Light:
    def __init__(self):
        self.color = Color.RED

class Shop:
    OPEN = True

    def can_buy(self, item):
        return self.OPEN

class Calculator:
    def add(self, a, b):
        return a + b

    def total(self, xs):
        t = 0
        for x in xs:
            t = self.add(t, x)
        return t

class BankError(Exception):
    pass

class InsufficientFunds(BankError):
    pass

class Frozen(BankError):
    pass

class Account:
    def withdraw(self, amount):
        raise InsufficientFunds("no money")

    def freeze(self):
        raise Frozen("frozen")
'''


@pytest.mark.docker
async def test_identity_settings_methods_read_before_a_patch_and_the_programs_exceptions(
        sandbox: DockerSandbox) -> None:
    """Each as pytest runs it (the right program passes all six there; the harness splits the fifth's
    three checks into units of their own): before the review's fixes
    the first two failed (a new handle per read; a setting kept in the tests' process), the third and
    fourth called the patch (or recursed), and the program's exceptions were ``CandidateError``s."""
    report = await run_suite(sandbox, "python", FORMS_RIGHT, split_tests("python", FORMS, FORMS_RIGHT), timeout=60)
    assert report.passed == [True] * 8, report.reasons
