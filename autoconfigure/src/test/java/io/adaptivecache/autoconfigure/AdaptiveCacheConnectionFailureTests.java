package io.adaptivecache.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.memcached.MemcachedServerAddress;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the application is told when the Redis server refuses the credentials (the failure analysis at startup, health
 * while running), when adaptive-cache.redis.url overrides the separate connection properties, when no Redis
 * Cluster seed node answers, and when a server named by a connection details bean or a property is not there (the
 * analysis names that source, in the startup line's words). Real redis-servers; an ACL user whose password the tests
 * change; closed loopback ports, found free and left unbound.
 */
@ExtendWith(OutputCaptureExtension.class)
class AdaptiveCacheConnectionFailureTests {

    private static final String PASSWORD = "right-" + UUID.randomUUID();

    private static final RedisServer acl = RedisServer.withArguments("--user", "alice", "on", ">" + PASSWORD, "~*", "&*", "+@all");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class,
                    AdaptiveCacheHealthContributorAutoConfiguration.class))
            .withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.connect-timeout=1s",
                    "adaptive-cache.redis.max-reconnect-delay=100ms");

    @BeforeAll
    static void startServer() {
        acl.start();
    }

    @AfterAll
    static void stopServer() {
        acl.stop();
    }

    @BeforeEach
    void restorePassword() {
        acl.command("ACL", "SETUSER", "alice", "on", "resetpass", ">" + PASSWORD);
    }

    @ParameterizedTest
    @ValueSource(strings = { "lettuce", "jedis" })
    void aWrongPasswordShouldFailStartupWithAnAnalysisQuotingTheServerNamingTheUserAndProperties(String driver,
            CapturedOutput output) {
        String wrong = "wrong-" + UUID.randomUUID();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.host=127.0.0.1", "adaptive-cache.redis.port=" + acl.port(),
                "adaptive-cache.redis.username=alice", "adaptive-cache.redis.password=" + wrong,
                "adaptive-cache.redis.pooled-driver=" + driver, "adaptive-cache.redis.strategy.type=pooled").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    // If this ever fails, the whole chain (causes and suppressed) says what the driver saw instead.
                    assertThat(analysis.getDescription()).as(() -> "startup failure: " + chain(context.getStartupFailure()))
                            .contains("refused the credentials of user 'alice'").contains("WRONGPASS")
                            .doesNotContain("Start the");
                    assertThat(analysis.getAction()).contains("adaptive-cache.redis.username and adaptive-cache.redis.password")
                            .doesNotContain("Start the");
                    assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain(wrong);
                });
        // The failed start closed what it opened: no event loop or timer thread of its client outlives the context.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(clientThreadsStartedSince(before)).isEmpty());
        assertThat(output.getAll()).doesNotContain(wrong);
    }

    @Test
    void aWrongPasswordInTheUrlShouldNameTheUrlAsWhereToCheck() {
        String wrong = "wrong-" + UUID.randomUUID();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://alice:" + wrong + "@" + acl.address()).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getAction()).contains("adaptive-cache.redis.url (its user:password@ part)");
            assertThat(analysis.getDescription() + analysis.getAction()).contains("user 'alice'").doesNotContain(wrong);
        });
    }

    @Test
    void healthShouldSayAuthenticationFailedForTheUserWhenThePasswordIsChangedWhileRunning(CapturedOutput output) {
        String rotated = "rotated-" + UUID.randomUUID();
        // A small breaker window, so that the failing probes open it: health must still name the refusal behind it.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.host=127.0.0.1", "adaptive-cache.redis.port=" + acl.port(),
                "adaptive-cache.redis.username=alice", "adaptive-cache.redis.password=" + PASSWORD,
                "adaptive-cache.redis.strategy.type=single",
                "adaptive-cache.redis.resilience.circuit-breaker.minimum-number-of-calls=5",
                "adaptive-cache.redis.resilience.circuit-breaker.sliding-window-size=5",
                "adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state=2s").run(context -> {
                    assertThat(context).hasNotFailed();
                    HealthIndicator health = (HealthIndicator) context
                            .getBean("adaptiveCacheHealthContributor", CompositeHealthContributor.class).getContributor("redis");
                    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                    assertThat(health.health().getDetails()).doesNotContainKey("authentication");

                    acl.command("ACL", "SETUSER", "alice", "resetpass", ">" + rotated);
                    acl.command("CLIENT", "KILL", "USER", "alice");

                    // Each poll probes: the probes fail (the reconnects are refused) until the breaker opens, and then are
                    // refused by the open breaker, whose refusal carries the last failure it counted.
                    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                        Health down = health.health();
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails().get("circuitBreaker")).isEqualTo("OPEN");
                        assertThat(String.valueOf(down.getDetails().get("authentication"))).contains("failed for user 'alice'")
                                .contains("check adaptive-cache.redis.username and adaptive-cache.redis.password")
                                .contains("WRONGPASS");
                        assertThat(down.toString()).doesNotContain(PASSWORD).doesNotContain(rotated);
                    });
                });
        assertThat(output.getAll()).doesNotContain(PASSWORD).doesNotContain(rotated);
    }

    @Test
    void aUrlWithUsernameAndPasswordPropertiesShouldWarnOnceNamingTheIgnoredPropertiesNotTheirValues(CapturedOutput output) {
        String ignoredPassword = "ignored-" + UUID.randomUUID();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://alice:" + PASSWORD + "@" + acl.address(),
                "adaptive-cache.redis.username=bob", "adaptive-cache.redis.password=" + ignoredPassword,
                "adaptive-cache.redis.database=3").run(context -> {
                    assertThat(context).hasNotFailed();
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    template.set("url:k", new byte[] { 1 }, Duration.ZERO);
                    // The URL's database 0 and user alice, not database 3 and user bob (whom the server does not know).
                    assertThat(acl.command("EXISTS", "url:k")).isEqualTo("1");
                });
        String log = output.getAll();
        String warning = "adaptive-cache.redis.url is set, so adaptive-cache.redis.username, adaptive-cache.redis.password,"
                + " adaptive-cache.redis.database are ignored";
        assertThat(log).contains(warning).contains("WARN");
        assertThat(log.indexOf(warning)).as("logged once").isEqualTo(log.lastIndexOf(warning));
        assertThat(log).doesNotContain(ignoredPassword).doesNotContain(PASSWORD).doesNotContain("bob");
    }

    @Test
    void aUrlAloneShouldNotWarn(CapturedOutput output) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://alice:" + PASSWORD + "@" + acl.address())
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll()).doesNotContain("are ignored").doesNotContain("is ignored");
    }

    @Test
    void noReachableClusterSeedShouldNameTheClusterNodesProperty() throws IOException {
        String nodes = "127.0.0.1:" + unusedPort() + ",127.0.0.1:" + unusedPort();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes, "adaptive-cache.redis.connect-timeout=300ms")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("Redis Cluster")
                            .contains("Its server came from adaptive-cache.redis.cluster.nodes.");
                    assertThat(analysis.getAction()).contains("adaptive-cache.redis.cluster.nodes")
                            .doesNotContain("adaptive-cache.redis.url");
                });
    }

    @Test
    void aDataRedisConnectionDetailsBeanAtAClosedPortShouldBeNamedByTheAnalysisInsteadOfTheProperties(CapturedOutput output)
            throws IOException {
        int closed = unusedPort();
        this.contextRunner.withBean(DataRedisConnectionDetails.class,
                () -> new ConnectionDetailsTests.StandaloneDetails("127.0.0.1", closed, 0, null)).run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    // The startup line's words for the server's source, not a second description of it.
                    String source = startupSource(output, "redis");
                    assertThat(source).isEqualTo("a DataRedisConnectionDetails bean ("
                            + ConnectionDetailsTests.StandaloneDetails.class.getName() + ")");
                    assertThat(analysis.getDescription()).contains("127.0.0.1:" + closed).contains("Its server came from " + source + ".");
                    assertThat(analysis.getAction()).contains("Start the redis server that " + source + " describes")
                            .contains("correct that bean").contains("adaptive-cache.redis.enabled=false")
                            .doesNotContain("adaptive-cache.redis.url").doesNotContain("host and port").doesNotContain("spring.data.redis");
                });
    }

    @Test
    void aMemcachedConnectionDetailsBeanAtAClosedPortShouldBeNamedByTheAnalysisInsteadOfTheServersProperty(CapturedOutput output)
            throws IOException {
        int closed = unusedPort();
        MemcachedConnectionDetails details = () -> List.of(new MemcachedServerAddress("127.0.0.1", closed, 1));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.enabled=true",
                "adaptive-cache.memcached.connect-timeout=1s").withBean(MemcachedConnectionDetails.class, () -> details).run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    String source = startupSource(output, "memcached");
                    assertThat(source).startsWith("a MemcachedConnectionDetails bean (" + details.getClass().getName());
                    assertThat(analysis.getDescription()).contains("Its server came from " + source + ".");
                    assertThat(analysis.getAction()).contains("Start the memcached server that " + source + " describes")
                            .contains("adaptive-cache.memcached.enabled=false").doesNotContain("adaptive-cache.memcached.servers");
                });
    }

    @Test
    void theServersPropertyAtAClosedPortShouldStillBeNamedAsTheSourceAndWhatToFix(CapturedOutput output) throws IOException {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.enabled=true",
                "adaptive-cache.memcached.connect-timeout=1s", "adaptive-cache.memcached.servers=127.0.0.1:" + unusedPort())
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(startupSource(output, "memcached")).isEqualTo("adaptive-cache.memcached.servers");
                    assertThat(analysis.getDescription()).contains("Its server came from adaptive-cache.memcached.servers.");
                    assertThat(analysis.getAction()).contains("point adaptive-cache.memcached.servers at a running one")
                            .doesNotContain("correct that bean");
                });
    }

    /** Where the template's startup line says its server came from: the words after "from ", to the line's end. */
    private static String startupSource(CapturedOutput output, String template) {
        String marker = "adaptive-cache template '" + template + "' connects to ";
        String log = output.getAll();
        int line = log.lastIndexOf(marker);
        assertThat(line).as("the startup line of template '" + template + "'").isNotNegative();
        String rest = log.substring(line, log.indexOf('\n', line)).stripTrailing();
        return rest.substring(rest.indexOf(", from ") + ", from ".length());
    }

    /** Lettuce's event loop and the template's timer threads alive now that were not in {@code before}. */
    private static List<String> clientThreadsStartedSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).filter(thread -> !before.contains(thread))
                .map(Thread::getName).filter(name -> name.startsWith("lettuce-") || name.startsWith("adaptive-cache-timeouts"))
                .toList();
    }

    /** Every message of a failure, its causes and what each suppressed, one per line, to show what a driver reported. */
    private static String chain(Throwable failure) {
        StringBuilder chain = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> pending = new ArrayDeque<>(List.of(failure));
        while (!pending.isEmpty() && seen.size() < 50) {
            Throwable next = pending.pop();
            if (!seen.add(next)) {
                continue;
            }
            chain.append(System.lineSeparator()).append("  ").append(next);
            Arrays.stream(next.getSuppressed()).forEach(pending::push);
            if (next.getCause() != null) {
                pending.push(next.getCause());
            }
        }
        return chain.toString();
    }

    /** A loopback port nobody listens on: bound to find it free, then released. */
    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
