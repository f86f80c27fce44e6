package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator pin or trial against a real redis-server that takes few clients ({@code maxclients 6}):
 * a strategy that needs more connections than the server will take stops opening at the first
 * refusal, closes what it opened (counted by the server) and changes nothing in the switcher.
 * "Stops at the first refusal" is counted on the server: it refuses exactly one connection
 * ({@code rejected_connections}) and accepts only those it had room for
 * ({@code total_connections_received}); a strategy that went on opening after a refusal is refused again.
 */
class StrategySwitcherRefusedConnectionsIntegrationTests {

    private static final RedisServer server = RedisServer.withArguments("--maxclients", "6");

    private final List<SwitchEvent> events = new CopyOnWriteArrayList<>();
    private ManagedCacheTemplate template;
    private StrategySwitcher switcher;

    @BeforeAll
    static void startServer() {
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @BeforeEach
    void startTemplate() {
        this.template = RedisCacheTemplates.builder().uri("redis://" + server.address()).strategy(StrategySpec.single())
                .commandTimeout(Duration.ofSeconds(5)).connectTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(5))
                .start();
        this.switcher = new StrategySwitcher(this.template, new ThresholdStrategyPolicy(ThresholdStrategyPolicy.Settings.defaults()),
                Duration.ofSeconds(1), AdaptiveMode.AUTO, null, System::nanoTime, Clock.systemUTC(), this.events::add);
    }

    @AfterEach
    void closeTemplate() {
        this.switcher.close();
        this.template.close();
    }

    @Test
    void aPinToMoreSharedConnectionsThanTheServerTakesShouldCloseWhatItOpenedAndChangeNothing() {
        assertRefusedPinChangesNothing(StrategySpec.multi(20, SelectorType.ROUND_ROBIN));
    }

    @Test
    void aPinToAPoolThatOpensMoreConnectionsThanTheServerTakesShouldCloseWhatItOpenedAndChangeNothing() {
        // min-idle 20: the pool opens 20 connections up front, so the server's refusal comes during the warm-up.
        assertRefusedPinChangesNothing(StrategySpec.pooled(new PoolSettings(20, 20, 20, Duration.ofMillis(200))));
    }

    private void assertRefusedPinChangesNothing(StrategySpec tooMany) {
        int baseline = server.connectedClients(); // also opens the admin connection, before the server is full
        long receivedBefore = stat("total_connections_received");
        long rejectedBefore = stat("rejected_connections");
        StrategySpec incumbent = this.template.stats().activeStrategy();
        AdaptiveState before = this.switcher.state();

        SwitchEvent event = this.switcher.pin(tooMany);
        long received = stat("total_connections_received") - receivedBefore;
        long rejected = stat("rejected_connections") - rejectedBefore;

        assertThat(event.outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
        AdaptiveState after = this.switcher.state();
        assertThat(after.pinned()).as("not pinned").isNull();
        assertThat(after.mode()).isEqualTo(before.mode());
        assertThat(after.active()).as("the incumbent is live").isEqualTo(incumbent);
        assertThat(after.since()).isEqualTo(before.since());
        assertThat(this.template.stats().openConnections()).as("the template's own count").isEqualTo(1);
        // maxclients 6, less the admin connection and the baseline (the template's own connection among them).
        long room = 6 - 1 - baseline;
        assertThat(rejected).as("connections the server refused: the strategy stopped at the first refusal").isEqualTo(1);
        assertThat(received).as("connections the server accepted: only those it had room for").isEqualTo(room);
        await("the connections the failed pin opened are closed on the server").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(server.connectedClients()).isEqualTo(baseline));
        this.template.set("refused:k", new byte[] {1, 2}, Duration.ofMinutes(1));
        assertThat(this.template.get("refused:k")).as("the incumbent still serves").containsExactly(1, 2);
    }

    /** A counter of the server's {@code INFO stats}, which counts every connection it accepts or refuses. */
    private static long stat(String field) {
        return Long.parseLong(server.info("stats", field));
    }
}
