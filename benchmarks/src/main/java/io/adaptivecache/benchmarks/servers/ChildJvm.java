package io.adaptivecache.benchmarks.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the harness starts on its own class path (a pair worker, an items application, the
 * delaying proxy), so that its threads and CPU are not counted as the harness's: one place for
 * its command line and for stopping it without leaving it behind.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * The command line of a child JVM: this JVM's {@code java} and class path, a heap and a main class.
     * @param heap the maximum heap, for example {@code 1g}: at least {@code 256m}, the initial heap
     * @param main the class to run
     * @param arguments its arguments
     * @return the command, to which more arguments may be added
     */
    public static List<String> command(String heap, Class<?> main, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(java(), "-Xms256m", "-Xmx" + heap, "-Djava.awt.headless=true", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(arguments);
        return command;
    }

    /** @return the {@code java} executable of this JVM, so that a child runs on the same JDK */
    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * Starts a child whose standard error goes to a log file; its standard input and output stay
     * with the harness, for commands and answers.
     * @param command the command line
     * @param log where its standard error goes; its directory is created
     * @return the process
     * @throws IOException if it cannot start
     */
    public static Process start(List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command).redirectError(log.toFile()).start();
    }

    /**
     * Waits for a child that was asked to exit, and kills it if it does not in time (or if this
     * thread is interrupted meanwhile: a child must not outlive the run that started it).
     * @param process the child
     * @param grace how long it may take to exit
     */
    public static void awaitExit(Process process, Duration grace) {
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
