package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * How a template's adaptive {@link StrategySwitcher} is made, resolved once and immutable: given
 * to a template builder ({@code AbstractCacheTemplateBuilder.adaptive(options, registry)}), whose
 * template creates its switcher from it when it starts. What only the template knows is filled in
 * then: the template itself, whether its POOLED connections block (which the policy depends on)
 * and its connection limit.
 *
 * <p>{@link #defaults()} are what the Spring Boot starter gives a template that no property
 * configures: the default {@link ThresholdStrategyPolicy} ({@link #defaultPolicy()}),
 * {@link AdaptiveMode#AUTO}, one-second windows, no pin, five minutes of window history, no
 * listener, the system clocks. Each {@code with...} method returns a copy with one setting changed.
 *
 * @param policy makes the switcher's policy once the template's connections are known
 * @param mode act on the policy's decisions or only report them
 * @param window how often the switcher samples the template and asks the policy; positive
 * @param pinned a strategy pinned from the start, or {@code null} to let the policy decide
 * @param historyWindows how many windows the switcher's history keeps, from 1 to {@link StrategySwitcher#MAX_HISTORY_WINDOWS}
 * @param listener hears of every switch, on the switcher's thread
 * @param nanoClock the policy's clock ({@code System::nanoTime}, or a fake one in tests)
 * @param wallClock the clock of the switch events' timestamps
 */
public record SwitcherOptions(PolicyFactory policy, AdaptiveMode mode, Duration window, @Nullable StrategySpec pinned,
        int historyWindows, SwitchListener listener, LongSupplier nanoClock, Clock wallClock) {

    /** The window of {@link #defaults()}: one second. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

    /**
     * Makes a switcher's policy once the template it watches is known. A policy keeps state, so
     * each call returns a new one.
     */
    @FunctionalInterface
    public interface PolicyFactory {

        /**
         * A new policy for one template.
         * @param pooledConnectionsBlock whether the template's POOLED strategies run on blocking
         *        connections (Jedis), which the policy may move a few callers onto
         * @param connectionLimit the template's connection limit: the policy should propose no
         *        strategy above it (the template refuses such a switch)
         * @return the policy
         */
        StrategyPolicy create(boolean pooledConnectionsBlock, int connectionLimit);

        /**
         * A new policy for one template, told also whether each of its shared connections runs an
         * I/O thread of its own (the memcached drivers), so that trying fewer connections at the cap
         * may pay. By default, {@link #create(boolean, int)}: a factory with no use for it ignores it.
         * @param pooledConnectionsBlock as for {@link #create(boolean, int)}
         * @param threadPerSharedConnection whether each connection of SINGLE or MULTI has an I/O thread of its own
         * @param connectionLimit as for {@link #create(boolean, int)}
         * @return the policy
         */
        default StrategyPolicy create(boolean pooledConnectionsBlock, boolean threadPerSharedConnection, int connectionLimit) {
            return create(pooledConnectionsBlock, connectionLimit);
        }
    }

    /** Checks the options (the components are described on the record). */
    public SwitcherOptions {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(wallClock, "wallClock");
        if (window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("The window must be positive, was " + window);
        }
        if (historyWindows < 1 || historyWindows > StrategySwitcher.MAX_HISTORY_WINDOWS) {
            throw new IllegalArgumentException("The window history must keep from 1 to " + StrategySwitcher.MAX_HISTORY_WINDOWS
                    + " windows, was " + historyWindows);
        }
    }

    /**
     * The defaults, as the Spring Boot starter sets a template that no property configures (see the class comment).
     * @return the defaults
     */
    public static SwitcherOptions defaults() {
        return new SwitcherOptions(defaultPolicy(), AdaptiveMode.AUTO, DEFAULT_WINDOW, null,
                StrategySwitcher.historyWindows(StrategySwitcher.DEFAULT_HISTORY, DEFAULT_WINDOW), SwitchListener.NONE,
                System::nanoTime, Clock.systemUTC());
    }

    /**
     * The default policy: a {@link ThresholdStrategyPolicy} with its {@linkplain ThresholdStrategyPolicy.Settings#defaults()
     * default settings}, its connection cap lowered to the template's connection limit where that is lower; for a
     * template whose POOLED connections block, the {@linkplain ThresholdStrategyPolicy.BlockingPool#DEFAULTS default
     * blocking pool} if the limit allows its pool size (else none: the policy then never proposes the blocking pool);
     * for a template whose shared connections each run an I/O thread of their own, trying fewer of them at the cap
     * ({@link ThresholdStrategyPolicy.Builder#triesFewerConnections(boolean)}).
     * @return the factory
     */
    public static PolicyFactory defaultPolicy() {
        return new PolicyFactory() {

            @Override
            public StrategyPolicy create(boolean pooledConnectionsBlock, int connectionLimit) {
                return create(pooledConnectionsBlock, false, connectionLimit);
            }

            @Override
            public StrategyPolicy create(boolean pooledConnectionsBlock, boolean threadPerSharedConnection, int connectionLimit) {
                ThresholdStrategyPolicy.Builder builder = ThresholdStrategyPolicy.builder();
                builder.maxConnections(Math.min(builder.settings().maxConnections(), connectionLimit));
                ThresholdStrategyPolicy.BlockingPool blockingPool = ThresholdStrategyPolicy.BlockingPool.DEFAULTS;
                if (pooledConnectionsBlock && blockingPool.poolSize() <= connectionLimit) {
                    builder.blockingPool(blockingPool);
                }
                return builder.triesFewerConnections(threadPerSharedConnection).build();
            }
        };
    }

    /**
     * These options with another policy.
     * @param policy makes the policy
     * @return the copy
     */
    public SwitcherOptions withPolicy(PolicyFactory policy) {
        return new SwitcherOptions(policy, this.mode, this.window, this.pinned, this.historyWindows, this.listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with another mode.
     * @param mode act or only advise
     * @return the copy
     */
    public SwitcherOptions withMode(AdaptiveMode mode) {
        return new SwitcherOptions(this.policy, mode, this.window, this.pinned, this.historyWindows, this.listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with another window; the history keeps as many windows as before (see {@link #withHistory}).
     * @param window how often to sample and decide
     * @return the copy
     */
    public SwitcherOptions withWindow(Duration window) {
        return new SwitcherOptions(this.policy, this.mode, window, this.pinned, this.historyWindows, this.listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with a strategy pinned from the start, or none.
     * @param pinned the strategy, or {@code null} to let the policy decide
     * @return the copy
     */
    public SwitcherOptions withPinned(@Nullable StrategySpec pinned) {
        return new SwitcherOptions(this.policy, this.mode, this.window, pinned, this.historyWindows, this.listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with a history that reaches {@code span} back, in windows of this options' {@link #window()}
     * (so set the window first).
     * @param span how far back, such as five minutes
     * @return the copy
     * @throws IllegalArgumentException as {@link StrategySwitcher#historyWindows(Duration, Duration)} does
     */
    public SwitcherOptions withHistory(Duration span) {
        return withHistoryWindows(StrategySwitcher.historyWindows(span, this.window));
    }

    /**
     * These options with a history of so many windows.
     * @param historyWindows from 1 to {@link StrategySwitcher#MAX_HISTORY_WINDOWS}
     * @return the copy
     */
    public SwitcherOptions withHistoryWindows(int historyWindows) {
        return new SwitcherOptions(this.policy, this.mode, this.window, this.pinned, historyWindows, this.listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with another listener.
     * @param listener hears of every switch
     * @return the copy
     */
    public SwitcherOptions withListener(SwitchListener listener) {
        return new SwitcherOptions(this.policy, this.mode, this.window, this.pinned, this.historyWindows, listener, this.nanoClock,
                this.wallClock);
    }

    /**
     * These options with other clocks, such as fake ones in tests.
     * @param nanoClock the policy's clock
     * @param wallClock the clock of the switch events' timestamps
     * @return the copy
     */
    public SwitcherOptions withClocks(LongSupplier nanoClock, Clock wallClock) {
        return new SwitcherOptions(this.policy, this.mode, this.window, this.pinned, this.historyWindows, this.listener, nanoClock,
                wallClock);
    }

    /**
     * A new switcher of a template, not started yet, with a new policy from {@link #policy()}. Templates built with these
     * options call it when they start; call it for a template built without them (or let
     * {@link SwitcherRegistry#start} do so).
     * @param template the template to watch
     * @param pooledConnectionsBlock whether its POOLED connections block ({@code template.stats().pooledConnectionsBlock()})
     * @param threadPerSharedConnection whether each of its shared connections runs an I/O thread of its own
     *        ({@code template.stats().threadPerSharedConnection()})
     * @param connectionLimit the most connections an operator's pin or trial may ask for, and the policy's cap
     * @return the switcher
     * @throws IllegalArgumentException if the connection limit is below 1
     */
    public StrategySwitcher newSwitcher(CacheTemplateManagement template, boolean pooledConnectionsBlock,
            boolean threadPerSharedConnection, int connectionLimit) {
        if (connectionLimit < 1) {
            // Checked before the factory is asked: a factory given a limit below 1 could fail in ways that hide this.
            throw new IllegalArgumentException("The connection limit must be at least 1, was " + connectionLimit);
        }
        StrategyPolicy made = Objects.requireNonNull(this.policy.create(pooledConnectionsBlock, threadPerSharedConnection,
                connectionLimit),
                "the policy factory returned null");
        return new StrategySwitcher(template, made, this.window, this.mode, this.pinned, this.nanoClock, this.wallClock,
                this.listener, connectionLimit, this.historyWindows);
    }
}
