package io.adaptivecache.template;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitcherOptions;
import io.adaptivecache.adaptive.SwitcherRegistry;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.internal.Arguments;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * What every backend's template builder shares: the name, the strategy, the drain timeout, the
 * pool hook, the adaptive switcher and the build/start steps. A backend's builder adds its connection settings and
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
    private Duration connectTimeout = Duration.ofSeconds(2);
    private PoolConfigCustomizer poolCustomizer = PoolConfigCustomizer.NONE;
    private CallGuard guard = CallGuard.NONE;
    private CacheFailureMode failureMode = CacheFailureMode.FAIL_FAST;
    private @Nullable Executor completionExecutor;
    private @Nullable CallInterceptor interceptor;
    private CallObserver observer = CallObserver.NONE;
    private int connectionLimit = StrategySpec.DEFAULT_CONNECTION_LIMIT;
    private @Nullable SwitcherOptions switcher;
    private @Nullable SwitcherRegistry switchers;

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
     * How long opening a connection to a server may take (for memcached, a new client's
     * connections); default 2 s.
     * @param connectTimeout positive
     * @return this builder
     */
    public B connectTimeout(Duration connectTimeout) {
        this.connectTimeout = positive(connectTimeout, "connect timeout");
        return self();
    }

    /**
     * How long opening a connection may take, for the backend's connections.
     * @return the connect timeout
     */
    protected final Duration connectTimeout() {
        return this.connectTimeout;
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
     * Gives the template an adaptive {@link StrategySwitcher}, made from {@code options} when the
     * template starts (with the template's {@linkplain #connectionLimit connection limit}),
     * registered in {@code registry} under the template's name while it runs, and closed and
     * removed from the registry when the template closes. Without it, the template keeps the
     * strategy it opened with until someone calls its {@code switchStrategy}.
     * @param options how the switcher is made, such as {@link SwitcherOptions#defaults()}
     * @param registry where management tools find the switcher by the template's name
     * @return this builder
     */
    public B adaptive(SwitcherOptions options, SwitcherRegistry registry) {
        this.switcher = Objects.requireNonNull(options, "options");
        this.switchers = Objects.requireNonNull(registry, "registry");
        return self();
    }

    /**
     * Whether a template was built with {@link #adaptive(SwitcherOptions, SwitcherRegistry)}, and
     * so makes, registers and closes its own switcher: a layer that gives switchers to the
     * templates it is handed (the Spring Boot starter) leaves such a template alone, so that no
     * template is watched by two switchers.
     * @param template a template
     * @return {@code true} if it makes its own switcher
     */
    public static boolean hasOwnSwitcher(CacheTemplateManagement template) {
        return template instanceof DefaultCacheTemplate<?> built && built.hasOwnSwitcher();
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
                this.connectionLimit, this.switcher, this.switchers));
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
        return Arguments.positive(duration, what);
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
