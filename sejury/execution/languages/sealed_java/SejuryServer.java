// The sealed Java harness's program side: it answers calls read from stdin (a class, a method, static
// or not, the arity and the arguments) with the returned value by its runtime kind, or the exception.
// It sees no test and no expected value; what the program prints goes nowhere.
package sejury;

import java.io.*;
import java.lang.reflect.*;
import java.util.*;

public class SejuryServer {
  public static void main(String[] argv) throws Exception {
    BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    System.setErr(new PrintStream(OutputStream.nullOutputStream()));
    System.setIn(new ByteArrayInputStream(new byte[0]));
    answers.println("ready");
    String line;
    while ((line = requests.readLine()) != null) {
      String[] f = line.split("\t", 5);
      String out;
      try {
        out = serve(f[0], f[1], f[2], Integer.parseInt(f[3]), f[4]);
      } catch (InvocationTargetException e) {
        Throwable c = e.getCause();  // an exception of the program's class crosses as its handle
        String what = c.getClass().getName();
        if (own(c.getClass())) {  // its handle, and its nearest class of the JDK's (for a class with no stub)
          Class<?> jdk = c.getClass();
          while (own(jdk)) jdk = jdk.getSuperclass();
          what = SejuryCodec.handles.write(c) + "|" + jdk.getName();
        }
        out = "!" + what + (c.getMessage() == null ? "" : ": " + c.getMessage());
      } catch (HarnessError e) {  // the harness's own failure here: never an exception a test expects
        out = "!!" + e.getMessage();
      } catch (Throwable e) {
        out = "!" + e.getClass().getName() + ": " + e.getMessage();
      }
      answers.println(out.replace('\n', ' ').replace('\r', ' '));
    }
  }

  // the program's objects the tests hold handles of, by id (``@<id>:<class>`` in the codec)
  static final List<Object> OBJECTS = new ArrayList<>();
  static final IdentityHashMap<Object, Integer> IDS = new IdentityHashMap<>();
  static final int MAX_OBJECTS = 100000;
  static IdentityHashMap<Object, Boolean> stating;  // ``#state``: the objects being written (cycles)

  static boolean own(Class<?> c) {  // a class of the program's (the default package), not the harness's
    return c != null && !c.isArray() && c.getPackageName().isEmpty() && !c.getName().startsWith("Sejury")
        && c.getClassLoader() == ClassLoader.getSystemClassLoader();
  }

  static {
    SejuryCodec.handles = new SejuryCodec.Handles() {
      public String write(Object v) {
        if (!own(v.getClass())) return null;
        // (``#state``: an object in a field by its fields, or, where its class has no equals, by which object it is)
        if (stating != null) return defines(v.getClass()) ? state(v) : "@object " + idOf(v);
        return "@" + idOf(v) + ":" + v.getClass().getName();
      }

      public Object read(int id, String cls, Type declared) {
        Object o = id >= 0 && id < OBJECTS.size() ? OBJECTS.get(id) : null;
        if (o == null || !SejuryCodec.raw(declared).isInstance(o)) throw new IllegalArgumentException("no such object");
        return o;
      }
    };
  }

  static int idOf(Object v) {
    Integer id = IDS.get(v);
    if (id == null) {
      if (OBJECTS.size() >= MAX_OBJECTS) throw new IllegalStateException("more than " + MAX_OBJECTS + " objects");
      id = OBJECTS.size();
      OBJECTS.add(v);
      IDS.put(v, id);
    }
    return id;
  }

  // an object's fields as data (its classes' own fields by name, the program's objects in them likewise),
  // after "E" where the program's class defines equals (or is a record), else "I"; the checker writes
  // a data class's object it made itself the same way (``Sejury.known``)
  static String state(Object o) {
    boolean top = stating == null;
    if (top) stating = new IdentityHashMap<>();
    try {
      if (stating.containsKey(o)) return "@cycle";  // (not a string: no value of the program's writes so)
      stating.put(o, true);
      StringBuilder b = new StringBuilder("[\"" + o.getClass().getName() + "\"");
      List<Field> fields = new ArrayList<>();
      for (Class<?> c = o.getClass(); own(c); c = c.getSuperclass())
        for (Field f : c.getDeclaredFields())
          if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) fields.add(f);
      fields.sort(Comparator.comparing(Field::getName));
      for (Field f : fields) {
        f.setAccessible(true);
        Object v = f.get(o);
        String e;
        try {
          e = SejuryCodec.canonical(v);
        } catch (IllegalArgumentException x) {  // a value that is not data: its class and text
          e = SejuryCodec.enc(v.getClass().getName() + ":" + v);
        }
        b.append(",[").append(SejuryCodec.enc(f.getName())).append(',').append(e).append(']');
      }
      stating.remove(o);  // (an object met twice, not within itself, is written twice)
      String written = b.append(']').toString();
      return top ? (defines(o.getClass()) ? "E" : "I") + written : written;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } finally {
      if (top) stating = null;
    }
  }

  static boolean defines(Class<?> c) {
    for (; own(c); c = c.getSuperclass()) {
      if (c.isRecord()) return true;
      try {
        c.getDeclaredMethod("equals", Object.class);
        return true;
      } catch (NoSuchMethodException e) {
        // the class above, then
      }
    }
    return false;
  }

  // of the program's constructors or methods of ``arity``: the one whose parameters' simple type names
  // are ``params`` (a stub's call names them: overloads of one arity), else the first
  static <T extends Executable> T pick(List<T> found, String params) {
    for (T x : found) {
      StringBuilder b = new StringBuilder();
      for (Class<?> p : x.getParameterTypes()) b.append(b.length() > 0 ? "," : "").append(p.getSimpleName());
      if (b.toString().equals(params)) return x;
    }
    return found.isEmpty() ? null : found.get(0);
  }

  static String serve(String cls, String called, String mode, int arity, String args) throws Exception {
    int open = called.indexOf('(');
    String name = open < 0 ? called : called.substring(0, open);
    String params = open < 0 ? null : called.substring(open + 1, called.length() - 1);
    Class<?> c = Class.forName(cls);
    if (!own(c)) throw new ClassNotFoundException(cls);
    Object self = null;
    try {
      if (mode.startsWith("@")) self = SejuryCodec.handles.read(Integer.parseInt(mode.substring(1)), cls, c);
    } catch (IllegalArgumentException e) {
      throw new HarnessError("no such object of the program's");
    }
    if (name.equals("#state") && self != null) {  // (without an object: a static field named state)
      try {
        return "[" + SejuryCodec.enc(state(self)) + "]";
      } catch (RuntimeException | StackOverflowError e) {
        throw new HarnessError("the object's fields cannot be read as data: " + e);
      }
    }
    if (name.equals("#show") && self != null) return "[" + SejuryCodec.enc(String.valueOf(self)) + "]";
    if (name.equals("#hash") && self != null) return "[" + self.hashCode() + "]";
    if (name.equals("#equals") && self != null) return "[" + self.equals(values(args, new Type[]{Object.class})[0]) + "]";
    if (name.equals("#message") && self instanceof Throwable) return "[" + SejuryCodec.enc(((Throwable) self).getMessage()) + "]";
    if (name.startsWith("#")) {  // a static field's value
      Field f = c.getDeclaredField(name.substring(1));
      if (!Modifier.isStatic(f.getModifiers())) throw new NoSuchFieldException(name.substring(1));
      f.setAccessible(true);
      return answer(f.get(null));
    }
    if (name.equals("<init>")) {  // a new object by the constructor of this arity
      List<Constructor<?>> ks = new ArrayList<>();
      for (Constructor<?> k : c.getDeclaredConstructors()) if (k.getParameterCount() == arity && !k.isSynthetic()) ks.add(k);
      Constructor<?> k = pick(ks, params);
      if (k == null) throw new NoSuchMethodException(cls + ".<init>");
      k.setAccessible(true);
      return "[" + SejuryCodec.handles.write(k.newInstance(values(args, k.getGenericParameterTypes()))) + "]";
    }
    boolean isStatic = mode.equals("1");
    List<Method> ms = new ArrayList<>();
    for (Method x : c.getDeclaredMethods())
      if (x.getName().equals(name) && x.getParameterCount() == arity && Modifier.isStatic(x.getModifiers()) == isStatic
          && !x.isSynthetic() && !x.isBridge())
        ms.add(x);
    Method m = pick(ms, params);
    if (m == null) throw new NoSuchMethodException(cls + "." + name);
    m.setAccessible(true);
    Object[] vals = values(args, m.getGenericParameterTypes());
    Object target = self;
    if (!isStatic && target == null) {
      Constructor<?> ctor = c.getDeclaredConstructor();
      ctor.setAccessible(true);
      target = ctor.newInstance();
    }
    Object r = m.invoke(target, vals);
    return m.getReturnType() == void.class ? "[]" : answer(r);
  }

  static final class HarnessError extends Exception {
    HarnessError(String why) { super(why); }
  }

  static String answer(Object r) throws HarnessError {
    try {
      return "[" + SejuryCodec.enc(r) + "]";
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new HarnessError("an answer the harness cannot send: " + e.getMessage());
    }
  }

  static Object[] values(String args, Type[] types) throws Exception {
    SejuryCodec.In in = new SejuryCodec.In(args);
    Object[] vals = new Object[types.length];
    try {
      in.expect('[');
      for (int k = 0; k < types.length; k++) {
        if (k > 0) in.expect(',');
        vals[k] = SejuryCodec.dec(in, types[k]);
      }
      in.expect(']');
    } catch (Exception e) {
      throw new HarnessError("arguments the harness cannot read: " + e.getMessage());
    }
    return vals;
  }
}
