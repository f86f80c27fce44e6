package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.metrics.WindowHistory;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leave trouble fast on the real clock against a real redis-server: a core template (no Spring)
 * with the production defaults of {@link SwitcherOptions#defaults()} (one-second windows, 60 s
 * dwell), on a small blocking pool as the measured run left it, and a surge of callers well
 * within the first dwell. The windows are counted by the switcher's own history, so a slow or
 * loaded machine stretches the test, not the count. Every load loop stops at its deadline.
 */
class LeavingTroubleRedisIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final String NAME = "leaving-trouble";
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final int SURGE = 64;

    private final SwitcherRegistry registry = new SwitcherRegistry();
    private final List<SwitchEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger callers = new AtomicInteger(2);

    /** Windows of the pool that the policy judges: undisturbed and with enough calls. */
    private static boolean judgedOnThePool(WindowHistory.Entry entry) {
        return entry.sample().strategy().type() == StrategyType.POOLED && !entry.sample().disturbed()
                && entry.sample().calls() >= ThresholdStrategyPolicy.Settings.defaults().minCallsPerWindow();
    }

    @Test
    void aSurgeOfCallersOnASmallBlockingPoolLeavesItWithinAFewWindowsOfTheFirstDwell() throws InterruptedException {
        // A blocking pool of 4 whose callers may wait 10 s: long enough that no call fails on a loaded machine.
        StrategySpec pool = StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofSeconds(10)));
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().name(NAME).uri(redis.uri()).pooledDriver(RedisDriver.JEDIS)
                .strategy(pool).commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10))
                .adaptive(SwitcherOptions.defaults().withListener(this.events::add), this.registry).start();
                // Closed-loop callers, as many active as callers says (two, then the surge), until the deadline or the end of the test.
                VaryingCallers load = VaryingCallers.start(template, SURGE, this.callers::get, "leaving-trouble:", LIMIT.multipliedBy(2))) {
            StrategySwitcher switcher = this.registry.get(NAME);
            assertThat(switcher.window()).isEqualTo(Duration.ofSeconds(1));

            // Two callers, which the pool serves without waiting, until the switcher has judged two windows of them.
            await().atMost(LIMIT).until(() -> switcher.windowHistory().stream().filter(LeavingTroubleRedisIntegrationTests::judgedOnThePool)
                    .count() >= 2);
            assertThat(this.events).as("two callers on a pool of 4 are no trouble").isEmpty();
            long surgeAt = System.currentTimeMillis();
            this.callers.set(SURGE);

            await().atMost(LIMIT).until(() -> !this.events.isEmpty());

            SwitchEvent leave = this.events.get(0);
            assertThat(leave.reason()).isIn(DecisionReason.POOL_CONTENTION, DecisionReason.POOL_SATURATED);
            assertThat(leave.to().type()).isEqualTo(StrategyType.MULTI);
            assertThat(template.stats().activeStrategy().type()).isEqualTo(StrategyType.MULTI);
            // The window the surge began in, then three agreeing windows: the policy's, not a dwell of 60.
            List<WindowHistory.Entry> judgedSinceTheSurge = switcher.windowHistory().stream()
                    .filter(entry -> entry.endEpochMillis() > surgeAt).filter(LeavingTroubleRedisIntegrationTests::judgedOnThePool).toList();
            assertThat(judgedSinceTheSurge).as("windows judged on the pool from the surge: %s", judgedSinceTheSurge).hasSizeLessThanOrEqualTo(4);
            load.stop();
            assertThat(load.failures()).as("calls failed across the surge and the switch").isZero();
        }
    }
}
