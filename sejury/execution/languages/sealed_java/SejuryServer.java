// The sealed Java harness's program side: it answers calls read from stdin (a class, a method, static
// or not, the arity and the arguments) with the returned value by its runtime kind, or the exception.
// It sees no test and no expected value; what the program prints goes nowhere.
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
        out = serve(f[0], f[1], f[2].equals("1"), Integer.parseInt(f[3]), f[4]);
      } catch (InvocationTargetException e) {
        Throwable c = e.getCause();
        out = "!" + c.getClass().getName() + ": " + c.getMessage();
      } catch (Throwable e) {
        out = "!" + e.getClass().getName() + ": " + e.getMessage();
      }
      answers.println(out.replace('\n', ' ').replace('\r', ' '));
    }
  }

  static String serve(String cls, String name, boolean isStatic, int arity, String args) throws Exception {
    Class<?> c = Class.forName(cls);
    Method m = null;
    for (Method x : c.getDeclaredMethods())
      if (x.getName().equals(name) && x.getParameterCount() == arity && Modifier.isStatic(x.getModifiers()) == isStatic) {
        m = x;
        break;
      }
    if (m == null) throw new NoSuchMethodException(cls + "." + name);
    m.setAccessible(true);
    Type[] types = m.getGenericParameterTypes();
    SejuryCodec.In in = new SejuryCodec.In(args);
    Object[] vals = new Object[arity];
    in.expect('[');
    for (int k = 0; k < arity; k++) {
      if (k > 0) in.expect(',');
      vals[k] = SejuryCodec.dec(in, types[k]);
    }
    in.expect(']');
    Object target = null;
    if (!isStatic) {
      Constructor<?> ctor = c.getDeclaredConstructor();
      ctor.setAccessible(true);
      target = ctor.newInstance();
    }
    Object r = m.invoke(target, vals);
    return m.getReturnType() == void.class ? "[]" : "[" + SejuryCodec.enc(r) + "]";
  }
}
