package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.Objects;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.SelectorType;
import org.jspecify.annotations.Nullable;

/**
 * The default policy: threshold rules propose a strategy for each window (leave a contended or
 * saturated pool; grow shared connections above {@code growAbove} calls each and shrink them below
 * {@code shrinkBelow}, straight to what the load needs; where each connection has an I/O thread of
 * its own, try half as many at the cap, kept only if no slower; with a {@link BlockingPool}, move few callers
 * or large values on a short round trip to blocking connections), inside layers against flapping
 * composed the way Netflix concurrency-limits composes limits. From the outside in: an hourly
 * switch budget; confirmation (a proposal must hold in every counted window for a whole dwell, and
 * in at least {@code confirmWindows}) and a dwell between changes, doubled by each rollback;
 * suppression after repeated rollbacks; disturbed or thin windows count neither way; each change on
 * trial against the incumbent's recent windows, rolled back if the median of its mean latencies at
 * comparable load is worse by more than {@code trialTolerance}, and not proposed again while the
 * load stays like the one it lost at. Each instance keeps a history of its own.
 * <p>Leave trouble fast, return slowly, as TCP's congestion control does: leaving a pool that makes
 * callers wait ({@link DecisionReason#POOL_CONTENTION}, {@link DecisionReason#POOL_SATURATED}) takes
 * {@code confirmWindows} consecutive counted windows, however recent the last change and during a
 * trial or a suppression too, is not on trial, and doubles the dwell; moves made for a gain (every
 * other reason) keep the dwell and the trial, so going back to the pool waits at least twice the
 * dwell. The budget bounds both.
 */
public final class ThresholdStrategyPolicy extends PolicyDecorator {

    private final Settings settings;
    private final @Nullable BlockingPool blockingPool;
    private final boolean triesFewerConnections;

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
        this(settings, blockingPool, false);
    }

    /**
     * Creates a policy that may also try fewer connections at the cap.
     * @param settings its thresholds and timings
     * @param blockingPool when a blocking pool suits the load, or {@code null} if the backend has none
     * @param triesFewerConnections whether, at the connection cap with every connection busy, it tries half as many
     *        ({@link DecisionReason#CONSOLIDATION}, kept only if no slower): for a template whose shared connections
     *        each run an I/O thread of their own ({@code StrategyFactory.threadPerSharedConnection()})
     */
    public ThresholdStrategyPolicy(Settings settings, @Nullable BlockingPool blockingPool, boolean triesFewerConnections) {
        super(layers(Objects.requireNonNull(settings, "settings"), blockingPool, triesFewerConnections));
        this.settings = settings;
        this.blockingPool = blockingPool;
        this.triesFewerConnections = triesFewerConnections;
    }

    /** The layers, built from the inside out; this policy is the shell around the outermost, and passes everything to it. */
    private static StrategyPolicy layers(Settings settings, @Nullable BlockingPool blockingPool, boolean triesFewerConnections) {
        StrategyPolicy rules = PolicyDecorator.proposing(new ThresholdRules(settings, blockingPool, triesFewerConnections)::propose);
        StrategyPolicy trials = new TrialPolicy(settings.trial(), settings.trialTolerance(), settings.maxDwell(), rules);
        StrategyPolicy counted = new CountedWindowsPolicy(settings.minCallsPerWindow(), trials);
        StrategyPolicy suppressing = new SuppressingPolicy(settings.suppressAfterRollbacks(), settings.suppression(), counted);
        StrategyPolicy confirming = new ConfirmingPolicy(settings.confirmWindows(), settings.dwell(), settings.maxDwell(), suppressing);
        return new BudgetPolicy(settings.maxSwitchesPerHour(), Duration.ofHours(1), confirming);
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

    /** {@return the thresholds and timings this policy was created with} */
    public Settings settings() {
        return this.settings;
    }

    /** {@return when this policy moves callers to blocking POOLED connections: {@code null} if never} */
    public @Nullable BlockingPool blockingPool() {
        return this.blockingPool;
    }

    /** {@return whether this policy tries half as many connections at the cap ({@link DecisionReason#CONSOLIDATION})} */
    public boolean triesFewerConnections() {
        return this.triesFewerConnections;
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        return this.inner.decide(window, now);
    }

    private static long seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds();
    }

    /**
     * When a backend's blocking POOLED connections suit the load better than shared ones: few
     * calls in flight on a short round trip (where handing every command to an event-loop thread
     * and back costs more than the I/O itself), and large values (a window's mean value bytes per
     * call at or above {@code largeValueBytes}) on a short round trip (its shortest call at most
     * {@code maxRoundTrip}) at any number of callers; while the pool serves values of at least half
     * {@code largeValueBytes} on such a round trip, callers waiting for it do not send the load
     * back to shared connections: the pool is bandwidth-bound there.
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

        /** Checks the settings (the components are described on the record). */
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
     * @param confirmWindows consecutive windows a condition must hold before acting; all it takes to leave a pool that
     * makes callers wait
     * @param dwell minimum time between changes made for a gain (doubled after each rollback and each move out of
     * trouble), and how long a proposal for a gain must hold without a break before it is carried out
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

        /** Checks the settings (the components are described on the record). */
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
        private boolean triesFewerConnections;

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
        public Builder maxConnections(int maxConnections) { this.maxConnections = maxConnections; return this; }

        /**
         * The selector of the MULTI strategies the policy proposes.
         * @param selector the selector
         * @return this builder
         */
        public Builder selector(SelectorType selector) { this.selector = selector; return this; }

        /**
         * Fewer calls make a window too thin to judge.
         * @param minCallsPerWindow the minimum
         * @return this builder
         */
        public Builder minCallsPerWindow(long minCallsPerWindow) { this.minCallsPerWindow = minCallsPerWindow; return this; }

        /**
         * Calls in flight per shared connection above which N grows.
         * @param growAbove above {@link #shrinkBelow(double)}
         * @return this builder
         */
        public Builder growAbove(double growAbove) { this.growAbove = growAbove; return this; }

        /**
         * Calls in flight per shared connection below which N shrinks.
         * @param shrinkBelow below {@link #growAbove(double)}
         * @return this builder
         */
        public Builder shrinkBelow(double shrinkBelow) { this.shrinkBelow = shrinkBelow; return this; }

        /**
         * Mean borrow wait over mean use time above which POOLED is left.
         * @param poolWaitRatio the ratio
         * @return this builder
         */
        public Builder poolWaitRatio(double poolWaitRatio) { this.poolWaitRatio = poolWaitRatio; return this; }

        /**
         * Windows a proposal must hold in before it is carried out; consecutive windows of trouble
         * are all it takes to leave a pool that makes callers wait.
         * @param confirmWindows at least 1
         * @return this builder
         */
        public Builder confirmWindows(int confirmWindows) { this.confirmWindows = confirmWindows; return this; }

        /**
         * Minimum time between changes made for a gain, and how long a proposal for a gain must
         * hold (leaving a pool that makes callers wait does not wait for it). Unless
         * {@link #maxDwell(Duration)} is set, the longest dwell is raised to it when shorter.
         * @param dwell not negative
         * @return this builder
         */
        public Builder dwell(Duration dwell) { this.dwell = dwell; return this; }

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
        public Builder trial(Duration trial) { this.trial = trial; return this; }

        /**
         * How much worse a trial may do at comparable load before it is rolled back (0.15 = 15%).
         * @param trialTolerance the tolerance
         * @return this builder
         */
        public Builder trialTolerance(double trialTolerance) { this.trialTolerance = trialTolerance; return this; }

        /**
         * Rollbacks within an hour that suspend changes.
         * @param suppressAfterRollbacks at least 1
         * @return this builder
         */
        public Builder suppressAfterRollbacks(int suppressAfterRollbacks) { this.suppressAfterRollbacks = suppressAfterRollbacks; return this; }

        /**
         * How long changes stay suspended.
         * @param suppression the suspension
         * @return this builder
         */
        public Builder suppression(Duration suppression) { this.suppression = suppression; return this; }

        /**
         * The switch budget: most automatic switches in any hour.
         * @param maxSwitchesPerHour at least 1
         * @return this builder
         */
        public Builder maxSwitchesPerHour(int maxSwitchesPerHour) { this.maxSwitchesPerHour = maxSwitchesPerHour; return this; }

        /**
         * When the policy moves callers to blocking POOLED connections; only for a template whose
         * POOLED strategies run on such connections.
         * @param blockingPool the settings, or {@code null} for no such move
         * @return this builder
         */
        public Builder blockingPool(@Nullable BlockingPool blockingPool) { this.blockingPool = blockingPool; return this; }

        /** {@return the blocking pool set so far, or {@code null} if there is none} */
        public @Nullable BlockingPool blockingPool() {
            return this.blockingPool;
        }

        /**
         * Whether the policy tries half as many connections at the cap when every connection is
         * busy ({@link DecisionReason#CONSOLIDATION}), keeping them only if no slower: worth it where
         * each shared connection runs an I/O thread of its own (the memcached drivers), so that
         * MULTI(N) costs N threads competing with the callers for the cores. Off unless set; the
         * default policy sets it from the template's connections.
         * @param triesFewerConnections whether to try
         * @return this builder
         */
        public Builder triesFewerConnections(boolean triesFewerConnections) {
            this.triesFewerConnections = triesFewerConnections;
            return this;
        }

        /** {@return whether the policy built will try fewer connections at the cap} */
        public boolean triesFewerConnections() {
            return this.triesFewerConnections;
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
         * A new policy with these settings, blocking pool and choice of trying fewer connections; each call gives a policy with a
         * history of its own.
         * @return the policy
         * @throws IllegalArgumentException if the settings are inconsistent
         */
        public ThresholdStrategyPolicy build() {
            return new ThresholdStrategyPolicy(settings(), this.blockingPool, this.triesFewerConnections);
        }
    }
}
