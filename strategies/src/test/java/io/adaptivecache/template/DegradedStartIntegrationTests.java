package io.adaptivecache.template;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.management.PendingConnection;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code on-failure: degrade} with no server at startup, on real servers for every driver: the
 * template starts not connected, calls fail at once and degrade, one background thread connects
 * once a server is started on that very port (the template is never restarted), and closing the
 * template stops that thread. {@code fail-fast} still fails the start.
 *
 * <p>The port comes from a server that is started and stopped first, so that it is free while
 * the template starts and the same server can be started on it again.
 */
class DegradedStartIntegrationTests {

    private static final byte[] VALUE = "served after the server appeared".getBytes(StandardCharsets.US_ASCII);

    private ServerProcess server;
    private ManagedCacheTemplate template;

    @AfterEach
    void cleanUp() {
        if (this.template != null) {
            this.template.close();
        }
        if (this.server != null) {
            this.server.stop();
        }
    }

    /** Each driver, with a strategy it serves; the Jedis case opens a blocking pool and its Lettuce async lane. */
    enum Backend {

        REDIS_LETTUCE_MULTI, REDIS_JEDIS_POOLED, MEMCACHED_SPYMEMCACHED, MEMCACHED_XMEMCACHED;

        ServerProcess newServer() {
            return name().startsWith("REDIS") ? new RedisServer() : new MemcachedServer();
        }

        StrategySpec strategy() {
            return this == REDIS_JEDIS_POOLED ? StrategySpec.pooled(new PoolSettings(2, 2, 1, Duration.ofMillis(500)))
                    : StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
        }

        AbstractCacheTemplateBuilder<?> builder(String name, int port) {
            return switch (this) {
                case REDIS_LETTUCE_MULTI -> RedisCacheTemplates.builder().name(name).uri("redis://127.0.0.1:" + port)
                        .strategy(strategy()).connectTimeout(Duration.ofSeconds(1));
                case REDIS_JEDIS_POOLED -> RedisCacheTemplates.builder().name(name).uri("redis://127.0.0.1:" + port)
                        .pooledDriver(RedisDriver.JEDIS).strategy(strategy()).connectTimeout(Duration.ofSeconds(1));
                case MEMCACHED_SPYMEMCACHED, MEMCACHED_XMEMCACHED -> MemcachedCacheTemplates.builder().name(name)
                        .driver(this == MEMCACHED_XMEMCACHED ? MemcachedDriver.XMEMCACHED : MemcachedDriver.SPYMEMCACHED)
                        .servers("127.0.0.1:" + port).strategy(strategy()).connectTimeout(Duration.ofSeconds(1));
            };
        }

        /** The value the server holds for a key, read by a raw client of the test's own, or {@code null}. */
        String serverValue(ServerProcess server, String key) {
            if (server instanceof RedisServer redis) {
                return redis.command("GET", key);
            }
            return ((MemcachedServer) server).get(key);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aTemplateStartedWithoutItsServerShouldDegradeThenConnectInTheBackgroundWhenTheServerAppears(Backend backend) {
        String name = "degraded-" + backend.name().toLowerCase(java.util.Locale.ROOT);
        int port = freedPort(backend);
        List<CallOutcome> outcomes = new CopyOnWriteArrayList<>();

        this.template = backend.builder(name, port).onFailure(CacheFailureMode.DEGRADE).start();
        this.template.sensors().addObserver(new Recording(outcomes));

        assertThat(this.template.stats().running()).as("started, though the server cannot be reached").isTrue();
        assertThat(this.template.stats().connected()).isFalse();
        PendingConnection pending = this.template.stats().pendingConnection().orElseThrow();
        assertThat(pending.server()).contains(Integer.toString(port));
        assertThat(pending.reason()).as("the reason of the failed attempt").isNotBlank();
        assertThat(pending.attempts()).isGreaterThanOrEqualTo(1);
        assertThat(pending.nextAttempt()).isAfterOrEqualTo(pending.lastAttempt());
        assertThat(connectorThreads(name)).as("one background thread connects").hasSize(1);

        assertThat(this.template.get("degraded:k")).as("a read is a miss").isNull();
        this.template.set("degraded:k", VALUE, Duration.ZERO);
        assertThat(this.template.getAsync("degraded:k").join()).isNull();
        assertThat(this.template.stats().degradedReads()).isEqualTo(2);
        assertThat(this.template.stats().skippedWrites()).isEqualTo(1);
        // Refused at once as not connected: a call that waited for the command timeout would be counted as a timeout.
        assertThat(outcomes).containsOnly(CallOutcome.CONNECTION_FAILURE).hasSize(3);
        assertThatThrownBy(() -> this.template.incr("degraded:n", 1)).as("incr has no neutral answer")
                .isInstanceOf(CacheConnectionException.class).hasMessageContaining("Not connected to").hasMessageContaining("yet");

        if (backend.name().startsWith("MEMCACHED")) {
            await("a retry").atMost(Duration.ofSeconds(10)).until(() -> this.template.stats().pendingConnection().orElseThrow().attempts() >= 2);
            // A retry asks with a plain socket first; a client built per retry would fail "within 1000 ms", logging as it goes.
            assertThat(this.template.stats().pendingConnection().orElseThrow().reason()).contains("Connection refused")
                    .doesNotContain("within");
        }

        this.server.restart(); // on the very port the template was given

        await("the template to connect in the background").atMost(Duration.ofSeconds(15)).until(() -> this.template.stats().connected());
        this.template.set("degraded:k", VALUE, Duration.ZERO);
        assertThat(this.template.get("degraded:k")).isEqualTo(VALUE);
        assertThat(backend.serverValue(this.server, "degraded:k")).as("the server holds what was written")
                .isEqualTo(new String(VALUE, StandardCharsets.US_ASCII));
        assertThat(this.template.stats().degradedReads()).as("nothing degraded once connected").isEqualTo(2);
        assertThat(this.template.stats().skippedWrites()).isEqualTo(1);
        assertThat(this.template.stats().pendingConnection()).isEmpty();
        assertThat(this.template.stats().activeStrategy()).as("the configured strategy").isEqualTo(backend.strategy());
        await("the connector thread to end once connected").atMost(Duration.ofSeconds(5))
                .until(() -> connectorThreads(name).isEmpty());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void closingATemplateThatHasNotConnectedShouldStopItsBackgroundThread(Backend backend) {
        String name = "closed-" + backend.name().toLowerCase(java.util.Locale.ROOT);
        int port = freedPort(backend);
        this.template = backend.builder(name, port).onFailure(CacheFailureMode.DEGRADE).start();
        assertThat(connectorThreads(name)).hasSize(1);

        this.template.close();

        assertThat(connectorThreads(name)).as("no connector thread outlives the template").isEmpty();
        assertThat(this.template.stats().connected()).isFalse();
        assertThat(this.template.stats().pendingConnection()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void failFastShouldStillFailTheStartAndLeaveNoThread(Backend backend) {
        String name = "fail-fast-" + backend.name().toLowerCase(java.util.Locale.ROOT);
        int port = freedPort(backend);

        assertThatThrownBy(() -> backend.builder(name, port).onFailure(CacheFailureMode.FAIL_FAST).start())
                .isInstanceOf(CacheConnectionException.class);
        assertThat(connectorThreads(name)).isEmpty();
    }

    @Test
    void theSwitcherShouldNotSwitchWhileNotConnectedAndAPinShouldOpenNothing() {
        String name = "degraded-switcher";
        int port = freedPort(Backend.REDIS_LETTUCE_MULTI);
        this.template = Backend.REDIS_LETTUCE_MULTI.builder(name, port).onFailure(CacheFailureMode.DEGRADE).start();
        StrategySpec configured = this.template.stats().activeStrategy();
        List<SwitchEvent> events = new CopyOnWriteArrayList<>();
        StrategySwitcher switcher = new StrategySwitcher(this.template,
                new ThresholdStrategyPolicy(ThresholdStrategyPolicy.Settings.defaults()), Duration.ofSeconds(1), AdaptiveMode.AUTO, null,
                System::nanoTime, Clock.systemUTC(), events::add);
        try {
            for (int i = 0; i < 200; i++) {
                this.template.get("degraded:" + i);
            }
            Decision decision = switcher.evaluate();
            assertThat(decision.reason()).isEqualTo(DecisionReason.DISTURBED);
            assertThat(decision.isSwitch()).isFalse();

            SwitchEvent pin = switcher.pin(StrategySpec.single());
            assertThat(pin.outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
            assertThat(pin.failure()).contains("not connected");
            assertThat(switcher.state().pinned()).isNull();
            assertThat(this.template.stats().openConnections()).as("nothing half-opened").isZero();

            this.server.restart();
            await().atMost(Duration.ofSeconds(15)).until(() -> this.template.stats().connected());
            assertThat(this.template.stats().activeStrategy()).as("connected with the configured strategy, not the refused pin")
                    .isEqualTo(configured);
            assertThat(((RedisServer) this.server).connectedClients()).as("the configured MULTI of 2, nothing else")
                    .isEqualTo(2);
        }
        finally {
            switcher.close();
        }
    }

    private int freedPort(Backend backend) {
        this.server = backend.newServer();
        this.server.start();
        int port = this.server.port();
        this.server.stop();
        return port;
    }

    private static List<Thread> connectorThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(BackgroundConnector.THREAD_PREFIX + name) && thread.isAlive()).toList();
    }

    private record Recording(List<CallOutcome> outcomes) implements CallObserver {

        @Override
        public void onCall(CacheCommand command, CallOutcome outcome, long latencyNanos) {
            this.outcomes.add(outcome);
        }
    }
}
