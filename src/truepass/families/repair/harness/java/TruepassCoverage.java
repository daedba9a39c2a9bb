/*
 * Per-test line coverage for the JUnit harness (TruepassJUnit), with JaCoCo's core API (Debian's
 * libjacoco-java) and no agent: the harness defines the workspace's classes from memory, so it
 * instruments the code's classes (never the tests') before defining them, and after each test
 * collects and resets the execution data and analyses it against the original bytes. Loaded
 * only when a run asks for coverage, so the plain harness needs no JaCoCo.
 */

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.data.SessionInfoStore;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.IRuntime;
import org.jacoco.core.runtime.LoggerRuntime;
import org.jacoco.core.runtime.RuntimeData;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

public final class TruepassCoverage implements TruepassJUnit.Coverage {
    private final IRuntime runtime = new LoggerRuntime();
    private final RuntimeData data = new RuntimeData();
    private final Instrumenter instrumenter = new Instrumenter(runtime);
    private final Map<String, String> codeFiles; // "pkg/dir/File.java" -> workspace path
    private final Map<String, byte[]> originals = new LinkedHashMap<>(); // instrumented classes

    public TruepassCoverage(Map<String, String> codeFiles) throws Exception {
        this.codeFiles = codeFiles;
        runtime.startup(data);
    }

    @Override
    public byte[] instrument(String name, byte[] original) throws Exception {
        String[] source = {null};
        new ClassReader(original).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visitSource(String file, String debug) {
                source[0] = file;
            }
        }, ClassReader.SKIP_CODE);
        int dot = name.lastIndexOf('.');
        String dir = dot < 0 ? "" : name.substring(0, dot).replace('.', '/') + "/";
        if (source[0] == null || !codeFiles.containsKey(dir + source[0])) {
            return original; // a test class or a helper of the tests
        }
        originals.put(name, original);
        return instrumenter.instrument(original, name);
    }

    @Override
    public Map<String, List<Integer>> take() throws Exception {
        ExecutionDataStore store = new ExecutionDataStore();
        // collect() hands over the live probe arrays and then resets them: keep copies
        data.collect(d -> store.put(new ExecutionData(d.getId(), d.getName(), d.getProbes().clone())),
            new SessionInfoStore(), true);
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(store, builder);
        for (Map.Entry<String, byte[]> e : originals.entrySet()) {
            analyzer.analyzeClass(e.getValue(), e.getKey());
        }
        Map<String, List<Integer>> lines = new TreeMap<>();
        for (IClassCoverage cc : builder.getClasses()) {
            String pkg = cc.getPackageName();
            String path = codeFiles.get((pkg.isEmpty() ? "" : pkg + "/") + cc.getSourceFileName());
            if (path == null || cc.getFirstLine() < 0) {
                continue;
            }
            List<Integer> covered = lines.computeIfAbsent(path, k -> new ArrayList<>());
            for (int n = cc.getFirstLine(); n <= cc.getLastLine(); n++) {
                int status = cc.getLine(n).getStatus();
                if (status == ICounter.FULLY_COVERED || status == ICounter.PARTLY_COVERED) {
                    covered.add(n);
                }
            }
        }
        for (List<Integer> l : lines.values()) {
            Collections.sort(l);
        }
        lines.values().removeIf(List::isEmpty);
        return lines;
    }
}
