package io.adaptivecache.metrics;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.call.CallOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server node's circuit breaker, so that a node that stopped answering costs its own keys'
 * callers a fast failure instead of a timeout each, and leaves the callers of every other node
 * their throughput. Without it, a frozen node of a cluster stalls the whole application: each
 * caller sooner or later picks a key of that node and waits out the command timeout, until every
 * caller is waiting.
 *
 * <p>It opens after {@link Settings#failureThreshold()} calls in a row that the node did not
 * answer (a timeout or a lost connection: an error reply is an answer). While open it refuses
 * calls at once; after {@link Settings#openDuration()} it lets one trial call through, and closes
 * when the trial is answered or opens again when it is not.
 *
 * <p>It logs once per outage: a WARN when it opens after being closed (not when a failed trial
 * opens it again) and a WARN when the outage ends, by a trial call that was answered or by the
 * node losing its slots to another node ({@link #retire}). Lock-free: a call reads one volatile
 * field on its way in and, while the node answers, writes nothing on its way out.
 */
public final class NodeBreaker {

    private static final Logger logger = LoggerFactory.getLogger(NodeBreaker.class);

    /** {@link #acquire()}: refused, the node's breaker is open. */
    public static final int REFUSED = 0;

    /** {@link #acquire()}: an ordinary call, the breaker is closed. */
    public static final int PERMITTED = 1;

    /** {@link #acquire()}: the one trial call of an open breaker whose open time is over. */
    public static final int TRIAL = 2;

    private final String address;
    private final int threshold;
    private final long openNanos;
    private final AtomicInteger failuresInARow = new AtomicInteger();
    /** When the open breaker lets a trial through (System.nanoTime), or 0 while closed. */
    private final AtomicLong openUntil = new AtomicLong();
    private final AtomicBoolean trialInFlight = new AtomicBoolean();
    private final LongAdder refused = new LongAdder();
    // Written only at the transitions, which are rare.
    private volatile long outageStarted;
    private volatile long refusedAtOutageStart;

    NodeBreaker(String address, Settings settings) {
        this.address = address;
        this.threshold = settings.failureThreshold();
        this.openNanos = settings.openDuration().toNanos();
    }

    /**
     * Asks to send one call to the node.
     * @return {@link #REFUSED}, {@link #PERMITTED} or {@link #TRIAL}; a permitted or trial call
     *     must report its outcome to {@link #onOutcome}
     */
    public int acquire() {
        long until = this.openUntil.get();
        if (until == 0) {
            return PERMITTED;
        }
        if (System.nanoTime() - until >= 0 && this.trialInFlight.compareAndSet(false, true)) {
            return TRIAL;
        }
        this.refused.increment();
        return REFUSED;
    }

    /**
     * Hears how a permitted or trial call ended.
     * @param outcome how it ended
     * @param permit what {@link #acquire()} answered for it
     */
    public void onOutcome(CallOutcome outcome, int permit) {
        boolean unanswered = outcome == CallOutcome.TIMEOUT || outcome == CallOutcome.CONNECTION_FAILURE;
        if (permit == TRIAL) {
            if (unanswered) {
                this.openUntil.set(openUntilFromNow());
            }
            else if (outcome != CallOutcome.REJECTED && outcome != CallOutcome.POOL_EXHAUSTED) {
                close("answers again");
            }
            // A trial that was never sent says nothing: let the next caller try.
            this.trialInFlight.set(false);
            return;
        }
        if (!unanswered) {
            if (outcome != CallOutcome.REJECTED && outcome != CallOutcome.POOL_EXHAUSTED && this.failuresInARow.get() != 0) {
                this.failuresInARow.set(0);
            }
            return;
        }
        if (this.threshold > 0 && this.failuresInARow.incrementAndGet() >= this.threshold
                && this.openUntil.compareAndSet(0, openUntilFromNow())) {
            this.outageStarted = System.nanoTime();
            this.refusedAtOutageStart = this.refused.sum();
            logger.warn("Redis Cluster node {} did not answer {} calls in a row ({}); calls for its slots now fail at once, with"
                    + " one trial call every {} ms, until it answers or its slots move to another node (said once per outage)",
                    this.address, this.threshold, outcome.tag(), TimeUnit.NANOSECONDS.toMillis(this.openNanos));
        }
    }

    /**
     * Ends an outage because the node no longer serves any slot (its replica took over): no call
     * will reach it to close the breaker the ordinary way.
     * @param reason what happened, for the log
     */
    public void retire(String reason) {
        close(reason);
    }

    private void close(String reason) {
        long until = this.openUntil.get();
        if (until != 0 && this.openUntil.compareAndSet(until, 0)) {
            this.failuresInARow.set(0);
            logger.warn("Redis Cluster node {} outage over after {} ms: {}; {} calls were refused meanwhile", this.address,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.outageStarted), reason,
                    this.refused.sum() - this.refusedAtOutageStart);
        }
    }

    private long openUntilFromNow() {
        long until = System.nanoTime() + this.openNanos;
        return until == 0 ? 1 : until;
    }

    /**
     * The breaker's state, for health and the Actuator endpoint.
     * @return {@code CLOSED}, {@code OPEN} (refusing calls) or {@code HALF_OPEN} (a trial is due or in flight)
     */
    public String state() {
        long until = this.openUntil.get();
        if (until == 0) {
            return "CLOSED";
        }
        return this.trialInFlight.get() || System.nanoTime() - until >= 0 ? "HALF_OPEN" : "OPEN";
    }

    /**
     * Whether the breaker refuses calls now (open, or half-open with its trial in flight).
     * @return {@code true} while an outage lasts
     */
    public boolean isOpen() {
        return this.openUntil.get() != 0;
    }

    /**
     * Calls refused since the template started.
     * @return the count
     */
    public long refusedCalls() {
        return this.refused.sum();
    }

    /**
     * When a node's breaker opens and how long it stays open.
     *
     * @param failureThreshold unanswered calls in a row that open it; 0 turns the breaker off
     * @param openDuration how long it refuses calls before a trial call
     */
    public record Settings(int failureThreshold, Duration openDuration) {

        /** Five unanswered calls in a row; one trial call a second. */
        public static final Settings DEFAULTS = new Settings(5, Duration.ofSeconds(1));

        /** No breaker: every call is sent. */
        public static final Settings DISABLED = new Settings(0, Duration.ofSeconds(1));

        /**
         * Checks the settings.
         * @param failureThreshold 0 or more
         * @param openDuration positive
         */
        public Settings {
            Objects.requireNonNull(openDuration, "openDuration");
            if (failureThreshold < 0) {
                throw new IllegalArgumentException("The node breaker's failure threshold must be 0 (off) or more, was "
                        + failureThreshold);
            }
            if (openDuration.isNegative() || openDuration.isZero()) {
                throw new IllegalArgumentException("The node breaker's open duration must be positive, was " + openDuration);
            }
        }

        /**
         * Whether there is a breaker at all.
         * @return {@code false} for a threshold of 0
         */
        public boolean enabled() {
            return this.failureThreshold > 0;
        }
    }
}
