import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Several javac compiles in one JVM (``sejury/sandbox/jvm.py``), run as a source file.
 *
 *  java javac-driver/SejuryJavac.java [--said LINE] OK OUT ARGS... [-- OK OUT ARGS...]...
 *
 *  Each task is javac with ARGS, its diagnostics written to OUT (``-``: standard output) as javac's
 *  command line writes them; where it succeeds, the file OK is made (after LINE is printed, where the
 *  first task compiled), and the next task runs; where it fails, no later task runs and the exit
 *  status is 1.  It lives in a folder of its own, so no program's class file stands beside it.  Most of a small compile is javac's own
 *  start, which the tasks after the first no longer pay.  javac reads the sources; nothing of them
 *  runs here (no annotation processor is on any path the harnesses give). */
public class SejuryJavac {
    public static void main(String[] args) throws Exception {
        String said = null;
        int from = 0;
        if (args.length >= 2 && args[0].equals("--said")) { said = args[1]; from = 2; }
        List<List<String>> tasks = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        for (String a : Arrays.asList(args).subList(from, args.length)) {
            if (a.equals("--")) { tasks.add(cur); cur = new ArrayList<>(); } else cur.add(a);
        }
        tasks.add(cur);
        for (List<String> task : tasks) {
            if (task.size() < 2) { System.err.println("SejuryJavac: a task needs OK OUT ARGS"); System.exit(2); }
            String out = task.get(1);
            OutputStream stream = out.equals("-") ? System.out : new FileOutputStream(out);
            PrintWriter diagnostics = new PrintWriter(stream, true);  // as javac's own command line
            String[] javacArgs = task.subList(2, task.size()).toArray(new String[0]);
            int rc = com.sun.tools.javac.Main.compile(javacArgs, diagnostics);
            diagnostics.flush();
            if (stream != System.out) stream.close();
            if (rc != 0) System.exit(1);
            if (said != null) { System.out.println(said); System.out.flush(); said = null; }
            Files.createFile(Path.of(task.get(0)));
        }
    }
}
