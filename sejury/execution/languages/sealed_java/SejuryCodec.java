// The sealed Java harness's plain data (JDK only), compiled into both sides: values travel as
// JSON-like text, written by their runtime kind (numbers, booleans, characters, strings, collections,
// maps, optionals, arrays, javatuples) and read back by the declared (generic) type.
package sejury;

import java.lang.reflect.*;
import java.util.*;

public final class SejuryCodec {
  private SejuryCodec() {}

  // the program's objects travel as handles, ``@<id>:<class>``: each side says how it writes one
  // (null: not such an object) and reads one back for a declared type (Sejury.java, SejuryServer.java)
  public interface Handles {
    String write(Object v);

    Object read(int id, String cls, Type declared) throws Exception;
  }

  public static Handles handles;

  public static Class<?> raw(Type t) {
    if (t instanceof Class) return (Class<?>) t;
    if (t instanceof ParameterizedType) return (Class<?>) ((ParameterizedType) t).getRawType();
    return Object.class;
  }

  // a value as the two sides compare objects' fields (``SejuryServer.state``, ``Sejury.known``): a set's
  // or a map's elements in one order whatever the order they iterate in, at every depth, and a set, a
  // map and an optional each written as its kind
  public static String canonical(Object v) {
    String h = v == null || handles == null ? null : handles.write(v);  // (an object of the program's, as the side writes it)
    if (h != null) return h;
    if (v instanceof Set || v instanceof Map) {
      List<String> parts = new ArrayList<>();
      if (v instanceof Set) for (Object x : (Set<?>) v) parts.add(canonical(x));
      else for (Map.Entry<?, ?> x : ((Map<?, ?>) v).entrySet())
        parts.add("[" + canonical(x.getKey()) + "," + canonical(x.getValue()) + "]");
      Collections.sort(parts);
      return (v instanceof Set ? "s[" : "m[") + String.join(",", parts) + "]";
    }
    if (v instanceof Optional) return "o[" + (((Optional<?>) v).isPresent() ? canonical(((Optional<?>) v).get()) : "") + "]";
    // a boxed value with its kind (an Integer is not equal to a Long of the same value, nor a
    // Character to a String: a raw list can hold either)
    if (v instanceof Long) return v + "L";
    if (v instanceof Short) return v + "S";
    if (v instanceof Byte) return v + "B";
    if (v instanceof Float) return enc(v) + "F";
    if (v instanceof Character) return "c" + enc(v);
    if (v instanceof Iterable || (v != null && v.getClass().isArray())) {
      StringBuilder b = new StringBuilder("[");
      if (v instanceof Iterable) for (Object x : (Iterable<?>) v) b.append(b.length() > 1 ? "," : "").append(canonical(x));
      else for (int i = 0; i < Array.getLength(v); i++) b.append(i > 0 ? "," : "").append(canonical(Array.get(v, i)));
      return b.append(']').toString();
    }
    return enc(v);
  }

  public static String enc(Object v) {
    StringBuilder o = new StringBuilder();
    enc(o, v);
    return o.toString();
  }

  static void str(StringBuilder o, String s) {
    o.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') o.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) o.append(String.format("\\u%04x", (int) c));
      else o.append(c);
    }
    o.append('"');
  }

  static void enc(StringBuilder o, Object v) {
    if (v == null) { o.append("null"); return; }
    if (v instanceof Boolean) { o.append(v); return; }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) { o.append(v); return; }
    if (v instanceof Double || v instanceof Float) { o.append(Double.toString(((Number) v).doubleValue())); return; }
    if (v instanceof Character || v instanceof String) { str(o, v.toString()); return; }
    if (v instanceof Optional) {
      Optional<?> op = (Optional<?>) v;
      if (op.isEmpty()) o.append("null");
      else { o.append('['); enc(o, op.get()); o.append(']'); }
      return;
    }
    if (v instanceof Map) {
      o.append('[');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) o.append(',');
        first = false;
        o.append('['); enc(o, e.getKey()); o.append(','); enc(o, e.getValue()); o.append(']');
      }
      o.append(']');
      return;
    }
    if (v instanceof Iterable) {
      o.append('[');
      boolean first = true;
      for (Object x : (Iterable<?>) v) { if (!first) o.append(','); first = false; enc(o, x); }
      o.append(']');
      return;
    }
    if (v.getClass().isArray()) {
      o.append('[');
      int n = Array.getLength(v);
      for (int i = 0; i < n; i++) { if (i > 0) o.append(','); enc(o, Array.get(v, i)); }
      o.append(']');
      return;
    }
    String h = handles == null ? null : handles.write(v);
    if (h != null) { o.append(h); return; }
    throw new IllegalArgumentException("not plain data: " + v.getClass().getName());
  }

  static Object handle(In in, Type t) throws Exception {
    in.expect('@');
    int j = in.i;
    while (j < in.s.length() && Character.isDigit(in.s.charAt(j))) j++;
    int id = Integer.parseInt(in.s.substring(in.i, j));
    in.i = j;
    in.expect(':');
    j = in.i;
    while (j < in.s.length() && (Character.isJavaIdentifierPart(in.s.charAt(j)) || in.s.charAt(j) == '.')) j++;
    String cls = in.s.substring(in.i, j);
    in.i = j;
    if (handles == null || cls.isEmpty()) throw new IllegalArgumentException("not plain data: " + cls);
    return handles.read(id, cls, t);
  }

  public static final class In {
    final String s;
    int i = 0;

    public In(String s) { this.s = s; }

    char peek() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
      return i < s.length() ? s.charAt(i) : '\0';
    }

    void expect(char c) {
      if (peek() != c) throw new IllegalArgumentException("malformed value: expected " + c + " at " + i);
      i++;
    }

    String word() {
      peek();
      int j = i;
      while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || "+-.".indexOf(s.charAt(j)) >= 0)) j++;
      String w = s.substring(i, j);
      i = j;
      if (w.isEmpty()) throw new IllegalArgumentException("malformed value at " + i);
      return w;
    }

    String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (i < s.length() && s.charAt(i) != '"') {
        char c = s.charAt(i++);
        if (c == '\\' && i < s.length()) {
          char e = s.charAt(i++);
          if (e == 'u') { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
          else b.append(e);
        } else b.append(c);
      }
      expect('"');
      return b.toString();
    }

    List<Object> items(Type t) throws Exception {
      List<Object> out = new ArrayList<>();
      expect('[');
      if (peek() == ']') { i++; return out; }
      for (;;) {
        out.add(dec(this, t));
        if (peek() == ',') { i++; continue; }
        expect(']');
        return out;
      }
    }
  }

  static Object guess(In in) throws Exception {  // a value of no declared type: its own shape
    char c = in.peek();
    if (c == '"') return in.string();
    if (c == '[') return new ArrayList<>(in.items(Object.class));
    String w = in.word();
    if (w.equals("null")) return null;
    if (w.equals("true") || w.equals("false")) return Boolean.valueOf(w);
    if (w.matches("-?\\d+")) return Long.valueOf(w);
    return Double.valueOf(w);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object dec(In in, Type t) throws Exception {
    if (in.peek() == '@') return handle(in, t);
    if (t instanceof Class) {
      Class<?> c = (Class<?>) t;
      if (c.isPrimitive() || Number.class.isAssignableFrom(c) || c == Boolean.class || c == Character.class
          || c == String.class) {
        if (!c.isPrimitive() && in.peek() == 'n') { in.word(); return null; }
        if (c == String.class) return in.string();
        if (c == char.class || c == Character.class) { String s = in.string(); return s.isEmpty() ? '\0' : s.charAt(0); }
        String w = in.word();
        if (c == boolean.class || c == Boolean.class) return Boolean.valueOf(w);
        if (c == long.class || c == Long.class) return Long.valueOf(w);
        if (c == int.class || c == Integer.class) return Integer.valueOf(w);
        if (c == short.class || c == Short.class) return Short.valueOf(w);
        if (c == byte.class || c == Byte.class) return Byte.valueOf(w);
        if (c == double.class || c == Double.class) return Double.valueOf(w);
        if (c == float.class || c == Float.class) return Float.valueOf(w);
        throw new IllegalArgumentException("no reading for " + c);
      }
      if (c.isArray()) {
        if (in.peek() == 'n') { in.word(); return null; }
        List<Object> xs = in.items(c.getComponentType());
        Object a = Array.newInstance(c.getComponentType(), xs.size());
        for (int k = 0; k < xs.size(); k++) Array.set(a, k, xs.get(k));
        return a;
      }
      if (c == Object.class) return guess(in);
      return build(in, c, new Type[0]);
    }
    if (t instanceof ParameterizedType) {
      ParameterizedType p = (ParameterizedType) t;
      return build(in, (Class<?>) p.getRawType(), p.getActualTypeArguments());
    }
    return guess(in);  // a type variable or a wildcard
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Object build(In in, Class<?> raw, Type[] args) throws Exception {
    Type a0 = args.length > 0 ? args[0] : Object.class, a1 = args.length > 1 ? args[1] : Object.class;
    if (raw == Optional.class) {
      if (in.peek() == 'n') { in.word(); return Optional.empty(); }
      in.expect('[');
      Object v = dec(in, a0);
      in.expect(']');
      return Optional.ofNullable(v);
    }
    if (in.peek() == 'n') { in.word(); return null; }
    if (Map.class.isAssignableFrom(raw)) {
      Map m = raw.isInterface() ? (SortedMap.class.isAssignableFrom(raw) ? new TreeMap() : new LinkedHashMap())
          : (Map) raw.getDeclaredConstructor().newInstance();
      in.expect('[');
      if (in.peek() == ']') { in.i++; return m; }
      for (;;) {
        in.expect('[');
        Object k = dec(in, a0);
        in.expect(',');
        Object v = dec(in, a1);
        in.expect(']');
        m.put(k, v);
        if (in.peek() == ',') { in.i++; continue; }
        in.expect(']');
        return m;
      }
    }
    if (raw.getName().startsWith("org.javatuples.")) {
      in.expect('[');
      List<Object> xs = new ArrayList<>();
      for (int k = 0; k < args.length; k++) {
        if (k > 0) in.expect(',');
        xs.add(dec(in, args[k]));
      }
      in.expect(']');
      for (Constructor<?> ctor : raw.getConstructors())
        if (ctor.getParameterCount() == xs.size()) return ctor.newInstance(xs.toArray());
      throw new IllegalArgumentException("no constructor for " + raw);
    }
    if (Collection.class.isAssignableFrom(raw) || raw == Iterable.class) {
      Collection c;
      if (!raw.isInterface() && !java.lang.reflect.Modifier.isAbstract(raw.getModifiers()))
        c = (Collection) raw.getDeclaredConstructor().newInstance();
      else if (SortedSet.class.isAssignableFrom(raw)) c = new TreeSet();
      else if (Set.class.isAssignableFrom(raw)) c = new LinkedHashSet();  // (the other side's order)
      else if (Queue.class.isAssignableFrom(raw)) c = new ArrayDeque();
      else c = new ArrayList();
      c.addAll(in.items(a0));
      return c;
    }
    throw new IllegalArgumentException("no reading for " + raw.getName());
  }
}
