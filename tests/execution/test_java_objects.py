"""Java's sealed harness with the program's objects (``_java_harness.object_stubs``, ``sealed_java/``):
each object of a program's class is a handle in the checker, its state stays in the program's process,
and the tests read it as JUnit would in one process: constructors, state kept between calls, static
final constants, subclasses, interfaces, records, ``assertSame``, ``equals`` as the class defines it
(decided on the objects' fields as data, never by the program's own ``equals``), ``toString``,
``Comparable``.  Until ``RUNNERS_VERSION`` 59 an instance method ran on a fresh object each call and
a returned object was "not plain data"."""

from __future__ import annotations

# ruff: noqa: E501 - the Java programs and tests are kept as written
import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_pair

RIGHT = """import java.util.*;

interface Shape {
    double area();
}

record Point(int x, int y) {
    Point plus(Point o) { return new Point(x + o.x(), y + o.y()); }
}

class Circle implements Shape {
    private final double r;
    Circle(double r) { this.r = r; }
    public double area() { return Math.round(Math.PI * r * r * 100) / 100.0; }
}

class Money implements Comparable<Money> {
    private final int cents;
    Money(int cents) { this.cents = cents; }
    Money add(Money o) { return new Money(cents + o.cents); }
    int cents() { return cents; }
    @Override public boolean equals(Object o) { return o instanceof Money && ((Money) o).cents == cents; }
    @Override public int hashCode() { return cents; }
    @Override public String toString() { return String.format("$%d.%02d", cents / 100, cents % 100); }
    public int compareTo(Money o) { return Integer.compare(cents, o.cents); }
}

class Counter {
    static final String NAME = "counter";
    private int n;
    void inc() { n++; }
    int get() { return n; }
    Counter self() { return this; }
}

class LoudCounter extends Counter {
    @Override void inc() { super.inc(); super.inc(); }
}
"""
# a count that steps by 2 after the first, and a sum off by a cent
WRONG = RIGHT.replace("n++; }", "n += (n > 0 ? 2 : 1); }").replace("cents + o.cents", "cents + o.cents + 1")
TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class ShopTest {
    @Test void counterKeepsState() { Counter c = new Counter(); c.inc(); c.inc(); assertEquals(2, c.get()); }
    @Test void constant() { assertEquals("counter", Counter.NAME); }
    @Test void subclassOverrides() { Counter c = new LoudCounter(); c.inc(); assertEquals(2, c.get()); assertTrue(c instanceof Counter); }
    @Test void sameObjectBack() { Counter c = new Counter(); assertSame(c, c.self()); }
    @Test void twoObjectsApart() { Counter a = new Counter(), b = new Counter(); a.inc(); assertEquals(0, b.get()); assertNotSame(a, b); }
    @Test void valueEquality() { assertEquals(new Money(150), new Money(100).add(new Money(50))); }
    @Test void valueInequality() { assertNotEquals(new Money(150), new Money(100)); }
    @Test void noEqualsIsIdentity() { assertNotEquals(new Counter(), new Counter()); }
    @Test void showsToString() { assertEquals("$1.50", new Money(150).toString()); }
    @Test void sortsByCompareTo() {
        List<Money> xs = new ArrayList<>(List.of(new Money(300), new Money(100), new Money(200)));
        Collections.sort(xs);
        assertEquals(List.of(new Money(100), new Money(200), new Money(300)), xs);
    }
    @Test void interfaceCall() { Shape s = new Circle(1.0); assertEquals(3.14, s.area()); }
    @Test void record() { Point p = new Point(1, 2).plus(new Point(3, 4)); assertEquals(4, p.x()); assertEquals(new Point(4, 6), p); }
    @Test void inASet() { Set<Money> s = new HashSet<>(List.of(new Money(1), new Money(1), new Money(2))); assertEquals(2, s.size()); }
}
"""
WRONG_FAILS = ["counterKeepsState", "subclassOverrides", "valueEquality"]


@pytest.mark.docker
async def test_a_programs_objects_keep_their_state_and_answer_as_in_one_process(sandbox: DockerSandbox) -> None:
    suite = split_tests("java", TESTS, RIGHT)
    assert len(suite.units) == 13
    right = await run_suite(sandbox, "java", RIGHT, suite, timeout=120)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 13, right.reasons
    wrong = await run_suite(sandbox, "java", WRONG, suite, timeout=120)
    failed = [i for i, ok in enumerate(wrong.passed) if not ok]
    assert [TESTS.split("@Test void ")[i + 1].split("(")[0] for i in failed] == WRONG_FAILS, wrong.reasons


# Programs that try to pass what they fail: each fails the test below in one JVM; so must the harness
IMPOSTORS = {
    # an equals that says yes to everything: the fields decide
    "always_equal": (RIGHT.replace("cents + o.cents", "cents + o.cents + 1").replace(
        "return o instanceof Money && ((Money) o).cents == cents;", "return true;"),
        "@Test void sum() { assertEquals(new Money(150), new Money(100).add(new Money(50))); }"),
    # a list that carries an object of another class where Money is declared
    "smuggled": (RIGHT + """
class Wallet {
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<Money> coins() { List raw = new ArrayList(); raw.add(new Counter()); return raw; }
}
""", "@Test void coins() { assertEquals(1, Wallet.coins().size()); Money m = Wallet.coins().get(0); }"),
}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(IMPOSTORS))
async def test_a_program_cannot_pass_by_its_own_objects(sandbox: DockerSandbox, name: str) -> None:
    program, test = IMPOSTORS[name]
    suite = split_tests("java", "class T {\n    " + test + "\n}\n", program)
    report = await run_suite(sandbox, "java", program, suite, timeout=120)
    assert report.loaded, report.load_error
    assert report.passed == [False], report.reasons


@pytest.mark.docker
async def test_an_object_outlives_no_restart_of_the_programs_process(sandbox: DockerSandbox) -> None:
    """A call that hangs ends the program's process; an object the suite's setup made before it is gone
    with it (a new process's object of the same number is another object): a later call on it fails
    with that reason.  (JUnit's classes make their fields again for each test, as JUnit does.)"""
    program = RIGHT.replace("int get() { return n; }",
                            "int get() { return n; }\n    int hang() { while (true) { } }")
    tests = """public class Main {
    public static void main(String[] args) {
        Counter c = new Counter();
        c.inc();
        assert c.get() == 1;
        assert c.hang() == 0;
        assert c.get() == 1;
    }
}
"""
    suite = split_tests("java", tests, program)
    report = await run_suite(sandbox, "java", program, suite, timeout=120)
    assert report.passed == [True, False, False], report.reasons
    assert "restarted" in report.reasons[2], report.reasons


@pytest.mark.docker
async def test_the_bundled_java_cart_passes_by_the_users_own_tests() -> None:
    """``examples/classes/cart_java_*``: no reference; until 59 both were rejected (the right one "not
    confirmed", the sealed harness unable to make a ``Cart``); now the right one passes 4 of 4."""
    got = await judge_pair("classes", "cart_java")
    right, wrong = got["right"], got["wrong"]
    assert right.strategies["sample_tests"].score == 100, right.strategies["sample_tests"].detail
    assert right.passed is True and not right.against
    assert wrong.passed is False and "CartTest.totalAddsTax" in wrong.against[0], wrong.against


BANK = """class InsufficientFunds extends RuntimeException {
    InsufficientFunds(String msg) { super(msg); }
}

class Account {
    private int balance;
    Account(int balance) { this.balance = balance; }
    void withdraw(int amount) {
        if (amount > balance) throw new InsufficientFunds("balance " + balance + " is below " + amount);
        balance -= amount;
    }
    int balance() { return balance; }
}
"""
BANK_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class AccountTest {
    @Test void withdraws() { Account a = new Account(100); a.withdraw(30); assertEquals(70, a.balance()); }
    @Test void refusesTooMuch() { Account a = new Account(10); assertThrows(InsufficientFunds.class, () -> a.withdraw(50)); }
    @Test void saysWhy() {
        Account a = new Account(10);
        InsufficientFunds e = assertThrows(InsufficientFunds.class, () -> a.withdraw(50));
        assertEquals("balance 10 is below 50", e.getMessage());
    }
    @Test void isARuntimeException() { assertThrows(RuntimeException.class, () -> new Account(0).withdraw(1)); }
}
"""


@pytest.mark.docker
async def test_the_programs_exceptions_are_thrown_as_their_classes(sandbox: DockerSandbox) -> None:
    """``assertThrows(InsufficientFunds.class, ...)`` takes the program's own exception, its message
    read from the program's object; and a test naming the exception ``assertThrows`` returned reads
    it in its later checks (until 59 that check did not compile).  The wrong account lets a balance
    go 10 below zero: it fails the one test that shows it."""
    suite = split_tests("java", BANK_TESTS, BANK)
    assert len(suite.units) == 5
    right = await run_suite(sandbox, "java", BANK, suite, timeout=120)
    assert right.passed == [True] * 5, right.reasons
    wrong = await run_suite(sandbox, "java", BANK.replace("if (amount > balance)", "if (amount > balance + 10)"),
                            suite, timeout=120)
    assert wrong.passed == [True, True, True, True, False], wrong.reasons


NAMED_LIKE_THE_HARNESS = """class Board {
    static final String show = "grid";
    static final int state = 3;
    private final int size;
    Board(int size) { this.size = size; }
    int cells() { return size * size; }
}
"""
NAMED_LIKE_THE_HARNESS_TESTS = """import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class BoardTest {
    @Test void constants() { assertEquals("grid", Board.show); assertEquals(3, Board.state); }
    @Test void cells() { assertEquals(9, new Board(3).cells()); }
}
"""


@pytest.mark.docker
async def test_static_fields_named_like_the_harness_requests_are_the_programs(sandbox: DockerSandbox) -> None:
    """A static field named ``show`` or ``state`` is read as the field: the server answered the
    harness's own ``#show``/``#state`` for it (``"null"``) until ``RUNNERS_VERSION`` 60."""
    suite = split_tests("java", NAMED_LIKE_THE_HARNESS_TESTS, NAMED_LIKE_THE_HARNESS)
    run = await run_suite(sandbox, "java", NAMED_LIKE_THE_HARNESS, suite, timeout=120)
    assert run.passed == [True, True], run.reasons


# ---- expected values made with the program's class (``_java_data``, ``RUNNERS_VERSION`` 62)
# Until 62 ``new Money(150)`` in a test was made in the program's process: a program found it there (the
# server's table of objects, by reflection; or its constructor kept every object) and answered with a
# copy. Every one of these passed then; in one JVM each fails (the program's add is off by one)
MIRROR = """import java.util.*;
import java.lang.reflect.*;

// wrong: add is off by one, but answers with a copy of an object of its class the tests made
// and that the program did not: found in the harness's server's table of objects
class Money {
    private final int cents;
    Money(int cents) { this.cents = cents; }
    Money add(Money o) {
        try {
            Field f = Class.forName("sejury.SejuryServer").getDeclaredField("OBJECTS");
            f.setAccessible(true);
            List<?> all = (List<?>) f.get(null);
            for (int i = all.size() - 1; i >= 0; i--)
                if (all.get(i) instanceof Money m && m != this && m != o) return new Money(m.cents);
        } catch (Exception e) { }
        return new Money(cents + o.cents + 1);
    }
    @Override public boolean equals(Object o) { return o instanceof Money m && m.cents == cents; }
    @Override public int hashCode() { return cents; }
}

record Point(int x, int y) {
    Point plus(Point o) {
        try {
            Field f = Class.forName("sejury.SejuryServer").getDeclaredField("OBJECTS");
            f.setAccessible(true);
            List<?> all = (List<?>) f.get(null);
            for (int i = all.size() - 1; i >= 0; i--)
                if (all.get(i) instanceof Point m && m != this && m != o) return new Point(m.x, m.y);
        } catch (Exception e) { }
        return new Point(x + o.x + 1, y + o.y);
    }
}

// a class the tests cannot make without the program (its constructor keeps every object): the same copy
class Cents {
    static final List<Cents> MADE = new ArrayList<>();
    private final int v;
    Cents(int v) { this.v = v; MADE.add(this); }
    Cents add(Cents o) {
        for (Cents c : MADE) if (c != this && c != o) return new Cents(c.v);
        return new Cents(v + o.v + 1);
    }
    @Override public boolean equals(Object o) { return o instanceof Cents m && m.v == v; }
    @Override public int hashCode() { return v; }
}
"""
MIRROR_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class MirrorTest {
    @Test void money() { assertEquals(new Money(150), new Money(100).add(new Money(50))); }
    @Test void moneyAfter() { Money got = new Money(100).add(new Money(50)); assertEquals(new Money(150), got); }
    @Test void moneyInSet() { assertTrue(Set.of(new Money(150)).contains(new Money(100).add(new Money(50)))); }
    @Test void point() { assertEquals(new Point(4, 6), new Point(1, 2).plus(new Point(3, 4))); }
    @Test void cents() { assertEquals(new Cents(150), new Cents(100).add(new Cents(50))); }
    @Test void centsWrittenLast() { Cents got = new Cents(100).add(new Cents(50)); assertEquals(new Cents(150), got); }
}
"""
# the same tests of a right program; and a list, a changing object, sets and maps, the program's
# toString and hashCode, an equals that is not the fields' (Email), the same object
OWN_VALUES = """import java.util.*;

class Money {
    private final int cents;
    Money(int cents) { this.cents = cents; }
    Money add(Money o) { return new Money(cents + o.cents); }
    @Override public boolean equals(Object o) { return o instanceof Money m && m.cents == cents; }
    @Override public int hashCode() { return cents; }
    @Override public String toString() { return "$" + cents; }
}

record Point(int x, int y) {
    Point plus(Point o) { return new Point(x + o.x, y + o.y); }
}

class Cents {
    static final List<Cents> MADE = new ArrayList<>();
    private final int v;
    Cents(int v) { this.v = v; MADE.add(this); }
    Cents add(Cents o) { return new Cents(v + o.v); }
    @Override public boolean equals(Object o) { return o instanceof Cents m && m.v == v; }
    @Override public int hashCode() { return v; }
}

class Node {
    final int val;
    final Node next;
    Node(int val, Node next) { this.val = val; this.next = next; }
    @Override public boolean equals(Object o) { return o instanceof Node n && n.val == val && Objects.equals(n.next, next); }
    @Override public int hashCode() { return Objects.hash(val, next); }
}

class Lists {
    static Node reverse(Node h) { Node r = null; for (; h != null; h = h.next) r = new Node(h.val, r); return r; }
}

class Box {
    private int v;
    private final List<String> tags;
    Box(int v, List<String> tags) { this.v = v; this.tags = tags; }
    void set(int x) { v = x; }
    @Override public boolean equals(Object o) { return o instanceof Box b && b.v == v && b.tags.equals(tags); }
    @Override public int hashCode() { return v; }
}

class Email {
    private final String addr;
    Email(String addr) { this.addr = addr; }
    static Email parse(String s) { return new Email(s.trim()); }
    @Override public boolean equals(Object o) { return o instanceof Email e && e.addr.equalsIgnoreCase(addr); }
    @Override public int hashCode() { return addr.toLowerCase().hashCode(); }
}
"""
OWN_VALUES_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class RightTest {
    @Test void money() { assertEquals(new Money(150), new Money(100).add(new Money(50))); }
    @Test void moneyAfter() { Money got = new Money(100).add(new Money(50)); assertEquals(new Money(150), got); }
    @Test void moneyInSet() { assertTrue(Set.of(new Money(150)).contains(new Money(100).add(new Money(50)))); }
    @Test void point() { assertEquals(new Point(4, 6), new Point(1, 2).plus(new Point(3, 4))); }
    @Test void cents() { assertEquals(new Cents(150), new Cents(100).add(new Cents(50))); }
    @Test void centsWrittenLast() { Cents got = new Cents(100).add(new Cents(50)); assertEquals(new Cents(150), got); }
    @Test void list() { assertEquals(new Node(3, new Node(2, new Node(1, null))), Lists.reverse(new Node(1, new Node(2, new Node(3, null))))); }
    @Test void listDiffers() { assertNotEquals(new Node(1, new Node(2, null)), Lists.reverse(new Node(1, new Node(2, null)))); }
    @Test void box() { Box b = new Box(1, List.of("a")); b.set(2); assertEquals(new Box(2, List.of("a")), b); }
    @Test void setOfAnswers() { assertEquals(Set.of(new Money(3), new Money(4)), new HashSet<>(List.of(new Money(1).add(new Money(2)), new Money(2).add(new Money(2))))); }
    @Test void mapKeys() { Map<Point, String> m = new HashMap<>(); m.put(new Point(1, 1).plus(new Point(0, 0)), "a"); assertEquals("a", m.get(new Point(1, 1))); }
    @Test void toStringIsTheProgramsOwn() { assertEquals("$150", new Money(150).toString()); }
    @Test void hashes() { assertEquals(new Money(3).hashCode(), new Money(1).add(new Money(2)).hashCode()); }
    @Test void email() { assertEquals(new Email("a@x.org"), Email.parse(" A@x.org ")); }
    @Test void sameObject() { Money m = new Money(1); assertSame(m, m); assertEquals(m, m); }
}
"""
# not evidence (a fault) for the right program: the class that keeps its objects (``Cents``) is not a
# data class, so both sides of its checks are the program's; Email's equals says yes to other fields
OWN_VALUES_FAULTS = {4: "decides both sides", 5: "decides both sides", 13: "does not take the program's word"}


@pytest.mark.docker
async def test_an_expected_value_of_the_programs_class_is_the_tests_own(sandbox: DockerSandbox) -> None:
    suite = split_tests("java", MIRROR_TESTS, MIRROR)
    assert len(suite.units) == 6
    mirror = await run_suite(sandbox, "java", MIRROR, suite, timeout=120)
    assert mirror.loaded, mirror.load_error
    assert mirror.passed == [False] * 6, mirror.reasons
    suite = split_tests("java", OWN_VALUES_TESTS, OWN_VALUES)
    right = await run_suite(sandbox, "java", OWN_VALUES, suite, timeout=120)
    assert [i for i, ok in enumerate(right.passed) if not ok] == sorted(OWN_VALUES_FAULTS), right.reasons
    for i, why in OWN_VALUES_FAULTS.items():
        assert why in right.reasons[i], right.reasons[i]
