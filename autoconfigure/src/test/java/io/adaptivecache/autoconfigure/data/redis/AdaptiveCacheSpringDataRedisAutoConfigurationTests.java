package io.adaptivecache.autoconfigure.data.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.autoconfigure.InvalidAdaptiveCachePropertyException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.data.redis.listener.Topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * adaptive-cache.redis.spring-data.enabled on a real redis-server, with Spring Boot's own Redis
 * auto-configuration: Boot's RedisTemplate and StringRedisTemplate run on the Redis template's
 * SINGLE, MULTI(2) and POOLED connections and follow a switch while they are called; what must
 * not share a connection (transactions, blocking commands, subscriptions) runs on its own.
 */
class AdaptiveCacheSpringDataRedisAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onRedis(redis, AdaptiveCacheSpringDataRedisAutoConfiguration.class, DataRedisAutoConfiguration.class)
            // Boot's own factory, where it is made, goes to our server too: never to a Redis on the default port.
            .withPropertyValues("spring.data.redis.url=" + redis.uri(), "adaptive-cache.redis.timeout=10s");

    private ApplicationContextRunner enabled(String... properties) {
        return this.contextRunner.withPropertyValues("adaptive-cache.redis.spring-data.enabled=true").withPropertyValues(properties);
    }

    @Test
    void offByDefaultBootsOwnFactoryShouldServeSpringData() {
        this.contextRunner.run(context -> {
            assertThat(context).hasSingleBean(RedisConnectionFactory.class);
            assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(LettuceConnectionFactory.class);
            assertThat(context).doesNotHaveBean(AdaptiveRedisConnectionFactory.class);
        });
    }

    @Test
    void enabledTheFactoryShouldBackBootsTemplates() {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            AdaptiveRedisConnectionFactory factory = context.getBean(AdaptiveRedisConnectionFactory.class);
            assertThat(context).hasSingleBean(RedisConnectionFactory.class);
            assertThat(context.getBean(StringRedisTemplate.class).getConnectionFactory()).isSameAs(factory);
            assertThat(context.getBean("redisTemplate", RedisTemplate.class).getConnectionFactory()).isSameAs(factory);
        });
    }

    @Test
    void enabledWithAnApplicationsOwnFactoryShouldBackOff() {
        enabled().withBean("myRedisConnectionFactory", RedisConnectionFactory.class, () -> {
            LettuceConnectionFactory own = new LettuceConnectionFactory("127.0.0.1", redis.server().port());
            own.afterPropertiesSet();
            return own;
        }).run(context -> {
            assertThat(context).doesNotHaveBean(AdaptiveRedisConnectionFactory.class);
            assertThat(context.getBean(StringRedisTemplate.class).getConnectionFactory()).isInstanceOf(LettuceConnectionFactory.class);
        });
    }

    @Test
    void enabledWithAJedisPoolShouldFailNamingTheProperties() {
        enabled("adaptive-cache.redis.pooled-driver=jedis").run(context -> {
            assertThat(context).hasFailed();
            // Refused where the driver is chosen, before anything connects.
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageStartingWith("Property adaptive-cache.redis.pooled-driver with value 'jedis' is invalid")
                    .hasMessageContaining("adaptive-cache.redis.spring-data.enabled");
        });
    }

    @Test
    void enabledWithAClusterTemplateShouldFailNamingThePropertyBeforeAnythingConnects() {
        // A cluster template from properties alone: its node is this class's server, which a start would connect to (and
        // then fail, it is no cluster node). The refusal comes first, when the factory is made, before the templates start.
        long connections = redis.server().connectionsReceived();
        enabled("adaptive-cache.redis.cluster.nodes=" + redis.server().address()).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidAdaptiveCachePropertyException.class)
                    .hasMessageStartingWith("Property adaptive-cache.redis.spring-data.enabled with value 'true' is invalid")
                    .hasMessageContaining("Redis Cluster template");
        });
        assertThat(redis.server().connectionsReceived()).isEqualTo(connections);
    }

    @Test
    void operationsShouldRunOnSingleAndBeSeenByTheTemplatesSensors() {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            ManagedCacheTemplate template = template(context);
            assertThat(template.stats().activeStrategy()).isEqualTo(StrategySpec.single());
            long before = template.sensors().totalCalls();
            operations(context, "single");
            // Every command of operations() on the strategy's connection was one call for the sensors; ops running elsewhere would not count.
            assertThat(template.sensors().totalCalls() - before).isGreaterThanOrEqualTo(OPERATION_COMMANDS);
            assertThat(template.stats().openConnections()).isEqualTo(1);
        });
    }

    @Test
    void operationsShouldRunOnMultiTwo() {
        enabled("adaptive-cache.redis.strategy.type=multi", "adaptive-cache.redis.strategy.multi.connections=2").run(context -> {
            ManagedCacheTemplate template = template(context);
            assertThat(template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
            operations(context, "multi");
            assertThat(template.stats().openConnections()).isEqualTo(2);
        });
    }

    @Test
    void operationsShouldRunOnPooledLettuceConnectionsBorrowedPerCommand() {
        // Jedis is on this module's test classpath, where the template's POOLED would default to it: with Spring Data on, Lettuce.
        enabled("adaptive-cache.redis.strategy.type=pooled", "adaptive-cache.redis.strategy.pool.max-total=4",
                "adaptive-cache.redis.strategy.pool.max-idle=4").run(context -> {
            ManagedCacheTemplate template = template(context);
            assertThat(template.stats().activeStrategy().type()).isEqualTo(StrategyType.POOLED);
            long borrows = template.stats().totalBorrows();
            operations(context, "pooled");
            assertThat(template.stats().totalBorrows() - borrows).isGreaterThanOrEqualTo(OPERATION_COMMANDS);
        });
    }

    /** At least this many commands reach the strategy's connections in {@link #operations}. */
    private static final int OPERATION_COMMANDS = 14;

    private static void operations(AssertableApplicationContext context, String name) {
        StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
        @SuppressWarnings("unchecked")
        RedisTemplate<Object, Object> objects = context.getBean("redisTemplate", RedisTemplate.class);
        String prefix = "sdr-" + name + ":";
        strings.delete(List.of(prefix + "v", prefix + "n", prefix + "h", prefix + "l", prefix + "o"));
        strings.opsForValue().set(prefix + "v", "value");
        assertThat(strings.opsForValue().get(prefix + "v")).isEqualTo("value");
        assertThat(strings.opsForValue().increment(prefix + "n")).isEqualTo(1L);
        assertThat(strings.opsForValue().increment(prefix + "n", 5)).isEqualTo(6L);
        strings.opsForHash().put(prefix + "h", "field", "hashed");
        assertThat(strings.opsForHash().get(prefix + "h", "field")).isEqualTo("hashed");
        strings.opsForList().rightPushAll(prefix + "l", "a", "b", "c");
        assertThat(strings.opsForList().range(prefix + "l", 0, -1)).containsExactly("a", "b", "c");
        assertThat(strings.expire(prefix + "v", Duration.ofMinutes(5))).isTrue();
        assertThat(strings.getExpire(prefix + "v", TimeUnit.SECONDS)).isBetween(1L, 300L);
        assertThat(strings.keys(prefix + "*")).containsExactlyInAnyOrder(prefix + "v", prefix + "n", prefix + "h", prefix + "l");
        objects.opsForValue().set(prefix + "o", Map.of("k", 1));
        assertThat(objects.opsForValue().get(prefix + "o")).isEqualTo(Map.of("k", 1));
        assertThat(strings.delete(prefix + "v")).isTrue();
        assertThat(strings.hasKey(prefix + "v")).isFalse();
    }

    @Test
    void callersShouldNotFailWhileTheStrategySwitchesUnderThem() throws Exception {
        enabled("adaptive-cache.redis.strategy.type=single", "adaptive-cache.redis.strategy.pool.max-total=4",
                "adaptive-cache.redis.strategy.pool.max-idle=4").run(context -> {
            StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
            SwitchesUnderCallers.run(template(context), redis.server(), 4, 500, (caller, round) -> {
                String key = "sdr-switch:" + caller;
                Long value = strings.opsForValue().increment(key);
                String read = strings.opsForValue().get(key);
                if (!String.valueOf(value).equals(read)) {
                    throw new AssertionError("Read " + read + " after " + value);
                }
            });
        });
    }

    @Test
    void concurrentTransactionsShouldEachGetTheirOwnExecResult() throws Exception {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
            int threads = 4;
            int rounds = 100;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService runners = Executors.newFixedThreadPool(threads);
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String key = "sdr-tx:" + t;
                    strings.delete(key);
                    running.add(runners.submit(() -> {
                        start.await();
                        for (int i = 0; i < rounds; i++) {
                            List<Object> results = strings.execute(new SessionCallback<List<Object>>() {
                                @Override
                                @SuppressWarnings({ "unchecked", "rawtypes" })
                                public List<Object> execute(RedisOperations operations) throws DataAccessException {
                                    operations.multi();
                                    operations.opsForValue().increment(key);
                                    operations.opsForValue().increment(key);
                                    return operations.exec();
                                }
                            });
                            // Its own two increments, and nothing of another thread's transaction.
                            List<Object> expected = List.of(2L * i + 1, 2L * i + 2);
                            if (!expected.equals(results)) {
                                wrong.add(key + " round " + i + ": " + results);
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> future : running) {
                    future.get(60, TimeUnit.SECONDS);
                }
            }
            finally {
                runners.shutdownNow();
            }
            assertThat(wrong).isEmpty();
        });
    }

    @Test
    void aWaitingBlpopShouldNotStallOtherCallers() throws Exception {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
            strings.delete("sdr-blpop");
            strings.opsForValue().set("sdr-plain", "plain");
            ExecutorService waiter = Executors.newSingleThreadExecutor();
            try {
                Future<String> popped = waiter.submit(() -> strings.opsForList().leftPop("sdr-blpop", Duration.ofSeconds(8)));
                // The BLPOP is parked on the server (blocked_clients) before the GETs go out.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!"1".equals(redis.server().info("clients", "blocked_clients")) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(redis.server().info("clients", "blocked_clients")).isEqualTo("1");
                for (int i = 0; i < 20; i++) {
                    assertThat(strings.opsForValue().get("sdr-plain")).isEqualTo("plain");
                }
                // The GETs were answered while the BLPOP still waited: on SINGLE's one connection, they would have queued behind it.
                assertThat(popped.isDone()).isFalse();
                strings.opsForList().rightPush("sdr-blpop", "pushed");
                assertThat(popped.get(10, TimeUnit.SECONDS)).isEqualTo("pushed");
            }
            finally {
                waiter.shutdownNow();
            }
        });
    }

    @Test
    void aSubscriptionShouldRunOnItsOwnConnectionWhileCommandsGoOn() throws Exception {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
            ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
            CountDownLatch arrived = new CountDownLatch(1);
            RedisMessageListenerContainer container = listening(context, List.of(new ChannelTopic("sdr-channel")), message -> {
                received.add(new String(message.getBody()));
                arrived.countDown();
            });
            try {
                // Subscribed: the server counts the channel's subscriber.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!redis.server().command("PUBSUB", "NUMSUB", "sdr-channel").endsWith("\n1") && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(redis.server().command("PUBSUB", "NUMSUB", "sdr-channel")).isEqualTo("sdr-channel\n1");
                // A connection in subscribed mode refuses GET: these succeed, so the subscription is not on the shared connection.
                strings.opsForValue().set("sdr-sub", "still");
                assertThat(strings.opsForValue().get("sdr-sub")).isEqualTo("still");
                strings.convertAndSend("sdr-channel", "hello");
                assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
                assertThat(received).containsExactly("hello");
                assertThat(template(context).stats().openConnections()).isEqualTo(1);
            }
            finally {
                container.stop();
                container.destroy();
            }
        });
    }

    @Test
    void aCommandSentWhileTheContextIsBuiltShouldStartTheTemplateOnce() {
        // As Spring Session's indexed repository does from an initializing bean (CONFIG SET notify-keyspace-events).
        enabled("adaptive-cache.redis.strategy.type=single").withBean("earlyCommand", EarlyCommand.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(redis.server().command("GET", "sdr-early")).isEqualTo("written while the context was built");
                    ManagedCacheTemplate template = template(context);
                    assertThat(template.stats().running()).isTrue();
                    // Started once: by the factory; the context's start found it running and left it so (a second start fails).
                    assertThat(template.stats().openConnections()).isEqualTo(1);
                    assertThat(redis.server().connectedClients()).isEqualTo(1);
                });
    }

    /** Sends a command from its initialization, before the context's lifecycle starts the templates. */
    static class EarlyCommand implements InitializingBean {

        private final StringRedisTemplate strings;

        EarlyCommand(StringRedisTemplate strings) {
            this.strings = strings;
        }

        @Override
        public void afterPropertiesSet() {
            this.strings.opsForValue().set("sdr-early", "written while the context was built");
        }
    }

    @Test
    void aClosedTemplateShouldNotBeStartedAgainByACommand() {
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            AdaptiveRedisConnectionFactory factory = context.getBean(AdaptiveRedisConnectionFactory.class);
            ManagedCacheTemplate template = template(context);
            context.close();
            assertThat(template.stats().running()).isFalse();
            // The factory never saw it running (no Spring Data command ran): still, a command does not reopen it.
            StringRedisTemplate strings = new StringRedisTemplate(factory);
            assertThatThrownBy(() -> strings.opsForValue().get("sdr-closed")).isInstanceOf(RedisConnectionFailureException.class);
            assertThat(template.stats().running()).isFalse();
            assertThat(template.stats().openConnections()).isZero();
        });
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aContainerListeningToAChannelAndAPatternShouldReceiveBoth() throws Exception {
        // Spring Data's container subscribes the channels from the pattern confirmation's callback, on Lettuce's event
        // loop: a subscribe that waited there for its reply would never see it, and the container's start would fail.
        enabled("adaptive-cache.redis.strategy.type=single").run(context -> {
            StringRedisTemplate strings = context.getBean(StringRedisTemplate.class);
            ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
            CountDownLatch arrived = new CountDownLatch(2);
            RedisMessageListenerContainer container = listening(context,
                    List.of(new ChannelTopic("sdr-both-channel"), new PatternTopic("sdr-both-pattern:*")), message -> {
                        received.add(new String(message.getChannel()) + "=" + new String(message.getBody()));
                        arrived.countDown();
                    });
            try {
                assertThat(container.isListening()).isTrue();
                assertThat(redis.server().command("PUBSUB", "NUMSUB", "sdr-both-channel")).isEqualTo("sdr-both-channel\n1");
                assertThat(redis.server().command("PUBSUB", "NUMPAT")).isEqualTo("1");
                strings.convertAndSend("sdr-both-channel", "on the channel");
                strings.convertAndSend("sdr-both-pattern:one", "on the pattern");
                assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
                assertThat(received).containsExactlyInAnyOrder("sdr-both-channel=on the channel", "sdr-both-pattern:one=on the pattern");
            }
            finally {
                container.stop();
                container.destroy();
            }
        });
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRefusedSubscriptionShouldFailTheSubscribeInsteadOfBlockingIt() {
        // A user without pub/sub: the server refuses the SUBSCRIBE, and subscribe() (which blocks while subscribed) says so.
        redis.server().command("ACL", "SETUSER", "sdr-nosub", "on", ">nosub-secret", "~*", "&*", "+@all", "-@pubsub");
        try {
            enabled("adaptive-cache.redis.url=redis://sdr-nosub:nosub-secret@" + redis.server().address(),
                    "adaptive-cache.redis.strategy.type=single").run(context -> {
                        RedisConnection connection = context.getBean(RedisConnectionFactory.class).getConnection();
                        try {
                            assertThatThrownBy(() -> connection.subscribe((message, pattern) -> { }, "sdr-refused".getBytes()))
                                    .isInstanceOf(DataAccessException.class).rootCause().hasMessageStartingWith("NOPERM");
                            assertThat(connection.isSubscribed()).isFalse();
                        }
                        finally {
                            connection.close();
                        }
                    });
        }
        finally {
            redis.server().command("ACL", "DELUSER", "sdr-nosub");
        }
    }

    /** A started listener container on the context's connection factory, telling every message on the topics to the listener. */
    private static RedisMessageListenerContainer listening(AssertableApplicationContext context, List<Topic> topics,
            Consumer<Message> listener) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(context.getBean(RedisConnectionFactory.class));
        container.addMessageListener((message, pattern) -> listener.accept(message), topics);
        container.afterPropertiesSet();
        container.start();
        return container;
    }

    private static ManagedCacheTemplate template(AssertableApplicationContext context) {
        return context.getBean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE, ManagedCacheTemplate.class);
    }
}
