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
  }

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

  static Object ask(String cls, String name, String mode, Object[] args, Type ret) {
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

  public interface Obj { Ref sejuryRef(); }

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

  // equal as the program's equals says, where the objects' fields as data say the same: two objects
  // of one class that defines equals with the same fields, or the same object.  Where the two
  // disagree (an equals that says yes to everything, or one that ignores a field, a Fraction's
  // 1/2 and 2/4) the harness cannot decide without trusting the program: the unit fails (a fault)
  public static boolean same(Obj a, Object b) {
    if (!(b instanceof Obj)) return false;  // (the same object too: JUnit asks equals even then)
    boolean says = Boolean.TRUE.equals(call(a.sejuryRef().cls, "#equals", a, new Object[]{b}, Boolean.class));
    String sa = state(a);
    boolean data = a.getClass() == b.getClass() && sa.startsWith("E") && sa.equals(state((Obj) b));
    if (says != data)
      throw fault("the program's equals says " + says + " for two objects of " + a.sejuryRef().cls + " whose fields say "
          + data + ": the harness does not take the program's word for it");
    return says;
  }

  public static int hash(Obj a) {  // the program's hashCode (it only places an object; same() decides)
    return ((Number) call(a.sejuryRef().cls, "#hash", a, new Object[0], Integer.class)).intValue();
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

  public static String show(Obj o) { return (String) call(o.sejuryRef().cls, "#show", o, new Object[0], String.class); }

  static {  // the program's objects travel as handles (``@<id>:<class>``), only as the stubs' classes here
    SejuryCodec.handles = new SejuryCodec.Handles() {
      public String write(Object v) {
        if (!(v instanceof Obj)) return null;
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
