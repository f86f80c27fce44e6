package io.adaptivecache.autoconfigure.data.redis;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisHttpSession;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisIndexedHttpSession;
import org.springframework.session.events.AbstractSessionEvent;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;
import org.springframework.session.events.SessionExpiredEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Session's Redis session repositories on the factory over the Redis template's
 * connections, against a real redis-server, configured by Spring Session's own
 * {@code @EnableRedisHttpSession} and {@code @EnableRedisIndexedHttpSession} on the factory bean
 * (Spring Boot's session auto-configuration module is not published for this Boot version). A
 * session is created, given an attribute, saved, read back from the server by a plain Lettuce
 * connection, found by id, expired and deleted; the indexed repository also finds it by principal
 * name and publishes its created, deleted and expired events, which reach it by pub/sub and
 * keyspace events, through the factory too.
 */
// Each test is bounded: a subscription that never confirms would otherwise hang the build (a join that ignores interrupts).
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AdaptiveRedisSpringSessionTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final JdkSerializationRedisSerializer JDK = new JdkSerializationRedisSerializer();

    /** The test's own view of the server, binary-safe: session values are JDK-serialized. */
    private static RedisClient plainClient;
    private static StatefulRedisConnection<byte[], byte[]> plain;

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onRedis(redis, AdaptiveCacheSpringDataRedisAutoConfiguration.class)
            .withPropertyValues("adaptive-cache.redis.timeout=10s", "adaptive-cache.redis.spring-data.enabled=true",
                    "adaptive-cache.redis.strategy.multi.connections=2", "adaptive-cache.redis.strategy.pool.max-total=4",
                    "adaptive-cache.redis.strategy.pool.max-idle=4");

    @BeforeAll
    static void connectPlainClient() {
        plainClient = RedisClient.create(redis.uri());
        plain = plainClient.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void closePlainClient() {
        plain.close();
        plainClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /** The simple repository, as {@code spring.session.redis.repository-type=default} gives it. */
    @Configuration(proxyBeanMethods = false)
    @EnableRedisHttpSession(maxInactiveIntervalInSeconds = 600)
    static class DefaultSessions {
    }

    /** The indexed repository, with its events; the cleanup task, run every minute by default, is off so as not to race the test. */
    @Configuration(proxyBeanMethods = false)
    @EnableRedisIndexedHttpSession(maxInactiveIntervalInSeconds = 600, cleanupCron = "-")
    static class IndexedSessions {

        @Bean
        SessionEvents sessionEvents() {
            return new SessionEvents();
        }
    }

    /** The session events the indexed repository publishes. */
    static class SessionEvents implements ApplicationListener<AbstractSessionEvent> {

        final ConcurrentLinkedQueue<AbstractSessionEvent> events = new ConcurrentLinkedQueue<>();

        @Override
        public void onApplicationEvent(AbstractSessionEvent event) {
            this.events.add(event);
        }

        boolean has(Class<? extends AbstractSessionEvent> type, String sessionId) {
            return this.events.stream().anyMatch(event -> type.isInstance(event) && event.getSessionId().equals(sessionId));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "single", "multi", "pooled" })
    void aSessionShouldBeSavedFoundExpiredAndDeletedOnEachStrategy(String strategy) {
        this.contextRunner.withUserConfiguration(DefaultSessions.class)
                .withPropertyValues("adaptive-cache.redis.strategy.type=" + strategy).run(context -> {
                    assertThat(context).hasNotFailed();
                    ManagedCacheTemplate template = onTheFactory(context, strategy);
                    // Its session type is package-private: the repository is used, as a filter uses it, through the interface.
                    @SuppressWarnings("unchecked")
                    SessionRepository<Session> sessions = (SessionRepository<Session>) (SessionRepository<?>) context
                            .getBean(RedisSessionRepository.class);
                    long calls = template.sensors().totalCalls();

                    Session session = sessions.createSession();
                    session.setAttribute("user", "alice-" + strategy);
                    sessions.save(session);
                    String key = "spring:session:sessions:" + session.getId();
                    // On the server: the session's hash, with the attribute and a time to live of its inactive interval.
                    assertThat(attribute(key, "user")).isEqualTo("alice-" + strategy);
                    assertThat(plain.sync().ttl(key.getBytes())).isBetween(1L, 600L);

                    Session found = sessions.findById(session.getId());
                    assertThat(found).isNotNull();
                    assertThat(found.<String>getAttribute("user")).isEqualTo("alice-" + strategy);

                    // Expiry: the server drops the session after its inactive interval, and the repository finds none.
                    Session brief = sessions.createSession();
                    brief.setMaxInactiveInterval(Duration.ofSeconds(1));
                    sessions.save(brief);
                    String briefKey = "spring:session:sessions:" + brief.getId();
                    assertThat(plain.sync().exists(briefKey.getBytes())).isEqualTo(1L);
                    await().atMost(Duration.ofSeconds(10)).until(() -> plain.sync().exists(briefKey.getBytes()) == 0L);
                    assertThat(sessions.findById(brief.getId())).isNull();

                    sessions.deleteById(session.getId());
                    assertThat(plain.sync().exists(key.getBytes())).isZero();
                    assertThat(sessions.findById(session.getId())).isNull();
                    // The repository's commands ran on the strategy's connections, as calls of the template.
                    assertThat(template.sensors().totalCalls() - calls).isGreaterThanOrEqualTo(6);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = { "single", "pooled" })
    void theIndexedRepositoryShouldFindByPrincipalAndPublishItsEventsOnEachStrategy(String strategy) {
        // Off on the server, so that what turns it on is Spring Session's CONFIG SET, sent through the factory.
        redis.server().command("CONFIG", "SET", "notify-keyspace-events", "");
        this.contextRunner.withUserConfiguration(IndexedSessions.class)
                .withPropertyValues("adaptive-cache.redis.strategy.type=" + strategy).run(context -> {
                    assertThat(context).hasNotFailed();
                    onTheFactory(context, strategy);
                    assertThat(redis.server().command("CONFIG", "GET", "notify-keyspace-events")).contains("E").contains("g")
                            .contains("x");
                    RedisIndexedSessionRepository sessions = context.getBean(RedisIndexedSessionRepository.class);
                    SessionEvents events = context.getBean(SessionEvents.class);
                    String principal = "bob-" + strategy;

                    RedisIndexedSessionRepository.RedisSession session = sessions.createSession();
                    session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, principal);
                    session.setAttribute("cart", 3);
                    sessions.save(session);
                    String id = session.getId();
                    assertThat(attribute("spring:session:sessions:" + id, "cart")).isEqualTo(3);
                    assertThat(plain.sync().exists(("spring:session:sessions:expires:" + id).getBytes())).isEqualTo(1L);
                    assertThat(plain.sync().smembers(("spring:session:index:" + FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME
                            + ":" + principal).getBytes())).extracting(JDK::deserialize).containsExactly(id);

                    assertThat(sessions.findById(id)).isNotNull().extracting(found -> found.<Integer>getAttribute("cart")).isEqualTo(3);
                    Map<String, RedisIndexedSessionRepository.RedisSession> byPrincipal = sessions.findByPrincipalName(principal);
                    assertThat(byPrincipal).containsOnlyKeys(id);
                    // Created: published on a channel, heard by the listener container's subscription.
                    await().atMost(Duration.ofSeconds(5)).until(() -> events.has(SessionCreatedEvent.class, id));

                    sessions.deleteById(id);
                    assertThat(sessions.findById(id)).isNull();
                    // Deleted: the expires key's keyspace event (del), heard by the subscription.
                    await().atMost(Duration.ofSeconds(5)).until(() -> events.has(SessionDeletedEvent.class, id));

                    RedisIndexedSessionRepository.RedisSession brief = sessions.createSession();
                    brief.setMaxInactiveInterval(Duration.ofSeconds(1));
                    sessions.save(brief);
                    // Expired: Redis expires the expires key after a second, and its keyspace event (expired) is heard.
                    await().atMost(Duration.ofSeconds(10)).until(() -> events.has(SessionExpiredEvent.class, brief.getId()));
                });
    }

    private static ManagedCacheTemplate onTheFactory(AssertableApplicationContext context, String strategy) {
        assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(AdaptiveRedisConnectionFactory.class);
        ManagedCacheTemplate template = context.getBean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE, ManagedCacheTemplate.class);
        assertThat(template.stats().activeStrategy().type()).isEqualTo(StrategyType.valueOf(strategy.toUpperCase()));
        return template;
    }

    /** A session attribute as stored on the server: the hash field {@code sessionAttr:<name>}, JDK-serialized. */
    private static Object attribute(String key, String name) {
        RedisCommands<byte[], byte[]> commands = plain.sync();
        byte[] value = commands.hget(key.getBytes(), ("sessionAttr:" + name).getBytes());
        assertThat(value).as("%s on the server", name).isNotNull();
        return JDK.deserialize(value);
    }
}
