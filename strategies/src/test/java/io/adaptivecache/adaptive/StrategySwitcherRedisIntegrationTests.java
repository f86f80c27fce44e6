package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The switcher on the real clock against a real redis-server, with short windows and dwell so
 * that each run is a few seconds. Every load loop stops at its deadline.
 */
class StrategySwitcherRedisIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LIMIT = Duration.ofSeconds(40);

    private final List<SwitchEvent> events = new CopyOnWriteArrayList<>();
    private ManagedCacheTemplate template;
    private StrategySwitcher switcher;
    private VaryingCallers callers;

    @AfterEach
    void shutDown() throws InterruptedException {
        if (this.callers != null) {
            this.callers.close();
        }
        if (this.switcher != null) {
            this.switcher.close();
        }
        if (this.template != null) {
            this.template.close();
        }
    }

    private void start(StrategySpec initial, ThresholdStrategyPolicy.Settings settings) {
        this.template = RedisCacheTemplates.builder().uri(redis.uri()).strategy(initial).commandTimeout(Duration.ofSeconds(5))
                .drainTimeout(Duration.ofSeconds(10)).start();
        this.switcher = new StrategySwitcher(this.template, new ThresholdStrategyPolicy(settings), Duration.ofMillis(500),
                AdaptiveMode.AUTO, null, System::nanoTime, Clock.systemUTC(), this.events::add);
        this.switcher.start();
    }

    private static ThresholdStrategyPolicy.Settings quick(int maxConnections) {
        return ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(maxConnections).withMinCallsPerWindow(50)
                .withTimings(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    /** Runs closed-loop callers; {@code wanted} says how many should be active at each moment. */
    private void load(int maxThreads, IntSupplier wanted) {
        this.callers = VaryingCallers.start(this.template, maxThreads, wanted, "switcher:", LIMIT);
    }

    @Test
    void twoHundredCallersOnASmallPoolShouldMakeTheSwitcherLeavePooled() {
        start(StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofSeconds(5))), quick(2));

        load(200, () -> 200);

        // The event is recorded once the old pool has drained, after the new strategy went live.
        await().atMost(LIMIT).until(() -> !this.events.isEmpty());
        assertThat(this.template.stats().activeStrategy().type()).isNotEqualTo(StrategyType.POOLED);
        assertThat(this.events).first().satisfies(event -> {
            assertThat(event.reason()).isIn(DecisionReason.POOL_CONTENTION, DecisionReason.POOL_SATURATED);
            assertThat(event.to()).isEqualTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        });
        assertThat(this.callers.failures()).as("calls failed across the switch").isZero();
    }

    @Test
    void withBlockingPooledConnectionsOneCallerShouldMoveToThemAndManyCallersBack() {
        this.template = io.adaptivecache.redis.RedisCacheTemplates.builder().uri(redis.uri())
                .pooledDriver(io.adaptivecache.redis.RedisDriver.JEDIS).strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN))
                .commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
        assertThat(this.template.stats().pooledConnectionsBlock()).isTrue();
        // A wide trial tolerance: this is about the moves, not about which driver wins on a busy 2-core machine.
        ThresholdStrategyPolicy.Settings settings = ThresholdStrategyPolicy.builder(quick(2)).trialTolerance(0.9).settings();
        // A pool wait as generous as the other tests': 64 threads arriving at once on two cores wait on scheduling, not on Redis.
        this.switcher = new StrategySwitcher(this.template, new ThresholdStrategyPolicy(settings,
                new ThresholdStrategyPolicy.BlockingPool(4, Duration.ofMillis(1), 8, Duration.ofSeconds(5))), Duration.ofMillis(500), AdaptiveMode.AUTO, null, System::nanoTime,
                Clock.systemUTC(), this.events::add);
        this.switcher.start();
        AtomicInteger active = new AtomicInteger(1);

        load(64, active::get);

        await().atMost(LIMIT).until(() -> !this.events.isEmpty());
        assertThat(this.events.get(0).reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
        assertThat(this.template.stats().activeStrategy().type()).isEqualTo(StrategyType.POOLED);
        // The trial ends (accepted) before the load grows, so that the move back is the policy's own.
        await().atMost(LIMIT).until(() -> this.switcher.state().lastDecision() != null
                && this.switcher.state().lastDecision().reason() == DecisionReason.TRIAL_ACCEPTED);

        active.set(64);

        await().atMost(LIMIT).until(() -> this.events.size() >= 2);
        assertThat(this.events.get(1).reason()).isIn(DecisionReason.POOL_SATURATED, DecisionReason.POOL_CONTENTION);
        assertThat(this.events.get(1).to().type()).isEqualTo(StrategyType.MULTI);
        // The move out of the pool is not on trial: the first window judged on the shared connections is no trial's.
        await().atMost(LIMIT).until(() -> {
            Decision last = this.switcher.state().lastDecision();
            return last != null && last.current().type() == StrategyType.MULTI && last.reason() != DecisionReason.DISTURBED
                    && last.reason() != DecisionReason.INSUFFICIENT_DATA;
        });
        assertThat(this.switcher.state().lastDecision().reason()).isNotEqualTo(DecisionReason.TRIAL);

        // And back to one caller: the third phase ends where the first did.
        active.set(1);

        await().atMost(LIMIT).until(() -> this.events.size() >= 3);
        assertThat(this.events.get(2).reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
        assertThat(this.template.stats().activeStrategy().type()).isEqualTo(StrategyType.POOLED);
        assertThat(this.events).as("one switch per phase: %s", this.events).hasSize(3);
        assertThat(this.callers.failures()).as("calls failed across the driver changes").isZero();
    }

    @Test
    void oneCallerOnFourIdleConnectionsShouldShrinkThem() {
        start(StrategySpec.multi(4, SelectorType.ROUND_ROBIN), quick(4));

        load(1, () -> 1);

        await().atMost(LIMIT).until(() -> !this.events.isEmpty());
        assertThat(this.template.stats().activeStrategy().connections()).isLessThan(4);
        assertThat(this.events).first().extracting(SwitchEvent::reason).isEqualTo(DecisionReason.CONNECTIONS_IDLE);
        assertThat(this.callers.failures()).isZero();
    }

    @Test
    void loadAlternatingFasterThanTheDwellBetweenOneAndSixtyFourCallersGivesAtMostOneSwitch() {
        // A budget out of reach: only the policy's own rules may hold switches back. Dwell 3 s, half-period 1.5 s.
        ThresholdStrategyPolicy.Settings outOfReach = ThresholdStrategyPolicy.builder().maxConnections(4).minCallsPerWindow(50)
                .confirmWindows(2).dwell(Duration.ofSeconds(3)).maxDwell(Duration.ofSeconds(30)).trial(Duration.ofSeconds(1))
                .maxSwitchesPerHour(1_000).settings();
        start(StrategySpec.single(), outOfReach);
        long started = System.nanoTime();
        AtomicLong phase = new AtomicLong();

        // 64 callers would grow SINGLE to MULTI(4), one caller would shrink it back: each half lasts half the dwell.
        load(64, () -> {
            long elapsed = System.nanoTime() - started;
            phase.set(elapsed / TimeUnit.MILLISECONDS.toNanos(1500));
            return phase.get() % 2 == 0 ? 64 : 1;
        });
        await().atMost(LIMIT).until(() -> phase.get() >= 14);

        assertThat(this.events.stream().filter(event -> event.outcome() == SwitchEvent.Outcome.SWITCHED).count())
                .as("switches in 21 s of a square wave: %s", this.events).isLessThanOrEqualTo(1L);
        assertThat(this.switcher.state().lastDecision()).as("the switcher kept deciding").isNotNull();
        assertThat(this.callers.failures()).isZero();
    }
}
