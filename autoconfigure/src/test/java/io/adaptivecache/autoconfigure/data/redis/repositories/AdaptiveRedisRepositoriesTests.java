package io.adaptivecache.autoconfigure.data.redis.repositories;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.autoconfigure.data.redis.AdaptiveCacheSpringDataRedisAutoConfiguration;
import io.adaptivecache.autoconfigure.data.redis.SwitchesUnderCallers;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisKeyExpiredEvent;
import org.springframework.data.redis.core.RedisKeyValueAdapter.EnableKeyspaceEvents;
import org.springframework.data.redis.repository.configuration.EnableRedisRepositories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Data Redis repositories, enabled by Spring Boot's own repositories auto-configuration,
 * on the factory over the Redis template's connections, against a real redis-server: a
 * {@code @RedisHash} entity with an indexed field and a time to live is saved, found by id and by
 * its index, counted and deleted on SINGLE, MULTI(2) and POOLED, what reached the server is read
 * there by the test server's own connection, and callers keep using the repository while the
 * strategy switches under them. With keyspace events on, the expiry listener (a CONFIG SET and a
 * subscription, both through the factory) cleans an expired entity's indexes.
 */
// Each test is bounded: a subscription that never confirms would otherwise hang the build (a join that ignores interrupts).
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AdaptiveRedisRepositoriesTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onRedis(redis, AdaptiveCacheSpringDataRedisAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    DataRedisRepositoriesAutoConfiguration.class)
            .withUserConfiguration(RepositoriesPackage.class)
            // Boot's own factory, where it is made, goes to our server too: never to a Redis on the default port.
            .withPropertyValues("spring.data.redis.url=" + redis.uri(), "adaptive-cache.redis.timeout=10s",
                    "adaptive-cache.redis.spring-data.enabled=true", "adaptive-cache.redis.strategy.multi.connections=2",
                    "adaptive-cache.redis.strategy.pool.max-total=4", "adaptive-cache.redis.strategy.pool.max-idle=4");

    /** This package, where Boot's repositories auto-configuration looks for repositories, as it does under an application's main class. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage
    static class RepositoriesPackage {
    }

    @ParameterizedTest
    @ValueSource(strings = { "single", "multi", "pooled" })
    void saveFindByIdAndIndexCountAndDeleteShouldRunOnEachStrategyAndReachTheServer(String strategy) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=" + strategy).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(AdaptiveRedisConnectionFactory.class);
            ManagedCacheTemplate template = template(context);
            assertThat(template.stats().activeStrategy().type()).isEqualTo(StrategyType.valueOf(strategy.toUpperCase()));
            VisitRepository visits = context.getBean(VisitRepository.class);
            long calls = template.sensors().totalCalls();
            long borrows = template.stats().totalBorrows();
            long count = visits.count();
            String first = strategy + "-1";
            String second = strategy + "-2";
            String alice = strategy + "-alice";
            String bob = strategy + "-bob";

            visits.save(new Visit(first, alice, "/home"));
            visits.save(new Visit(second, alice, "/cart"));
            // On the server: the entity's hash with its fields, a time to live, its id in the keyspace's set and in its owner's index.
            assertThat(hash(key(first))).containsEntry("id", first).containsEntry("owner", alice).containsEntry("page", "/home")
                    .containsEntry("_class", Visit.class.getName());
            assertThat(Long.parseLong(redis.server().command("TTL", key(first)))).isBetween(1L, 300L);
            assertThat(members(Visit.KEYSPACE)).contains(first, second);
            assertThat(members(index(alice))).containsExactlyInAnyOrder(first, second);
            assertThat(members(key(first) + ":idx")).containsExactly(index(alice));

            assertThat(visits.findById(first)).map(Visit::page).contains("/home");
            assertThat(visits.findByOwner(alice)).extracting(Visit::id).containsExactlyInAnyOrder(first, second);
            assertThat(visits.count()).isEqualTo(count + 2);

            // An update moves the entity from one owner's index to the other's.
            visits.save(new Visit(first, bob, "/home"));
            assertThat(members(index(alice))).containsExactly(second);
            assertThat(members(index(bob))).containsExactly(first);
            assertThat(visits.findByOwner(bob)).extracting(Visit::id).containsExactly(first);

            visits.deleteById(first);
            assertThat(redis.server().command("EXISTS", key(first))).isEqualTo("0");
            assertThat(redis.server().command("SISMEMBER", Visit.KEYSPACE, first)).isEqualTo("0");
            assertThat(members(index(bob))).isEmpty();
            assertThat(visits.findById(first)).isEmpty();
            assertThat(visits.count()).isEqualTo(count + 1);
            visits.delete(visits.findById(second).orElseThrow());
            assertThat(redis.server().command("EXISTS", key(second))).isEqualTo("0");
            assertThat(visits.count()).isEqualTo(count);

            // The repository's commands ran on the strategy's connections: each was one call for the template's sensors,
            // and on POOLED one borrow from the pool.
            assertThat(template.sensors().totalCalls() - calls).isGreaterThanOrEqualTo(REPOSITORY_COMMANDS);
            if (strategy.equals("pooled")) {
                assertThat(template.stats().totalBorrows() - borrows).isGreaterThanOrEqualTo(REPOSITORY_COMMANDS);
            }
            else {
                assertThat(redis.server().connectedClients()).isEqualTo(template.stats().activeStrategy().connections());
            }
        });
    }

    /** At least this many commands reach the strategy's connections in the test above (each save alone sends five). */
    private static final int REPOSITORY_COMMANDS = 30;

    @Test
    void callersShouldKeepUsingTheRepositoryWhileTheStrategySwitchesUnderThem() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=single").run(context -> {
            VisitRepository visits = context.getBean(VisitRepository.class);
            int callers = 4;
            long rounds = SwitchesUnderCallers.run(template(context), redis.server(), callers, 50, (caller, round) -> {
                // Each caller has its own owner, so what it finds is all its own.
                String owner = "racer-" + caller;
                String id = owner + "-" + round;
                visits.save(new Visit(id, owner, "/" + round));
                Optional<Visit> found = visits.findById(id);
                List<Visit> owned = visits.findByOwner(owner);
                visits.count();
                visits.deleteById(id);
                if (found.isEmpty() || !found.get().page().equals("/" + round)) {
                    throw new AssertionError("findById " + id + ": " + found);
                }
                if (owned.size() != 1 || !owned.get(0).id().equals(id)) {
                    throw new AssertionError("findByOwner " + owner + " after saving " + id + ": " + owned);
                }
                if (visits.existsById(id)) {
                    throw new AssertionError(id + " still exists after its delete");
                }
            });
            assertThat(rounds).isGreaterThanOrEqualTo(150);
            // Every caller deleted what it saved: nothing of theirs is left on the server.
            for (int t = 0; t < callers; t++) {
                assertThat(members(index("racer-" + t))).isEmpty();
            }
        });
    }

    @Test
    void withKeyspaceEventsTheExpiryListenerShouldCleanAnExpiredEntitysIndexes() {
        // Off on the server, so that what turns it on is the repositories' CONFIG SET, sent through the factory.
        redis.server().command("CONFIG", "SET", "notify-keyspace-events", "");
        this.contextRunner.withUserConfiguration(KeyspaceEvents.class).withPropertyValues("adaptive-cache.redis.strategy.type=pooled")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    VisitRepository visits = context.getBean(VisitRepository.class);
                    ExpiredVisits expired = context.getBean(ExpiredVisits.class);
                    await().atMost(Duration.ofSeconds(5))
                            .until(() -> !redis.server().command("CONFIG", "GET", "notify-keyspace-events").endsWith("\n"));
                    assertThat(redis.server().command("CONFIG", "GET", "notify-keyspace-events")).contains("E").contains("x");

                    visits.save(new Visit("expiring", "ephemeral", "/gone").withTtl(1L));
                    // The phantom copy the listener reads the expired entity back from.
                    assertThat(redis.server().command("EXISTS", key("expiring") + ":phantom")).isEqualTo("1");
                    assertThat(members(index("ephemeral"))).containsExactly("expiring");
                    // Redis expires the hash; the listener, subscribed through the factory, hears it and cleans the indexes.
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        assertThat(redis.server().command("EXISTS", key("expiring"))).isEqualTo("0");
                        assertThat(members(index("ephemeral"))).isEmpty();
                        assertThat(redis.server().command("SISMEMBER", Visit.KEYSPACE, "expiring")).isEqualTo("0");
                    });
                    await().atMost(Duration.ofSeconds(5)).until(() -> !expired.events.isEmpty());
                    assertThat(expired.events).extracting(event -> ((Visit) event.getValue()).page()).containsExactly("/gone");
                });
    }

    /** Repositories with keyspace events on, as an application turns them on; Boot's own repositories configuration backs off. */
    @Configuration(proxyBeanMethods = false)
    @EnableRedisRepositories(enableKeyspaceEvents = EnableKeyspaceEvents.ON_STARTUP)
    static class KeyspaceEvents {

        @Bean
        ExpiredVisits expiredVisits() {
            return new ExpiredVisits();
        }
    }

    /** The key-expired events the expiry listener publishes. */
    static class ExpiredVisits implements ApplicationListener<RedisKeyExpiredEvent<?>> {

        final ConcurrentLinkedQueue<RedisKeyExpiredEvent<?>> events = new ConcurrentLinkedQueue<>();

        @Override
        public void onApplicationEvent(RedisKeyExpiredEvent<?> event) {
            this.events.add(event);
        }
    }

    private static String key(String id) {
        return Visit.KEYSPACE + ":" + id;
    }

    private static String index(String owner) {
        return Visit.KEYSPACE + ":owner:" + owner;
    }

    /** A set's members, read on the test server's own connection. */
    private static List<String> members(String key) {
        String reply = redis.server().command("SMEMBERS", key);
        return reply.isEmpty() ? List.of() : List.of(reply.split("\n"));
    }

    /** A hash's fields and values, read on the test server's own connection. */
    private static Map<String, String> hash(String key) {
        String[] lines = redis.server().command("HGETALL", key).split("\n");
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < lines.length; i += 2) {
            fields.put(lines[i], lines[i + 1]);
        }
        return fields;
    }

    private static ManagedCacheTemplate template(AssertableApplicationContext context) {
        return context.getBean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE, ManagedCacheTemplate.class);
    }
}
