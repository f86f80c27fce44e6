package io.adaptivecache.near;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.CacheOperations;

/**
 * Concurrent writes through instance A and reads through instance B of the same keys, measuring
 * how stale B's reads are.
 *
 * <p>Each key has one writer, which writes versions 1, 2, 3, ... (as the value) and records when
 * each write completed; a failed write is retried with the same version, so a late-applied
 * failure never reads as a newer write. A reader notes the latest completed version {@code c}
 * of a key before it reads; a read returning {@code u < c} is stale, by
 * {@code start - completedAt[u + 1]}: how long before the read began a newer write had completed.
 *
 * <p>Measured: per write, the longest B kept serving an older value after the write completed
 * (p99 and maximum over all writes). Checked: no read is stale by the bound or more, which is the
 * near cache's guarantee (no read returns a value older than a write that completed more than the
 * staleness bound before the read started). After {@link #wiped()} (the server lost its data),
 * reads that begin after {@link #strictFrom(long)} must never return a value written before the
 * loss: the server no longer has it. With a second writer on the reader's own instance (every even
 * version), a read that starts after that instance's write of the key completed must return that
 * version or a newer one, whatever the bound (read-your-writes).
 */
final class StalenessLoad {

    private static final int MAX_VERSIONS = 1 << 14;

    private final CacheOperations<byte[]> writer;
    private final CacheOperations<byte[]> evenWriter;
    private final CacheOperations<byte[]> reader;
    private final String[] keys;
    private final long boundNanos;
    private final AtomicLongArray completed;
    /** Per key, the latest version the reader's own instance wrote (the even writer), once completed. */
    private final AtomicLongArray ownCompleted;
    private final long[][] completedAt;
    private final AtomicLongArray[] stalenessOfWrite;
    private final long[] wiped;
    private volatile boolean wipedSet;
    private volatile long strictFromNanos = Long.MAX_VALUE;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong failedReads = new AtomicLong();
    private final AtomicLong staleReads = new AtomicLong();
    private final AtomicLong violations = new AtomicLong();
    private final ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<>();
    private volatile boolean running;

    StalenessLoad(CacheOperations<byte[]> writer, CacheOperations<byte[]> reader, String keyPrefix, int keyCount, Duration bound) {
        this(writer, null, reader, keyPrefix, keyCount, bound);
    }

    /**
     * A load whose even versions are written through a second writer: the reader's own instance,
     * so that its own writes (kept locally, awaiting their echo) and the other instance's follow
     * each other on the same keys. A key's writes stay one at a time, in version order.
     */
    StalenessLoad(CacheOperations<byte[]> writer, CacheOperations<byte[]> evenWriter, CacheOperations<byte[]> reader,
            String keyPrefix, int keyCount, Duration bound) {
        this.writer = writer;
        this.evenWriter = evenWriter;
        this.reader = reader;
        this.keys = new String[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = keyPrefix + i;
        }
        this.boundNanos = bound.toNanos();
        this.completed = new AtomicLongArray(keyCount);
        this.ownCompleted = new AtomicLongArray(keyCount);
        this.completedAt = new long[keyCount][MAX_VERSIONS];
        this.stalenessOfWrite = new AtomicLongArray[keyCount];
        for (int i = 0; i < keyCount; i++) {
            stalenessOfWrite[i] = new AtomicLongArray(MAX_VERSIONS);
        }
        this.wiped = new long[keyCount];
    }

    /**
     * Runs the load, calling {@code during} on the test's thread while it runs.
     * @param writers writer threads on A (each owns every writers-th key)
     * @param readers reader threads on B
     * @param writePause pause between a writer's writes
     * @param during what to do meanwhile (switch strategies, kill the server); the load stops when it returns
     * @return the result
     */
    Result run(int writers, int readers, Duration writePause, ThrowingRunnable during) throws Exception {
        running = true;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int first = w;
            threads.add(start("near-writer-" + w, () -> write(first, writers, writePause.toNanos())));
        }
        for (int r = 0; r < readers; r++) {
            threads.add(start("near-reader-" + r, this::read));
        }
        try {
            during.run();
        }
        finally {
            running = false;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
        return result();
    }

    /** What to do while the load runs. */
    interface ThrowingRunnable {

        void run() throws Exception;
    }

    private static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * The server lost every key: versions completed so far are gone from it. Call while the server
     * is down, once the replies it sent before going down have been read. A write whose reply
     * arrives just after the kill was applied before it and lost with it; had this been called
     * before that reply, every later read of the key as absent would look stale by the time since
     * the kill.
     */
    void wiped() {
        for (int k = 0; k < keys.length; k++) {
            wiped[k] = completed.get(k);
        }
        wipedSet = true;
    }

    /** Reads that begin from now on must not return a wiped value. */
    void strictFrom(long nanos) {
        strictFromNanos = nanos;
    }

    private void write(int first, int stride, long pauseNanos) {
        long[] next = new long[keys.length];
        Arrays.fill(next, 1);
        while (running) {
            for (int k = first; k < keys.length && running; k += stride) {
                long version = next[k];
                if (version >= MAX_VERSIONS) {
                    continue;
                }
                try {
                    boolean own = evenWriter != null && (version & 1) == 0;
                    (own ? evenWriter : writer).set(keys[k], encode(version), Duration.ZERO);
                    completedAt[k][(int) version] = System.nanoTime();
                    completed.set(k, version);
                    if (own) {
                        ownCompleted.set(k, version);
                    }
                    next[k] = version + 1;
                    writes.incrementAndGet();
                }
                catch (RuntimeException ex) {
                    // Retried with the same version: if this one reaches the server late, it still reads as this version.
                    failedWrites.incrementAndGet();
                }
                LockSupport.parkNanos(pauseNanos);
            }
        }
    }

    private void read() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running) {
            int k = random.nextInt(keys.length);
            long latest = completed.get(k);
            long ownLatest = ownCompleted.get(k);
            long start = System.nanoTime();
            byte[] value;
            try {
                value = reader.get(keys[k]);
            }
            catch (RuntimeException ex) {
                failedReads.incrementAndGet();
                LockSupport.parkNanos(1_000_000);
                continue;
            }
            reads.incrementAndGet();
            long version = value == null ? 0 : decode(value);
            if (version < ownLatest && !wipedSet) {
                // Read-your-writes, whatever the bound: a read that starts after its own instance's write completed.
                violation("read %s = %d after the reader's own write of %d had completed", keys[k], version, ownLatest);
            }
            if (wipedSet) {
                if (start >= strictFromNanos && version != 0 && version <= wiped[k]) {
                    violation("read %s = %d at +%d ms after recovery: a value the server lost (lost up to %d)", keys[k], version,
                            TimeUnit.NANOSECONDS.toMillis(start - strictFromNanos), wiped[k]);
                }
                if (version == 0) {
                    // After the loss, absent is the state the server restarted with, as new as the versions it lost.
                    version = wiped[k];
                }
            }
            if (version < latest) {
                staleReads.incrementAndGet();
                for (long overtaken = version + 1; overtaken <= latest; overtaken++) {
                    long staleBy = start - completedAt[k][(int) overtaken];
                    stalenessOfWrite[k].accumulateAndGet((int) overtaken, staleBy, Math::max);
                }
                long staleBy = start - completedAt[k][(int) version + 1];
                if (staleBy >= boundNanos) {
                    violation("read %s = %d while %d completed %.1f ms before the read began (bound %d ms)", keys[k], version,
                            version + 1, staleBy / 1e6, TimeUnit.NANOSECONDS.toMillis(boundNanos));
                }
            }
            // Leave the I/O threads some of two cores.
            if ((reads.get() & 7) == 0) {
                Thread.yield();
            }
        }
    }

    private void violation(String format, Object... args) {
        if (violations.incrementAndGet() <= 10) {
            examples.add(String.format(format, args));
        }
    }

    private Result result() {
        List<Long> perWrite = new ArrayList<>();
        for (int k = 0; k < keys.length; k++) {
            long last = completed.get(k);
            for (int v = (int) wiped[k] + 1; v <= last; v++) {
                perWrite.add(stalenessOfWrite[k].get(v));
            }
        }
        long[] sorted = perWrite.stream().mapToLong(Long::longValue).sorted().toArray();
        long p50 = sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(sorted.length * 0.50))];
        long p99 = sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
        long max = sorted.length == 0 ? 0 : sorted[sorted.length - 1];
        long staleWrites = Arrays.stream(sorted).filter(s -> s > 0).count();
        return new Result(writes.get(), failedWrites.get(), reads.get(), failedReads.get(), staleReads.get(), sorted.length,
                staleWrites, p50, p99, max, violations.get(), List.copyOf(examples));
    }

    private static byte[] encode(long version) {
        // Some bytes beyond the version, as a small cached object would have.
        return ByteBuffer.allocate(64).putLong(version).array();
    }

    private static long decode(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }

    /**
     * What a run measured.
     * @param writes completed writes on A
     * @param failedWrites writes that failed (retried)
     * @param reads reads on B
     * @param failedReads reads that failed
     * @param staleReads reads that returned an older version than one completed before they began
     * @param measuredWrites writes whose staleness was measured
     * @param staleWrites writes some read of B began after and still missed
     * @param p50Nanos median staleness per write
     * @param p99Nanos 99th percentile staleness per write
     * @param maxNanos longest staleness of a write
     * @param violations reads stale by the bound or more, or returning a lost value after recovery
     * @param examples the first violations
     */
    record Result(long writes, long failedWrites, long reads, long failedReads, long staleReads, long measuredWrites,
            long staleWrites, long p50Nanos, long p99Nanos, long maxNanos, long violations, List<String> examples) {

        String summary() {
            return String.format("%d writes (%d failed), %d reads (%d failed, %d stale); staleness per write over %d writes"
                    + " (%d ever read stale): p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d violations %s", writes, failedWrites, reads,
                    failedReads, staleReads, measuredWrites, staleWrites, p50Nanos / 1e6, p99Nanos / 1e6, maxNanos / 1e6, violations,
                    examples);
        }
    }
}
