package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.jspecify.annotations.Nullable;

/**
 * The default policy, encoding what the source articles measured:
 * <ul>
 * <li>POOLED loses when callers wait for a connection about as long as they use it, when waiting
 * borrowers pile up, or when every pooled connection is busy (P connections / round trip caps the
 * rate): switch to MULTI at the connection cap;</li>
 * <li>one shared connection saturates its single I/O thread under many threads: when each
 * connection carries more than {@code growAbove} calls at once, double N toward the cap;</li>
 * <li>connections that sit idle (under {@code shrinkBelow} calls each) are halved, down to SINGLE;</li>
 * <li>when the backend has blocking connections for POOLED ({@link BlockingPool}), few callers on a
 * short round trip move to such a pool, which serves each call on its caller's thread;</li>
 * <li>with such connections, large values on a short round trip move to the blocking pool at any
 * number of callers (each caller's thread reads its own value off its own socket, rather than every
 * value passing through a shared connection's one I/O thread), and while the pool serves values
 * that are still large, callers waiting for it do not send them back to shared connections: the
 * pool is bandwidth-bound there, and the wait is the price of the bandwidth.</li>
 * </ul>
 * Against flapping: a change is made only when every counted window for a whole dwell (and at
 * least {@code confirmWindows} of them) proposed the same target, so a load that changes faster
 * than the dwell (a square wave, or a load hovering at a threshold) never completes a proposal;
 * a change jumps straight to the size the load needs rather than doubling step by step, so a
 * stable phase costs at most one switch; a minimum dwell separates changes; each change is on
 * trial against the incumbent's recent windows and rolled back only if the median of its windows'
 * mean latencies at comparable load exceeds the incumbent's median divided by
 * {@code 1 - trialTolerance} (a median, so that one noisy window cannot overturn a trial); each
 * rollback doubles the dwell, and a move made for a gain (a blocking pool, large values, fewer or
 * more shared connections) is not proposed again while the load stays like the one it lost at; a trial during which the round trip (a window's shortest call) moved 3x is kept
 * without comparison, since the network changed, not the strategy; repeated rollbacks suppress
 * changes; an hourly budget caps them.
 * Disturbed or thin windows count neither for nor against a change.
 * <p>Trials are judged on latency, not throughput: in production the arrivals are set by the
 * service's traffic (an open loop), so a strategy changes how long each call takes, and with it
 * how many calls are in flight, but not how many calls there are per second; and a single bursty
 * caller's throughput moves more from window to window than any tolerance worth having. Mean
 * latency is the inverse of throughput per call in flight (Little's law), so in a closed loop (a
 * fixed number of busy callers) it falls exactly as throughput rises. The load counts as changed
 * during a trial (and the candidate is kept without comparison) only when concurrency and
 * throughput both moved the same way by a factor of 2 or more: more callers or arrivals raise
 * both, fewer lower both, while a strategy alone moves them apart (fewer calls per second at the
 * same concurrency in a closed loop, more calls in flight at the same rate in an open loop).
 */
public final class ThresholdStrategyPolicy implements StrategyPolicy {

    private static final long HOUR = Duration.ofHours(1).toNanos();
    private static final int BASELINE_WINDOWS = 10;
    private static final int MAX_REJECTIONS = 8;

    /**
     * Moves made for a gain while the incumbent serves its callers: one that loses its trial is
     * remembered with its load. Moves away from a pool that makes callers wait (contended or
     * saturated) are not: after a rollback they come back once the doubled dwell has passed, since
     * one unlucky trial must not hold a load on a pool that fails it (a pool at 50 callers served
     * half of what shared connections did in the phase runs; one shared connection against two, on
     * this machine, differed by at most a fifth).
     */
    private static final Set<DecisionReason> SPECULATIVE = EnumSet.of(DecisionReason.BLOCKING_FITS, DecisionReason.LARGE_VALUES,
            DecisionReason.CONNECTIONS_IDLE, DecisionReason.CONNECTION_SATURATED);

    private final Settings settings;
    private final @Nullable BlockingPool blockingPool;
    private final Deque<WindowSample> incumbentWindows = new ArrayDeque<>();
    private final Deque<Long> switchTimes = new ArrayDeque<>();
    private final Deque<Long> rollbackTimes = new ArrayDeque<>();
    private final List<WindowSample> trialWindows = new ArrayList<>();
    private final Deque<Rejection> rejections = new ArrayDeque<>();
    private long lastChangeNanos = Long.MIN_VALUE;
    private long dwellNanos;
    private boolean suppressing;
    private long suppressedUntil;
    private @Nullable StrategySpec candidate;
    private @Nullable DecisionReason candidateReason;
    private int candidateWindows;
    private long candidateSinceNanos;
    private @Nullable Trial trial;

    /**
     * Creates a policy.
     * @param settings its thresholds and timings
     */
    public ThresholdStrategyPolicy(Settings settings) {
        this(settings, null);
    }

    /**
     * Creates a policy for a template whose POOLED strategies run on blocking connections.
     * @param settings its thresholds and timings
     * @param blockingPool when a blocking pool suits the load, or {@code null} if the backend has none
     */
    public ThresholdStrategyPolicy(Settings settings, @Nullable BlockingPool blockingPool) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.blockingPool = blockingPool;
        this.dwellNanos = settings.dwell().toNanos();
    }

    /**
     * A builder that starts from {@link Settings#defaults()}, without a blocking pool: set only
     * what differs, by name, rather than all of {@link Settings}' components in order.
     * @return the builder
     */
    public static Builder builder() {
        return new Builder(Settings.defaults());
    }

    /**
     * A builder that starts from the given settings, without a blocking pool.
     * @param settings the settings to start from
     * @return the builder
     */
    public static Builder builder(Settings settings) {
        return new Builder(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * The thresholds and timings this policy was created with.
     * @return the settings
     */
    public Settings settings() {
        return this.settings;
    }

    /**
     * When this policy moves callers to blocking POOLED connections.
     * @return the blocking pool's settings, or {@code null} if the backend has none (or the rule is off)
     */
    public @Nullable BlockingPool blockingPool() {
        return this.blockingPool;
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        StrategySpec current = window.strategy();
        if (this.lastChangeNanos == Long.MIN_VALUE) {
            this.lastChangeNanos = now; // the first dwell counts from the first window seen
        }
        if (isSuppressed(now)) {
            return Decision.stay(now, current, DecisionReason.SUPPRESSED,
                    "changes suspended after " + this.rollbackTimes.size() + " rollbacks within an hour");
        }
        if (window.disturbed()) {
            return Decision.stay(now, current, DecisionReason.DISTURBED, window.disturbance());
        }
        if (window.calls() < this.settings.minCallsPerWindow()) {
            return Decision.stay(now, current, DecisionReason.INSUFFICIENT_DATA,
                    window.calls() + " calls < " + this.settings.minCallsPerWindow());
        }
        if (this.trial != null) {
            Decision trialDecision = judgeTrial(window, now);
            if (trialDecision != null) {
                return trialDecision;
            }
        }
        remember(window);
        long sinceChange = now - this.lastChangeNanos;
        // Every window is judged, during the dwell too: a proposal must hold without a break for a whole dwell.
        Decision proposal = propose(window, now);
        if (proposal.isSwitch()) {
            Rejection rejected = rejectedAtThisLoad(proposal.target(), window, now);
            if (rejected != null) {
                proposal = Decision.stay(now, current, DecisionReason.REJECTED_AT_THIS_LOAD, proposal.reason() + " toward "
                        + proposal.target() + ", which lost its trial " + seconds(now - rejected.atNanos()) + " s ago at a load like"
                        + " this one (" + String.format(Locale.ROOT, "concurrency %.1f, now %.1f", rejected.concurrency(),
                                window.concurrency()) + "): " + proposal.evidence());
            }
        }
        if (!proposal.isSwitch()) {
            this.candidate = null;
            this.candidateWindows = 0;
            return sinceChange < this.dwellNanos ? dwell(now, current, sinceChange) : proposal;
        }
        if (proposal.target().equals(this.candidate)) {
            this.candidateWindows++;
        }
        else {
            this.candidate = proposal.target();
            this.candidateReason = proposal.reason();
            this.candidateWindows = 1;
            this.candidateSinceNanos = window.startNanos();
        }
        if (sinceChange < this.dwellNanos) {
            return dwell(now, current, sinceChange);
        }
        long held = window.endNanos() - this.candidateSinceNanos;
        long stability = this.settings.dwell().toNanos();
        if (this.candidateWindows < this.settings.confirmWindows() || held < stability) {
            return Decision.stay(now, current, DecisionReason.CONFIRMING, this.candidateReason + " toward " + this.candidate
                    + " in " + this.candidateWindows + " windows over " + seconds(held) + " s (needs " + this.settings.confirmWindows()
                    + " windows over " + seconds(stability) + " s): " + proposal.evidence());
        }
        expire(this.switchTimes, now);
        if (this.switchTimes.size() >= this.settings.maxSwitchesPerHour()) {
            return Decision.stay(now, current, DecisionReason.BUDGET_EXHAUSTED,
                    this.switchTimes.size() + " switches in the last hour; " + proposal.reason() + " waits");
        }
        return proposal;
    }

    private @Nullable Rejection rejectedAtThisLoad(StrategySpec target, WindowSample window, long now) {
        while (!this.rejections.isEmpty() && now - this.rejections.peekFirst().atNanos() > this.settings.maxDwell().toNanos()) {
            this.rejections.removeFirst();
        }
        for (Rejection rejection : this.rejections) {
            if (rejection.matches(target, window)) {
                return rejection;
            }
        }
        return null;
    }

    private Decision dwell(long now, StrategySpec current, long sinceChange) {
        return Decision.stay(now, current, DecisionReason.DWELL,
                "last change " + seconds(sinceChange) + " s ago, dwell " + seconds(this.dwellNanos) + " s");
    }

    /** The rules, applied to one undisturbed window. */
    private Decision propose(WindowSample window, long now) {
        StrategySpec current = window.strategy();
        int cap = this.settings.maxConnections();
        if (current.type() == StrategyType.POOLED) {
            int poolSize = current.pool().maxTotal();
            double useNanos = Math.max(1, window.meanLatencyNanos() - window.meanBorrowWaitNanos());
            double waitRatio = window.meanBorrowWaitNanos() / useNanos;
            String figures = String.format(Locale.ROOT, "borrow wait %.0f us vs use %.0f us (ratio %.2f), %d waiting, concurrency %.1f of %d",
                    window.meanBorrowWaitNanos() / 1e3, useNanos / 1e3, waitRatio, window.waitingBorrowers(), window.concurrency(),
                    poolSize);
            // Every POOLED of a policy with a blocking pool runs on blocking connections. Half the threshold to stay:
            // values near it cannot flap.
            double stillLarge = this.blockingPool == null ? 0 : this.blockingPool.largeValueBytes() / 2.0;
            if (this.blockingPool != null && this.blockingPool.largeValues(window, stillLarge)) {
                return Decision.stay(now, current, DecisionReason.STEADY, figures + "; " + valueFigures(window, "still large from",
                        stillLarge) + ": the blocking pool is bandwidth-bound here, and waiting for it is the price of the bandwidth");
            }
            StrategySpec multi = StrategySpec.multi(cap, this.settings.selector());
            if (waitRatio > this.settings.poolWaitRatio() || window.waitingBorrowers() >= poolSize) {
                return new Decision(now, current, multi, DecisionReason.POOL_CONTENTION, figures);
            }
            if (window.concurrency() > poolSize * 0.9) {
                return new Decision(now, current, multi, DecisionReason.POOL_SATURATED, figures);
            }
            return Decision.stay(now, current, DecisionReason.STEADY, figures);
        }
        int connections = current.connections();
        double perConnection = window.concurrency() / connections;
        String figures = String.format(Locale.ROOT, "concurrency %.1f over %d connections (%.2f each), p99 %.2f ms, %.0f calls/s",
                window.concurrency(), connections, perConnection, window.p99LatencyNanos() / 1e6, window.throughput());
        if (this.blockingPool != null && this.blockingPool.largeValues(window, this.blockingPool.largeValueBytes())) {
            return new Decision(now, current, this.blockingPool.spec(), DecisionReason.LARGE_VALUES, figures + "; "
                    + valueFigures(window, "large from", this.blockingPool.largeValueBytes()));
        }
        // Grow or shrink straight to what the load needs (halfway between the two thresholds per connection): one switch a phase.
        double comfortable = (this.settings.growAbove() + this.settings.shrinkBelow()) / 2;
        if (perConnection > this.settings.growAbove() && connections < cap) {
            int needed = (int) Math.ceil(window.concurrency() / comfortable);
            return new Decision(now, current, StrategySpec.multi(Math.min(cap, Math.max(connections * 2, needed)),
                    this.settings.selector()), DecisionReason.CONNECTION_SATURATED, figures);
        }
        if (this.blockingPool != null && this.blockingPool.fits(window)) {
            return new Decision(now, current, this.blockingPool.spec(), DecisionReason.BLOCKING_FITS,
                    figures + String.format(Locale.ROOT, ", mean %.2f ms", window.meanLatencyNanos() / 1e6));
        }
        if (connections > 1 && perConnection < this.settings.shrinkBelow()) {
            int smaller = Math.min(connections / 2, Math.max(1, (int) Math.ceil(window.concurrency() / comfortable)));
            return new Decision(now, current,
                    smaller <= 1 ? StrategySpec.single() : StrategySpec.multi(smaller, this.settings.selector()),
                    DecisionReason.CONNECTIONS_IDLE, figures);
        }
        return Decision.stay(now, current, DecisionReason.STEADY, figures);
    }

    /** Null when the trial is over and the window should be judged normally. */
    private @Nullable Decision judgeTrial(WindowSample window, long now) {
        Trial running = this.trial;
        if (!window.strategy().equals(running.candidate())) {
            this.trial = null; // replaced meanwhile (an operator): nothing left to judge
            return null;
        }
        this.trialWindows.add(window);
        if (now - running.until() < 0) {
            return Decision.stay(now, window.strategy(), DecisionReason.TRIAL,
                    "trial of " + running.candidate() + " against " + running.incumbent() + ", " + this.trialWindows.size()
                            + " windows so far");
        }
        this.trial = null;
        double trialLatency = median(this.trialWindows.stream().mapToDouble(WindowSample::meanLatencyNanos).toArray());
        double trialThroughput = median(this.trialWindows.stream().mapToDouble(WindowSample::throughput).toArray());
        double trialConcurrency = median(this.trialWindows.stream().mapToDouble(WindowSample::concurrency).toArray());
        double trialRoundTrip = median(this.trialWindows.stream().mapToDouble(WindowSample::minLatencyNanos).toArray());
        double trialValueBytes = median(this.trialWindows.stream().mapToDouble(WindowSample::meanValueBytes).toArray());
        this.trialWindows.clear();
        double limit = running.baselineLatency() / (1 - this.settings.trialTolerance());
        String figures = String.format(Locale.ROOT, "median mean latency %s on %s vs %s on %s (limit %s); %.0f vs %.0f calls/s,"
                + " concurrency %.1f vs %.1f", latency(trialLatency), running.candidate(), latency(running.baselineLatency()),
                running.incumbent(), latency(limit), trialThroughput, running.baselineThroughput(), trialConcurrency,
                running.baselineConcurrency());
        double concurrencyRatio = trialConcurrency / Math.max(1e-9, running.baselineConcurrency());
        double throughputRatio = trialThroughput / Math.max(1e-9, running.baselineThroughput());
        // More callers (or arrivals) raise both figures and fewer lower both; a strategy alone moves them apart.
        boolean loadChanged = (concurrencyRatio >= 2.0 && throughputRatio >= 2.0) || (concurrencyRatio <= 0.5 && throughputRatio <= 0.5)
                // The shortest call is the round trip no strategy hides or adds: when it moved 3x, the network changed.
                || !similarRoundTrip(trialRoundTrip, running.baselineRoundTrip());
        boolean comparableLoad = running.baselineLatency() > 0 && !loadChanged;
        if (comparableLoad && trialLatency > limit) {
            expire(this.rollbackTimes, now);
            this.rollbackTimes.add(now);
            this.dwellNanos = Math.min(this.dwellNanos * 2, this.settings.maxDwell().toNanos());
            if (this.rollbackTimes.size() >= this.settings.suppressAfterRollbacks()) {
                this.suppressing = true;
                this.suppressedUntil = now + this.settings.suppression().toNanos();
            }
            // A move made for a gain (not away from measured trouble) that lost: the same load must not propose it again.
            if (SPECULATIVE.contains(running.reason())) {
                this.rejections.addLast(new Rejection(running.candidate(), trialConcurrency, trialValueBytes, trialRoundTrip, now));
                while (this.rejections.size() > MAX_REJECTIONS) {
                    this.rejections.removeFirst();
                }
            }
            return new Decision(now, window.strategy(), running.incumbent(), DecisionReason.ROLLBACK, figures);
        }
        this.dwellNanos = Math.max(this.settings.dwell().toNanos(), this.dwellNanos / 2);
        this.incumbentWindows.clear();
        return Decision.stay(now, window.strategy(), DecisionReason.TRIAL_ACCEPTED,
                figures + (comparableLoad ? "" : "; load changed, kept without comparison"));
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long now) {
        this.candidate = null;
        this.candidateWindows = 0;
        this.lastChangeNanos = now;
        if (!applied) {
            // The new strategy could not be opened: back off before trying again.
            this.dwellNanos = Math.min(this.dwellNanos * 2, this.settings.maxDwell().toNanos());
            return;
        }
        expire(this.switchTimes, now);
        this.switchTimes.add(now);
        List<WindowSample> baseline = List.copyOf(this.incumbentWindows);
        this.incumbentWindows.clear();
        this.trialWindows.clear();
        if (trial && decision.reason() != DecisionReason.ROLLBACK && !baseline.isEmpty()) {
            this.trial = new Trial(decision.current(), decision.target(), decision.reason(), now + this.settings.trial().toNanos(),
                    median(baseline.stream().mapToDouble(WindowSample::meanLatencyNanos).toArray()),
                    median(baseline.stream().mapToDouble(WindowSample::throughput).toArray()),
                    median(baseline.stream().mapToDouble(WindowSample::concurrency).toArray()),
                    median(baseline.stream().mapToDouble(WindowSample::minLatencyNanos).toArray()));
        }
        else {
            this.trial = null;
        }
    }

    @Override
    public boolean isSuppressed(long nowNanos) {
        return this.suppressing && nowNanos - this.suppressedUntil < 0;
    }

    private void remember(WindowSample window) {
        this.incumbentWindows.addLast(window);
        while (this.incumbentWindows.size() > BASELINE_WINDOWS) {
            this.incumbentWindows.removeFirst();
        }
    }

    private static void expire(Deque<Long> times, long now) {
        while (!times.isEmpty() && now - times.peekFirst() > HOUR) {
            times.removeFirst();
        }
    }

    /** The median: one window far off (a GC pause, a neighbour's burst) moves it by at most one rank. */
    private static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        java.util.Arrays.sort(values);
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private String valueFigures(WindowSample window, String large, double threshold) {
        return "values of " + bytes(window.meanValueBytes()) + " per call (" + large + " " + bytes(threshold) + "), shortest call "
                + latency(window.minLatencyNanos()) + " (a short round trip up to " + latency(this.blockingPool.maxRoundTrip().toNanos())
                + ")";
    }

    /** A size for evidence. */
    private static String bytes(double bytes) {
        if (bytes < 1024) {
            return String.format(Locale.ROOT, "%.0f B", bytes);
        }
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024)
                : String.format(Locale.ROOT, "%.2f MiB", bytes / (1024 * 1024));
    }

    /** A latency for evidence: microseconds below a millisecond, milliseconds from there. */
    private static String latency(double nanos) {
        return nanos < 1e6 ? String.format(Locale.ROOT, "%.0f \u00b5s", nanos / 1e3) : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static long seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds();
    }

    /**
     * When a backend's blocking POOLED connections suit the load better than shared ones.
     * <ul>
     * <li>Few calls in flight and a short round trip, where handing every command to an event-loop
     * thread and back costs more than the I/O itself (a blocking client measured about 2x at one
     * caller thread on this project's machine). The pool is sized well above that concurrency, so
     * that the rule that leaves a saturated pool (at 90% of its size) cannot fire at the same
     * load.</li>
     * <li>Large values (a window's mean value bytes per call at or above {@code largeValueBytes})
     * on a short round trip (its shortest call at most {@code maxRoundTrip}), at any number of
     * callers: each caller's thread then reads its own value off its own socket, where shared
     * connections pass every value through one I/O thread each. Measured on this project's
     * machine with 100 KiB values (80% get, 20% set) on loopback, a blocking pool led every
     * shared-connection strategy at 8, 50 and 200 callers (about 1.25x at 200, 1.3x at 50, 1.75x
     * at 8), while through a link with 1 ms of delay each way the shared connections led (MULTI
     * 5.1k calls/s against 2.5 to 3.5k for a blocking pool at 200 callers); at 100 bytes only the
     * first rule holds. While the pool serves values of at least half {@code largeValueBytes} on
     * such a round trip, callers waiting for it (POOL_CONTENTION) or a busy pool (POOL_SATURATED)
     * do not send the load back to shared connections: the pool is bandwidth-bound there.</li>
     * </ul>
     *
     * @param maxConcurrency calls in flight at or below which the blocking pool is proposed
     * @param maxMeanLatency mean latency at or below which the round trip counts as short
     * @param poolSize the pool proposed
     * @param maxWait how long its callers may wait for a connection
     * @param largeValueBytes mean bytes of values per call from which values count as large
     * @param maxRoundTrip the longest shortest call of a window at which large values move to the pool
     */
    public record BlockingPool(double maxConcurrency, Duration maxMeanLatency, int poolSize, Duration maxWait,
            long largeValueBytes, Duration maxRoundTrip) {

        /**
         * No value size counts as large by default: the large-value rule is opt-in. It was
         * measured when Lettuce's 100 ms timeout tick kept every completed 100 KiB command alive
         * (a blocking pool then led at 8 to 200 callers); with the template's 10 ms tick a phase
         * run at 100 KiB and 50 callers found the blocking pools level with shared connections
         * (JedisPool(50) 35.9k calls/s, our MULTI(2) 35.0k, SINGLE 34.9k), so moving there buys a
         * trial and nothing else. {@code 16 * 1024} is the level to try where a blocking pool
         * measures ahead.
         */
        public static final long DEFAULT_LARGE_VALUE_BYTES = Long.MAX_VALUE;

        /**
         * A round trip of at most 500 us counts as short by default: loopback and a local network
         * (at 100 KiB the shortest call of a window measured 30 to 120 us on loopback in nearly
         * every window, from 1 to 200 callers, and 2.1 ms behind 1 ms of delay each way).
         */
        public static final Duration DEFAULT_MAX_ROUND_TRIP = Duration.ofNanos(500_000);

        /**
         * At most 10 calls in flight, a mean of at most 1 ms, a pool of 20 whose callers wait up
         * to 1 s (as long as a command may take by default): when load surges, callers wait for
         * the pool rather than fail while the policy moves them to shared connections. On this
         * project's machine a blocking pool led shared Lettuce connections up to about 8 callers
         * on loopback (1.25x at 8 threads) and fell behind from about 50 at 100-byte values. The
         * large-value rule is off ({@link #DEFAULT_LARGE_VALUE_BYTES}).
         */
        public static final BlockingPool DEFAULTS = new BlockingPool(10, Duration.ofMillis(1), 20, Duration.ofSeconds(1));

        /**
         * Checks the settings.
         * @param maxConcurrency calls in flight that still fit
         * @param maxMeanLatency the longest mean latency that fits
         * @param poolSize the pool proposed
         * @param maxWait its callers' longest wait
         * @param largeValueBytes mean value bytes per call from which values are large
         * @param maxRoundTrip the longest round trip for large values
         */
        public BlockingPool {
            Objects.requireNonNull(maxMeanLatency, "maxMeanLatency");
            Objects.requireNonNull(maxWait, "maxWait");
            Objects.requireNonNull(maxRoundTrip, "maxRoundTrip");
            // The pool is left as saturated above 90% of its size: a margin below that keeps the two rules apart.
            if (!(maxConcurrency > 0) || poolSize < 1 || maxConcurrency > poolSize * 0.6) {
                throw new IllegalArgumentException("maxConcurrency (" + maxConcurrency + ") must be positive and at most"
                        + " 60% of poolSize (" + poolSize + "), so that a pool it proposes is not saturated at once");
            }
            // Half of it is the level values must fall below before the pool is left: it must be a size.
            if (largeValueBytes < 2) {
                throw new IllegalArgumentException("largeValueBytes (" + largeValueBytes + ") must be at least 2");
            }
            if (maxRoundTrip.isNegative() || maxRoundTrip.isZero()) {
                throw new IllegalArgumentException("maxRoundTrip (" + maxRoundTrip + ") must be positive");
            }
        }

        /**
         * Settings for few callers only, with the defaults for large values
         * ({@link #DEFAULT_LARGE_VALUE_BYTES}, {@link #DEFAULT_MAX_ROUND_TRIP}).
         * @param maxConcurrency calls in flight that still fit
         * @param maxMeanLatency the longest mean latency that fits
         * @param poolSize the pool proposed
         * @param maxWait its callers' longest wait
         */
        public BlockingPool(double maxConcurrency, Duration maxMeanLatency, int poolSize, Duration maxWait) {
            this(maxConcurrency, maxMeanLatency, poolSize, maxWait, DEFAULT_LARGE_VALUE_BYTES, DEFAULT_MAX_ROUND_TRIP);
        }

        boolean fits(WindowSample window) {
            return window.concurrency() <= this.maxConcurrency && window.meanLatencyNanos() <= this.maxMeanLatency.toNanos();
        }

        /** Values of at least {@code bytes} per call on a short round trip (a window without calls has neither). */
        boolean largeValues(WindowSample window, double bytes) {
            return window.meanValueBytes() >= bytes && window.minLatencyNanos() > 0
                    && window.minLatencyNanos() <= this.maxRoundTrip.toNanos();
        }

        StrategySpec spec() {
            return StrategySpec.pooled(new PoolSettings(this.poolSize, this.poolSize, 0, this.maxWait));
        }
    }

    private record Trial(StrategySpec incumbent, StrategySpec candidate, DecisionReason reason, long until, double baselineLatency,
            double baselineThroughput, double baselineConcurrency, double baselineRoundTrip) {
    }

    /**
     * A move that lost its trial, and the load it lost at: the same move is not proposed again
     * while the load stays like that one (calls in flight within 2x, value size within 2x, the
     * round trip within 3x), for as long as the longest dwell. A rule whose premise does not hold
     * on this path (a blocking pool behind a proxy that spends a thread per connection) then costs
     * one trial, not one every dwell.
     */
    private record Rejection(StrategySpec target, double concurrency, double valueBytes, double roundTrip, long atNanos) {

        boolean matches(StrategySpec proposed, WindowSample window) {
            return this.target.equals(proposed) && within(window.concurrency(), this.concurrency, 2)
                    && (Math.max(window.meanValueBytes(), this.valueBytes) < 1024 || within(window.meanValueBytes(), this.valueBytes, 2))
                    && similarRoundTrip(window.minLatencyNanos(), this.roundTrip);
        }
    }

    private static boolean within(double a, double b, double factor) {
        return a <= b * factor && b <= a * factor;
    }

    /** Round trips under 250 µs are all "short" (loopback jitters between 30 and 120 µs); above, within 3x. */
    private static boolean similarRoundTrip(double a, double b) {
        return Math.max(a, b) < 250_000 || within(a, b, 3);
    }

    /**
     * The policy's thresholds and timings. Rather than the canonical constructor's fourteen
     * components in order, set those that differ from the defaults by name with
     * {@link ThresholdStrategyPolicy#builder()}.
     *
     * @param maxConnections the most connections MULTI grows to (default: available processors)
     * @param selector the selector of the MULTI strategies it proposes
     * @param minCallsPerWindow fewer calls make a window too thin to judge
     * @param growAbove calls in flight per shared connection above which N doubles
     * @param shrinkBelow calls in flight per shared connection below which N halves
     * @param poolWaitRatio mean borrow wait over mean use time above which POOLED is left
     * @param confirmWindows consecutive windows a condition must hold before acting
     * @param dwell minimum time between changes (doubled after each rollback), and how long a proposal must hold
     * without a break before it is carried out
     * @param maxDwell the longest the dwell grows to
     * @param trial how long a new strategy is compared against the one it replaced
     * @param trialTolerance how much worse a trial may do at comparable load before it is rolled back (0.15 = 15%):
     * the median of its windows' mean latencies may reach the incumbent's median divided by (1 - tolerance), that is
     * throughput per call in flight may drop by up to the tolerance
     * @param suppressAfterRollbacks rollbacks within an hour that suspend changes
     * @param suppression how long changes stay suspended
     * @param maxSwitchesPerHour the switch budget
     */
    public record Settings(int maxConnections, SelectorType selector, long minCallsPerWindow, double growAbove,
            double shrinkBelow, double poolWaitRatio, int confirmWindows, Duration dwell, Duration maxDwell, Duration trial,
            double trialTolerance, int suppressAfterRollbacks, Duration suppression, int maxSwitchesPerHour) {

        /**
         * Checks the settings.
         * @param maxConnections the most connections MULTI grows to
         * @param selector the selector of proposed MULTI strategies
         * @param minCallsPerWindow fewer calls make a window too thin
         * @param growAbove per-connection concurrency that grows N
         * @param shrinkBelow per-connection concurrency that shrinks N
         * @param poolWaitRatio borrow wait over use time that leaves POOLED
         * @param confirmWindows consecutive windows before acting
         * @param dwell minimum time between changes
         * @param maxDwell the longest dwell
         * @param trial trial length
         * @param trialTolerance drop of throughput per call in flight (rise of mean latency to 1 / (1 - tolerance)) that rolls back
         * @param suppressAfterRollbacks rollbacks that suspend changes
         * @param suppression suspension length
         * @param maxSwitchesPerHour the switch budget
         */
        public Settings {
            Objects.requireNonNull(selector, "selector");
            if (maxConnections < 1 || confirmWindows < 1 || maxSwitchesPerHour < 1 || suppressAfterRollbacks < 1) {
                throw new IllegalArgumentException("maxConnections, confirmWindows, maxSwitchesPerHour and suppressAfterRollbacks must be at least 1");
            }
            if (!(shrinkBelow < growAbove)) {
                throw new IllegalArgumentException("shrinkBelow (" + shrinkBelow + ") must be below growAbove (" + growAbove + ")");
            }
            if (dwell.isNegative() || trial.isNegative() || maxDwell.compareTo(dwell) < 0) {
                throw new IllegalArgumentException("dwell and trial must not be negative, and maxDwell must be at least dwell");
            }
        }

        /**
         * The defaults: cap at the processor count, 200 calls per window, grow above 4 calls per
         * connection, shrink below 0.5, leave POOLED at a wait/use ratio of 0.5, 3 confirming
         * windows, 60 s dwell (up to 30 min), 30 s trials with a 15% tolerance, suppression for an
         * hour after 3 rollbacks, at most 12 switches an hour.
         * @return the defaults
         */
        public static Settings defaults() {
            return new Settings(Runtime.getRuntime().availableProcessors(), SelectorType.ROUND_ROBIN, 200, 4.0, 0.5, 0.5, 3,
                    Duration.ofSeconds(60), Duration.ofMinutes(30), Duration.ofSeconds(30), 0.15, 3, Duration.ofHours(1), 12);
        }

        /**
         * A copy with other timings; the longest dwell is raised to {@code dwell} if it was shorter.
         * @param dwell minimum time between changes
         * @param trial trial length
         * @return the copy
         */
        public Settings withTimings(Duration dwell, Duration trial) {
            return builder(this).maxDwell(this.maxDwell.compareTo(dwell) < 0 ? dwell : this.maxDwell).dwell(dwell).trial(trial)
                    .settings();
        }

        /**
         * A copy with another connection cap.
         * @param maxConnections the most connections MULTI grows to
         * @return the copy
         */
        public Settings withMaxConnections(int maxConnections) {
            return builder(this).maxConnections(maxConnections).settings();
        }

        /**
         * A copy with another minimum of calls per window.
         * @param minCallsPerWindow fewer calls make a window too thin
         * @return the copy
         */
        public Settings withMinCallsPerWindow(long minCallsPerWindow) {
            return builder(this).minCallsPerWindow(minCallsPerWindow).settings();
        }
    }

    /**
     * Builds a {@link ThresholdStrategyPolicy} (or only its {@link Settings}) setting by setting,
     * starting from given settings ({@link Settings#defaults()} by {@link #builder()}). What
     * Spring Boot's {@code StrategyPolicyCustomizer}s receive. Not thread-safe; checked when
     * {@link #settings()} or {@link #build()} is called, as {@link Settings} checks.
     */
    public static final class Builder {

        private int maxConnections;
        private SelectorType selector;
        private long minCallsPerWindow;
        private double growAbove;
        private double shrinkBelow;
        private double poolWaitRatio;
        private int confirmWindows;
        private Duration dwell;
        private Duration maxDwell;
        private boolean maxDwellSet;
        private Duration trial;
        private double trialTolerance;
        private int suppressAfterRollbacks;
        private Duration suppression;
        private int maxSwitchesPerHour;
        private @Nullable BlockingPool blockingPool;

        private Builder(Settings from) {
            this.maxConnections = from.maxConnections();
            this.selector = from.selector();
            this.minCallsPerWindow = from.minCallsPerWindow();
            this.growAbove = from.growAbove();
            this.shrinkBelow = from.shrinkBelow();
            this.poolWaitRatio = from.poolWaitRatio();
            this.confirmWindows = from.confirmWindows();
            this.dwell = from.dwell();
            this.maxDwell = from.maxDwell();
            this.trial = from.trial();
            this.trialTolerance = from.trialTolerance();
            this.suppressAfterRollbacks = from.suppressAfterRollbacks();
            this.suppression = from.suppression();
            this.maxSwitchesPerHour = from.maxSwitchesPerHour();
        }

        /**
         * The most connections MULTI grows to.
         * @param maxConnections at least 1
         * @return this builder
         */
        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * The selector of the MULTI strategies the policy proposes.
         * @param selector the selector
         * @return this builder
         */
        public Builder selector(SelectorType selector) {
            this.selector = selector;
            return this;
        }

        /**
         * Fewer calls make a window too thin to judge.
         * @param minCallsPerWindow the minimum
         * @return this builder
         */
        public Builder minCallsPerWindow(long minCallsPerWindow) {
            this.minCallsPerWindow = minCallsPerWindow;
            return this;
        }

        /**
         * Calls in flight per shared connection above which N grows.
         * @param growAbove above {@link #shrinkBelow(double)}
         * @return this builder
         */
        public Builder growAbove(double growAbove) {
            this.growAbove = growAbove;
            return this;
        }

        /**
         * Calls in flight per shared connection below which N shrinks.
         * @param shrinkBelow below {@link #growAbove(double)}
         * @return this builder
         */
        public Builder shrinkBelow(double shrinkBelow) {
            this.shrinkBelow = shrinkBelow;
            return this;
        }

        /**
         * Mean borrow wait over mean use time above which POOLED is left.
         * @param poolWaitRatio the ratio
         * @return this builder
         */
        public Builder poolWaitRatio(double poolWaitRatio) {
            this.poolWaitRatio = poolWaitRatio;
            return this;
        }

        /**
         * Windows a proposal must hold in before it is carried out.
         * @param confirmWindows at least 1
         * @return this builder
         */
        public Builder confirmWindows(int confirmWindows) {
            this.confirmWindows = confirmWindows;
            return this;
        }

        /**
         * Minimum time between changes, and how long a proposal must hold. Unless
         * {@link #maxDwell(Duration)} is set, the longest dwell is raised to it when shorter.
         * @param dwell not negative
         * @return this builder
         */
        public Builder dwell(Duration dwell) {
            this.dwell = dwell;
            return this;
        }

        /**
         * The longest the dwell grows to after rollbacks.
         * @param maxDwell at least the dwell
         * @return this builder
         */
        public Builder maxDwell(Duration maxDwell) {
            this.maxDwell = maxDwell;
            this.maxDwellSet = true;
            return this;
        }

        /**
         * How long a new strategy is compared against the one it replaced.
         * @param trial not negative
         * @return this builder
         */
        public Builder trial(Duration trial) {
            this.trial = trial;
            return this;
        }

        /**
         * How much worse a trial may do at comparable load before it is rolled back (0.15 = 15%).
         * @param trialTolerance the tolerance
         * @return this builder
         */
        public Builder trialTolerance(double trialTolerance) {
            this.trialTolerance = trialTolerance;
            return this;
        }

        /**
         * Rollbacks within an hour that suspend changes.
         * @param suppressAfterRollbacks at least 1
         * @return this builder
         */
        public Builder suppressAfterRollbacks(int suppressAfterRollbacks) {
            this.suppressAfterRollbacks = suppressAfterRollbacks;
            return this;
        }

        /**
         * How long changes stay suspended.
         * @param suppression the suspension
         * @return this builder
         */
        public Builder suppression(Duration suppression) {
            this.suppression = suppression;
            return this;
        }

        /**
         * The switch budget: most automatic switches in any hour.
         * @param maxSwitchesPerHour at least 1
         * @return this builder
         */
        public Builder maxSwitchesPerHour(int maxSwitchesPerHour) {
            this.maxSwitchesPerHour = maxSwitchesPerHour;
            return this;
        }

        /**
         * When the policy moves callers to blocking POOLED connections; only for a template whose
         * POOLED strategies run on such connections.
         * @param blockingPool the settings, or {@code null} for no such move
         * @return this builder
         */
        public Builder blockingPool(@Nullable BlockingPool blockingPool) {
            this.blockingPool = blockingPool;
            return this;
        }

        /**
         * The blocking pool set so far.
         * @return the settings, or {@code null} if there is none
         */
        public @Nullable BlockingPool blockingPool() {
            return this.blockingPool;
        }

        /**
         * The settings as they stand, checked.
         * @return the settings
         * @throws IllegalArgumentException if they are inconsistent (see {@link Settings})
         */
        public Settings settings() {
            Objects.requireNonNull(this.dwell, "dwell");
            Objects.requireNonNull(this.maxDwell, "maxDwell");
            Duration longest = !this.maxDwellSet && this.maxDwell.compareTo(this.dwell) < 0 ? this.dwell : this.maxDwell;
            return new Settings(this.maxConnections, this.selector, this.minCallsPerWindow, this.growAbove, this.shrinkBelow,
                    this.poolWaitRatio, this.confirmWindows, this.dwell, longest, this.trial, this.trialTolerance,
                    this.suppressAfterRollbacks, this.suppression, this.maxSwitchesPerHour);
        }

        /**
         * A new policy with these settings and blocking pool; each call gives a policy with a
         * history of its own.
         * @return the policy
         * @throws IllegalArgumentException if the settings are inconsistent
         */
        public ThresholdStrategyPolicy build() {
            return new ThresholdStrategyPolicy(settings(), this.blockingPool);
        }
    }
}
