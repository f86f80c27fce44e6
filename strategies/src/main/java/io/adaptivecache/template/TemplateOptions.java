package io.adaptivecache.template;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.adaptive.SwitcherOptions;
import io.adaptivecache.adaptive.SwitcherRegistry;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * Everything a template is built with besides its backend, resolved once by the builder and
 * immutable from then on.
 *
 * @param name the template's name, for logs and metrics
 * @param initialStrategy the strategy to open on start
 * @param drainTimeout longest wait for a retired strategy's calls to finish
 * @param poolCustomizer adjusts the commons-pool2 configuration of every POOLED strategy
 * @param guard every call passes through it; the template closes it
 * @param failureMode what callers see when a call fails
 * @param completionExecutor where the futures of the {@code ...Async} forms complete, which the
 *     caller owns; {@code null} for the template's own
 * @param interceptor wraps every call, or {@code null} for none (the calls then take the plain path)
 * @param observer told about every call besides the template's own sensors
 * @param connectionLimit the most connections a strategy switched to may have
 * @param switcher how the template's adaptive switcher is made when it starts, or {@code null} for a template without one
 * @param switchers where that switcher is registered while the template runs; {@code null} exactly when {@code switcher} is
 */
record TemplateOptions(String name, StrategySpec initialStrategy, Duration drainTimeout, PoolConfigCustomizer poolCustomizer,
        CallGuard guard, CacheFailureMode failureMode, @Nullable Executor completionExecutor, @Nullable CallInterceptor interceptor,
        CallObserver observer, int connectionLimit, @Nullable SwitcherOptions switcher, @Nullable SwitcherRegistry switchers) {

    TemplateOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(initialStrategy, "initialStrategy");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(poolCustomizer, "poolCustomizer");
        Objects.requireNonNull(guard, "guard");
        Objects.requireNonNull(failureMode, "failureMode");
        Objects.requireNonNull(observer, "observer");
        if ((switcher == null) != (switchers == null)) {
            throw new IllegalArgumentException("A switcher's options and its registry are given together, or neither");
        }
    }

    /**
     * A template without hooks: unguarded, failing fast, on its own completion executor, without a switcher.
     * @param name the template's name
     * @param initialStrategy the strategy to open on start
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     * @return the options
     */
    static TemplateOptions of(String name, StrategySpec initialStrategy, Duration drainTimeout) {
        return new TemplateOptions(name, initialStrategy, drainTimeout, PoolConfigCustomizer.NONE, CallGuard.NONE,
                CacheFailureMode.FAIL_FAST, null, null, CallObserver.NONE, StrategySpec.DEFAULT_CONNECTION_LIMIT, null, null);
    }

    /**
     * These options with another failure mode.
     * @param mode what callers see when a call fails
     * @return the options
     */
    TemplateOptions withFailureMode(CacheFailureMode mode) {
        return new TemplateOptions(name, initialStrategy, drainTimeout, poolCustomizer, guard, mode, completionExecutor, interceptor,
                observer, connectionLimit, switcher, switchers);
    }
}
