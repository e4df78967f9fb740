// JUnit's assertions for tests written against JUnit 4 or 5: the generated test main extends this class.
package sejury;

import java.util.*;
public class SejuryAssert {
  public static class Never extends RuntimeException {}  // what a test's `catch (AssertionError e)` is made to catch
  public static String show(Object o) { return o instanceof Object[] a ? Arrays.deepToString(a) : String.valueOf(o); }
  public static boolean same(Object a, Object b) {
    if (a instanceof Object[] x && b instanceof Object[] y) return Arrays.deepEquals(x, y);
    if (a instanceof Number x && b instanceof Number y && !(a instanceof Double || a instanceof Float
        || b instanceof Double || b instanceof Float)) return x.longValue() == y.longValue();
    return a == null ? b == null : a.equals(b);  // as JUnit: equals even on one object (no == first)
  }
  public static void fail(String m) { throw new AssertionError(m); }
  public static void fail() { fail("failed"); }
  public static void assertEquals(Object e, Object a) { if (!same(e, a)) fail("expected " + show(e) + " but was " + show(a)); }
  public static void assertEquals(String m, Object e, Object a) { if (!same(e, a)) fail(m + ": expected " + show(e) + " but was " + show(a)); }
  public static void assertEquals(Object e, Object a, String m) { assertEquals(m, e, a); }
  public static void assertEquals(long e, long a) { if (e != a) fail("expected " + e + " but was " + a); }
  public static void assertEquals(double e, double a, double d) { if (Math.abs(e - a) > d) fail("expected " + e + " but was " + a); }
  public static void assertEquals(double e, double a) { assertEquals(e, a, 1e-9); }
  // a number written plainly against a boxed one (assertEquals(0, pair.getValue0()) on a
  // Pair<Integer, Integer>): JUnit's overloads make it ambiguous, so such a test never compiles;
  // these are exact matches without boxing, so javac picks them first.  Compared by value.
  public static boolean sameNumber(double e, boolean whole, Number a) {
    return a != null && (whole && !(a instanceof Double || a instanceof Float) ? (long) e == a.longValue()
                                                                                : Math.abs(e - a.doubleValue()) <= 1e-9);
  }
  public static void assertEquals(long e, Number a) { if (!sameNumber(e, true, a)) fail("expected " + e + " but was " + a); }
  public static void assertEquals(Number e, long a) { if (!sameNumber(a, true, e)) fail("expected " + e + " but was " + a); }
  public static void assertEquals(double e, Number a) { if (!sameNumber(e, false, a)) fail("expected " + e + " but was " + a); }
  public static void assertEquals(Number e, double a) { if (!sameNumber(a, false, e)) fail("expected " + e + " but was " + a); }
  public static void assertNotEquals(Object e, Object a) { if (same(e, a)) fail("expected a value other than " + show(e)); }
  public static void assertTrue(boolean c) { if (!c) fail("expected true"); }
  public static void assertTrue(String m, boolean c) { if (!c) fail(m); }
  public static void assertTrue(boolean c, String m) { if (!c) fail(m); }
  public static void assertFalse(boolean c) { if (c) fail("expected false"); }
  public static void assertFalse(String m, boolean c) { if (c) fail(m); }
  public static void assertFalse(boolean c, String m) { if (c) fail(m); }
  public static void assertNull(Object o) { if (o != null) fail("expected null but was " + show(o)); }
  public static void assertNotNull(Object o) { if (o == null) fail("expected a value but was null"); }
  public static void assertSame(Object e, Object a) { if (e != a) fail("expected the same object as " + show(e) + " but was " + show(a)); }
  public static void assertSame(Object e, Object a, String m) { if (e != a) fail(m); }
  public static void assertNotSame(Object e, Object a) { if (e == a) fail("expected another object than " + show(a)); sejuryNotSame(e, a); }
  public static void assertNotSame(Object e, Object a, String m) { if (e == a) fail(m); sejuryNotSame(e, a); }
  static void sejuryNotSame(Object e, Object a) {}  // the sealed harness's: Sejury.notSame
  public interface Executable { void execute() throws Throwable; }
  public static <T extends Throwable> T assertThrows(Class<T> type, Executable run) {
    try { run.execute(); } catch (Throwable t) {
      if (type.isInstance(t)) return type.cast(t);
      fail("expected " + type.getSimpleName() + " but " + t + " was thrown");
    }
    fail("expected " + type.getSimpleName() + " but nothing was thrown");
    return null;
  }
  public static void assertArrayEquals(Object[] e, Object[] a) { if (!Arrays.deepEquals(e, a)) fail("expected " + show(e) + " but was " + show(a)); }
  public static void assertArrayEquals(long[] e, long[] a) { if (!Arrays.equals(e, a)) fail("expected " + Arrays.toString(e) + " but was " + Arrays.toString(a)); }
  public static void assertArrayEquals(int[] e, int[] a) { if (!Arrays.equals(e, a)) fail("expected " + Arrays.toString(e) + " but was " + Arrays.toString(a)); }
  public static void assertArrayEquals(double[] e, double[] a, double d) {
    if (e.length != a.length) fail("lengths differ");
    for (int i = 0; i < e.length; i++) assertEquals(e[i], a[i], d);
  }
  // differential testing: the value of a call, shown alike for reference and candidate, returned unchanged
  public static String sejuryShow(Object o) {
    if (o == null) return "null";
    if (o instanceof Double || o instanceof Float) return String.format("%.6g", ((Number) o).doubleValue());
    if (o instanceof String s) return "\"" + s + "\"";
    if (o instanceof Character c) return "'" + c + "'";
    List<String> parts = new ArrayList<>();
    if (o.getClass().isArray()) {
      for (int i = 0; i < java.lang.reflect.Array.getLength(o); i++) parts.add(sejuryShow(java.lang.reflect.Array.get(o, i)));
      return "[" + String.join(", ", parts) + "]";
    }
    if (o instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) parts.add(sejuryShow(e.getKey()) + "=" + sejuryShow(e.getValue()));
      Collections.sort(parts);
      return "{" + String.join(", ", parts) + "}";
    }
    if (o instanceof Iterable<?> it) {
      for (Object x : it) parts.add(sejuryShow(x));
      if (o instanceof Set<?>) Collections.sort(parts);
      return "[" + String.join(", ", parts) + "]";
    }
    if (o instanceof Optional<?> op) return op.isPresent() ? "Optional[" + sejuryShow(op.get()) + "]" : "Optional.empty";
    return String.valueOf(o);
  }
  public static int sejuryUnit = -1, sejuryAuto = 0;  // the unit running, and its helpers' calls recorded so far
  public static void sejuryPrint(int i, int k, String s) {
    if (i < 0) { i = sejuryUnit; k = 1000 + sejuryAuto++; }  // a helper's call, under the running unit
    s = s.replace("\n", "\\n");
    System.out.println("@@V " + i + " " + k + " " + (s.length() > 1000 ? s.substring(0, 1000) : s) + "|" + s.length());
  }
  public static <T> T sejury_rec(int i, int k, T v) { sejuryPrint(i, k, sejuryShow(v)); return v; }
  public static long sejury_rec(int i, int k, long v) { sejuryPrint(i, k, String.valueOf(v)); return v; }
  public static int sejury_rec(int i, int k, int v) { sejuryPrint(i, k, String.valueOf(v)); return v; }
  public static double sejury_rec(int i, int k, double v) { sejuryPrint(i, k, sejuryShow(v)); return v; }
  public static float sejury_rec(int i, int k, float v) { sejuryPrint(i, k, sejuryShow(v)); return v; }
  public static boolean sejury_rec(int i, int k, boolean v) { sejuryPrint(i, k, String.valueOf(v)); return v; }
  public static char sejury_rec(int i, int k, char v) { sejuryPrint(i, k, sejuryShow(v)); return v; }
}
