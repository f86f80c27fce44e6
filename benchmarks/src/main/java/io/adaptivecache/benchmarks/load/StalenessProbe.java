package io.adaptivecache.benchmarks.load;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

/**
 * Measures how stale a near cache's reads are while the callers load it: a second client (another
 * application instance, with no local tier) writes versions 1, 2, 3, ... of one probe key every
 * {@code writeEvery}, and a reader asks the near cache for that key every {@code readEvery}. A
 * write's staleness is how long after it completed the near cache still served an older version:
 * the start of the last read that returned one, minus the write's completion (0 if no read did).
 *
 * <p>The resolution is the read interval (a write is seen stale until up to one read interval
 * later than measured). The probe's own load (a local read per interval, a remote write per write
 * interval) runs on the near cache's side only, so it costs the near cache's throughput a little,
 * never its comparison's.
 */
public final class StalenessProbe implements AutoCloseable {

    /** Writes through the other instance. */
    @FunctionalInterface
    public interface Writer {

        /**
         * Writes a value without expiry and returns once the server has it.
         * @param key the key
         * @param value the value
         */
        void write(String key, byte[] value);
    }

    /** Reads through the near cache. */
    @FunctionalInterface
    public interface Reader {

        /**
         * Reads a value.
         * @param key the key
         * @return the value, or {@code null}
         */
        byte[] read(String key);
    }

    private static final int MAX_WRITES = 1 << 14;
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

    private final String key;
    private final Writer writer;
    private final Reader reader;
    private final Runnable closer;
    private final long writeEveryNanos;
    private final long readEveryNanos;
    private final long[] completedAt = new long[MAX_WRITES];
    private final long[] staleFor = new long[MAX_WRITES];
    /** Versions continue from run to run: the key keeps the last one on the server. */
    private long nextVersion = System.currentTimeMillis() * 1000;
    private long firstVersion;
    private volatile long latest;
    /** The newest version the reader has been served. */
    private volatile long seen;
    private volatile boolean writing;
    private volatile boolean reading;
    private Thread writerThread;
    private Thread readerThread;

    /**
     * Creates a probe; nothing runs until {@link #start()}.
     * @param key the probe key, under the near cache's prefixes and outside the callers' key space
     * @param writer the other instance's write
     * @param reader the near cache's read
     * @param closer closes the other instance
     * @param writeEvery the pause between writes
     * @param readEvery the pause between reads
     */
    public StalenessProbe(String key, Writer writer, Reader reader, Runnable closer, Duration writeEvery, Duration readEvery) {
        this.key = key;
        this.writer = writer;
        this.reader = reader;
        this.closer = closer;
        this.writeEveryNanos = writeEvery.toNanos();
        this.readEveryNanos = readEvery.toNanos();
    }

    /** Starts writing and reading. */
    public synchronized void start() {
        if (this.writerThread != null) {
            throw new IllegalStateException("The probe is running");
        }
        java.util.Arrays.fill(this.staleFor, 0);
        this.firstVersion = this.nextVersion;
        this.latest = this.firstVersion - 1;
        this.writing = true;
        this.reading = true;
        this.writerThread = start("staleness-probe-writer", this::write);
        this.readerThread = start("staleness-probe-reader", this::read);
    }

    /**
     * Stops writing, lets the reader catch up with the last write (at most 100 ms), stops it and
     * returns the staleness of every write completed since {@link #start()}.
     * @return per write, microseconds
     */
    public synchronized Histogram stop() {
        Histogram staleness = new Histogram(HIGHEST_MICROS, 3);
        if (this.writerThread == null) {
            return staleness;
        }
        this.writing = false;
        join(this.writerThread);
        long last = this.latest;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        while (this.seen < last && System.nanoTime() < deadline) {
            LockSupport.parkNanos(this.readEveryNanos);
        }
        this.reading = false;
        join(this.readerThread);
        for (long version = this.firstVersion; version <= last; version++) {
            staleness.recordValue(Math.min(HIGHEST_MICROS, this.staleFor[slot(version)] / 1000));
        }
        this.writerThread = null;
        this.readerThread = null;
        return staleness;
    }

    private void write() {
        long version = this.nextVersion;
        while (this.writing && version - this.firstVersion < MAX_WRITES) {
            try {
                this.writer.write(this.key, ByteBuffer.allocate(Long.BYTES).putLong(version).array());
                this.completedAt[slot(version)] = System.nanoTime();
                this.latest = version; // publishes completedAt to the reader
                version++;
            }
            catch (RuntimeException ex) {
                // Written again with the same version: a late-applied failure then reads as that same version.
            }
            LockSupport.parkNanos(this.writeEveryNanos);
        }
        this.nextVersion = version;
    }

    private void read() {
        while (this.reading) {
            long completed = this.latest;
            long start = System.nanoTime();
            long version;
            try {
                byte[] value = this.reader.read(this.key);
                version = value == null || value.length != Long.BYTES ? 0 : ByteBuffer.wrap(value).getLong();
            }
            catch (RuntimeException ex) {
                LockSupport.parkNanos(this.readEveryNanos);
                continue;
            }
            this.seen = Math.max(this.seen, version);
            // Every write from the one after the version served up to the latest completed was overtaken by this read.
            for (long overtaken = Math.max(version + 1, this.firstVersion); overtaken <= completed; overtaken++) {
                int slot = slot(overtaken);
                this.staleFor[slot] = Math.max(this.staleFor[slot], start - this.completedAt[slot]);
            }
            LockSupport.parkNanos(this.readEveryNanos);
        }
    }

    private int slot(long version) {
        return (int) ((version - this.firstVersion) & (MAX_WRITES - 1));
    }

    private static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void join(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        this.closer.run();
    }
}
