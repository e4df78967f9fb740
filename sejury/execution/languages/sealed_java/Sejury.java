// The sealed Java harness's checker runtime (JDK only): the run's key, authenticated result lines
// (HMAC-SHA256), and the program's process, which the stubs of its methods call.  Before the tests
// run it loads every class of its own and deletes them with their sources, so the program finds
// neither the tests nor their expected values on disk.
package sejury;

import java.io.*;
import java.lang.reflect.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class Sejury {
  private Sejury() {}

  static byte[] key = new byte[0];
  static int seq = 0;
  static Process server;
  static Writer toServer;
  static BlockingQueue<String> lines;
  // the harness's own failure in the unit running (the program's process ended, hung or did not
  // start): it fails the unit even if the test caught it (assertThrows(Exception.class, ...), catch Throwable)
  static String fault;

  static RuntimeException fault(String why) {
    if (fault == null) fault = why;
    return new RuntimeException(why);
  }

  static String setupFault;
  static boolean begun;

  // a unit starts with the suite's setup's fault, if it had one (its values may come from that call)
  public static void begin() {
    if (!begun) { setupFault = fault; begun = true; }
    fault = setupFault;
    if (asked) { asked = false; kill(); }
  }

  // the unit gave the program one of the test's own objects (the test handed it over, or a check asked
  // the program's equals about it): the next unit runs in a new process, which has not seen it, so no
  // later test's expected value can be a copy of it
  static boolean asked;

  public static void passed(int i) {
    emit(fault == null ? "@@T " + i + " PASS" : "@@T " + i + " FAIL java.lang.RuntimeException: " + fault);
  }

  public static synchronized void emit(String line) {
    line = line.replace('\n', ' ').replace('\r', ' ');
    String mac;
    try {
      Mac h = Mac.getInstance("HmacSHA256");
      h.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] d = h.doFinal((seq + "|" + line).getBytes(StandardCharsets.UTF_8));
      StringBuilder b = new StringBuilder();
      for (byte x : d) b.append(String.format("%02x", x));
      mac = b.substring(0, 32);
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
    System.out.println("@@M " + seq + " " + mac + " " + line);
    System.out.flush();
    seq++;
  }

  public static void kill() {
    if (server != null) server.destroyForcibly();
    server = null;
    gen++;  // the objects of the process are gone with it: their handles are stale
    STUBS.clear();
  }

  static boolean start() {
    try {
      ProcessBuilder pb = new ProcessBuilder("java", "-Xss16m", "-XX:+UseSerialGC", "-cp",
          "srv:/usr/share/java/javatuples.jar", "sejury.SejuryServer");
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      BlockingQueue<String> q = new LinkedBlockingQueue<>();
      BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      Thread t = new Thread(() -> {
        try {
          String l;
          while ((l = r.readLine()) != null) q.add(l);
        } catch (IOException e) {
          // the program's process ended
        }
        q.add("\0end");
      });
      t.setDaemon(true);
      t.start();
      server = p;
      lines = q;
      toServer = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
      String ready = q.poll(30, TimeUnit.SECONDS);
      if (!"ready".equals(ready)) { kill(); return false; }
      return true;
    } catch (Exception e) {
      kill();
      return false;
    }
  }

  // a method of the program's class, static or on a fresh object (the stubs that keep no object)
  public static Object call(String cls, String name, boolean isStatic, Object[] args, Type ret) {
    return ask(cls, name, isStatic ? "1" : "0", args, ret);
  }

  // a method of the program's class: static (``self`` null) or on the program's object ``self`` stands
  // for; ``#NAME`` reads a static field, ``#state`` and ``#show`` what ``same`` and ``show`` need
  public static Object call(String cls, String name, Object self, Object[] args, Type ret) {
    return ask(cls, name, self == null ? "1" : "@" + refOf(self).id, args, ret);
  }

  static synchronized Object ask(String cls, String name, String mode, Object[] args, Type ret) {
    if (server == null && !start()) throw fault("the program's process did not start");
    // the harness's own failures (an argument it cannot send, an answer it cannot read) are faults:
    // never an exception a test expects (assertThrows(IllegalArgumentException.class, ...))
    StringBuilder a = new StringBuilder("[");
    try {
      for (int k = 0; k < args.length; k++) {
        if (k > 0) a.append(',');
        a.append(SejuryCodec.enc(args[k]));
      }
    } catch (IllegalArgumentException | ClassCastException e) {
      throw fault("an argument the harness cannot send to the program's process: " + e.getMessage());
    }
    a.append(']');
    String reply;
    try {
      toServer.write(cls + "\t" + name + "\t" + mode + "\t" + args.length + "\t" + a + "\n");
      toServer.flush();
      reply = lines.poll(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      kill();
      throw fault("the program's process ended");
    }
    if (reply == null) { kill(); throw fault("test took too long"); }
    if (reply.equals("\0end")) { kill(); throw fault("the program's process ended during the call"); }
    if (reply.startsWith("!@")) {  // an exception of the program's class: its stub, thrown (assertThrows)
      int bar = reply.indexOf('|'), colon = reply.indexOf(": ");
      Object own = null;
      try {
        own = SejuryCodec.dec(new SejuryCodec.In(reply.substring(1, bar > 0 ? bar : reply.length())), Throwable.class);
      } catch (Exception e) {
        // not one of the stubs (a nested or anonymous class): as its nearest class of the JDK's, below
      }
      if (own instanceof Throwable) throw Sejury.<RuntimeException>sneaky((Throwable) own);
      if (bar > 0) {
        String jdk = colon > bar ? reply.substring(bar + 1, colon) : reply.substring(bar + 1);
        Throwable t = jdkThrowable(jdk, colon > bar ? reply.substring(colon + 2) : null);
        if (t != null) throw Sejury.<RuntimeException>sneaky(t);
      }
    }
    if (reply.startsWith("!!")) throw fault(reply.substring(2));  // the program's process's harness failed
    if (reply.startsWith("!")) {  // the JDK's own exceptions are thrown as themselves (assertThrows)
      String body = reply.substring(1);
      int colon = body.indexOf(": ");
      Throwable own = jdkThrowable(colon > 0 ? body.substring(0, colon) : body, colon > 0 ? body.substring(colon + 2) : null);
      if (own != null) throw Sejury.<RuntimeException>sneaky(own);
      throw fault("the program threw " + body + ", an exception the harness cannot make here");
    }
    try {
      SejuryCodec.In in = new SejuryCodec.In(reply);
      in.expect('[');
      if (ret == void.class) return null;
      Object v = SejuryCodec.dec(in, ret);
      in.expect(']');
      return v;
    } catch (Exception e) {
      throw fault("the answer is not plain data of its type: " + e.getMessage());
    }
  }

  // ---- the program's objects: a stub of its class here (``_java_harness.object_stubs``) holds a Ref,
  // the object and its state stay in the program's process; one stub per object, known by its Ref
  public static final class Ref {
    final int gen, id;
    final String cls;

    Ref(int gen, int id, String cls) { this.gen = gen; this.id = id; this.cls = cls; }
  }

  // a handle: ``sejuryRef`` names the program's object (made there first where the stub is the test's
  // own object of a data class); ``sejuryLocal`` is that own object's fields, while the checker knows them
  public interface Obj {
    Ref sejuryRef();

    default Local sejuryLocal() { return null; }

    default Shape sejuryShape() { return null; }

    default boolean sejuryGiven() { return true; }  // (made in the program's process)
  }

  // a data class of the program's (``_java_data``): its fields by name, its equality ("own" equals,
  // a "record"'s, or "identity"), whether an object's fields stay as made (final, of immutable types),
  // and whether its hashCode is its own (else Object's)
  public static final class Shape {
    final String cls, equality;
    final boolean immutable, hashed;
    final String[] names;

    public Shape(String cls, String equality, boolean immutable, boolean hashed, String[] names) {
      this.cls = cls; this.equality = equality; this.immutable = immutable; this.hashed = hashed; this.names = names;
    }
  }

  // the test's own object of a data class: the constructor it called (by its parameters' types), the
  // arguments, and the fields they give, in ``Shape.names``' order
  public static final class Local {
    final Shape shape;
    final String sig;
    final Object[] args, values;

    Local(Shape shape, String sig, Object[] args, Object[] values) {
      this.shape = shape; this.sig = sig; this.args = args; this.values = values;
    }
  }

  public static Local local(Shape shape, String sig, Object[] args, Object[] values) {
    return new Local(shape, sig, args, values);
  }

  // the program gets the test's object when the test hands it over (a method called on it, an
  // argument): made there by the constructor the test called, with the same arguments
  public static Ref make(Local l) {
    asked = asked || l.shape.names.length > 0;  // (an object of no fields tells the program nothing: ``new Solution().f(x)``)
    return make(l.shape.cls, l.sig, l.args);
  }

  // after that, the checker still knows its fields where they cannot change; else the program's are read
  public static Local kept(Local l) { return l.shape.immutable ? l : null; }

  static IdentityHashMap<Object, Boolean> knowing;  // ``known``: the objects being written (cycles)

  static final class Unknown extends RuntimeException {
    Unknown() { super("a field the checker does not know"); }
  }

  // the test's own object's fields as data, as the program's side writes an object's (``#state``):
  // null where one of them is not the checker's to know (an object of the program's with an equals
  // of its own in a field)
  static synchronized String known(Obj o) {
    Local l = o.sejuryLocal();
    if (l == null) return null;
    knowing = new IdentityHashMap<>();
    try {
      return (l.shape.equality.equals("identity") ? "I" : "E") + fields(o, l);
    } catch (Unknown | IllegalArgumentException | ClassCastException e) {
      return null;
    } finally {
      knowing = null;
    }
  }

  static final int KNOWN_DEPTH = 1000;  // (deeper, the checker does not write it: a stack, and quadratic text)

  static String fields(Object o, Local l) {
    if (knowing.containsKey(o)) return "@cycle";
    if (knowing.size() >= KNOWN_DEPTH) throw new Unknown();
    knowing.put(o, true);
    StringBuilder b = new StringBuilder("[\"" + l.shape.cls + "\"");
    for (int i = 0; i < l.shape.names.length; i++)
      b.append(",[").append(SejuryCodec.enc(l.shape.names[i])).append(',').append(SejuryCodec.canonical(l.values[i])).append(']');
    knowing.remove(o);
    return b.append(']').toString();
  }

  // an object in a field of the test's own object, written as the program's side writes it: a data
  // class's by its fields; an object of a class with no equals by which object it is (its number in
  // the program's process, or, never given to the program, a number no object there has)
  static String inField(Obj v) {
    Local l = v.sejuryLocal();
    Shape shape = v.sejuryShape();
    if (shape != null && !shape.equality.equals("identity")) {
      if (l == null) throw new Unknown();
      return fields(v, l);
    }
    if (!v.sejuryGiven()) return "@local " + System.identityHashCode(v);
    if (shape == null && !state(v).startsWith("I")) throw new Unknown();
    return "@object " + live(v.sejuryRef()).id;
  }

  static int gen = 0;  // the program's process's generation: a restart makes older handles stale
  static final Map<Integer, Obj> STUBS = new HashMap<>();  // this generation's objects, by id

  public static void keep(Obj o) {
    Ref r = o.sejuryRef();
    if (r.gen == gen) STUBS.putIfAbsent(r.id, o);
  }

  static Ref refOf(Object o) {
    if (!(o instanceof Obj)) throw fault("not an object of the program's: " + o.getClass().getName());
    return live(((Obj) o).sejuryRef());
  }

  static Ref live(Ref r) {  // a handle of this process's object, not of one that ended
    if (r == null || r.gen != gen) throw fault("the program's process restarted: its object of " + (r == null ? "?" : r.cls) + " is gone");
    return r;
  }

  // a new object of the program's class: made by its constructor in the program's process
  public static Ref make(String cls, String params, Object[] args) {
    Object r = ask(cls, "<init>(" + params + ")", "1", args, Ref.class);
    if (!(r instanceof Ref) || !((Ref) r).cls.equals(cls)) throw fault("the answer is not an object of " + cls);
    return (Ref) r;
  }

  // equal as the class defines it, never on the program's word alone:
  // - the test's own object of a data class on a side (``new Money(150)``, made in the checker): the
  //   other side's fields are read first, as the program's answer, and compared with the test's as
  //   data; where the class's equals is a record's over data, that decides; else the program's equals
  //   is asked too, and where the two disagree (an equals that says yes to everything, or no to equal
  //   fields, or a Fraction's 1/2 and 2/4) the harness cannot decide: the unit fails (a fault); where
  //   both say equal, the program's hashCode must agree too (a hash table would not find it else);
  // - two of the program's objects: the same object is equal as its equals says (JUnit asks it even
  //   then); two objects of a class with no equals are not; two objects compared by the program's
  //   equals are the program's word on both sides (it could have made the expected one a copy of
  //   its answer): not evidence, a fault
  public static synchronized boolean same(Obj a, Object b) {
    if (!(b instanceof Obj)) return false;
    Obj o = (Obj) b;
    String ka = known(a), kb = known(o);
    if (ka != null || kb != null) {
      Shape shape = ka != null ? a.sejuryShape() : o.sejuryShape();
      if (shape.equality.equals("identity")) return a == b;
      String sa = ka != null ? ka : state(a), sb = kb != null ? kb : state(o);
      boolean data = a.getClass() == b.getClass() && sa.equals(sb);
      if (shape.equality.equals("record")) return data;
      boolean says = Boolean.TRUE.equals(call(a.sejuryRef().cls, "#equals", a, new Object[]{b}, Boolean.class));
      if (says != data)
        throw fault("the program's equals says " + says + " for two objects of " + shape.cls + " whose fields say "
            + data + ": the harness does not take the program's word for it");
      if (says && shape.hashed && programHash(a) != programHash(o))
        throw fault("the program's hashCode differs for two objects of " + shape.cls + " its equals says are equal");
      return says;
    }
    if (a == b) return Boolean.TRUE.equals(call(a.sejuryRef().cls, "#equals", a, new Object[]{b}, Boolean.class));
    if (state(a).startsWith("I")) return false;  // no equals of its own: two objects are two
    throw fault("two objects of the program's compared by its equals (" + a.sejuryRef().cls + "): the program "
        + "made both, so it decides both sides; not evidence");
  }

  static int programHash(Obj a) {
    return ((Number) call(a.sejuryRef().cls, "#hash", a, new Object[0], Integer.class)).intValue();
  }

  // where an object sits in a hash table (``same`` decides): a data class's by its fields as data (the
  // test's own object's known here, so a set of expected values tells the program nothing), or where
  // it has no hashCode of its own, by which object it is (Object's); else the program's hashCode.  A
  // test calling hashCode itself calls the program's (``new Money(150).hashCode()``: it hands the
  // object over, as any method of the program's)
  public static synchronized int hash(Obj a) {
    Shape shape = a.sejuryShape();
    if (shape == null || fromTheTests()) return programHash(a);
    if (!shape.hashed) return System.identityHashCode(a);
    String k = known(a);
    return (k != null ? k : state(a)).hashCode();
  }

  // whether the stub's method calling here was called by the tests' own code, not by the JDK's (a
  // hash table's) or the harness's
  static boolean fromTheTests() {
    return StackWalker.getInstance().walk(s -> s.skip(3).findFirst()).map(f -> {
      String c = f.getClassName();
      return !(c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("sejury."));
    }).orElse(false);
  }

  // JUnit's assertNotSame on values that are not the program's objects: a value that crossed from the
  // program's process is always a new copy here, so "not the same" cannot be told
  public static void notSame(Object e, Object a) {
    if (e != a && !(e instanceof Obj) && !(a instanceof Obj) && e != null && a != null)
      throw new AssertionError("the harness cannot tell whether these are the same object: values from the "
          + "program's process are copies");
  }

  public static String message(Ref r) {  // an exception object's message, for its stub's constructor
    return (String) ask(r.cls, "#message", "@" + live(r).id, new Object[0], String.class);
  }

  static String state(Obj o) { return (String) call(o.sejuryRef().cls, "#state", o, new Object[0], String.class); }

  // an object's toString: the program's, but for the test's own object the program does not hold
  // in the message of a failing assertion (``SejuryAssert``'s): written from its fields, so a failing
  // check hands the program nothing
  public static synchronized String show(Obj o) {
    Local l = o.sejuryLocal();
    if (l != null && !o.sejuryGiven()
        && StackWalker.getInstance().walk(s -> s.anyMatch(f -> f.getClassName().equals("sejury.SejuryAssert")))) {
      StringBuilder b = new StringBuilder(l.shape.cls).append('[');
      for (int i = 0; i < l.shape.names.length; i++)
        b.append(i > 0 ? ", " : "").append(l.shape.names[i]).append('=').append(String.valueOf(l.values[i]));
      return b.append(']').toString();
    }
    return (String) call(o.sejuryRef().cls, "#show", o, new Object[0], String.class);
  }

  static {  // the program's objects travel as handles (``@<id>:<class>``), only as the stubs' classes here
    SejuryCodec.handles = new SejuryCodec.Handles() {
      public String write(Object v) {
        if (!(v instanceof Obj)) return null;
        if (knowing != null) return inField((Obj) v);  // (``known``)
        Ref r = refOf(v);
        return "@" + r.id + ":" + r.cls;
      }

      public Object read(int id, String cls, Type declared) throws Exception {
        Obj known = STUBS.get(id);
        Class<?> want = SejuryCodec.raw(declared);
        if (known != null) {
          if (want == Ref.class) return known.sejuryRef();
          if (!want.isInstance(known)) throw new IllegalArgumentException("not a " + want.getName());
          return known;
        }
        if (want == Ref.class) return new Ref(gen, id, cls);
        Class<?> c;
        try {
          c = Class.forName(cls, false, Sejury.class.getClassLoader());
        } catch (ClassNotFoundException e) {
          throw new IllegalArgumentException("not plain data: " + cls);
        }
        if (!Obj.class.isAssignableFrom(c) || !want.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers()))
          throw new IllegalArgumentException("not plain data: " + cls);
        Constructor<?> k = c.getDeclaredConstructor(Ref.class);
        k.setAccessible(true);
        return k.newInstance(new Ref(gen, id, cls));  // the stub keeps itself (``keep``)
      }
    };
  }

  static Throwable jdkThrowable(String name, String msg) {
    try {
      Class<?> c = Class.forName(name);
      if (c.getClassLoader() != null || !Throwable.class.isAssignableFrom(c)) return null;  // the JDK's only
      try {
        return (Throwable) c.getConstructor(String.class).newInstance(msg);
      } catch (NoSuchMethodException e) {
        return (Throwable) c.getConstructor().newInstance();
      }
    } catch (Exception e) {
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  // every class of the checker's (the tests', the stubs', the harness's own in ``sejury/``) loaded,
  // not initialised (a stub's constant is read from the program's process when first used), then
  // its file and folder deleted
  static void loadAndDelete(File dir, String pkg) throws Exception {
    File[] files = dir.listFiles();
    for (File f : files == null ? new File[0] : files) {
      if (f.isDirectory()) loadAndDelete(f, pkg + f.getName() + ".");
      else if (f.getName().endsWith(".class"))
        Class.forName(pkg + f.getName().replace(".class", ""), false, Sejury.class.getClassLoader());
    }
    for (File f : files == null ? new File[0] : files) f.delete();
    dir.delete();
  }

  public static void setup() throws Exception {
    key = Files.readString(Path.of("seal")).trim().getBytes(StandardCharsets.UTF_8);
    Files.delete(Path.of("seal"));
    loadAndDelete(new File("chk"), "");
    if (!start()) {
      emit("@@LOAD FAIL the program's process did not start");
      emit("@@DONE");
      System.exit(3);
    }
    emit("@@LOAD OK");
  }
}
