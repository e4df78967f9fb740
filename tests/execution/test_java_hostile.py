"""Java programs written to pass what they fail, and right programs the object stubs broke, from the
review of the sealed harness with the program's objects (``RUNNERS_VERSION`` 59), each on the real
sandbox.  Real JUnit (one JVM) fails every wrong program's tests listed and passes the right ones'."""

from __future__ import annotations

# ruff: noqa: E501 - the Java programs and tests are kept as written
import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

# Classes named ``Path`` and ``Files`` stood for java.nio.file's in the checker's own set-up (the
# stubs shared its package): reading the run's key started the program's process before the key and
# the compiled tests were deleted, and the program wrote an authenticated transcript of passes.
# Present since the sealed harness; the harness's classes are now in a package of their own.
FORGER = """import java.util.*;
// A wrong program (add subtracts) with two classes named like java.nio.file's Path and Files: the
// checker's Sejury.setup() reads its key with `Files.readString(Path.of("seal"))` (java.nio.file.*
// imported on demand, so the stubs of these classes, in the same package, win).  That call starts the
// program's process before the key file and chk/ (the compiled tests) are deleted: the program reads
// the key and writes a complete, authenticated transcript of passes on the shell's stdout (the
// checker's own stdout is the same pipe; the shell is dumpable).  The checker's real lines come later
// with the same sequence numbers and are dropped by unseal() as replays.
class Path {
    static String of(String s) {
        try {
            String key = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("seal"))).trim();
            // the tests are on disk too: count the units in the compiled test main
            String main = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("chk/SejuryTestMain.class")), "ISO-8859-1");
            java.nio.file.Files.writeString(java.nio.file.Paths.get("/tmp/stolen-tests.txt"), main.replaceAll("[^ -~]", " "));
            int units = 0;
            for (int i = 0; i < 1000; i++) if (main.contains("ProgTest." + "t" + i)) units = i + 1;  // (or parse the class file)
            units = Math.max(units, 3);
            List<String> lines = new ArrayList<>();
            lines.add("@@LOAD OK");
            for (int i = 0; i < units; i++) lines.add("@@T " + i + " PASS");
            lines.add("@@DONE");
            StringBuilder b = new StringBuilder();
            javax.crypto.Mac h = javax.crypto.Mac.getInstance("HmacSHA256");
            h.init(new javax.crypto.spec.SecretKeySpec(key.getBytes("UTF-8"), "HmacSHA256"));
            for (int i = 0; i < lines.size(); i++) {
                byte[] d = h.doFinal((i + "|" + lines.get(i)).getBytes("UTF-8"));
                StringBuilder m = new StringBuilder();
                for (byte x : d) m.append(String.format("%02x", x));
                b.append("@@M " + i + " " + m.substring(0, 32) + " " + lines.get(i) + "\\n");
            }
            ProcessHandle shell = ProcessHandle.current().parent().get().parent().get();
            try (java.io.FileOutputStream out = new java.io.FileOutputStream("/proc/" + shell.pid() + "/fd/1")) {
                out.write(b.toString().getBytes("UTF-8"));
            }
        } catch (Exception e) {
            try { java.nio.file.Files.writeString(java.nio.file.Paths.get("/tmp/forge-error.txt"), e.toString()); } catch (Exception f) {}
        }
        return s;
    }
}

class Files {
    static String readString(String p) throws Exception { return new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(p))); }
    static void delete(String p) throws Exception { java.nio.file.Files.delete(java.nio.file.Paths.get(p)); }
}

class Calc {
    static int add(int a, int b) { return a - b; }
}
"""
FORGER_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class ProgTest {
    @Test void t0() { assertEquals(5, Calc.add(2, 3)); }
    @Test void t1() { assertEquals(0, Calc.add(-1, 1)); }
    @Test void t2() { assertEquals(10, Calc.add(4, 6)); }
}
"""
# ``class Math`` stood for java.lang.Math in the checker's assertEquals(double, double, delta)
MATH = """// A wrong area (3 r^2, not pi r^2) and a class named like java.lang.Math: the checker's own
// SejuryAssert.assertEquals(double, double[, delta]) calls Math.abs, which resolves to the program's class.
class Math {
    static double abs(double x) { return 0; }
}

class Geo {
    static double area(double r) { return 3.0 * r * r; }
}
"""
MATH_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class GeoTest {
    @Test void unitCircle() { assertEquals(3.14159, Geo.area(1), 1e-4); }
    @Test void twoCircle() { assertEquals(12.566, Geo.area(2), 0.001); }
}
"""
# equals that lies, forgets a field, has no hashCode, compares parts without equals, keeps state
# outside fields, Integer against Long, NaN, a record of an array
EQUALS = """import java.util.*;

// equals that says yes to everything (the program's bug)
class Yes {
    private final int v;
    Yes(int v) { this.v = v; }
    @Override public boolean equals(Object o) { return true; }
    @Override public int hashCode() { return 0; }
}

// equals that forgets y (the program's bug)
class P {
    final int x, y;
    P(int x, int y) { this.x = x; this.y = y; }
    @Override public boolean equals(Object o) { return o instanceof P p && p.x == x; }
    @Override public int hashCode() { return x; }
}

// equals without hashCode (the classic bug)
class Tag {
    final String name;
    Tag(String n) { name = n; }
    @Override public boolean equals(Object o) { return o instanceof Tag t && t.name.equals(name); }
}

// a class with equals whose parts have none (identity)
class Pt {
    final int x, y;
    Pt(int x, int y) { this.x = x; this.y = y; }
}

class Seg {
    final Pt a, b;
    Seg(Pt a, Pt b) { this.a = a; this.b = b; }
    static Seg parse(String s) {
        String[] p = s.split(" ");
        return new Seg(new Pt(Integer.parseInt(p[0]), Integer.parseInt(p[1])), new Pt(Integer.parseInt(p[2]), Integer.parseInt(p[3])));
    }
    @Override public boolean equals(Object o) { return o instanceof Seg s && s.a.equals(a) && s.b.equals(b); }
    @Override public int hashCode() { return Objects.hash(a, b); }
}

// state kept outside the object's fields; add is off by one
class Money2 {
    private static final Map<Money2, Integer> C = new IdentityHashMap<>();
    Money2(int c) { C.put(this, c); }
    Money2 add(Money2 o) { return new Money2(C.get(this) + C.get(o) + 1); }
    @Override public boolean equals(Object o) { return o instanceof Money2 m && C.get(m).equals(C.get(this)); }
    @Override public int hashCode() { return C.get(this); }
}

// a field of a class the server does not count as the program's (name starts with Sejury): its toString is used
class SejuryCents {
    final int v;
    SejuryCents(int v) { this.v = v; }
    public String toString() { return "c"; }
}

class Money3 {
    private final SejuryCents c;
    Money3(int v) { c = new SejuryCents(v); }
    Money3 add(Money3 o) { return new Money3(c.v + o.c.v + 1); }
    @Override public boolean equals(Object o) { return o instanceof Money3 m && m.c.v == c.v; }
    @Override public int hashCode() { return c.v; }
}

// an Object field: Integer 5 and Long 5 are written alike
class Val {
    final Object v;
    Val(Object v) { this.v = v; }
    static Val ofInt(int x) { return new Val(Integer.valueOf(x)); }
    static Val parse(String s) { return new Val(Long.parseLong(s)); }
    @Override public boolean equals(Object o) { return o instanceof Val w && w.v.equals(v); }
    @Override public int hashCode() { return v.hashCode(); }
}

// == on doubles: NaN is not equal to itself
class Avg {
    final double m;
    Avg(double m) { this.m = m; }
    static Avg of(int[] xs) { double s = 0; for (int x : xs) s += x; return new Avg(s / xs.length); }
    @Override public boolean equals(Object o) { return o instanceof Avg a && a.m == m; }
    @Override public int hashCode() { return Double.hashCode(m); }
}

// a record's array component is compared by identity
record Poly(int[] c) {
    static Poly parse(String s) { return new Poly(Arrays.stream(s.split(" ")).mapToInt(Integer::parseInt).toArray()); }
}
"""
EQUALS_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class ProgTest {
    @Test void yesDiffers() { assertNotEquals(new Yes(1), new Yes(2)); }
    @Test void yesEqualsCall() { assertFalse(new Yes(1).equals(new Yes(2))); }
    @Test void pDiffersInY() { assertNotEquals(new P(1, 2), new P(1, 3)); }
    @Test void tagInSet() { Set<Tag> s = new HashSet<>(); s.add(new Tag("a")); s.add(new Tag("a")); assertEquals(1, s.size()); }
    @Test void tagHash() { assertEquals(new Tag("a").hashCode(), new Tag("a").hashCode()); }
    @Test void segParse() { assertEquals(new Seg(new Pt(1, 2), new Pt(3, 4)), Seg.parse("1 2 3 4")); }
    @Test void money2() { assertEquals(new Money2(150), new Money2(100).add(new Money2(50))); }
    @Test void money3() { assertEquals(new Money3(150), new Money3(100).add(new Money3(50))); }
    @Test void intVsLong() { assertEquals(Val.ofInt(5), Val.parse("5")); }
    @Test void nan() { assertEquals(new Avg(Double.NaN), Avg.of(new int[0])); }
    @Test void recordArray() { assertEquals(new Poly(new int[]{1, 2}), Poly.parse("1 2")); }
}
"""
# checked exceptions of a nested and an anonymous class, a class extending ArrayList
EXCEPTIONS = """import java.util.*;

// withdraw must throw an unchecked exception; this one throws a checked exception of a nested class
class Account {
    static class Overdrawn extends Exception { Overdrawn(String m) { super(m); } }
    private int balance;
    Account(int b) { balance = b; }
    void withdraw(int x) throws Overdrawn {
        if (x > balance) throw new Overdrawn("need " + x);
        balance -= x;
    }
}

// an anonymous exception object (checked)
class Parser {
    static int parse(String s) throws Exception {
        if (s.isEmpty()) throw new Exception("empty") {};
        return s.length();
    }
}

// a stack meant to start empty; this one starts with a sentinel element (the bug)
class Stack2 extends ArrayList<Integer> {
    Stack2() { add(-1); }
    void push(int x) { add(x); }
}
"""
EXCEPTIONS_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class ProgTest {
    @Test void overdrawIsUnchecked() { Account a = new Account(10); assertThrows(RuntimeException.class, () -> a.withdraw(20)); }
    @Test void emptyIsUnchecked() { assertThrows(RuntimeException.class, () -> Parser.parse("")); }
    @Test void startsEmpty() { assertTrue(new Stack2().isEmpty()); }
    @Test void pushOne() { Stack2 s = new Stack2(); s.add(5); assertEquals(1, s.size()); }
}
"""
# a copy that is not one
COPY = """import java.util.*;

class Util {
    // must return a new list (a defensive copy); returns its argument (the bug)
    static List<Integer> copyOf(List<Integer> xs) { return xs; }
    // must return a sorted copy and leave its argument alone; sorts the argument in place (the bug)
    static List<Integer> sorted(List<Integer> xs) { Collections.sort(xs); return xs; }
    static int[] sortedArray(int[] a) { Arrays.sort(a); return a; }
}
"""
COPY_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class UtilTest {
    @Test void copyIsNew() { List<Integer> in = new ArrayList<>(List.of(1, 2)); assertNotSame(in, Util.copyOf(in)); }
    @Test void copyIsIndependent() { List<Integer> in = new ArrayList<>(List.of(1, 2)); List<Integer> c = Util.copyOf(in); c.add(3); assertEquals(2, in.size()); }
    @Test void inputUntouched() { List<Integer> in = new ArrayList<>(List.of(3, 1, 2)); Util.sorted(in); assertEquals(List.of(3, 1, 2), in); }
    @Test void arrayUntouched() { int[] a = {3, 1, 2}; Util.sortedArray(a); assertArrayEquals(new int[]{3, 1, 2}, a); }
}
"""

WRONG = {"forger": (FORGER, FORGER_TESTS), "math": (MATH, MATH_TESTS), "equals": (EQUALS, EQUALS_TESTS),
         "exceptions": (EXCEPTIONS, EXCEPTIONS_TESTS)}


@pytest.mark.docker
async def test_a_copy_that_is_the_same_object_is_not_taken_for_a_copy(sandbox: DockerSandbox) -> None:
    """Values from the program's process are copies in the checker: ``assertNotSame`` on two of them
    cannot be decided, and fails, rather than pass for a program returning its argument."""
    suite = split_tests("java", COPY_TESTS, COPY)
    report = await run_suite(sandbox, "java", COPY, suite, timeout=120)
    assert report.passed[0] is False and "cannot tell" in report.reasons[0], report.reasons


# right programs: a constant that is not data (before, every test of its class failed: the stub read
# it and its class did not initialise), a class named ``Field`` (the server's own reflection used it)
RIGHT = {
    # the test's own segment of cells it gave the program: the cells (no equals) are the same objects
    "same_cells": ("""import java.util.*;
class Cell {
    final int v;
    Cell(int v) { this.v = v; }
}
class Seg {
    final Cell a, b;
    Seg(Cell a, Cell b) { this.a = a; this.b = b; }
    static Seg of(Cell a, Cell b) { return new Seg(a, b); }
    @Override public boolean equals(Object o) { return o instanceof Seg s && s.a.equals(a) && s.b.equals(b); }
    @Override public int hashCode() { return Objects.hash(a, b); }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SegTest {
    @Test void same() { Cell a = new Cell(1), b = new Cell(2); assertEquals(new Seg(a, b), Seg.of(a, b)); }
    @Test void other() { Cell a = new Cell(1), b = new Cell(2); assertNotEquals(new Seg(a, b), Seg.of(new Cell(1), b)); }
}
"""),
    # the test's own objects made in a parallel stream (the checker's walks and calls under one lock),
    # and their toString as the program writes it wherever the test asks for it
    "parallel_and_text": ("""import java.util.*;

class Money {
    private final int cents;
    Money(int cents) { this.cents = cents; }
    Money add(Money o) { return new Money(cents + o.cents); }
    @Override public boolean equals(Object o) { return o instanceof Money m && m.cents == cents; }
    @Override public int hashCode() { return cents; }
    @Override public String toString() { return String.format("$%d.%02d", cents / 100, cents % 100); }
}
class Vec {
    private final double x, y;
    Vec(double x, double y) { this.x = x; this.y = y; }
    Vec negate() { return new Vec(-x, -y); }
    @Override public boolean equals(Object o) { return o instanceof Vec v && v.x == x && v.y == y; }
    @Override public int hashCode() { return Objects.hash(x + 0.0, y + 0.0); }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;
import java.util.stream.*;

class ParTest {
    @Test void concat() { Money m = new Money(150); assertEquals("$1.50", "" + m); }
    @Test void valueOf() { assertEquals("$1.50", String.valueOf(new Money(150))); }
    @Test void listToString() { assertEquals("[$1.00, $0.05]", List.of(new Money(100), new Money(5)).toString()); }
    @Test void methodRef() { assertEquals("$1.00,$0.05", Stream.of(new Money(100), new Money(5)).map(Money::toString).collect(Collectors.joining(","))); }
    @Test void lambda() { assertEquals("$1.00,$0.05", Stream.of(new Money(100), new Money(5)).map(m -> m.toString()).collect(Collectors.joining(","))); }
    @Test void format() { assertEquals("total: $1.50", String.format("total: %s", new Money(150))); }
    @Test void direct() { assertEquals("$1.50", new Money(150).toString()); }
    @Test void parallelSet() { Set<Money> s = IntStream.range(0, 20000).parallel().mapToObj(i -> new Money(i % 500)).collect(Collectors.toSet()); assertEquals(500, s.size()); }
    @Test void parallelDistinct() { assertEquals(500, IntStream.range(0, 20000).parallel().mapToObj(i -> new Money(i % 500)).distinct().count()); }
}
"""),
    "pattern": ("""import java.util.*;
import java.util.regex.*;

class Solution {
    static final Pattern WORD = Pattern.compile("[a-z]+");
    public static int countWords(String s) {
        Matcher m = WORD.matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SolutionTest {
    @Test void two() { assertEquals(2, Solution.countWords("ab cd")); }
    @Test void none() { assertEquals(0, Solution.countWords("12 34")); }
}
"""),
    "field": ("""class Field {
    private final int v;
    Field(int v) { this.v = v; }
    int get() { return v; }
}

class Solution {
    static int f(int x) { return new Field(x + 1).get(); }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SolutionTest {
    @Test void inc() { assertEquals(3, Solution.f(2)); }
}
"""),
}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(RIGHT))
async def test_a_right_program_passes(sandbox: DockerSandbox, name: str) -> None:
    program, tests = RIGHT[name]
    suite = split_tests("java", tests, program)
    report = await run_suite(sandbox, "java", program, suite, timeout=120)
    assert report.loaded, report.load_error
    assert suite.units and all(report.passed), report.reasons


# From the second review: a comment whose unicode escape is a brace to javac put a static block into
# the checker's stubs (both kinds: present since the sealed harness), which wrote authenticated passes;
# a comment posing as a class header; checked exceptions the checker cannot make; a program class the
# stubs missed (an annotation or an indent before its header) taken for java.util's; the harness's own
# errors taken for the exception a test expects; an equals that is not reflexive
SECOND = {
    "escape_in_comment": ("""// wrong: getBalance always 0.  The comment's line is copied into the checker's stub of Account
// (the unicode escape of an opening brace is one to javac, not to the stub generator's regexes):
// a static block in the checker, which emits authenticated passes with the checker's own key.
class Account {
    private int balance;
    public Account(int b) { balance = b; }
    public int getBalance() { return 0; }
    /*
    public int sx(int a)\\u007b char c = '{'; return a; } static { for (int i = 0; i != 500; i++) sejury.Sejury.passed(i); sejury.Sejury.emit("@@DONE"); Runtime.getRuntime().halt(0); } public int sy(int b) { '}'
    */
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class AccountTest {
    @Test void balance() { assertEquals(5, new Account(5).getBalance()); }
    @Test void balance2() { assertEquals(7, new Account(7).getBalance()); }
    @Test void never() { fail("always fails"); }
}
"""),
    "escape_in_comment_flat": ("""// wrong: add always 0.  The comment's line becomes a static block of the checker's stub (main's flat stubs too)
public class Solution {
    public static int add(int a, int b) { return 0; }
    /*
    public static int sx(int a)\\u007b char c = '{'; return a; } static { for (int i = 0; i != 500; i++) Sejury.passed(i); Sejury.emit("@@DONE"); Runtime.getRuntime().halt(0); } public static int sy(int b) { '}'
    */
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SolutionTest {
    @Test void add() { assertEquals(3, Solution.add(1, 2)); }
    @Test void never() { fail("always fails"); }
}
"""),
    "comment_header": ("""// wrong: Overdrawn must be unchecked; this one is a checked Exception.  The stub generator does not
// see the real header (a comment inside it) and takes the one in the comment above it.
/*
class Overdrawn extends RuntimeException {}
*/
class /**/ Overdrawn extends Exception { Overdrawn(String m) { super(m); } }

class Account {
    private int balance;
    public Account(int b) { balance = b; }
    public void withdraw(int x) throws Overdrawn {
        if (x > balance) throw new Overdrawn("need " + x);
        balance -= x;
    }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class AccountTest {
    @Test void overdrawIsUnchecked() { Account a = new Account(10); assertThrows(RuntimeException.class, () -> a.withdraw(20)); }
    @Test void overdrawn() { Account a = new Account(10); RuntimeException e = assertThrows(RuntimeException.class, () -> a.withdraw(20)); assertTrue(e instanceof Overdrawn); }
}
"""),
    "checked_exceptions": ("""import java.sql.SQLException;
import java.util.concurrent.ExecutionException;

// wrong: each must throw an unchecked exception; each throws a checked one.  In the checker each
// becomes a plain RuntimeException ("the program threw ..."): java.sql's class is not java.base's;
// ExecutionException has no public (String) or () constructor; a class named Sejury* is not "own"
class SejuryOverdrawn extends Exception { SejuryOverdrawn(String m) { super(m); } }

class Store {
    public int get(String k) throws SQLException { throw new SQLException("no " + k); }
    public int take(int x) throws SejuryOverdrawn { throw new SejuryOverdrawn("need " + x); }
    public int run(int x) throws ExecutionException { throw new ExecutionException("task " + x, new Exception()); }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class StoreTest {
    @Test void getUnchecked() { Store s = new Store(); assertThrows(RuntimeException.class, () -> s.get("a")); }
    @Test void takeUnchecked() { Store s = new Store(); assertThrows(RuntimeException.class, () -> s.take(5)); }
    @Test void runUnchecked() { Store s = new Store(); assertThrows(RuntimeException.class, () -> s.run(5)); }
}
"""),
    "annotated_header": ("""import java.util.*;

// wrong: pop returns the bottom element, not the top.  Its header's line starts with an annotation, so no
// stub is made for it, and the tests' "Stack" is java.util.Stack in the checker (import java.util.*)
@SuppressWarnings("unchecked") class Stack<T> {
    private final List<T> items = new ArrayList<>();
    public void push(T x) { items.add(x); }
    public T pop() { return items.remove(0); }
    public T peek() { return items.get(0); }
    public int size() { return items.size(); }
    public boolean isEmpty() { return items.isEmpty(); }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class StackTest {
    @Test void popTop() { Stack<Integer> s = new Stack<>(); s.push(1); s.push(2); assertEquals(2, s.pop()); }
    @Test void peekTop() { Stack<Integer> s = new Stack<>(); s.push(1); s.push(2); assertEquals(2, s.peek()); }
}
"""),
    "harness_errors": ("""import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.*;
import java.util.function.*;

// wrong: never validates anything
class Account {
    private BigDecimal balance = BigDecimal.ZERO;
    public void deposit(BigDecimal amount) { balance = balance.add(amount); }
    public BigDecimal getBalance() { return balance; }
}
class Library {
    public void checkout(String title, LocalDate due) { }
}
class Mapper {
    public List<Integer> map(List<Integer> xs, Function<Integer, Integer> f) { return xs; }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.*;

class ProgTest {
    @Test void negativeDeposit() { Account a = new Account(); assertThrows(IllegalArgumentException.class, () -> a.deposit(new BigDecimal("-5"))); }
    @Test void pastDue() { Library l = new Library(); assertThrows(IllegalArgumentException.class, () -> l.checkout("x", LocalDate.of(2000, 1, 1))); }
    @Test void nullFn() { Mapper m = new Mapper(); assertThrows(IllegalArgumentException.class, () -> m.map(List.of(-1), x -> x * 2)); }
    @Test void balance() { Account a = new Account(); assertThrows(RuntimeException.class, () -> a.getBalance()); }
}
"""),
    "not_reflexive": ("""// wrong: equals is not reflexive (compares a NaN rate with ==); JUnit's assertEquals calls
// expected.equals(actual) even on one object, the harness's Sejury.same answers true for a == b
class Rate {
    private final double value;
    public Rate(double v) { value = v; }
    @Override public boolean equals(Object o) { return o instanceof Rate r && r.value == value; }
    @Override public int hashCode() { return 0; }
}
class Bank {
    private final Rate rate = new Rate(Double.NaN);
    public Rate rate() { return rate; }
}
""", """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
class BankTest {
    @Test void stable() { Bank b = new Bank(); assertEquals(b.rate(), b.rate()); }
}
"""),
}
INDENTED = """import java.util.*;

// wrong: pop returns the bottom element.  The whole program is indented (as pasted from a reply):
// the object stubs' class pattern wants the header at the line's start, so "Stack" in the tests is
// java.util.Stack in the checker
    class Stack<T> {
        private final List<T> items = new ArrayList<>();
        public void push(T x) { items.add(x); }
        public T pop() { return items.remove(0); }
        public int size() { return items.size(); }
    }
"""
INDENTED_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class StackTest {
    @Test void popTop() { Stack<Integer> s = new Stack<>(); s.push(1); s.push(2); assertEquals(2, s.pop()); }
    @Test void size() { Stack<Integer> s = new Stack<>(); s.push(1); s.push(2); s.pop(); assertEquals(1, s.size()); }
}
"""


@pytest.mark.docker
async def test_an_indented_program_class_is_the_programs(sandbox: DockerSandbox) -> None:
    """``    class Stack<T> {``: its stub is made, so the tests' ``Stack`` is the program's, not
    java.util's; the wrong ``pop`` fails, its ``size`` (right) passes, as in one JVM."""
    suite = split_tests("java", INDENTED_TESTS, INDENTED)
    report = await run_suite(sandbox, "java", INDENTED, suite, timeout=120)
    assert report.passed == [False, True], report.reasons


# From the third and fourth reviews (``RUNNERS_VERSION`` 62, the checker making the tests' objects of a program's
# data class): a first version decided such checks on the fields alone, so an equals comparing boxed
# values or strings by reference, a typo, a hashCode that is Object's, values of the wrong kind in a
# ``Map<String, Object>`` or a ``List<Object>``, and a string written as the cycle marker passed
DATA_EQUALS = """import java.util.*;

// wrong: equals compares the boxed Integer by reference (== on Integer above 127)
class Money {
    private final Integer cents;
    Money(Integer cents) { this.cents = cents; }
    Money add(Money o) { return new Money(cents + o.cents); }
    @Override public boolean equals(Object o) { return o instanceof Money m && m.cents == cents; }
    @Override public int hashCode() { return cents; }
}

// wrong: equals compares the String by reference
class Email {
    private final String addr;
    Email(String addr) { this.addr = addr; }
    static Email parse(String s) { return new Email(s.trim().toLowerCase()); }
    @Override public boolean equals(Object o) { return o instanceof Email e && e.addr == addr; }
    @Override public int hashCode() { return addr.hashCode(); }
}

// wrong: a typo in equals (p.y == x)
class Point {
    final int x, y;
    Point(int x, int y) { this.x = x; this.y = y; }
    Point plus(Point o) { return new Point(x + o.x, y + o.y); }
    @Override public boolean equals(Object o) { return o instanceof Point p && p.x == x && p.y == x; }
    @Override public int hashCode() { return 31 * x + y; }
}

// wrong: hashCode not consistent with equals (Object's)
class Tag {
    final String name;
    Tag(String name) { this.name = name; }
    static Tag of(String s) { return new Tag(s.trim()); }
    @Override public boolean equals(Object o) { return o instanceof Tag t && t.name.equals(name); }
    @Override public int hashCode() { return super.hashCode(); }
}
"""
DATA_EQUALS_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class C1Test {
    @Test void money() { assertEquals(new Money(150), new Money(100).add(new Money(50))); }
    @Test void email() { assertEquals(new Email("a@x.org"), Email.parse(" A@x.org ")); }
    @Test void point() { assertEquals(new Point(4, 6), new Point(1, 2).plus(new Point(3, 4))); }
    @Test void tagInHashSet() { assertTrue(new HashSet<>(List.of(new Tag("a"))).contains(Tag.of(" a "))); }
    @Test void tagHash() { assertEquals(new Tag("a").hashCode(), Tag.of(" a ").hashCode()); }
    @Test void tagMapKey() { Map<Tag, Integer> m = new HashMap<>(); m.put(Tag.of("a "), 1); assertEquals(1, m.get(new Tag("a"))); }
    @Test void equalsSelfMade() { assertTrue(new Money(500).equals(new Money(500))); }
}
"""
DATA_KINDS = """import java.util.*;

// wrong answers of the right values but the wrong kinds (a JSON-ish record of a parser)
record Doc(Map<String, Object> fields) {
    static Doc parse(String s) {            // wrong: numbers as Long, letters as String
        Map<String, Object> m = new HashMap<>();
        m.put("n", 7L);
        m.put("c", "x");
        m.put("f", 0.5);
        return new Doc(m);
    }
}
record Bag(List<Object> xs) {
    static Bag of() { return new Bag(List.of(Set.of(1), Arrays.asList(2, 3))); }   // wrong: Set where a List is expected and vice versa
}
record Opt(List<Optional<String>> xs) {
    static Opt of() { return new Opt(Arrays.asList((Optional<String>) null)); }   // wrong: null, not Optional.empty()
}

record Pt(int x, int y) {}
record Twice(List<Object> xs) {
    static Twice of(int x, int y) { return new Twice(List.of(new Pt(x, y), "@cycle")); }   // wrong
}
class V {                          // wrong: a weak hashCode, x + y
    final int x, y;
    V(int x, int y) { this.x = x; this.y = y; }
    V swap() { return new V(y, x); }
    @Override public boolean equals(Object o) { return o instanceof V v && v.x == x && v.y == y; }
    @Override public int hashCode() { return x + y; }
}
"""
DATA_KINDS_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class C7Test {
    @Test void kinds() { assertEquals(new Doc(Map.of("n", 7, "c", 'x', "f", 0.5f)), Doc.parse("n=7,c=x,f=0.5")); }
    @Test void listVsSet() { assertEquals(new Bag(List.of(List.of(1), Set.of(2, 3))), Bag.of()); }
    @Test void optional() { assertEquals(new Opt(List.of(Optional.empty())), Opt.of()); }
    @Test void cycleToken() { Pt p = new Pt(1, 2); assertEquals(new Twice(List.of(p, p)), Twice.of(1, 2)); }
    @Test void weakHash() { V v = new V(1, 2); assertNotEquals(v.hashCode(), v.swap().hashCode()); }
}
"""
# the fourth review's: an Integer and a Long (a raw cast) written alike in a record's map
DATA_ERASURE = """import java.util.*;
import java.util.stream.*;

// wrong: the counts are Longs (Collectors.counting) put in a Map<String, Integer> through a raw cast
record Counts(Map<String, Integer> m) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Counts of(String s) {
        Map raw = Arrays.stream(s.split(" ")).collect(Collectors.groupingBy(w -> w, Collectors.counting()));
        return new Counts(raw);
    }
}
// wrong: letters as Strings in a List<Character>
class Letters {
    private final List<Character> cs;
    Letters(List<Character> cs) { this.cs = cs; }
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Letters of(String s) { List raw = new ArrayList(); for (char c : s.toCharArray()) raw.add(String.valueOf(c)); return new Letters(raw); }
    @Override public boolean equals(Object o) { return o instanceof Letters l && l.cs.equals(cs); }
    @Override public int hashCode() { return cs.hashCode(); }
}
"""
DATA_ERASURE_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class CountsTest {
    @Test void counts() { assertEquals(new Counts(Map.of("a", 2, "b", 1)), Counts.of("a b a")); }
    @Test void letters() { assertEquals(new Letters(List.of('a', 'b')), Letters.of("ab")); }
}
"""
THIRD = {"data_equals": (DATA_EQUALS, DATA_EQUALS_TESTS), "data_kinds": (DATA_KINDS, DATA_KINDS_TESTS),
         "data_erasure": (DATA_ERASURE, DATA_ERASURE_TESTS)}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(WRONG) + sorted(SECOND) + sorted(THIRD))
async def test_a_wrong_program_fails_every_test_real_junit_fails(sandbox: DockerSandbox, name: str) -> None:
    """The first review's programs (``WRONG``), the second's (``SECOND``) and the third's (``THIRD``)."""
    program, tests = {**WRONG, **SECOND, **THIRD}[name]
    suite = split_tests("java", tests, program)
    report = await run_suite(sandbox, "java", program, suite, timeout=120)
    assert report.loaded, report.load_error
    assert suite.units and not any(report.passed), report.reasons
    assert not report.tampering
