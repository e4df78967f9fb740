"""Which of a Java program's classes the checker makes itself (``_java_data``): only where making one
runs none of the program's code and its fields are the constructor's arguments, as data."""

from __future__ import annotations

# ruff: noqa: E501 - the Java programs are kept as written
from sejury.execution.languages._java_data import data_classes
from sejury.execution.languages._java_stubs import _top_level, cleaned, object_stubs, stubs


def _data(program: str) -> dict[str, tuple[str, bool, bool]]:
    found = data_classes(list(_top_level(cleaned(program))))
    return {n: (d.equality, d.immutable, d.hashed) for n, d in found.items()}


def test_data_classes_are_those_made_by_their_arguments_alone() -> None:
    program = """import java.util.*;
record Point(int x, int y) { Point plus(Point o) { return new Point(x + o.x, y + o.y); } }
class Money { private final int cents; Money(int cents) { this.cents = cents; }
    @Override public boolean equals(Object o) { return o instanceof Money m && m.cents == cents; }
    @Override public int hashCode() { return cents; } }
class Node { final int val; final Node next;
    Node(int val, Node next) { this.val = val; this.next = next; }
    Node(int v) { val = v; next = null; } }
class Box { private int v; private final List<String> tags; Box(int v, List<String> tags) { this.v = v; this.tags = tags; } }
class Tag { final String name; Tag(String n) { name = n; } public boolean equals(Object o) { return false; } }
class Empty { private int n; void inc() { n++; } }
"""
    # (Node's second constructor assigns a literal: not a parameter, so not a data class's)
    assert _data(program) == {"Point": ("record", True, True), "Money": ("own", True, True),
                              "Box": ("identity", False, False), "Tag": ("own", True, False),
                              "Empty": ("identity", False, False)}


def test_a_class_whose_making_runs_its_code_is_the_programs() -> None:
    program = """import java.util.*;
class Kept { static final List<Kept> ALL = new ArrayList<>(); final int v; Kept(int v) { this.v = v; ALL.add(this); } }
class Init { final int v; int w = 3; Init(int v) { this.v = v; } }
class Block { final int v; { System.out.println(); } Block(int v) { this.v = v; } }
class Gcd { final int n, d; Gcd(int n, int d) { int g = 1; this.n = n / g; this.d = d; } }
class Base { final int v; Base(int v) { this.v = v; } }
class Sub extends Base { Sub(int v) { super(v); } }
class Arr { final int[] xs; Arr(int[] xs) { this.xs = xs; } }
class Obj { final Object o; Obj(Object o) { this.o = o; } }
class Widen { final long v; Widen(int v) { this.v = v; } }
class Twice { final int a, b; Twice(int a) { this.a = a; this.b = a; } }
class Gen<T> { final T v; Gen(T v) { this.v = v; } }
class Throws { final int v; Throws(int v) throws Exception { this.v = v; } }
class Varargs { final int v; Varargs(int v, String... notes) { this.v = v; } }
class Uses { final Kept k; Uses(Kept k) { this.k = k; } }
record Checked(int a) { Checked { if (a < 0) throw new IllegalArgumentException(); } }
record Canonical(int a) { Canonical(int a) { this.a = Math.abs(a); } }
record Poly(int[] c) {}
abstract class Abs { final int v; Abs(int v) { this.v = v; } }
class Exits { final int v; static { System.exit(1); } Exits(int v) { this.v = v; } }
class Generic { int v; public <T> Generic() { v = 42; } }
record Loud(int a) { static { System.exit(1); } }
class Lambda { private final Comparator<String> order = (a, b) -> { return a.compareTo(b); }; final String name; Lambda(String name) { this.name = name; } }
class Objects { final List<Object> xs; Objects(List<Object> xs) { this.xs = xs; } }
class Opt { final List<Optional<String>> xs; Opt(List<Optional<String>> xs) { this.xs = xs; } }
enum E { A }
"""
    assert _data(program) == {}


def test_a_unicode_escape_or_comment_does_not_hide_code_from_the_reading() -> None:
    # ``\\u003b`` is a ``;`` to javac: the constructor runs ``ALL.add(this)`` after the assignment
    program = "import java.util.*;\nclass K { static List<K> ALL = new ArrayList<>(); final int v;\n" \
              "  K(int v) { this.v = v\\u003b ALL.add(this); } }\n" \
              "class C { final int v; C(int v) { this.v = v; /* ; ALL.add(this) */ } }\n"
    assert _data(program) == {"C": ("identity", True, False)}


def test_a_data_class_stub_keeps_the_tests_object_until_the_program_needs_it() -> None:
    stub = object_stubs("class Money { private final int cents; private String note;\n"
                        "  Money(int cents) { this.cents = cents; }\n  Money add(Money o) { return null; } }\n")
    assert 'new Sejury.Shape("Money", "identity", false, false, new String[]{"cents", "note"})' in stub
    # the field the constructor leaves alone has its type's default
    assert 'Money(int cents) { this(Sejury.local(sejuryData, "int", new Object[]{cents}, new Object[]{cents, null})); }' in stub
    assert 'Sejury.call("Money", "add(Money)", this,' in stub


def test_a_nested_record_or_enum_is_no_method() -> None:
    """``record R(int a, String b) {}`` inside a class was read as a method ``R`` returning ``record``:
    its stub did not compile, and no test of the suite either (the review's ``ks_c``)."""
    program = ("public class Solution {\n    record R(int a, String b) {}\n    enum E { A, B }\n"
               "    public static int g(int n) { return new R(n, \"x\").a(); }\n}\n")
    for text in (stubs(program), object_stubs(program)):
        assert "record R" not in text and "(record)" not in text and "g(int n)" in text, text
