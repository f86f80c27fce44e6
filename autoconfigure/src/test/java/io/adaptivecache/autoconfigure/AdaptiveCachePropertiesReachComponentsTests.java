package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;

import javax.net.ssl.SSLException;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.autoconfigure.cache.AdaptiveCacheSpringCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.observation.AdaptiveCacheObservationAutoConfiguration;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.redis.RedisTransport;
import io.adaptivecache.redis.RedisWrites;
import io.adaptivecache.resilience.GuardStatus;
import io.adaptivecache.spring.cache.AdaptiveCache;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.spring.cache.JdkCacheValueSerializer;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisClusterExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.RetryConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import net.spy.memcached.ConnectionFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property in the generated configuration metadata, set to a value that is not its default,
 * reaches the component it configures: read back from the built objects of a started context on
 * real servers (the switcher's policy and window, the strategy's {@link PoolSettings}, the
 * Resilience4j configs of the guard, the options of the Lettuce and memcached clients the templates
 * run on, the Spring caches), or, where no object holds it, from what the server
 * saw (the database, client name and ACL user of each connection). A property the metadata lists
 * with neither a check in a scenario here nor a row in {@link #NOT_READ_BACK} fails
 * {@link #everyPropertyInTheMetadataShouldBeReadBackOrListedWithAReason()}, by name.
 * {@link AdaptiveCachePropertiesBindingTests} checks binding into the properties classes; this
 * test checks the step after it.
 */
class AdaptiveCachePropertiesReachComponentsTests {

    /** Properties that no component of this starter holds, each with the reason. */
    static final Map<String, String> NOT_READ_BACK = notReadBack();

    private static Map<String, String> notReadBack() {
        Map<String, String> reasons = new LinkedHashMap<>();
        String noBlockingConnections = "memcached has no blocking POOLED connections, so its policy never has a blocking pool:"
                + " the property exists because every template's adaptive section has it";
        for (String property : List.of("enabled", "large-value-size", "max-concurrency", "max-mean-latency", "max-round-trip",
                "max-wait", "pool-size")) {
            reasons.put("adaptive-cache.memcached.adaptive.blocking-pool." + property, noBlockingConnections);
        }
        String actuator = "generated from @Endpoint(id = \"adaptivecache\") and bound by Spring Boot Actuator's endpoint"
                + " infrastructure, not by a component of this starter";
        reasons.put("management.endpoint.adaptivecache.access", actuator);
        reasons.put("management.endpoint.adaptivecache.cache.time-to-live", actuator);
        reasons.put("adaptive-cache.cache.json.allowed-packages", "held inside the JSON serializer's type validator, which shows"
                + " no settings: JsonAllowedTypesTests checks it by effect, a planted value of a listed package read back");
        reasons.put("adaptive-cache.redis.spring-data.enabled", "turns an auto-configuration on (@ConditionalOnBooleanProperty) rather than"
                + " reaching a component; AdaptiveCacheSpringDataRedisAutoConfigurationTests checks the factory it registers, off and on");
        return reasons;
    }

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @RegisterExtension
    static final RedisClusterExtension cluster = new RedisClusterExtension();

    @RegisterExtension
    static final SecuredServers secured = new SecuredServers("props-secret-");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheSpringCacheAutoConfiguration.class,
                    AdaptiveCacheObservationAutoConfiguration.class, SslAutoConfiguration.class));

    @Test
    void everyPropertyInTheMetadataShouldBeReadBackOrListedWithAReason() throws Exception {
        TreeSet<String> checked = new TreeSet<>();
        scenarios().forEach(scenario -> checked.addAll(scenario.checks.keySet()));
        List<String> missing = new ArrayList<>();
        for (Map<String, Object> property : ConfigurationMetadata.properties()) {
            String name = (String) property.get("name");
            boolean covered = NOT_READ_BACK.containsKey(name) || checked.contains(name)
                    || checked.stream().anyMatch(key -> key.startsWith(name + "."));
            if (!covered) {
                missing.add(name);
            }
        }
        assertThat(missing).as("properties with no check that their value reaches a component; add one to a scenario of"
                + " AdaptiveCachePropertiesReachComponentsTests, or a row with the reason to NOT_READ_BACK").isEmpty();
        TreeSet<String> names = new TreeSet<>();
        ConfigurationMetadata.properties().forEach(property -> names.add((String) property.get("name")));
        // A key under a map property (ttl.<cache>, near.caches.<cache>.<setting>) is the map's.
        assertThat(checked).as("checks of properties the metadata does not have (renamed or removed?)")
                .allMatch(key -> names.contains(key) || names.stream().anyMatch(name -> key.startsWith(name + ".")));
        assertThat(NOT_READ_BACK.keySet()).as("NOT_READ_BACK rows the metadata does not have, or that a check covers")
                .allMatch(names::contains).noneMatch(checked::contains);
    }

    @TestFactory
    Stream<DynamicTest> eachCheckedPropertyShouldReachItsComponent() throws Exception {
        return scenarios().stream()
                .map(scenario -> DynamicTest.dynamicTest(scenario.name, () -> run(scenario, ConfigurationMetadata.properties())));
    }

    /**
     * A checked value that equals its property's default proves nothing, however it is written:
     * {@code 1000ms} is the default {@code 1s}, {@code 1024B} is {@code 1KB}, so both sides are
     * compared as values of the property's type, not as text.
     */
    @Test
    void aDefaultWrittenDifferentlyShouldStillCountAsTheDefault() throws Exception {
        Scenario s = new Scenario("defaults in other spellings");
        s.check("adaptive-cache.cache.near.heartbeat-timeout", "PT0.5S", null, context -> null);
        s.check("adaptive-cache.cache.near.max-staleness", "1000ms", null, context -> null);
        s.check("adaptive-cache.cache.near.time-to-live", "300s", null, context -> null);
        assertThat(defaultValued(s, ConfigurationMetadata.properties())).hasSize(3);
        Scenario other = new Scenario("not defaults").check("adaptive-cache.cache.near.heartbeat-timeout", "499ms", null, context -> null);
        assertThat(defaultValued(other, ConfigurationMetadata.properties())).isEmpty();
    }

    /** The checked properties of a scenario set to their default value (or not set at all), each with the reason. */
    private static List<String> defaultValued(Scenario scenario, List<Map<String, Object>> metadata) {
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        metadata.forEach(property -> byName.put((String) property.get("name"), property));
        List<String> wrong = new ArrayList<>();
        scenario.checks.keySet().forEach(property -> {
            String value = scenario.properties.get(property);
            Map<String, Object> described = byName.get(property);
            if (value == null) {
                wrong.add(property + ": checked but not set in the scenario");
            }
            else if (described != null && described.get("defaultValue") != null
                    && sameValue(value, String.valueOf(described.get("defaultValue")), (String) described.get("type"))) {
                wrong.add(property + ": " + value + " is its default (" + described.get("defaultValue")
                        + "), so reading it back proves nothing");
            }
        });
        return wrong;
    }

    /** Whether two spellings are one value of the property's type (Duration, DataSize, number, enum...); text when it has none. */
    private static boolean sameValue(String value, String defaultValue, String type) {
        if (value.equals(defaultValue)) {
            return true;
        }
        Class<?> target;
        try {
            target = type == null || type.contains("<") ? String.class : org.springframework.util.ClassUtils.forName(type, null);
        }
        catch (ClassNotFoundException | LinkageError ex) {
            target = String.class;
        }
        org.springframework.core.convert.ConversionService conversion =
                org.springframework.boot.convert.ApplicationConversionService.getSharedInstance();
        if (target == String.class || !conversion.canConvert(String.class, target)) {
            return value.equalsIgnoreCase(defaultValue);
        }
        try {
            return Objects.equals(conversion.convert(value, target), conversion.convert(defaultValue, target));
        }
        catch (RuntimeException ex) {
            // One side does not parse as the type (a placeholder, say): not the same value.
            return false;
        }
    }

    private void run(Scenario scenario, List<Map<String, Object>> metadata) {
        List<String> wrong = new ArrayList<>(defaultValued(scenario, metadata));
        ApplicationContextRunner runner = this.contextRunner.withPropertyValues(scenario.properties.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue()).toArray(String[]::new));
        for (Class<?> configuration : scenario.configurations) {
            runner = runner.withUserConfiguration(configuration);
        }
        runner.run(context -> {
            if (scenario.failure != null) {
                assertThat(context).as(scenario.name + " must fail to start").hasFailed();
                scenario.checks.forEach((property, check) -> {
                    // The context did not start: the read-back is from its startup failure.
                    Object actual = check.read().apply(context);
                    if (!Objects.equals(actual, check.expected())) {
                        wrong.add(property + ": read back " + actual + ", expected " + check.expected());
                    }
                });
                if (!scenario.failure.apply(context.getStartupFailure())) {
                    wrong.add("the startup failure does not show " + scenario.failureDescription + ": " + context.getStartupFailure());
                }
                return;
            }
            assertThat(context).hasNotFailed();
            scenario.checks.forEach((property, check) -> {
                Object actual;
                try {
                    actual = check.read().apply(context);
                }
                catch (RuntimeException ex) {
                    actual = ex;
                }
                if (!Objects.equals(actual, check.expected())) {
                    wrong.add(property + "=" + scenario.properties.get(property) + ": read back " + actual + ", expected "
                            + check.expected());
                }
            });
        });
        assertThat(wrong).as("properties of scenario '" + scenario.name + "' that did not reach their component").isEmpty();
    }

    /** The contexts, each with the properties it sets and how each checked one is read back. */
    private static List<Scenario> scenarios() {
        List<Scenario> scenarios = new ArrayList<>();
        scenarios.add(redisPinnedPooledOnJedis());
        scenarios.add(redisByHostOnAnAclServer());
        scenarios.add(redisMultiOnLettuce());
        scenarios.add(redisTlsWithABundle());
        scenarios.add(redisTlsWithoutABundle());
        scenarios.add(redisTransport());
        scenarios.add(redisCluster());
        scenarios.add(redisClusterTopology());
        scenarios.add(memcachedPinnedPooledOnASaslServer());
        scenarios.add(memcachedMultiOnXMemcachedOverText());
        scenarios.add(springCacheAndObservations());
        scenarios.add(springCacheNearCachesByWeight());
        scenarios.add(springCacheNearCachesByEntries());
        scenarios.add(springCacheNearCacheOfOneCacheOnly());
        scenarios.add(everyBackendDisabled());
        scenarios.add(springCacheDisabled());
        return scenarios;
    }

    private static Scenario redisPinnedPooledOnJedis() {
        String p = "adaptive-cache.redis";
        Scenario s = new Scenario("redis: pinned POOLED on Jedis (the default POOLED driver with Jedis present), every adaptive,"
                + " resilience and client setting").set("adaptive-cache.memcached.enabled", "false");
        s.check(p + ".url", redis.uri() + "/5", true, context -> clientListOf(redis.server()).contains(" db=5 "));
        s.check(p + ".client-name", "props-url", true, context -> redis.server().clientNames().contains("props-url"));
        pinnedPooledAdaptiveAndResilience(s, "redis");
        s.check(p + ".adaptive.blocking-pool.max-concurrency", "3.5", 3.5, context -> blockingPool(context).maxConcurrency());
        s.check(p + ".adaptive.blocking-pool.pool-size", "6", 6, context -> blockingPool(context).poolSize());
        s.check(p + ".adaptive.blocking-pool.max-mean-latency", "3ms", Duration.ofMillis(3),
                context -> blockingPool(context).maxMeanLatency());
        s.check(p + ".adaptive.blocking-pool.max-wait", "1500ms", Duration.ofMillis(1500), context -> blockingPool(context).maxWait());
        s.check(p + ".adaptive.blocking-pool.large-value-size", "32KB", 32L * 1024, context -> blockingPool(context).largeValueBytes());
        s.check(p + ".adaptive.blocking-pool.max-round-trip", "750us", Duration.ofNanos(750_000),
                context -> blockingPool(context).maxRoundTrip());
        s.check(p + ".max-key-size", "8KB", 8 * 1024, context -> template(context, "redis").stats().inputRules().maxKeyBytes());
        s.check(p + ".max-value-size", "64MB", 64 * 1024 * 1024, context -> template(context, "redis").stats().inputRules().maxValueBytes());
        return s;
    }

    private static Scenario redisByHostOnAnAclServer() {
        String p = "adaptive-cache.redis";
        Scenario s = new Scenario("redis: host, port, database, ACL user and client name, adaptive from POOLED")
                .set("adaptive-cache.memcached.enabled", "false");
        s.check(p + ".host", "127.0.0.1", true, context -> clientListOf(secured.aclRedis).contains("name=props-host "));
        s.check(p + ".port", Integer.toString(secured.aclRedis.port()), true,
                context -> clientListOf(secured.aclRedis).contains("name=props-host "));
        s.check(p + ".database", "3", true, context -> clientListOf(secured.aclRedis).contains(" db=3 "));
        s.check(p + ".client-name", "props-host", true, context -> secured.aclRedis.clientNames().contains("props-host"));
        s.check(p + ".username", "alice", true, context -> clientListOf(secured.aclRedis).contains(" user=alice "));
        s.check(p + ".password", secured.redisPassword, true, context -> roundTrip(template(context, "redis")));
        s.check(p + ".adaptive.initial", "pooled", StrategyType.POOLED, context -> template(context, "redis").stats().activeStrategy().type());
        s.check(p + ".adaptive.blocking-pool.enabled", "false", true,
                context -> template(context, "redis").stats().pooledConnectionsBlock() && blockingPool(context) == null);
        return s;
    }

    private static Scenario redisMultiOnLettuce() {
        String p = "adaptive-cache.redis";
        Scenario s = new Scenario("redis: pinned MULTI, POOLED on Lettuce, no circuit breaker").set("adaptive-cache.memcached.enabled",
                "false").set(p + ".url", redis.uri());
        multiWithoutBreaker(s, "redis");
        s.check(p + ".pooled-driver", "lettuce", false, context -> template(context, "redis").stats().pooledConnectionsBlock());
        // Lettuce's settings, read from the client the template runs on.
        s.check(p + ".timeout", "1500ms", Duration.ofMillis(1500), context -> {
            TimeoutOptions.TimeoutSource source = redisOptions(context).getTimeoutOptions().getSource();
            return Duration.ofNanos(source.getTimeUnit().toNanos(source.getTimeout(null)));
        });
        s.check(p + ".connect-timeout", "2500ms", Duration.ofMillis(2500),
                context -> redisOptions(context).getSocketOptions().getConnectTimeout());
        s.check(p + ".request-queue-size", "4000", 4000, context -> redisOptions(context).getRequestQueueSize());
        // The longest of Lettuce's exponential delays, from the running client's resources.
        s.check(p + ".max-reconnect-delay", "3s", Duration.ofSeconds(3),
                context -> lettuce(context).getResources().reconnectDelay().createDelay(40));
        s.check(p + ".coalesce-writes", "false", true, context -> everyReadAWriteOfItsOwn(template(context, "redis")));

        return s;
    }

    private static Scenario redisTlsWithABundle() {
        String p = "adaptive-cache.redis";
        Scenario s = new Scenario("redis: TLS trusted through an SSL bundle").set("adaptive-cache.memcached.enabled", "false")
                .set(p + ".host", "127.0.0.1").set(p + ".port", Integer.toString(secured.tlsRedis.tlsPort()))
                .set("spring.ssl.bundle.pem.props-tls.truststore.certificate", "file:" + secured.tls.certificate());
        // Only a TLS client that trusts the test CA gets an answer from the TLS port.
        s.check(p + ".ssl.bundle", "props-tls", true, context -> roundTrip(template(context, "redis")));
        return s;
    }

    private static Scenario redisTlsWithoutABundle() {
        String p = "adaptive-cache.redis";
        Scenario s = new Scenario("redis: TLS on the JVM's trust store, which does not know the test CA")
                .set("adaptive-cache.memcached.enabled", "false").set(p + ".host", "127.0.0.1")
                .set(p + ".port", Integer.toString(secured.tlsRedis.tlsPort())).set(p + ".connect-timeout", "1s");
        // A plain client on the TLS port fails otherwise (no handshake at all): only a TLS client fails its handshake.
        s.check(p + ".ssl.enabled", "true", true,
                context -> causes(startupFailure(context)).anyMatch(SSLException.class::isInstance));
        s.fails("a TLS handshake that the JVM's trust store refused", failure -> causes(failure).anyMatch(SSLException.class::isInstance));
        return s;
    }

    private static Scenario redisTransport() {
        String p = "adaptive-cache.redis";
        // Lettuce picks one transport per JVM when its first client starts: ask for another available one, and the
        // refusal names both, which only the transport that reached RedisTransport.select can give.
        // AUTO, as every template asks, so that this test does not change the choice of the tests after it.
        RedisTransport inUse = RedisTransport.select(RedisTransport.AUTO);
        RedisTransport other = Stream.of(RedisTransport.NIO, RedisTransport.EPOLL, RedisTransport.IO_URING)
                .filter(transport -> transport != inUse && transport.isAvailable()).findFirst().orElse(null);
        Scenario s = new Scenario("redis: a transport other than the one Lettuce chose in this JVM")
                .set("adaptive-cache.memcached.enabled", "false").set(p + ".url", redis.uri());
        if (other == null) {
            // A machine with NIO only: asking for it explicitly must still start on it.
            s.check(p + ".transport", RedisTransport.NIO.label(), RedisTransport.NIO, context -> RedisTransport.inUse());
            return s;
        }
        // Read back: the transport the refusal says was asked for.
        s.check(p + ".transport", other.label(), other.label(), context -> causes(startupFailure(context))
                .map(cause -> String.valueOf(cause.getMessage())).filter(message -> message.startsWith("The Redis transport "))
                .map(message -> message.substring("The Redis transport ".length(), message.indexOf(" was asked for"))).findFirst()
                .orElse(null));
        s.fails("the transport " + other.label() + " asked for while Lettuce uses " + inUse.label(),
                failure -> causes(failure).anyMatch(cause -> String.valueOf(cause.getMessage())
                        .contains("The Redis transport " + other.label() + " was asked for, but Lettuce already uses " + inUse.label())));
        return s;
    }

    private static Scenario redisCluster() {
        String p = "adaptive-cache.redis.cluster";
        Scenario s = new Scenario("redis: a cluster, reading from replicas").set("adaptive-cache.memcached.enabled", "false");
        // Reads go to replicas here, which see a write a moment later: the nodes are proved by a write to each master.
        s.check(p + ".nodes", cluster.cluster().seedAddresses(), true, context -> {
            template(context, "redis").nodes().orElseThrow().sensors();
            for (RedisServer master : cluster.cluster().masters()) {
                template(context, "redis").set(cluster.cluster().keyOn(master, "props:nodes:"), new byte[] {1}, Duration.ZERO);
            }
            return true;
        });
        s.check(p + ".node-breaker.failure-threshold", "4", 4,
                context -> template(context, "redis").nodes().orElseThrow().sensors().breakerSettings().failureThreshold());
        s.check(p + ".node-breaker.open-duration", "1500ms", Duration.ofMillis(1500),
                context -> template(context, "redis").nodes().orElseThrow().sensors().breakerSettings().openDuration());
        s.check(p + ".read-from", "replica", true, context -> {
            RedisServer master = cluster.cluster().masters().get(0);
            RedisServer replica = cluster.cluster().replicaOf(master);
            String key = cluster.cluster().keyOn(master, "props:");
            template(context, "redis").set(key, new byte[] {1}, Duration.ZERO);
            long before = getCalls(replica);
            // Replication is asynchronous, and a replica that has not caught up is not read from yet: bounded retries.
            Awaitility.await("a read of " + key + " served by " + replica.address()).atMost(Duration.ofSeconds(10))
                    .ignoreExceptions().until(() -> template(context, "redis").get(key) != null);
            return getCalls(replica) > before;
        });
        return s;
    }

    private static Scenario redisClusterTopology() {
        String p = "adaptive-cache.redis.cluster";
        Scenario s = new Scenario("redis: a cluster whose topology is read only periodically")
                .set("adaptive-cache.memcached.enabled", "false").set(p + ".nodes", cluster.cluster().seedAddresses());
        s.check(p + ".max-redirects", "3", 3, context -> clusterOptions(context).getMaxRedirects());
        s.check(p + ".refresh.period", "45s", Duration.ofSeconds(45),
                context -> clusterOptions(context).getTopologyRefreshOptions().getRefreshPeriod());
        s.check(p + ".refresh.adaptive", "false", true,
                context -> clusterOptions(context).getTopologyRefreshOptions().getAdaptiveRefreshTriggers().isEmpty());
        return s;
    }

    private static Scenario memcachedPinnedPooledOnASaslServer() {
        String p = "adaptive-cache.memcached";
        Scenario s = new Scenario("memcached: pinned POOLED on spymemcached, SASL, every adaptive, resilience and client setting")
                .set("adaptive-cache.redis.enabled", "false");
        // The server answers nothing before a SASL login, so a round trip shows all three reached the client.
        s.check(p + ".servers", secured.saslMemcached.address(), true, context -> roundTrip(template(context, "memcached")));
        s.check(p + ".username", "bob", true, context -> roundTrip(template(context, "memcached")));
        s.check(p + ".password", secured.memcachedPassword, true, context -> roundTrip(template(context, "memcached")));
        pinnedPooledAdaptiveAndResilience(s, "memcached");
        s.check(p + ".operation-timeout", "1500ms", 1500L, context -> spymemcachedFactory(context).getOperationTimeout());
        s.check(p + ".max-reconnect-delay", "3s", 3L, context -> spymemcachedFactory(context).getMaxReconnectDelay());
        s.check(p + ".operation-queue-size", "4000", 4000,
                context -> spymemcachedFactory(context).createOperationQueue().remainingCapacity());
        // Less the 512 bytes of item header memcached keeps beside the value (MemcachedCacheTemplates.ITEM_OVERHEAD_BYTES).
        s.check(p + ".item-size-max", "512KB", 512 * 1024 - 512, context -> template(context, "memcached").stats().inputRules().maxValueBytes());
        return s;
    }

    private static Scenario memcachedMultiOnXMemcachedOverText() {
        String p = "adaptive-cache.memcached";
        Scenario s = new Scenario("memcached: pinned MULTI on XMemcached over text, no circuit breaker")
                .set("adaptive-cache.redis.enabled", "false").set(p + ".servers", memcached.addresses());
        multiWithoutBreaker(s, "memcached");
        s.check(p + ".driver", "xmemcached", true, context -> xmemcached(context) != null);
        s.check(p + ".protocol", "text", net.rubyeye.xmemcached.utils.Protocol.Text, context -> xmemcached(context).getProtocol());
        s.check(p + ".connect-timeout", "2500ms", 2500L, context -> xmemcached(context).getConnectTimeout());
        return s;
    }

    private static Scenario springCacheAndObservations() {
        String c = "adaptive-cache.cache";
        Scenario s = new Scenario("Spring Cache over both templates, observations, memcached adaptive from SINGLE")
                .set("adaptive-cache.redis.url", redis.uri()).set("adaptive-cache.memcached.servers", memcached.addresses())
                .with(Caching.class, Observations.class);
        s.check(c + ".backend", "memcached", true, context -> cache(context, "other").getNativeCache() == template(context, "memcached"));
        s.check(c + ".backends.products", "redis", true,
                context -> cache(context, "products").getNativeCache() == template(context, "redis"));
        s.check(c + ".default-ttl", "7m", Duration.ofMinutes(7), context -> cache(context, "other").getTtl());
        s.check(c + ".ttl.products", "90s", Duration.ofSeconds(90), context -> cache(context, "products").getTtl());
        s.check(c + ".key-prefix", "app1:", "app1:", context -> cache(context, "other").getKeyPrefix());
        s.check(c + ".allow-null-values", "false", false, context -> cache(context, "other").isAllowNullValues());
        s.check(c + ".on-error", "rethrow", true, context -> context.getBean(AdaptiveCacheManager.class).rethrowsFailures());
        s.check(c + ".serializer", "jdk", JdkCacheValueSerializer.class,
                context -> context.getBean(AdaptiveCacheManager.class).getSerializer().getClass());
        s.check("adaptive-cache.observations.enabled", "true", true, context -> {
            List<String> observed = context.getBean(Observations.class).started;
            observed.clear();
            template(context, "redis").get("props:observed");
            return observed.contains("adaptive.cache.call");
        });
        s.check("adaptive-cache.memcached.adaptive.initial", "single", StrategySpec.single(),
                context -> template(context, "memcached").stats().activeStrategy());
        return s;
    }

    private static Scenario springCacheNearCachesByWeight() {
        String n = "adaptive-cache.cache.near";
        Scenario s = new Scenario("Spring Cache with near caches on both templates, bounded by weight")
                .set("adaptive-cache.redis.url", redis.uri()).set("adaptive-cache.memcached.servers", memcached.addresses())
                .set("adaptive-cache.cache.key-prefix", "near1:").set("adaptive-cache.cache.backends.sessions", "memcached")
                .set("adaptive-cache.cache.backends.carts", "memcached").with(Caching.class);
        s.check(n + ".enabled", "true", true, context -> cache(context, "other").getNativeCache() instanceof NearCacheTemplate);
        s.check(n + ".maximum-weight", "2MB", 2L * 1024 * 1024, context -> near(context, "other").settings().maximumWeightBytes());
        s.check(n + ".time-to-live", "2m", Duration.ofMinutes(2), context -> near(context, "other").settings().timeToLive());
        s.check(n + ".max-staleness", "800ms", Duration.ofMillis(800), context -> near(context, "carts").template().stalenessBound());
        // Each read apart from the running invalidation source (their sum, the staleness bound, cannot tell a swap of the two).
        s.check(n + ".heartbeat-interval", "300ms", Duration.ofMillis(300), context -> invalidationSetting(context, "heartbeatInterval"));
        s.check(n + ".heartbeat-timeout", "200ms", Duration.ofMillis(200), context -> invalidationSetting(context, "heartbeatTimeout"));
        s.check(n + ".caches.products.maximum-entries", "50", 50L, context -> near(context, "products").settings().maximumEntries());
        s.check(n + ".caches.products.time-to-live", "30s", Duration.ofSeconds(30),
                context -> near(context, "products").settings().timeToLive());
        s.check(n + ".caches.sessions.maximum-weight", "1MB", 1024L * 1024, context -> near(context, "sessions").settings()
                .maximumWeightBytes());
        s.check(n + ".caches.sessions.max-staleness", "400ms", Duration.ofMillis(400),
                context -> near(context, "sessions").template().stalenessBound());
        s.check(n + ".caches.plain.enabled", "false", false, context -> cache(context, "plain").getNativeCache() instanceof NearCacheTemplate);
        return s;
    }

    private static Scenario springCacheNearCacheOfOneCacheOnly() {
        String n = "adaptive-cache.cache.near";
        // The global flag off (its default), so that only the per-cache flag can give "other" a near cache.
        Scenario s = new Scenario("Spring Cache with a near cache for one cache only").set("adaptive-cache.redis.url", redis.uri())
                .set("adaptive-cache.memcached.enabled", "false").set("adaptive-cache.cache.key-prefix", "near2:").with(Caching.class);
        s.check(n + ".caches.other.enabled", "true", Map.of("other", List.of("near2:other:")), context -> {
            cache(context, "other");
            cache(context, "products");
            Map<String, Object> near = new LinkedHashMap<>();
            context.getBean(AdaptiveCacheManager.class).getNearCaches().forEach((name, cache) -> near.put(name, cache.settings().keyPrefixes()));
            return near;
        });
        s.check(n + ".caches.other.maximum-entries", "70", 70L, context -> near(context, "other").settings().maximumEntries());
        return s;
    }

    private static Scenario springCacheNearCachesByEntries() {
        String n = "adaptive-cache.cache.near";
        Scenario s = new Scenario("Spring Cache with near caches bounded by entries").set("adaptive-cache.redis.url", redis.uri())
                .set("adaptive-cache.memcached.enabled", "false").set(n + ".enabled", "true").with(Caching.class);
        s.check(n + ".maximum-entries", "500", 500L, context -> near(context, "other").settings().maximumEntries());
        return s;
    }

    private static AdaptiveCacheManager.NearCache near(ApplicationContext context, String name) {
        cache(context, name);
        return context.getBean(AdaptiveCacheManager.class).getNearCaches().get(name);
    }

    private static Scenario everyBackendDisabled() {
        Scenario s = new Scenario("every backend disabled");
        s.check("adaptive-cache.redis.enabled", "false", false, context -> context.containsBean("redisCacheTemplate"));
        s.check("adaptive-cache.memcached.enabled", "false", false, context -> context.containsBean("memcachedCacheTemplate"));
        return s;
    }

    private static Scenario springCacheDisabled() {
        Scenario s = new Scenario("Spring Cache disabled while caching is enabled").with(Caching.class)
                .set("adaptive-cache.redis.url", redis.uri()).set("adaptive-cache.memcached.enabled", "false");
        // Without ours and with no cache manager of the application's, @EnableCaching has none to use.
        // Read back: the bean the failed start found missing is the cache manager ours would have been.
        s.check("adaptive-cache.cache.enabled", "false", org.springframework.cache.CacheManager.class,
                context -> causes(startupFailure(context)).filter(org.springframework.beans.factory.NoSuchBeanDefinitionException.class::isInstance)
                        .map(cause -> ((org.springframework.beans.factory.NoSuchBeanDefinitionException) cause).getBeanType())
                        .findFirst().orElse(null));
        s.fails("no CacheManager for @EnableCaching", failure -> causes(failure).anyMatch(cause -> String.valueOf(cause.getMessage())
                .contains("No qualifying bean of type 'org.springframework.cache.CacheManager'")));
        return s;
    }

    /**
     * The settings both templates have, with values valid for both: a pinned POOLED strategy, the
     * switcher and its default policy, the drain timeout, and every guard on Resilience4j.
     */
    private static void pinnedPooledAdaptiveAndResilience(Scenario s, String template) {
        String p = "adaptive-cache." + template;
        PoolSettings pool = new PoolSettings(6, 5, 1, Duration.ofMillis(750));
        s.check(p + ".strategy.type", "pooled", StrategySpec.pooled(pool), context -> switcher(context, template).state().pinned());
        s.check(p + ".strategy.pool.max-total", "6", 6, context -> template(context, template).stats().activeStrategy().pool().maxTotal());
        s.check(p + ".strategy.pool.max-idle", "5", 5, context -> template(context, template).stats().activeStrategy().pool().maxIdle());
        s.check(p + ".strategy.pool.min-idle", "1", 1, context -> template(context, template).stats().activeStrategy().pool().minIdle());
        s.check(p + ".strategy.pool.max-wait", "750ms", Duration.ofMillis(750),
                context -> template(context, template).stats().activeStrategy().pool().maxWait());
        s.check(p + ".drain-timeout", "4s", Duration.ofSeconds(4), context -> template(context, template).stats().drainTimeout());

        s.check(p + ".adaptive.mode", "advise", AdaptiveMode.ADVISE, context -> switcher(context, template).state().mode());
        s.check(p + ".adaptive.window", "1500ms", Duration.ofMillis(1500), context -> switcher(context, template).window());
        s.check(p + ".adaptive.history", "6m", 240, context -> switcher(context, template).windowHistoryCapacity());
        s.check(p + ".adaptive.connection-limit", "40", 40, context -> switcher(context, template).connectionLimit());
        s.check(p + ".adaptive.max-connections", "7", 7, context -> policy(context, template).maxConnections());
        s.check(p + ".adaptive.dwell", "75s", Duration.ofSeconds(75), context -> policy(context, template).dwell());
        s.check(p + ".adaptive.trial", "25s", Duration.ofSeconds(25), context -> policy(context, template).trial());
        s.check(p + ".adaptive.min-calls-per-window", "321", 321L, context -> policy(context, template).minCallsPerWindow());
        s.check(p + ".adaptive.max-switches-per-hour", "9", 9, context -> policy(context, template).maxSwitchesPerHour());

        String r = p + ".resilience";
        s.check(r + ".on-failure", "degrade", CacheFailureMode.DEGRADE, context -> template(context, template).stats().failureMode());
        String breakerName = "props-" + template + "-breaker";
        s.check(r + ".circuit-breaker.name", breakerName, true,
                context -> guards(context).circuitBreakers().find(breakerName).isPresent()
                        && breakerName.equals(template(context, template).stats().guardStatus().circuitBreaker()));
        s.check(r + ".circuit-breaker.failure-rate-threshold", "40", 40f, context -> breaker(context, breakerName).getFailureRateThreshold());
        s.check(r + ".circuit-breaker.slow-call-rate-threshold", "70", 70f,
                context -> breaker(context, breakerName).getSlowCallRateThreshold());
        s.check(r + ".circuit-breaker.slow-call-duration-threshold", "800ms", Duration.ofMillis(800),
                context -> breaker(context, breakerName).getSlowCallDurationThreshold());
        s.check(r + ".circuit-breaker.sliding-window-size", "50", 50, context -> breaker(context, breakerName).getSlidingWindowSize());
        s.check(r + ".circuit-breaker.minimum-number-of-calls", "10", 10,
                context -> breaker(context, breakerName).getMinimumNumberOfCalls());
        s.check(r + ".circuit-breaker.wait-duration-in-open-state", "6s", 6_000L,
                context -> breaker(context, breakerName).getWaitIntervalFunctionInOpenState().apply(1));
        s.check(r + ".circuit-breaker.permitted-number-of-calls-in-half-open-state", "3", 3,
                context -> breaker(context, breakerName).getPermittedNumberOfCallsInHalfOpenState());
        String retryName = "props-" + template + "-retry";
        s.check(r + ".retry.enabled", "true", true, context -> guards(context).retries().find(retryName).isPresent());
        s.check(r + ".retry.name", retryName, true, context -> guards(context).retries().find(retryName).isPresent());
        s.check(r + ".retry.max-attempts", "3", 3, context -> retry(context, retryName).getMaxAttempts());
        s.check(r + ".retry.wait-duration", "20ms", 20L, context -> retry(context, retryName).getIntervalBiFunction().apply(1, null));
        String bulkheadName = "props-" + template + "-bulkhead";
        s.check(r + ".bulkhead.enabled", "true", true, context -> guards(context).bulkheads().find(bulkheadName).isPresent());
        s.check(r + ".bulkhead.name", bulkheadName, true, context -> guards(context).bulkheads().find(bulkheadName).isPresent());
        s.check(r + ".bulkhead.max-concurrent-calls", "30", 30, context -> bulkhead(context, bulkheadName).getMaxConcurrentCalls());
        s.check(r + ".bulkhead.max-wait-duration", "5ms", Duration.ofMillis(5), context -> bulkhead(context, bulkheadName).getMaxWaitDuration());
    }

    /** A pinned MULTI strategy and no guard at all: without retry or bulkhead, no circuit breaker means no guard. */
    private static void multiWithoutBreaker(Scenario s, String template) {
        String p = "adaptive-cache." + template;
        s.check(p + ".strategy.type", "multi", StrategyType.MULTI, context -> switcher(context, template).state().pinned().type());
        s.check(p + ".strategy.multi.connections", "3", 3, context -> template(context, template).stats().activeStrategy().connections());
        s.check(p + ".strategy.multi.selector", "least-in-flight", SelectorType.LEAST_IN_FLIGHT,
                context -> template(context, template).stats().activeStrategy().selector());
        s.check(p + ".resilience.circuit-breaker.enabled", "false", GuardStatus.UNGUARDED,
                context -> template(context, template).stats().guardStatus());
    }

    private static ManagedCacheTemplate template(ApplicationContext context, String name) {
        return context.getBean(name + "CacheTemplate", ManagedCacheTemplate.class);
    }

    private static StrategySwitcher switcher(ApplicationContext context, String name) {
        return context.getBean(AdaptiveCacheSwitchers.class).get(name);
    }

    private static ThresholdStrategyPolicy.Settings policy(ApplicationContext context, String name) {
        return ((ThresholdStrategyPolicy) switcher(context, name).policy()).settings();
    }

    private static ThresholdStrategyPolicy.BlockingPool blockingPool(ApplicationContext context) {
        return ((ThresholdStrategyPolicy) switcher(context, "redis").policy()).blockingPool();
    }

    private static Resilience4jCallGuards.Registries guards(ApplicationContext context) {
        return context.getBean(Resilience4jCallGuards.class).registries();
    }

    private static CircuitBreakerConfig breaker(ApplicationContext context, String name) {
        return guards(context).circuitBreakers().find(name).orElseThrow().getCircuitBreakerConfig();
    }

    private static RetryConfig retry(ApplicationContext context, String name) {
        return guards(context).retries().find(name).orElseThrow().getRetryConfig();
    }

    private static BulkheadConfig bulkhead(ApplicationContext context, String name) {
        return guards(context).bulkheads().find(name).orElseThrow().getBulkheadConfig();
    }

    /** The Lettuce client the Redis template runs on. */
    private static io.lettuce.core.AbstractRedisClient lettuce(ApplicationContext context) {
        return running(template(context, "redis"), io.lettuce.core.AbstractRedisClient.class);
    }

    /**
     * Whether 50 reads sent at once from one thread left in 50 socket writes: always so without
     * coalescing; with it, the reads queued while the connection's event loop was busy share writes.
     */
    private static boolean everyReadAWriteOfItsOwn(ManagedCacheTemplate template) {
        RedisWrites before = RedisWrites.of(template).orElseThrow();
        List<java.util.concurrent.CompletableFuture<?>> reads = new ArrayList<>();
        for (int n = 0; n < 50; n++) {
            reads.add(template.getAsync("reach:coalesce-writes"));
        }
        reads.forEach(java.util.concurrent.CompletableFuture::join);
        RedisWrites sent = RedisWrites.of(template).orElseThrow().since(before);
        return sent.commands() >= 50 && sent.writes() == sent.commands();
    }

    /** The options of the running Lettuce client, not of the builder the customizer hook saw. */
    private static ClientOptions redisOptions(ApplicationContext context) {
        return lettuce(context).getOptions();
    }

    private static ClusterClientOptions clusterOptions(ApplicationContext context) {
        return (ClusterClientOptions) redisOptions(context);
    }

    /** The connection factory of the running spymemcached client (its own field: the client has no getter). */
    private static ConnectionFactory spymemcachedFactory(ApplicationContext context) {
        net.spy.memcached.MemcachedClient client = running(template(context, "memcached"), net.spy.memcached.MemcachedClient.class);
        try {
            java.lang.reflect.Field factory = net.spy.memcached.MemcachedClient.class.getDeclaredField("connFactory");
            factory.setAccessible(true);
            return (ConnectionFactory) factory.get(client);
        }
        catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The running XMemcached client. */
    private static net.rubyeye.xmemcached.MemcachedClient xmemcached(ApplicationContext context) {
        return running(template(context, "memcached"), net.rubyeye.xmemcached.MemcachedClient.class);
    }

    private static AdaptiveCache cache(ApplicationContext context, String name) {
        return (AdaptiveCache) context.getBean(AdaptiveCacheManager.class).getCache(name);
    }

    /** A write and a read that find the value: the template reached its server and the server answered. */
    private static boolean roundTrip(ManagedCacheTemplate template) {
        String key = "props:round-trip:" + UUID.randomUUID();
        template.set(key, new byte[] {42}, Duration.ofMinutes(1));
        byte[] value = template.get(key);
        return value != null && value.length == 1 && value[0] == 42;
    }

    /** CLIENT LIST with a space before each line's first field, so that {@code " db=3 "} matches a whole field. */
    private static String clientListOf(RedisServer server) {
        return " " + server.command("CLIENT", "LIST").replace("\n", " \n ") + " ";
    }

    /** GET calls the server has served, from INFO commandstats (none yet: no line). */
    private static long getCalls(RedisServer server) {
        try {
            String stats = server.info("commandstats", "cmdstat_get");
            return Long.parseLong(stats.substring(stats.indexOf("calls=") + 6, stats.indexOf(',')));
        }
        catch (IllegalStateException ex) {
            return 0;
        }
    }

    /** Why a scenario's context did not start (the context given to a check of a scenario that must fail). */
    private static Throwable startupFailure(ApplicationContext context) {
        return ((org.springframework.boot.test.context.assertj.AssertableApplicationContext) context).getStartupFailure();
    }

    /** A setting held by the running Redis invalidation source of the near caches, read from its field. */
    private static Object invalidationSetting(ApplicationContext context, String field) {
        Object source = context.getBean(io.adaptivecache.near.InvalidationSource.class);
        try {
            java.lang.reflect.Field declared = source.getClass().getDeclaredField(field);
            declared.setAccessible(true);
            return declared.get(source);
        }
        catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The first object of a type reachable from a running template through its fields (and through
     * the elements of JDK collections and maps): the client the template actually uses, so that a
     * setting is read from it rather than from a builder it may not have been built from.
     */
    private static <T> T running(Object root, Class<T> type) {
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<Object> queue = new java.util.ArrayDeque<>(List.of(root));
        while (!queue.isEmpty() && seen.size() < 200_000) {
            Object object = queue.poll();
            if (object == null || !seen.add(object)) {
                continue;
            }
            if (type.isInstance(object)) {
                return type.cast(object);
            }
            Class<?> clazz = object.getClass();
            String name = clazz.getName();
            if (object instanceof java.util.Collection<?> collection) {
                try {
                    queue.addAll(List.of(collection.toArray()).stream().filter(Objects::nonNull).toList());
                }
                catch (RuntimeException ex) {
                    // A collection that cannot be copied now: its elements are not looked at.
                }
                continue;
            }
            if (object instanceof Map<?, ?> map) {
                try {
                    map.values().stream().filter(Objects::nonNull).forEach(queue::add);
                }
                catch (RuntimeException ex) {
                    // As above.
                }
                continue;
            }
            if (object instanceof Object[] array) {
                Stream.of(array).filter(Objects::nonNull).forEach(queue::add);
                continue;
            }
            if (clazz.isArray() || name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                    || name.startsWith("sun.") || name.startsWith("io.netty.") || name.startsWith("reactor.")) {
                continue;
            }
            for (Class<?> c = clazz; c != null && c != Object.class; c = c.getSuperclass()) {
                for (java.lang.reflect.Field field : c.getDeclaredFields()) {
                    if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        field.setAccessible(true);
                        Object value = field.get(object);
                        if (value != null) {
                            queue.add(value);
                        }
                    }
                    catch (RuntimeException | IllegalAccessException ex) {
                        // A field this test may not open: not followed.
                    }
                }
            }
        }
        throw new IllegalStateException("no " + type.getName() + " reachable from " + root);
    }

    private static Stream<Throwable> causes(Throwable failure) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !causes.contains(cause); cause = cause.getCause()) {
            causes.add(cause);
        }
        return causes.stream();
    }


    /** How one property is read back, and what it must read. */
    private record Check(Function<ApplicationContext, Object> read, Object expected) {
    }

    /** One context: the properties it sets, the checks of some of them, or the startup failure it must give. */
    private static final class Scenario {

        final String name;
        final Map<String, String> properties = new LinkedHashMap<>();
        final Map<String, Check> checks = new LinkedHashMap<>();
        final List<Class<?>> configurations = new ArrayList<>();
        Function<Throwable, Boolean> failure;
        String failureDescription;

        Scenario(String name) {
            this.name = name;
        }

        /** Sets a property that serves the scenario and is checked elsewhere. */
        Scenario set(String property, String value) {
            this.properties.put(property, value);
            return this;
        }

        /** Sets a property and reads it back from its component once the context has started. */
        Scenario check(String property, String value, Object expected, Function<ApplicationContext, Object> read) {
            this.properties.put(property, value);
            this.checks.put(property, new Check(read, expected));
            return this;
        }

        Scenario with(Class<?>... configurations) {
            this.configurations.addAll(List.of(configurations));
            return this;
        }

        /** The context must fail to start, and the failure shows that the checked property reached its component. */
        Scenario fails(String description, Function<Throwable, Boolean> failure) {
            this.failureDescription = description;
            this.failure = failure;
            return this;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    /** An ObservationRegistry that notes the name of every observation started. */
    @Configuration(proxyBeanMethods = false)
    static class Observations {

        final List<String> started = new CopyOnWriteArrayList<>();

        @Bean
        ObservationRegistry observationRegistry() {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }

                @Override
                public void onStart(Observation.Context context) {
                    Observations.this.started.add(context.getName());
                }
            });
            return registry;
        }
    }
}
