package io.adaptivecache.redis;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a cluster fault test sets running and must stop however it ends, so that a failed test
 * leaves no frozen master, caller thread or open template behind for the next: the callers'
 * threads and their stop flag, the template under test, the switcher watching it and the master
 * the test froze. The test fills in what it starts; after each test (registered as an extension,
 * after the test class's own {@code @AfterEach} methods) what is there is undone.
 */
final class ClusterLoad implements AfterEachCallback {

    /** Where the callers run ({@link ClusterCallers#submit}). */
    final ExecutorService executor;

    /** How many callers run at once: the threads of {@link #executor}. */
    private final int threads;

    /** Set to stop the callers. */
    final AtomicBoolean stop = new AtomicBoolean();

    /** The template under test, once built. */
    ManagedCacheTemplate template;

    /** The switcher watching {@link #template}, if the test starts one. */
    StrategySwitcher switcher;

    /** The master frozen now, if any: thawed first, so that the rest can close. */
    RedisServer frozen;

    /**
     * @param threads how many callers the test runs at once
     */
    ClusterLoad(int threads) {
        this.executor = Executors.newFixedThreadPool(threads);
        this.threads = threads;
    }

    /**
     * Starts a switcher on {@link #template} with the default threshold policy over at most two
     * connections, a dwell of 1 s and a trial of 2 s.
     * @param minCallsPerWindow the calls a window needs for the policy to judge it
     * @param window the switcher's window
     * @param events where the switcher's events go
     */
    void startSwitcher(int minCallsPerWindow, Duration window, List<SwitchEvent> events) {
        this.switcher = new StrategySwitcher(this.template, new ThresholdStrategyPolicy(ThresholdStrategyPolicy.Settings.defaults()
                .withMaxConnections(2).withMinCallsPerWindow(minCallsPerWindow).withTimings(Duration.ofSeconds(1), Duration.ofSeconds(2))),
                window, AdaptiveMode.AUTO, null, System::nanoTime, Clock.systemUTC(), events::add);
        this.switcher.start();
    }

    /**
     * Submits as many callers of {@link #template} as the load has threads, on {@link #executor},
     * stopped by {@link #stop}: see {@link ClusterCallers#submit} for the parameters.
     * @return the callers, to wait for
     */
    List<Future<?>> submitCallers(int callsPerThread, long deadlineNanos, List<String> keys, byte[] value, LongAdder calls,
            BiConsumer<String, RuntimeException> onFailure) {
        return ClusterCallers.submit(this.executor, this.threads, callsPerThread, deadlineNanos, this.stop, this.template, keys, value, calls,
                onFailure);
    }

    /** Thaws the frozen master, stops the callers and waits for them, then closes the switcher and the template. */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        if (this.frozen != null) {
            this.frozen.thaw();
        }
        this.stop.set(true);
        this.executor.shutdownNow();
        this.executor.awaitTermination(10, TimeUnit.SECONDS);
        if (this.switcher != null) {
            this.switcher.close();
        }
        if (this.template != null) {
            this.template.close();
        }
    }
}
