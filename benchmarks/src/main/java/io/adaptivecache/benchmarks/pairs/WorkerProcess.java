package io.adaptivecache.benchmarks.pairs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.servers.ChildJvm;
import io.adaptivecache.benchmarks.targets.Targets;
import io.adaptivecache.redis.RedisTransport;

/**
 * The parent's handle on one {@link SliceWorker} JVM: sends a command, waits for its one-line
 * answer within a limit, and stops the JVM when closed. The worker's log goes to a file.
 */
final class WorkerProcess implements AutoCloseable {

    private final String id;
    private final Process process;
    private final Writer commands;
    private final LinkedBlockingQueue<String> replies = new LinkedBlockingQueue<>();

    private WorkerProcess(String id, Process process) {
        this.id = id;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readReplies, "worker-replies-" + id);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a worker for a target.
     * @param backend the server
     * @param id the target's id: a catalog id, with {@code @transport} for a Lettuce transport other than NIO (auto for
     * the Boot-built default) and
     * {@link GoalSet#TWIN} for an A/A twin
     * @param options the timings every worker shares
     * @param heap the worker's maximum heap, for example {@code 1g}
     * @param log where its output goes
     * @return the worker
     * @throws IOException if it cannot start
     */
    static WorkerProcess start(Backend backend, String id, ClientTimings options, String heap, Path log) throws IOException {
        String base = id.endsWith(GoalSet.TWIN) ? id.substring(0, id.length() - GoalSet.TWIN.length()) : id;
        RedisTransport transport = transport(base);
        int at = base.indexOf('@');
        if (at >= 0) {
            base = base.substring(0, at);
        }
        Process process = ChildJvm.start(ChildJvm.command(heap, SliceWorker.class, List.of(backend.name(), base, transport.label(),
                Long.toString(options.timeout().toMillis()), Long.toString(options.window().toMillis()),
                Long.toString(options.dwell().toMillis()), Long.toString(options.trial().toMillis()))), log);
        return new WorkerProcess(id, process);
    }

    /**
     * The Lettuce transport of a target's JVM.
     * @param id a target id without a twin's suffix
     * @return the one its {@code @transport} names; else auto for the Boot-built default, which takes the transport the
     *         starter picks (io_uring where the machine has it) as users get it, and NIO for the others
     */
    static RedisTransport transport(String id) {
        int at = id.indexOf('@');
        if (at >= 0) {
            return RedisTransport.of(id.substring(at + 1));
        }
        return Targets.bootBuilt(id) ? RedisTransport.AUTO : RedisTransport.NIO;
    }

    private void readReplies() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                this.replies.add(line);
            }
        }
        catch (IOException ex) {
            // The worker has gone; the next call notices by its missing answer.
        }
        this.replies.add("error worker_exited");
    }

    /**
     * Sends a command and waits for its answer.
     * @param command the command line
     * @param limit how long the answer may take
     * @return the answer's words after its first ({@code ok} or {@code slice})
     * @throws IOException if the worker answers an error, does not answer in time or has gone
     */
    String[] call(String command, Duration limit) throws IOException {
        this.commands.write(command + "\n");
        this.commands.flush();
        String reply;
        try {
            reply = this.replies.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for " + this.id, ex);
        }
        if (reply == null) {
            throw new IOException(this.id + " did not answer '" + command + "' within " + limit.toSeconds() + " s");
        }
        if (reply.startsWith("error")) {
            throw new IOException(this.id + " failed '" + command + "': " + reply.substring(5).trim());
        }
        String[] words = reply.split(" ");
        String[] rest = new String[words.length - 1];
        System.arraycopy(words, 1, rest, 0, rest.length);
        return rest;
    }

    /** @return the target's id */
    String id() {
        return this.id;
    }

    @Override
    public void close() {
        try {
            call("quit", Duration.ofSeconds(20));
        }
        catch (IOException ex) {
            // Stopped below either way.
        }
        ChildJvm.awaitExit(this.process, Duration.ofSeconds(10));
    }
}
