/*
 * truepass's JUnit 4 harness, run inside the sandbox (one JVM per test run). The Java
 * counterpart of the pytest reporter: it compiles the workspace's sources, runs the JUnit 4
 * classes of the phase's test files and reports every outcome through the result channel,
 * never through stdout or a workspace file.
 *
 * Arguments: TIMEOUT_MS COVERAGE(0|1) TEST_FILE...   Environment: TRUEPASS_CHANNEL_FD (the
 * channel's write end). With COVERAGE 1, TruepassCoverage (JaCoCo) records the lines of the
 * code files each test runs, reported as one coverage event before finish.
 * The run's nonce is in the workspace file .truepass/nonce, which is read and deleted before
 * any of the workspace's code is loaded; every event carries it, so a line the candidate's code
 * writes to the channel (it can find the descriptor) is not believed.
 *
 * Events (JSON lines, as the pytest reporter writes): start, collect-error (a file that does not
 * compile, or a test class that cannot be loaded), collected, test (passed, failed or skipped,
 * with a message), finish. Exit status: 0 when every test passed, 1 when some did not, 2 when
 * a file did not compile. Compiled classes are read into memory and defined from there, so code
 * under test cannot rewrite a class file that is loaded later. Standard library, javac's API
 * and JUnit 4 only.
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.Test;
import org.junit.internal.builders.AllDefaultPossibilitiesBuilder;
import org.junit.internal.runners.statements.FailOnTimeout;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import org.junit.runners.model.Statement;

public final class TruepassJUnit {
    private static final Pattern PACKAGE =
        Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final int MESSAGE = 2000;

    private TruepassJUnit() {}

    /** Per-test line coverage (TruepassCoverage, loaded only when asked for). */
    public interface Coverage {
        /** The bytes to define for class name (instrumented if it is the code's). */
        byte[] instrument(String name, byte[] original) throws Exception;

        /** Lines by workspace path run since the last call. */
        Map<String, List<Integer>> take() throws Exception;
    }

    /** The channel: JSON lines, each with the run's nonce. */
    static final class Channel {
        private final OutputStream out;
        private final String nonce;

        Channel(OutputStream out, String nonce) {
            this.out = out;
            this.nonce = nonce;
        }

        synchronized void emit(String event, Map<String, Object> data) {
            StringBuilder line = new StringBuilder("{\"event\":").append(quote(event));
            line.append(",\"nonce\":").append(quote(nonce));
            for (Map.Entry<String, Object> e : data.entrySet()) {
                line.append(',').append(quote(e.getKey())).append(':').append(json(e.getValue()));
            }
            line.append("}\n");
            try {
                out.write(line.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException ignored) {
                // the parent went away: nothing to report to
            }
        }
    }

    /** JUnit 4 classes with a per-test timeout (the class's own, if shorter, stands). */
    static final class TimedRunner extends BlockJUnit4ClassRunner {
        private final long timeoutMs;

        TimedRunner(Class<?> cls, long timeoutMs) throws InitializationError {
            super(cls);
            this.timeoutMs = timeoutMs;
        }

        @Override
        @SuppressWarnings("deprecation")
        protected Statement withPotentialTimeout(FrameworkMethod method, Object test, Statement next) {
            long own = method.getAnnotation(Test.class).timeout();
            long limit = own > 0 ? Math.min(own, timeoutMs) : timeoutMs;
            return FailOnTimeout.builder().withTimeout(limit, TimeUnit.MILLISECONDS).build(next);
        }
    }

    /** Classes defined from bytes read once, right after compilation. */
    static final class MemoryLoader extends ClassLoader {
        private final Map<String, byte[]> classes;
        private final Coverage coverage;

        MemoryLoader(Map<String, byte[]> classes, Coverage coverage, ClassLoader parent) {
            super(parent);
            this.classes = classes;
            this.coverage = coverage;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] bytes = classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            if (coverage != null) {
                try {
                    bytes = coverage.instrument(name, bytes);
                } catch (Exception e) {
                    throw new ClassNotFoundException(name + ": not instrumented: " + e, e);
                }
            }
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** Per-test outcomes to the channel, keyed by the test file's path and the method. */
    static final class Reporter extends RunListener {
        private final Channel channel;
        private final String file;
        private final Map<Description, String[]> results = new HashMap<>();
        private final Coverage coverage;
        private final Map<String, Object> lines;
        int notPassed;

        Reporter(Channel channel, String file, Coverage coverage, Map<String, Object> lines) {
            this.channel = channel;
            this.file = file;
            this.coverage = coverage;
            this.lines = lines;
        }

        String id(Description d) {
            return file + "::" + d.getMethodName();
        }

        @Override
        public void testStarted(Description d) {
            results.put(d, new String[] {"passed", ""});
            take(null); // what ran between tests (class initialisation) is no test's
        }

        @Override
        public void testFailure(Failure f) {
            results.put(f.getDescription(), new String[] {"failed", trimmed(f.getTrace())});
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            results.put(f.getDescription(), new String[] {"skipped", trimmed(f.getMessage())});
        }

        @Override
        public void testIgnored(Description d) {
            report(d, new String[] {"skipped", "@Ignore"});
        }

        @Override
        public void testFinished(Description d) {
            take(id(d));
            report(d, results.getOrDefault(d, new String[] {"passed", ""}));
        }

        private void take(String test) {
            if (coverage == null) {
                return;
            }
            try {
                Map<String, List<Integer>> ran = coverage.take();
                if (test != null) {
                    lines.put(test, ran);
                }
            } catch (Exception e) {
                channel.emit("coverage-error", Map.of("message", trimmed(e.toString())));
            }
        }

        private void report(Description d, String[] outcome) {
            if (!"passed".equals(outcome[0])) {
                notPassed++;
            }
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("nodeid", id(d));
            data.put("outcome", outcome[0]);
            data.put("message", outcome[1]);
            channel.emit("test", data);
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream stdout = System.out;
        Path workspace = Paths.get("").toAbsolutePath();
        Path nonceFile = workspace.resolve(".truepass/nonce");
        String nonce = Files.readString(nonceFile).trim();
        Files.delete(nonceFile);
        Files.delete(nonceFile.getParent());
        String fd = System.getenv("TRUEPASS_CHANNEL_FD");
        OutputStream out = fd == null || fd.startsWith("-") ? System.err : inherited(Integer.parseInt(fd));
        Channel channel = new Channel(out, nonce);
        channel.emit("start", Map.of("java", System.getProperty("java.version")));

        long timeoutMs = Long.parseLong(args[0]);
        boolean wantCoverage = "1".equals(args[1]);
        List<String> testFiles = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            testFiles.add(args[i]);
        }
        Map<String, byte[]> classes = new HashMap<>();
        Map<String, String> errors = compile(workspace, classes);
        for (Map.Entry<String, String> e : errors.entrySet()) {
            channel.emit("collect-error", Map.of("nodeid", e.getKey(), "message", e.getValue()));
        }
        if (!errors.isEmpty()) {
            channel.emit("finish", Map.of("exitstatus", 2));
            stdout.flush();
            Runtime.getRuntime().halt(2);
        }

        Coverage coverage = wantCoverage ? coverage(workspace, testFiles) : null;
        ClassLoader loader = new MemoryLoader(classes, coverage, TruepassJUnit.class.getClassLoader());
        Map<String, Runner> runners = new LinkedHashMap<>();
        List<String> collected = new ArrayList<>();
        for (String file : testFiles) {
            if (!file.endsWith(".java")) {
                continue;
            }
            String name = className(workspace.resolve(file), file);
            try {
                Class<?> cls = Class.forName(name, false, loader);
                if (!isTestClass(cls)) {
                    continue; // a helper of the tests, not a test class
                }
                Runner runner = hasJUnit4Tests(cls)
                    ? new TimedRunner(cls, timeoutMs)
                    : new AllDefaultPossibilitiesBuilder().runnerForClass(cls);
                runners.put(file, runner);
                for (Description d : runner.getDescription().getChildren()) {
                    collected.add(file + "::" + d.getMethodName());
                }
            } catch (Throwable t) {
                channel.emit("collect-error", Map.of("nodeid", file, "message", trimmed(t.toString())));
                errors.put(file, t.toString());
            }
        }
        channel.emit("collected", Map.of("nodeids", collected));
        int notPassed = errors.size();
        Map<String, Object> lines = new LinkedHashMap<>();
        for (Map.Entry<String, Runner> e : runners.entrySet()) {
            JUnitCore core = new JUnitCore();
            Reporter reporter = new Reporter(channel, e.getKey(), coverage, lines);
            core.addListener(reporter);
            core.run(Request.runner(e.getValue()));
            notPassed += reporter.notPassed;
        }
        if (coverage != null) {
            channel.emit("coverage", Map.of("lines", lines));
        }
        int status = errors.isEmpty() ? (notPassed == 0 ? 0 : 1) : 2;
        channel.emit("finish", Map.of("exitstatus", status));
        System.out.flush();
        System.err.flush();
        stdout.flush();
        Runtime.getRuntime().halt(status); // no shutdown hook of the code under test runs
    }

    /** TruepassCoverage over the workspace's code files (every .java file but the tests). */
    static Coverage coverage(Path workspace, List<String> testFiles) throws Exception {
        Map<String, String> codeFiles = new HashMap<>();
        try (Stream<Path> walk = Files.walk(workspace)) {
            for (Path p : walk.filter(q -> q.toString().endsWith(".java")).collect(Collectors.toList())) {
                String rel = workspace.relativize(p).toString();
                if (testFiles.contains(rel)) {
                    continue;
                }
                Matcher m = PACKAGE.matcher(Files.readString(p));
                String dir = m.find() ? m.group(1).replace('.', '/') + "/" : "";
                codeFiles.put(dir + p.getFileName(), rel);
            }
        }
        return (Coverage) Class.forName("TruepassCoverage")
            .getConstructor(Map.class).newInstance(codeFiles);
    }

    /**
     * An output stream on an inherited descriptor. The pipe belongs to the parent's uid, so it
     * cannot be opened again through /proc/self/fd; java.io has no public constructor for a
     * descriptor number, hence reflection (the JVM runs with --add-opens java.base/java.io).
     */
    static OutputStream inherited(int fd) throws ReflectiveOperationException {
        FileDescriptor descriptor = new FileDescriptor();
        Field field = FileDescriptor.class.getDeclaredField("fd");
        field.setAccessible(true);
        field.setInt(descriptor, fd);
        return new FileOutputStream(descriptor);
    }

    /** Compile every .java file of the workspace into memory; errors by file (relative path). */
    static Map<String, String> compile(Path workspace, Map<String, byte[]> classes) throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(workspace)) {
            sources = walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                .sorted().collect(Collectors.toList());
        }
        Map<String, String> errors = new LinkedHashMap<>();
        if (sources.isEmpty()) {
            return errors;
        }
        Path outDir = Files.createTempDirectory("truepass-classes");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter log = new StringWriter();
        try (StandardJavaFileManager files =
                 javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                "-d", outDir.toString(), "-cp", System.getProperty("java.class.path"),
                "-proc:none", "-encoding", "UTF-8", "-nowarn", "-implicit:none",
                "-Xmaxerrs", "20");
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources);
            boolean ok = javac.getTask(log, files, diagnostics, options, null, units).call();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) {
                    continue;
                }
                String where = d.getSource() == null
                    ? "<javac>" : workspace.relativize(Paths.get(d.getSource().toUri())).toString();
                String text = where + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT);
                errors.merge(where, text, (a, b) -> a.length() > MESSAGE ? a : a + "\n" + b);
            }
            if (!ok && errors.isEmpty()) {
                errors.put("<javac>", trimmed(log.toString()));
            }
        }
        if (errors.isEmpty()) {
            try (Stream<Path> walk = Files.walk(outDir)) {
                for (Path p : walk.filter(q -> q.toString().endsWith(".class")).collect(Collectors.toList())) {
                    String rel = outDir.relativize(p).toString();
                    classes.put(rel.substring(0, rel.length() - 6).replace('/', '.'), Files.readAllBytes(p));
                }
            }
        }
        try (Stream<Path> walk = Files.walk(outDir)) {
            for (Path p : walk.sorted((a, b) -> b.compareTo(a)).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
        return errors;
    }

    static String className(Path source, String file) throws IOException {
        String stem = Paths.get(file).getFileName().toString().replaceFirst("\\.java$", "");
        Matcher m = PACKAGE.matcher(Files.readString(source));
        return m.find() ? m.group(1) + "." + stem : stem;
    }

    static boolean hasJUnit4Tests(Class<?> cls) {
        for (Method m : cls.getMethods()) {
            if (m.isAnnotationPresent(Test.class)) {
                return true;
            }
        }
        return false;
    }

    static boolean isTestClass(Class<?> cls) {
        return hasJUnit4Tests(cls)
            || junit.framework.TestCase.class.isAssignableFrom(cls)
            || cls.isAnnotationPresent(org.junit.runner.RunWith.class);
    }

    /** The first MESSAGE characters: an exception's type and message, then its top frames. */
    static String trimmed(String text) {
        if (text == null) {
            return "";
        }
        return text.length() > MESSAGE ? text.substring(0, MESSAGE) : text;
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    static String json(Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Map) {
            return ((Map<?, ?>) value).entrySet().stream()
                .map(e -> quote(String.valueOf(e.getKey())) + ":" + json(e.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
        }
        if (value instanceof List) {
            return ((List<?>) value).stream().map(TruepassJUnit::json)
                .collect(Collectors.joining(",", "[", "]"));
        }
        return quote(String.valueOf(value));
    }
}
