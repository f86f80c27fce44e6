package io.adaptivecache.template;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.PendingConnection;
import io.adaptivecache.strategy.SwappableConnectionStrategy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects a template that started without its server: one daemon thread per template tries to
 * open the configured strategy, backing off from {@link #FIRST_DELAY} by doubling to
 * {@link #MAX_DELAY}, and stops once it has (or when the template closes). One WARN at startup and
 * one INFO on success: an outage of an hour must not write a line per attempt.
 */
final class BackgroundConnector implements AutoCloseable {

    /** Prefix of the thread's name; the template's name follows. */
    static final String THREAD_PREFIX = "adaptive-cache-connect-";

    /** Delay before the first retry: a server starting beside the application is usually up within it. */
    static final Duration FIRST_DELAY = Duration.ofMillis(100);

    /** Longest delay between attempts: bounds how long a server that has come back waits to be used. */
    static final Duration MAX_DELAY = Duration.ofSeconds(5);

    private static final Logger logger = LoggerFactory.getLogger(BackgroundConnector.class);

    private final String name;
    private final SwappableConnectionStrategy<?> connections;
    private final String server;
    private final ScheduledExecutorService executor;
    private final long startedNanos = System.nanoTime();
    private long delayNanos = FIRST_DELAY.toNanos();
    private volatile PendingConnection status;
    private volatile @Nullable Thread thread;

    BackgroundConnector(String name, SwappableConnectionStrategy<?> connections, String server, RuntimeException firstFailure) {
        this.name = name;
        this.connections = connections;
        this.server = server;
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread connecting = new Thread(runnable, THREAD_PREFIX + name);
            connecting.setDaemon(true);
            this.thread = connecting;
            return connecting;
        });
        this.status = new PendingConnection(server, reason(firstFailure), 1, Instant.now(), Instant.now().plus(FIRST_DELAY));
    }

    /** Schedules the first retry. */
    void start() {
        logger.warn("Cache template '{}' started without its server ({}): {}. on-failure is degrade, so reads are misses and writes"
                + " are skipped until it connects; retrying in the background", name, server, status.reason());
        schedule();
    }

    /**
     * Where the attempts stand.
     * @return the status
     */
    PendingConnection status() {
        return status;
    }

    private void schedule() {
        try {
            executor.schedule(this::attempt, delayNanos, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            // Closed meanwhile: nothing left to do.
        }
    }

    /** One attempt, on the connector's thread. */
    private void attempt() {
        boolean connected;
        try {
            connected = connections.connect();
        }
        catch (RuntimeException ex) {
            if (Thread.currentThread().isInterrupted() || executor.isShutdown()) {
                return;
            }
            PendingConnection last = status;
            delayNanos = Math.min(delayNanos * 2, MAX_DELAY.toNanos());
            Instant now = Instant.now();
            status = new PendingConnection(server, reason(ex), last.attempts() + 1, now, now.plusNanos(delayNanos));
            logger.debug("Cache template '{}' still cannot reach {} (attempt {}): {}", name, server, last.attempts() + 1,
                    status.reason());
            schedule();
            return;
        }
        if (connected) {
            logger.info("Cache template '{}' connected to {} after {} attempts ({} ms after startup); calls reach the server again",
                    name, server, status.attempts() + 1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
        }
        executor.shutdown();
    }

    private static String reason(RuntimeException failure) {
        String message = failure.getMessage();
        return message != null ? message : failure.getClass().getSimpleName();
    }

    /**
     * Stops trying: interrupts an attempt in flight and waits (bounded) for the thread to end, so
     * nothing outlives the template.
     */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                logger.warn("The connection attempt of cache template '{}' to {} did not stop within 30 s", name, server);
                return;
            }
            // The executor reports termination from its worker, just before that thread ends: wait for the end itself.
            Thread connecting = this.thread;
            if (connecting != null) {
                connecting.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
