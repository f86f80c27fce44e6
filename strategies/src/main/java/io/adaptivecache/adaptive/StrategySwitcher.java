package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.TemplateStats;
import io.adaptivecache.metrics.WindowHistory;
import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.SwitchReport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one template window by window and carries out its policy's decisions through the
 * template's swap mechanism (warm, swap, drain, close). One daemon thread per template; the hot
 * path is untouched (the template's sensors are read once per window).
 *
 * <p>Modes: {@link AdaptiveMode#AUTO} acts, {@link AdaptiveMode#ADVISE} only reports; a pinned
 * strategy (by configuration or {@link #pin}) overrides both until {@link #unpin}. An operator
 * can also {@link #forceTrial} a strategy, which the policy judges like its own switches. A
 * warm-up failure keeps the incumbent, and after one of its own switches the policy backs off. Every switch is logged once at
 * INFO, kept in a bounded history and passed to the listener.
 *
 * <p>An operator's {@link #pin} or {@link #forceTrial} asks for at most the
 * {@linkplain #connectionLimit() connection limit} (checked before anything is opened), and
 * changes nothing unless its strategy opens: a strategy that cannot be opened leaves the pin,
 * the live strategy and the policy as they were (the attempt is only recorded in the history,
 * with outcome {@link SwitchEvent.Outcome#FAILED}).
 */
public final class StrategySwitcher implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(StrategySwitcher.class);
    private static final int HISTORY = 32;

    /**
     * The connection limit of a switcher created without one: an operator may ask for at most
     * 64 connections (N of MULTI, max-total of POOLED).
     */
    public static final int DEFAULT_CONNECTION_LIMIT = StrategySpec.DEFAULT_CONNECTION_LIMIT;

    /**
     * How far back the {@linkplain #windowHistory() window history} of a switcher created without
     * a capacity reaches: five minutes of windows.
     */
    public static final Duration DEFAULT_HISTORY = Duration.ofMinutes(5);

    /** The most windows a history may keep (a day of one-second windows), so that its memory stays bounded. */
    public static final int MAX_HISTORY_WINDOWS = 86_400;

    private final CacheTemplateManagement template;
    private final StrategyPolicy policy;
    private final Duration window;
    private final AdaptiveMode mode;
    private final LongSupplier nanoClock;
    private final Clock wallClock;
    private final SwitchListener listener;
    private final int connectionLimit;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<SwitchEvent> history = new ArrayDeque<>(HISTORY);
    private final WindowHistory windows;
    private volatile @Nullable StrategySpec pinned;
    private volatile @Nullable Decision lastDecision;
    private volatile @Nullable WindowSample lastWindow;
    private volatile Instant since;
    // Set while started.
    private @Nullable ScheduledExecutorService executor;

    /**
     * Creates a switcher that is not started yet, whose operator requests may ask for at most
     * {@link #DEFAULT_CONNECTION_LIMIT} connections.
     * @param template the template to watch
     * @param policy decides, one window at a time
     * @param window how often to sample and decide
     * @param mode act or only advise
     * @param pinned a strategy pinned by configuration, or {@code null} to let the policy decide
     * @param nanoClock the policy's clock ({@code System::nanoTime}, or a fake one in tests)
     * @param wallClock the clock for event timestamps
     * @param listener hears of every switch
     */
    public StrategySwitcher(CacheTemplateManagement template, StrategyPolicy policy, Duration window, AdaptiveMode mode,
            @Nullable StrategySpec pinned, LongSupplier nanoClock, Clock wallClock, SwitchListener listener) {
        this(template, policy, window, mode, pinned, nanoClock, wallClock, listener, DEFAULT_CONNECTION_LIMIT);
    }

    /**
     * Creates a switcher that is not started yet and keeps {@link #DEFAULT_HISTORY} of windows (at
     * most {@link #MAX_HISTORY_WINDOWS} of them, for very short windows).
     * @param template the template to watch
     * @param policy decides, one window at a time
     * @param window how often to sample and decide
     * @param mode act or only advise
     * @param pinned a strategy pinned by configuration, or {@code null} to let the policy decide
     * @param nanoClock the policy's clock ({@code System::nanoTime}, or a fake one in tests)
     * @param wallClock the clock for event timestamps
     * @param listener hears of every switch
     * @param connectionLimit the most connections an operator's {@link #pin} or {@link #forceTrial} may ask for
     */
    public StrategySwitcher(CacheTemplateManagement template, StrategyPolicy policy, Duration window, AdaptiveMode mode,
            @Nullable StrategySpec pinned, LongSupplier nanoClock, Clock wallClock, SwitchListener listener,
            int connectionLimit) {
        this(template, policy, window, mode, pinned, nanoClock, wallClock, listener, connectionLimit,
                defaultHistoryWindows(window));
    }

    private static int defaultHistoryWindows(Duration window) {
        if (window == null || window.isZero() || window.isNegative()) {
            return 1; // a null window is refused below, a non-positive one when the switcher starts
        }
        return (int) Math.min(MAX_HISTORY_WINDOWS, Math.max(1, DEFAULT_HISTORY.dividedBy(window)));
    }

    /**
     * Creates a switcher that is not started yet.
     * @param template the template to watch
     * @param policy decides, one window at a time
     * @param window how often to sample and decide
     * @param mode act or only advise
     * @param pinned a strategy pinned by configuration, or {@code null} to let the policy decide
     * @param nanoClock the policy's clock ({@code System::nanoTime}, or a fake one in tests)
     * @param wallClock the clock for event timestamps
     * @param listener hears of every switch
     * @param connectionLimit the most connections (N of MULTI, max-total of POOLED) an operator's
     *        {@link #pin} or {@link #forceTrial} may ask for; at least 1. The policy is expected to
     *        stay within it too (give it a cap no higher); the strategy the template started with
     *        is not checked.
     * @param historyWindows how many of the last windows to keep for {@link #windowHistory()}: from 1 to
     *        {@link #MAX_HISTORY_WINDOWS} (see {@link #historyWindows(Duration, Duration)})
     */
    public StrategySwitcher(CacheTemplateManagement template, StrategyPolicy policy, Duration window, AdaptiveMode mode,
            @Nullable StrategySpec pinned, LongSupplier nanoClock, Clock wallClock, SwitchListener listener, int connectionLimit,
            int historyWindows) {
        if (connectionLimit < 1) {
            throw new IllegalArgumentException("The connection limit must be at least 1, was " + connectionLimit);
        }
        if (historyWindows < 1 || historyWindows > MAX_HISTORY_WINDOWS) {
            throw new IllegalArgumentException("The window history must keep from 1 to " + MAX_HISTORY_WINDOWS
                    + " windows, was " + historyWindows);
        }
        this.windows = new WindowHistory(historyWindows);
        this.connectionLimit = connectionLimit;
        this.template = Objects.requireNonNull(template, "template");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.window = Objects.requireNonNull(window, "window");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.pinned = pinned;
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.since = wallClock.instant();
    }

    /**
     * The policy this switcher asks, for tools and tests that check which one it is and how it
     * is set; its decisions are made on the switcher's thread only.
     * @return the policy
     */
    public StrategyPolicy policy() {
        return this.policy;
    }

    /** Starts evaluating one window every {@code window} on a daemon thread. The template must be started. */
    public synchronized void start() {
        if (this.executor != null) {
            return;
        }
        this.since = this.wallClock.instant();
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-switcher-" + this.template.name());
            thread.setDaemon(true);
            return thread;
        });
        long periodNanos = this.window.toNanos();
        this.executor.scheduleWithFixedDelay(this::evaluateQuietly, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    private void evaluateQuietly() {
        try {
            if (this.template.stats().running()) {
                evaluate();
            }
        }
        catch (RuntimeException ex) {
            logger.warn("Adaptive evaluation of {} failed; trying again next window", this.template.name(), ex);
        }
    }

    /**
     * Closes one window and acts on the decision. The background thread calls this every window;
     * tests call it directly with a fake clock. While the template has not connected yet, the
     * window is closed unjudged ({@link DecisionReason#DISTURBED}) and nothing is switched.
     * @return the decision
     */
    public Decision evaluate() {
        this.lock.lock();
        try {
            long now = this.nanoClock.getAsLong();
            TemplateStats stats = this.template.stats();
            WindowSample sample = this.template.sensors().sample(now, stats.strategyStats(), this.window.toNanos());
            this.lastWindow = sample;
            this.windows.record(this.wallClock.millis(), sample);
            Decision decision;
            StrategySpec pin = this.pinned;
            if (!stats.connected()) {
                // Started without its server (on-failure: degrade): the window holds only refused calls, and there is
                // nothing to switch from until the template has connected with its configured strategy.
                decision = Decision.stay(now, sample.strategy(), DecisionReason.DISTURBED,
                        "not connected to the server yet; no change until the template has connected");
            }
            else if (pin != null) {
                decision = Decision.stay(now, sample.strategy(), DecisionReason.PINNED, "pinned to " + pin);
            }
            else {
                decision = this.policy.decide(sample, now);
                if (this.mode == AdaptiveMode.AUTO && decision.isSwitch()) {
                    apply(decision, decision.reason() != DecisionReason.ROLLBACK, now);
                }
            }
            this.lastDecision = decision;
            return decision;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Pins a strategy: switches to it now and ignores the policy until {@link #unpin()}. The pin
     * is recorded only once the strategy is live: if it cannot be opened, the incumbent keeps
     * serving, the previous pin (or its absence) stays, the policy is not told, and the returned
     * event has the outcome {@link SwitchEvent.Outcome#FAILED} with the cause in its {@link SwitchEvent#failure()}.
     * @param spec the strategy
     * @return the switch (possibly {@link SwitchEvent.Outcome#FAILED}), or {@code null} if it was already live
     * @throws IllegalArgumentException if {@code spec} asks for more connections than the
     *         {@linkplain #connectionLimit() limit}; nothing is opened
     */
    public @Nullable SwitchEvent pin(StrategySpec spec) {
        return operatorSwitch(spec, false, "pinned by an operator", spec);
    }

    /**
     * The most connections (N of MULTI, max-total of POOLED) that {@link #pin} and
     * {@link #forceTrial} accept.
     * @return the limit, at least 1
     */
    public int connectionLimit() {
        return this.connectionLimit;
    }

    private void checkLimit(StrategySpec spec) {
        if (spec.connections() > this.connectionLimit) {
            throw new IllegalArgumentException(spec + " asks for " + spec.connections() + " connections, above the limit of "
                    + this.connectionLimit + " of template '" + this.template.name() + "'");
        }
    }

    /** Lets the policy decide again. */
    public void unpin() {
        this.lock.lock();
        try {
            this.pinned = null;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Switches to a strategy on trial: the policy compares it with the one it replaced and rolls
     * it back if it does worse (in {@link AdaptiveMode#AUTO}). Unpins, once the strategy is live
     * (or if it already was): if it cannot be opened, nothing changes, as for {@link #pin}.
     * @param spec the strategy to try
     * @return the switch (possibly {@link SwitchEvent.Outcome#FAILED}), or {@code null} if it was already live
     * @throws IllegalArgumentException if {@code spec} asks for more connections than the
     *         {@linkplain #connectionLimit() limit}; nothing is opened
     */
    public @Nullable SwitchEvent forceTrial(StrategySpec spec) {
        return operatorSwitch(spec, true, "trial forced by an operator", null);
    }

    /**
     * An operator's switch ({@link #pin}, {@link #forceTrial}): checked against the limit before
     * anything is opened, and the pin set to {@code pinAfter} only once {@code spec} is live, so
     * that a switch that fails leaves the previous pin (or its absence) in place.
     */
    private @Nullable SwitchEvent operatorSwitch(StrategySpec spec, boolean trial, String evidence, @Nullable StrategySpec pinAfter) {
        checkLimit(Objects.requireNonNull(spec, "spec"));
        this.lock.lock();
        try {
            long now = this.nanoClock.getAsLong();
            StrategySpec current = this.template.stats().activeStrategy();
            SwitchEvent event = current.equals(spec) ? null
                    : apply(new Decision(now, current, spec, DecisionReason.OPERATOR, evidence), trial, now);
            if (event == null || event.outcome() == SwitchEvent.Outcome.SWITCHED) {
                this.pinned = pinAfter;
            }
            return event;
        }
        finally {
            this.lock.unlock();
        }
    }

    private SwitchEvent apply(Decision decision, boolean trial, long now) {
        SwitchEvent event;
        try {
            SwitchReport report = this.template.switchStrategy(decision.target());
            this.policy.onSwitch(decision, true, trial, now);
            this.since = this.wallClock.instant();
            event = new SwitchEvent(this.template.name(), this.since, report.from(), report.to(), decision.reason(),
                    decision.evidence(), SwitchEvent.Outcome.SWITCHED, report.warmUp(), report.drain());
            logger.info("{} switched {} -> {} ({}: {}; warm-up {} ms, drain {} ms)", this.template.name(), report.from(),
                    report.to(), decision.reason(), decision.evidence(), report.warmUp().toMillis(), report.drain().toMillis());
        }
        catch (RuntimeException ex) {
            // The policy backs off after its own failed switches; an operator's that failed changes nothing.
            if (decision.reason() != DecisionReason.OPERATOR) {
                this.policy.onSwitch(decision, false, false, now);
            }
            event = new SwitchEvent(this.template.name(), this.wallClock.instant(), decision.current(), decision.target(),
                    decision.reason(), decision.evidence(), SwitchEvent.Outcome.FAILED, Duration.ZERO, Duration.ZERO,
                    String.valueOf(ex.getMessage()));
            logger.warn("{} could not switch {} -> {} ({}); keeping {}: {}", this.template.name(), decision.current(),
                    decision.target(), decision.reason(), decision.current(), ex.getMessage());
        }
        synchronized (this.history) {
            if (this.history.size() == HISTORY) {
                this.history.removeFirst();
            }
            this.history.addLast(event);
        }
        this.listener.onSwitch(event);
        return event;
    }

    /**
     * The switcher's state now.
     * @return the state
     */
    public AdaptiveState state() {
        List<SwitchEvent> events;
        synchronized (this.history) {
            events = List.copyOf(this.history);
        }
        return new AdaptiveState(this.template.name(), this.mode, this.pinned, this.template.stats().activeStrategy(), this.since,
                this.lastDecision, this.lastWindow, events, this.policy.isSuppressed(this.nanoClock.getAsLong()));
    }

    /**
     * How often this switcher samples its template and asks the policy.
     * @return the window length
     */
    public Duration window() {
        return this.window;
    }

    /**
     * How many windows {@link #windowHistory()} keeps at most.
     * @return the capacity of the window history
     */
    public int windowHistoryCapacity() {
        return this.windows.capacity();
    }

    /**
     * The last windows with the time each closed, oldest first: as many as the history keeps
     * (five minutes of them by default), so that a page opened after an incident can draw it.
     * @return a copy; empty before the first window
     */
    public List<WindowHistory.Entry> windowHistory() {
        return this.windows.snapshot();
    }

    /**
     * The newest window with the time it closed, the same pair {@link #windowHistory()} ends with.
     * @return it, or {@code null} before the first window
     */
    public WindowHistory.@Nullable Entry latestWindow() {
        return this.windows.latest();
    }

    /**
     * How many windows cover a span of time: the capacity of a history that reaches that far back.
     * @param span how far back, such as five minutes
     * @param window one window's length
     * @return {@code span / window} rounded up, at least 1
     * @throws IllegalArgumentException if either is not positive or the count is above {@link #MAX_HISTORY_WINDOWS}
     */
    public static int historyWindows(Duration span, Duration window) {
        if (span == null || span.isZero() || span.isNegative() || window == null || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("The history (" + span + ") and the window (" + window + ") must be positive");
        }
        long windows = span.dividedBy(window);
        if (windows <= MAX_HISTORY_WINDOWS && window.multipliedBy(windows).compareTo(span) < 0) {
            windows++; // rounded up: the history reaches at least as far back as asked
        }
        if (windows > MAX_HISTORY_WINDOWS) {
            throw new IllegalArgumentException(span + " of " + window + " windows is " + windows + " windows, above the most a history keeps ("
                    + MAX_HISTORY_WINDOWS + ")");
        }
        return (int) Math.max(1, windows);
    }

    /**
     * The template this switcher watches.
     * @return the template
     */
    public CacheTemplateManagement template() {
        return this.template;
    }

    /** Stops evaluating; the template is left as it is. */
    @Override
    public synchronized void close() {
        if (this.executor != null) {
            this.executor.shutdownNow();
            this.executor = null;
        }
    }
}
