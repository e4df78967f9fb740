// The sealed Java harness's checker runtime (JDK only): the run's key, authenticated result lines
// (HMAC-SHA256), and the program's process, which the stubs of its methods call.  Before the tests
// run it loads every class of its own and deletes them with their sources, so the program finds
// neither the tests nor their expected values on disk.
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

  static void kill() {
    if (server != null) server.destroyForcibly();
    server = null;
  }

  static boolean start() {
    try {
      ProcessBuilder pb = new ProcessBuilder("java", "-Xss16m", "-XX:+UseSerialGC", "-cp",
          "srv:/usr/share/java/javatuples.jar", "SejuryServer");
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

  public static Object call(String cls, String name, boolean isStatic, Object[] args, Type ret) {
    if (server == null && !start()) throw fault("the program's process did not start");
    StringBuilder a = new StringBuilder("[");
    for (int k = 0; k < args.length; k++) {
      if (k > 0) a.append(',');
      a.append(SejuryCodec.enc(args[k]));
    }
    a.append(']');
    String reply;
    try {
      toServer.write(cls + "\t" + name + "\t" + (isStatic ? "1" : "0") + "\t" + args.length + "\t" + a + "\n");
      toServer.flush();
      reply = lines.poll(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      kill();
      throw fault("the program's process ended");
    }
    if (reply == null) { kill(); throw fault("test took too long"); }
    if (reply.equals("\0end")) { kill(); throw fault("the program's process ended during the call"); }
    if (reply.startsWith("!")) {  // the JDK's own exceptions are thrown as themselves (assertThrows)
      String body = reply.substring(1);
      int colon = body.indexOf(": ");
      Throwable own = jdkThrowable(colon > 0 ? body.substring(0, colon) : body, colon > 0 ? body.substring(colon + 2) : null);
      if (own != null) throw Sejury.<RuntimeException>sneaky(own);
      throw new RuntimeException("the program threw " + body);
    }
    try {
      SejuryCodec.In in = new SejuryCodec.In(reply);
      in.expect('[');
      if (ret == void.class) return null;
      Object v = SejuryCodec.dec(in, ret);
      in.expect(']');
      return v;
    } catch (Exception e) {
      throw new RuntimeException("the answer is not plain data of its type: " + e.getMessage());
    }
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

  public static void setup() throws Exception {
    key = Files.readString(Path.of("seal")).trim().getBytes(StandardCharsets.UTF_8);
    Files.delete(Path.of("seal"));
    File chk = new File("chk");
    File[] classes = chk.listFiles();
    for (File f : classes == null ? new File[0] : classes)
      if (f.getName().endsWith(".class")) Class.forName(f.getName().replace(".class", ""));
    for (File f : classes == null ? new File[0] : classes) f.delete();
    chk.delete();
    if (!start()) {
      emit("@@LOAD FAIL the program's process did not start");
      emit("@@DONE");
      System.exit(3);
    }
    emit("@@LOAD OK");
  }
}
