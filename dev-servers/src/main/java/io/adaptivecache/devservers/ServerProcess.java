package io.adaptivecache.devservers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server process that a test owns: started on a free loopback port, checked until it
 * answers, and stopped by its own pid. It never touches a server it did not start, except
 * when an environment variable names an existing one explicitly.
 */
public abstract class ServerProcess implements AutoCloseable {

    /** The loopback address every test server binds to. */
    public static final String HOST = "127.0.0.1";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

    private final String binary;
    private final String installHint;
    private final String externalAddressVariable;
    private Process process;
    private int port;
    private boolean external;
    private Path logFile;
    private final Object adminLock = new Object();
    private Socket adminSocket;

    protected ServerProcess(String binary, String installHint, String externalAddressVariable) {
        this.binary = binary;
        this.installHint = installHint;
        this.externalAddressVariable = externalAddressVariable;
    }

    /** Starts the server (or attaches to the one named by the environment) and waits until it answers. */
    public synchronized void start() {
        if (process != null || external) {
            return;
        }
        String externalAddress = System.getenv(externalAddressVariable);
        if (externalAddress != null && !externalAddress.isBlank()) {
            String[] hostPort = externalAddress.trim().split(":");
            this.port = Integer.parseInt(hostPort[hostPort.length - 1]);
            this.external = true;
            waitUntilAnswering();
            return;
        }
        String executable = findOnPath(binary);
        if (executable == null) {
            throw new IllegalStateException(binary + " was not found on PATH; tests need a real server. Install it with: "
                    + installHint + " (or set " + externalAddressVariable + "=127.0.0.1:PORT to use a running one)");
        }
        IllegalStateException lastFailure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            this.port = freeLoopbackPort();
            try {
                launch(executable);
                waitUntilAnswering();
                return;
            }
            catch (RuntimeException ex) {
                lastFailure = new IllegalStateException(binary + " did not start on port " + port + "; log: " + logTail(), ex);
                destroyProcess();
            }
        }
        throw lastFailure;
    }

    /** Starts the server again on the same port after {@link #kill()} or {@link #stop()}. */
    public synchronized void restart() {
        if (external) {
            throw new IllegalStateException("Cannot restart an external server");
        }
        destroyProcess();
        launch(findOnPath(binary));
        waitUntilAnswering();
    }

    private void launch(String executable) {
        try {
            if (logFile == null) {
                logFile = Files.createTempFile(binary + "-", ".log");
                logFile.toFile().deleteOnExit();
            }
            List<String> command = new ArrayList<>();
            command.add(executable);
            command.addAll(arguments(port));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment());
            this.process = builder.start();
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot start " + executable, ex);
        }
    }

    /**
     * Polls every 20 ms until the server answers, for at most {@link #STARTUP_TIMEOUT}. A plain
     * loop rather than Awaitility, so that this module stays free of test libraries and the
     * sample can use it at run time.
     */
    private void waitUntilAnswering() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        IOException lastFailure = null;
        while (true) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(binary + " exited with " + process.exitValue());
            }
            try {
                if (answers()) {
                    checkAnsweredByOwnProcess();
                    return;
                }
            }
            catch (IOException ex) {
                lastFailure = ex;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("%s on %s:%d did not answer within %s".formatted(binary, HOST, port, STARTUP_TIMEOUT),
                        lastFailure);
            }
            try {
                Thread.sleep(20);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + binary + " on " + HOST + ":" + port, ex);
            }
        }
    }

    /**
     * Refuses an answer from a server this object did not start. The port is chosen free and then
     * released before the process binds it, so another process (another test JVM's server) can
     * take it in between; ours then fails to bind and exits, but may still look alive at the first
     * poll while the other one answers. Tests would then run against, and change, someone else's
     * server. {@link #start()} tries again on another port.
     */
    private void checkAnsweredByOwnProcess() throws IOException {
        if (process == null) {
            return;
        }
        long answering = answeringPid();
        if (answering >= 0 && answering != process.pid()) {
            throw new IllegalStateException("%s:%d is served by another process (pid %d), not by the %s started here (pid %d)"
                    .formatted(HOST, port, answering, binary, process.pid()));
        }
    }

    /**
     * The operating-system pid of the server answering on the port, if its protocol tells it.
     * @return the pid, or -1 if the protocol does not say
     * @throws IOException if the server cannot be asked
     */
    protected long answeringPid() throws IOException {
        return -1;
    }

    /** The server-specific arguments that bind it to {@link #HOST} and the given port. */
    protected abstract List<String> arguments(int port);

    /** Environment variables the process needs beyond the test JVM's own. */
    protected java.util.Map<String, String> environment() {
        return java.util.Map.of();
    }

    /** Whether the server answers its protocol's liveness command right now. */
    protected abstract boolean answers() throws IOException;

    /** The port the server listens on. */
    /**
     * Client connections open on the server now, as the server counts them, less the one this
     * asks on: the truth a test compares a client's own counters against.
     * @return the count
     */
    public abstract int connectedClients();

    /**
     * Connections the server has accepted since it started, as it counts them (the ones this
     * asks on included): how a test sees whether a client opened connections it should not have.
     * @return the count
     */
    public abstract long connectionsReceived();

    public int port() {
        return port;
    }

    /** The address as {@code host:port}. */
    public String address() {
        return HOST + ":" + port;
    }

    /** The operating-system pid of the process this object started. */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("No process was started by this test (external server?)");
        }
        return process.pid();
    }

    /** Kills the process with SIGKILL and waits until it is gone. */
    public synchronized void kill() {
        closeAdminSocket();
        if (process != null) {
            process.destroyForcibly();
            waitFor(process);
        }
    }

    /**
     * Freezes the process with SIGSTOP: its sockets stay open and accept bytes, but nothing is
     * answered, as with a server stalled by swapping or a long pause. Undo with {@link #thaw()}.
     */
    public synchronized void freeze() {
        closeAdminSocket();
        signal("STOP");
        awaitStopped();
    }

    /**
     * Returns once the kernel reports the process stopped: {@code kill} returns when the signal is
     * queued, and a server thread running on another core may still answer a request or two until
     * it is taken off (a test that calls right after freezing saw its call answered). Bounded, and
     * a no-op where {@code /proc} cannot tell.
     */
    private void awaitStopped() {
        Path stat = Path.of("/proc", Long.toString(pid()), "stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        try {
            while (System.nanoTime() - deadline < 0) {
                String text = Files.readString(stat, StandardCharsets.US_ASCII);
                // The state follows the command name, which is in parentheses and may hold spaces.
                char state = text.charAt(text.lastIndexOf(')') + 2);
                if (state == 'T' || state == 't') {
                    return;
                }
                Thread.onSpinWait();
            }
        }
        catch (IOException | RuntimeException ex) {
            // No /proc (not Linux) or an unexpected format: the signal has been sent, which is all that can be done.
        }
    }

    /** Resumes a process frozen by {@link #freeze()} (SIGCONT); does nothing if it is not running. */
    public synchronized void thaw() {
        if (process != null && process.isAlive()) {
            signal("CONT");
        }
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot send SIG" + signal + " to " + pid(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal, ex);
        }
    }

    /** Stops the process gracefully (SIGTERM), then forcibly if it does not exit in time. */
    public synchronized void stop() {
        destroyProcess();
    }

    @Override
    public void close() {
        closeAdminSocket();
        stop();
    }

    private void destroyProcess() {
        closeAdminSocket();
        Process running = this.process;
        this.process = null;
        if (running == null) {
            return;
        }
        running.destroy();
        try {
            if (!running.waitFor(5, TimeUnit.SECONDS)) {
                running.destroyForcibly();
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running.destroyForcibly();
        }
        waitFor(running);
    }

    private static void waitFor(Process process) {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends one request on the admin connection and reads until {@code complete} says the reply
     * is whole. Used for liveness and for reading server-side state (connection counts) in
     * assertions, independently of the client under test. The admin connection is one
     * persistent socket, so it appears in every count (and so in every baseline) exactly once,
     * rather than as a trail of sockets the server has not finished closing.
     */
    protected String exchange(String request, java.util.function.Predicate<String> complete) throws IOException {
        synchronized (adminLock) {
            try {
                return exchangeOnce(request, complete);
            }
            catch (IOException ex) {
                closeAdminSocket();
                return exchangeOnce(request, complete);
            }
        }
    }

    private String exchangeOnce(String request, java.util.function.Predicate<String> complete) throws IOException {
        if (adminSocket == null || adminSocket.isClosed()) {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(HOST, port), 1000);
            socket.setSoTimeout(2000);
            adminSocket = socket;
        }
        OutputStream out = adminSocket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = adminSocket.getInputStream();
        java.io.ByteArrayOutputStream reply = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (!complete.test(reply.toString(StandardCharsets.UTF_8))) {
            int read = in.read(buffer);
            if (read < 0) {
                throw new IOException("The server closed the admin connection");
            }
            reply.write(buffer, 0, read);
        }
        return reply.toString(StandardCharsets.UTF_8);
    }

    /** Closes the admin connection; the next {@link #exchange} opens a fresh one. */
    protected void closeAdminSocket() {
        synchronized (adminLock) {
            if (adminSocket != null) {
                Sockets.closeQuietly(adminSocket);
                adminSocket = null;
            }
        }
    }

    private String logTail() {
        try {
            if (logFile == null) {
                return "(none)";
            }
            String log = Files.readString(logFile);
            return log.length() > 2000 ? log.substring(log.length() - 2000) : log;
        }
        catch (IOException ex) {
            return "(unreadable: " + ex.getMessage() + ")";
        }
    }

    static boolean isCompleteBulkReply(String reply) {
        int header = reply.indexOf("\r\n");
        if (header < 0 || reply.charAt(0) != '$') {
            return header >= 0;
        }
        int length = Integer.parseInt(reply.substring(1, header));
        return reply.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= header + 2 + length + 2;
    }

    /**
     * A loopback port that was free a moment ago. Public for test-servers' Redis Cluster, which
     * picks its nodes' bus ports the same way.
     * @return the port
     */
    public static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException("No free loopback port", ex);
        }
    }

    /**
     * An executable on PATH (or in the sbin beside a bin on PATH). Public for test-servers' Redis
     * Cluster, which finds {@code redis-cli} the same way as the servers find their binaries.
     * @param binary the executable's name
     * @return its absolute path, or {@code null}
     */
    public static String findOnPath(String binary) {
        String path = System.getenv("PATH");
        List<String> directories = new ArrayList<>();
        for (String directory : path == null ? new String[0] : path.split(File.pathSeparator)) {
            directories.add(directory);
            // Debian installs server binaries in sbin, which a non-login PATH often lacks.
            if (directory.endsWith("/bin")) {
                directories.add(directory.substring(0, directory.length() - 3) + "sbin");
            }
        }
        for (String directory : directories) {
            File candidate = new File(directory, binary);
            if (candidate.isFile() && candidate.canExecute()) {
                return candidate.getAbsolutePath();
            }
        }
        return null;
    }

}
