package io.adaptivecache.testservers;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a probe's {@code main} in a JVM of its own: on this one's class path less an optional
 * dependency's jar, for the tests that show a driver is optional (what loads without it can only
 * be seen in a JVM that never had it), or on the whole class path, for what a JVM settles once
 * at its start. The probe prints one line per finding and ends with {@link #exit(Probe)} (or
 * exits 0 itself), so the test reads its findings from the output.
 */
public final class ProbeJvm {

    private ProbeJvm() {
    }

    /** A probe's body: prints its findings; a throw is a failed probe. */
    @FunctionalInterface
    public interface Probe {

        /**
         * Runs the probe.
         * @throws Exception when a step went other than expected
         */
        void run() throws Exception;
    }

    /**
     * Runs {@code probe}'s {@code main} on this JVM's class path less the jar whose file name starts
     * with {@code jarPrefix}, and returns its output. Fails unless exactly one jar was left out (or
     * the probe would prove nothing), unless the probe JVM ends within {@code timeout}, or unless it
     * exits 0; each failure shows the probe's output.
     * @param dependency the dependency's name, for the failure message ("Jedis")
     * @param jarPrefix the start of the jar's file name ("jedis-")
     * @param probe the class whose {@code main} runs
     * @param timeout how long the probe JVM may run
     * @param args the probe's arguments
     * @return the probe's output (standard output and error)
     * @throws IOException when the output file cannot be written or read
     * @throws InterruptedException when interrupted while waiting for the probe
     */
    public static String runWithout(String dependency, String jarPrefix, Class<?> probe, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> without = classPath.stream().filter(entry -> !new File(entry).getName().startsWith(jarPrefix)).toList();
        assertEquals(1, classPath.size() - without.size(), dependency + " jars left out of the probe's class path");

        return run(String.join(File.pathSeparator, without), List.of(), probe, timeout, args);
    }

    /**
     * Runs {@code probe}'s {@code main} on this JVM's whole class path, for a test that needs what
     * only a fresh JVM shows (a logging level read once at start, a transport chosen once per JVM),
     * and returns its output. Fails unless the probe JVM ends within {@code timeout} or unless it
     * exits 0; each failure shows the probe's output.
     * @param probe the class whose {@code main} runs
     * @param timeout how long the probe JVM may run
     * @param jvmOptions options for the probe JVM before its class path ({@code -Dname=value})
     * @param args the probe's arguments
     * @return the probe's output (standard output and error)
     * @throws IOException when the output file cannot be written or read
     * @throws InterruptedException when interrupted while waiting for the probe
     */
    public static String run(Class<?> probe, Duration timeout, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        return run(System.getProperty("java.class.path"), jvmOptions, probe, timeout, args);
    }

    private static String run(String classPath, List<String> jvmOptions, Class<?> probe, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, probe.getName()));
        command.addAll(List.of(args));
        // The output goes to a file, so that a probe that hangs is seen at the timeout (and ended) rather than read forever.
        Path output = Files.createTempFile("probe-" + probe.getSimpleName(), ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertTrue(ended, () -> String.format("the probe JVM ends within %d s; its output:%n%s", timeout.toSeconds(), text));
            assertEquals(0, process.exitValue(), () -> String.format("the probe's exit code; its output:%n%s", text));
            return text;
        }
        finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * Whether the dependency is really missing in this (the probe's) JVM, printed as
     * {@code name=absent} or {@code name=present}; a probe that finds it present has nothing to show
     * and stops, and its test, expecting {@code name=absent}, fails.
     * @param name the name printed ("jedis")
     * @param className a class of the dependency
     * @return {@code true} when the class cannot be loaded
     */
    public static boolean absent(String name, String className) {
        try {
            Class.forName(className);
            System.out.println(name + "=present");
            return false;
        }
        catch (ClassNotFoundException expected) {
            System.out.println(name + "=absent");
            return true;
        }
    }

    /**
     * The whole of a probe's {@code main}: runs the probe, then ends the JVM with 0, or prints
     * {@code failed=} and the stack trace and ends it with 1, which {@link #runWithout} reports.
     * @param probe the probe's body
     */
    public static void exit(Probe probe) {
        try {
            probe.run();
            System.exit(0);
        }
        catch (Throwable failure) {
            System.out.println("failed=" + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }
}
