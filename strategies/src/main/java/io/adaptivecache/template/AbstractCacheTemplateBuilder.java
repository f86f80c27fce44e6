package io.adaptivecache.template;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * What every backend's template builder shares: the name, the strategy, the drain timeout, the
 * pool hook and the build/start steps. A backend's builder adds its connection settings and
 * builds its {@link CacheBackend}, whose native connection type may depend on a setting (a
 * driver), so it is fixed when the backend is built rather than by the builder's type. What it
 * builds is a {@link ManagedCacheTemplate}; the implementation behind it is not API.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class AbstractCacheTemplateBuilder<B extends AbstractCacheTemplateBuilder<B>> {

    private String name;
    private StrategySpec strategy = StrategySpec.multi();
    private Duration drainTimeout = Duration.ofSeconds(3);
    private PoolConfigCustomizer poolCustomizer = PoolConfigCustomizer.NONE;
    private CallGuard guard = CallGuard.NONE;
    private CacheFailureMode failureMode = CacheFailureMode.FAIL_FAST;
    private @Nullable Executor completionExecutor;
    private @Nullable CallInterceptor interceptor;
    private CallObserver observer = CallObserver.NONE;
    private int connectionLimit = StrategySpec.DEFAULT_CONNECTION_LIMIT;

    /**
     * Creates a builder.
     * @param defaultName the template's name unless {@link #name} sets another
     */
    protected AbstractCacheTemplateBuilder(String defaultName) {
        this.name = defaultName;
    }

    /**
     * The template's name, for logs and metrics.
     * @param name the name
     * @return this builder
     */
    public B name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return self();
    }

    /**
     * The strategy to open with; default {@link StrategySpec#multi()} (one connection per processor).
     * @param strategy the strategy
     * @return this builder
     */
    public B strategy(StrategySpec strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        return self();
    }

    /**
     * Longest wait for a retired strategy's calls before closing its connections; keep it above
     * the command timeout; default 3 s.
     * @param drainTimeout positive
     * @return this builder
     */
    public B drainTimeout(Duration drainTimeout) {
        this.drainTimeout = positive(drainTimeout, "drain timeout");
        return self();
    }

    /**
     * Adjusts the commons-pool2 configuration of POOLED strategies, after max-total, max-idle,
     * min-idle and max-wait are applied.
     * @param poolCustomizer the customizer
     * @return this builder
     */
    public B poolConfig(PoolConfigCustomizer poolCustomizer) {
        this.poolCustomizer = Objects.requireNonNull(poolCustomizer, "poolCustomizer");
        return self();
    }

    /**
     * Passes every call through a guard, such as a
     * {@link io.adaptivecache.resilience.Resilience4jCallGuard}; the template closes it. Default: none.
     * @param guard the guard
     * @return this builder
     */
    public B guard(CallGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        return self();
    }

    /**
     * What callers see when a call fails because of the cache, and whether a server that cannot
     * be reached at startup fails the start ({@link CacheFailureMode#FAIL_FAST}, the default) or
     * not ({@link CacheFailureMode#DEGRADE}).
     * @param failureMode the mode
     * @return this builder
     */
    public B onFailure(CacheFailureMode failureMode) {
        this.failureMode = Objects.requireNonNull(failureMode, "failureMode");
        return self();
    }

    /**
     * Where the futures of the {@code ...Async} forms complete, and so where the stages that
     * callers chain on them run (Spring's asynchronous {@code @Cacheable} methods and their puts
     * among them). Never a driver's I/O thread: a stage that ran there would hold up every other
     * call on the connection, and a synchronous cache call made from it would wait for a reply
     * that only that thread can read.
     *
     * <p>Default: the template's own executor, as many daemon threads as processors (at least 2,
     * at most 8) named {@code adaptive-cache-<name>-async-<n>}, started on first use, ended after
     * a minute idle and shut down when the template closes. Give your own where the chained stages
     * block (it should not be one of the calling threads' pools, nor reject: a rejected completion
     * runs on the common fork-join pool). The template does not shut down an executor given here.
     * Synchronous calls never use it.
     * @param completionExecutor the executor
     * @return this builder
     */
    public B completionExecutor(Executor completionExecutor) {
        this.completionExecutor = Objects.requireNonNull(completionExecutor, "completionExecutor");
        return self();
    }

    /**
     * The most connections (N of MULTI, max-total of POOLED) any strategy the template switches to
     * may have, whoever asks (an operator, the adaptive policy, the application's own code): a switch
     * above it is refused before anything is opened. The strategy the template starts with is not
     * checked. Default {@value StrategySpec#DEFAULT_CONNECTION_LIMIT}.
     * @param connectionLimit the limit, at least 1
     * @return this builder
     */
    public B connectionLimit(int connectionLimit) {
        if (connectionLimit < 1) {
            throw new IllegalArgumentException("The connection limit must be at least 1, was " + connectionLimit);
        }
        this.connectionLimit = connectionLimit;
        return self();
    }

    /**
     * Wraps every call of the template, such as in a Micrometer Observation
     * ({@link io.adaptivecache.micrometer.CacheCallObservations}). Without one, calls take the
     * plain path and pay nothing for the hook.
     * @param interceptor the interceptor
     * @return this builder
     */
    public B interceptCallsWith(CallInterceptor interceptor) {
        this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
        return self();
    }

    /**
     * Tells an observer of every call when it completes, besides the template's own sensors;
     * observers given here and later to the template's sensors are all told, none replaces another.
     * @param observer the observer: called on the hot path, so quick, lock-free, never logging
     * @return this builder
     */
    public B observeCallsWith(CallObserver observer) {
        Objects.requireNonNull(observer, "observer");
        this.observer = this.observer == CallObserver.NONE ? observer : CallObserver.both(this.observer, observer);
        return self();
    }

    /**
     * Builds the backend from this builder's settings, on the native connection type of the
     * driver chosen.
     * @return the backend, owning whatever client-wide resources it created
     */
    protected abstract CacheBackend<?> backend();

    /**
     * Builds a template without connecting; call {@link ManagedCacheTemplate#start()} (or let a
     * lifecycle do it) before use.
     * @return the template
     */
    public ManagedCacheTemplate build() {
        return new DefaultCacheTemplate<>(backend(), new TemplateOptions(this.name, this.strategy, this.drainTimeout,
                this.poolCustomizer, this.guard, this.failureMode, this.completionExecutor, this.interceptor, this.observer,
                this.connectionLimit));
    }

    /**
     * Builds a template and opens its connections.
     * @return the running template (in {@link CacheFailureMode#DEGRADE} mode, possibly not
     *     connected, see {@link io.adaptivecache.management.TemplateStats#connected()} yet: see {@link ManagedCacheTemplate#start()})
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached, in
     *     {@link CacheFailureMode#FAIL_FAST} mode
     */
    public ManagedCacheTemplate start() {
        ManagedCacheTemplate template = build();
        try {
            template.start();
        }
        catch (RuntimeException ex) {
            template.close();
            throw ex;
        }
        return template;
    }

    /**
     * Checks a duration setting.
     * @param duration the value
     * @param what its name, for the message
     * @return the value
     * @throws IllegalArgumentException if it is null, zero or negative
     */
    protected static Duration positive(Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("The " + what + " must be positive, was " + duration);
        }
        return duration;
    }

    /**
     * This builder, as its own type, for the setters of subclasses.
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    protected final B self() {
        return (B) this;
    }
}
