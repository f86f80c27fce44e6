package io.adaptivecache.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.micrometer.CacheCallContext;
import io.adaptivecache.micrometer.CacheCallObservations;
import io.adaptivecache.micrometer.DefaultCacheCallObservationConvention;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * adaptive-cache.observations.enabled on a real redis-server and memcached, observed by Micrometer's
 * {@link TestObservationRegistry}: each call is exactly one observation named adaptive.cache.call
 * with the backend, template, command, strategy and outcome tags, and no key or value anywhere in
 * it; off (the default), no call creates an observation even though a registry exists.
 */
class AdaptiveCacheObservationAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    // Distinctive, so that finding either anywhere in an observation is a leak.
    private static final String KEY = "obs-key-7f3a2";
    private static final String MISSING_KEY = "obs-missing-key-c41e";
    private static final byte[] VALUE = "obs-value-91c2d".getBytes(StandardCharsets.US_ASCII);

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheObservationAutoConfiguration.class))
            .withBean(ObservationRegistry.class, () -> this.registry)
            .withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "adaptive-cache.memcached.servers=" + memcached.addresses(),
                    "adaptive-cache.redis.strategy.type=single", "adaptive-cache.memcached.strategy.type=multi",
                    "adaptive-cache.memcached.strategy.multi.connections=2");

    @Test
    void withObservationsOnEachRedisCallShouldBeOneObservationWithItsOutcomeAndNoKeyOrValue() {
        this.contextRunner.withPropertyValues("adaptive-cache.observations.enabled=true").run(context -> {
            ManagedCacheTemplate template = template(context, "redis");
            assertCalls(template, "redis", "SINGLE");
        });
    }

    @Test
    void withObservationsOnEachMemcachedCallShouldBeOneObservationWithItsOutcomeAndNoKeyOrValue() {
        this.contextRunner.withPropertyValues("adaptive-cache.observations.enabled=true").run(context -> {
            ManagedCacheTemplate template = template(context, "memcached");
            assertCalls(template, "memcached", "MULTI");
        });
    }

    private void assertCalls(ManagedCacheTemplate template, String backend, String strategy) throws Exception {
        this.registry.clear();
        template.set(KEY, VALUE, Duration.ofMinutes(1));
        assertSingleObservation(backend, strategy, "set", "success", null);

        assertThat(template.get(KEY)).isEqualTo(VALUE);
        assertSingleObservation(backend, strategy, "get", "success", null);

        assertThat(template.get(MISSING_KEY)).isNull();
        assertSingleObservation(backend, strategy, "get", "miss", null);

        assertThat(template.getAsync(KEY).get(10, TimeUnit.SECONDS)).isEqualTo(VALUE);
        assertSingleObservation(backend, strategy, "get", "success", null);

        assertThat(template.getAllAsync(List.of(KEY, MISSING_KEY)).get(10, TimeUnit.SECONDS)).containsOnlyKeys(KEY);
        assertSingleObservation(backend, strategy, "get-all", "success", null);

        assertThat(template.getAll(List.of(MISSING_KEY))).isEmpty();
        assertSingleObservation(backend, strategy, "get-all", "miss", null);

        assertThat(template.deleteAsync(KEY).get(10, TimeUnit.SECONDS)).isTrue();
        assertSingleObservation(backend, strategy, "delete", "success", null);
    }

    @Test
    void aCallThatFailsShouldBeOneObservationWithOutcomeErrorAndItsError() {
        try (RedisServer server = new RedisServer()) {
            server.start();
            this.contextRunner.withPropertyValues("adaptive-cache.observations.enabled=true", "adaptive-cache.redis.url=redis://127.0.0.1:"
                    + server.port(), "adaptive-cache.redis.timeout=300ms").run(context -> {
                        ManagedCacheTemplate template = template(context, "redis");
                        template.set(KEY, VALUE, Duration.ofMinutes(1));
                        this.registry.clear();
                        server.freeze(); // the server stops answering: the call times out

                        assertThatThrownBy(() -> template.get(KEY)).isInstanceOf(CacheException.class);
                        Observation.Context failed = assertSingleObservation("redis", "SINGLE", "get", "error", CacheException.class);
                        assertThat(failed.getError()).isInstanceOf(CacheException.class);

                        assertThatThrownBy(() -> template.setAsync(KEY, VALUE, Duration.ofMinutes(1)).get(10, TimeUnit.SECONDS))
                                .hasCauseInstanceOf(CacheException.class);
                        assertSingleObservation("redis", "SINGLE", "set", "error", CacheException.class);
                        server.thaw();
                    });
        }
    }

    @Test
    void aFailedReadAnsweredAsAMissShouldBeDegradedAndACallTheOpenBreakerRefusesRejected() {
        try (RedisServer server = new RedisServer()) {
            server.start();
            this.contextRunner.withPropertyValues("adaptive-cache.observations.enabled=true", "adaptive-cache.redis.url=redis://127.0.0.1:"
                    + server.port(), "adaptive-cache.redis.timeout=300ms", "adaptive-cache.redis.resilience.on-failure=degrade",
                    "adaptive-cache.redis.resilience.circuit-breaker.minimum-number-of-calls=2",
                    "adaptive-cache.redis.resilience.circuit-breaker.sliding-window-size=2",
                    "adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state=1m").run(context -> {
                        ManagedCacheTemplate template = template(context, "redis");
                        this.registry.clear();
                        server.kill(); // nothing listens any more

                        assertThat(template.get(KEY)).as("a failed read in degrade mode is a miss").isNull();
                        assertSingleObservation("redis", "SINGLE", "get", "degraded", CacheException.class);
                        template.set(KEY, VALUE, Duration.ofMinutes(1));
                        assertSingleObservation("redis", "SINGLE", "set", "degraded", CacheException.class);

                        // Two failures in a window of two: the breaker is open and refuses the next call.
                        assertThat(template.stats().guardStatus().circuitState()).isEqualTo("OPEN");
                        assertThat(template.get(KEY)).isNull();
                        assertSingleObservation("redis", "SINGLE", "get", "rejected", CacheRejectedException.class);
                    });
        }
    }

    @Test
    void withObservationsOffNoCallShouldCreateAnObservationThoughARegistryExists() {
        this.contextRunner.run(context -> {
            assertThat(context).doesNotHaveBean(CacheCallObservations.class);
            exerciseBothTemplates(context);
            assertThat(this.registry).doesNotHaveAnyObservation();
        });
        this.contextRunner.withPropertyValues("adaptive-cache.observations.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(CacheCallObservations.class);
            exerciseBothTemplates(context);
            assertThat(this.registry).doesNotHaveAnyObservation();
        });
    }

    @Test
    void withoutAnObservationRegistryThePropertyShouldChangeNothing() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheObservationAutoConfiguration.class))
                .withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "adaptive-cache.memcached.enabled=false",
                        "adaptive-cache.observations.enabled=true")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(CacheCallObservations.class);
                    ManagedCacheTemplate template = template(context, "redis");
                    template.set(KEY, VALUE, Duration.ofMinutes(1));
                    assertThat(template.get(KEY)).isEqualTo(VALUE);
                });
    }

    private void exerciseBothTemplates(ApplicationContext context) throws Exception {
        for (String name : List.of("redis", "memcached")) {
            ManagedCacheTemplate template = template(context, name);
            template.set(KEY, VALUE, Duration.ofMinutes(1));
            assertThat(template.get(KEY)).isEqualTo(VALUE);
            assertThat(template.get(MISSING_KEY)).isNull();
            assertThat(template.getAsync(KEY).get(10, TimeUnit.SECONDS)).isEqualTo(VALUE);
            template.delete(KEY);
        }
    }

    /**
     * Exactly one observation since the last check, started and stopped, with exactly the expected
     * tags and no key or value anywhere in its names, tags or error message; then forgets it.
     */
    private Observation.Context assertSingleObservation(String backend, String strategy, String command, String outcome,
            Class<? extends Throwable> error) {
        List<Observation.Context> contexts = new ArrayList<>();
        assertThat(this.registry).hasHandledContextsThatSatisfy(contexts::addAll);
        assertThat(contexts).as("observations of one %s call", command).hasSize(1);
        assertThat(this.registry).hasSingleObservationThat().hasBeenStarted().hasBeenStopped()
                .hasNameEqualTo(DefaultCacheCallObservationConvention.NAME).hasContextualNameEqualTo(command + " " + backend);
        Observation.Context context = contexts.get(0);
        assertThat(context).isInstanceOf(CacheCallContext.class);
        Map<String, String> tags = new LinkedHashMap<>();
        context.getLowCardinalityKeyValues().forEach(keyValue -> tags.put(keyValue.getKey(), keyValue.getValue()));
        assertThat(tags).containsExactlyInAnyOrderEntriesOf(Map.of("backend", backend, "template", backend, "command", command,
                "strategy", strategy, "outcome", outcome));
        assertThat(context.getHighCardinalityKeyValues()).isEmpty();
        List<String> texts = new ArrayList<>(List.of(context.getName(), String.valueOf(context.getContextualName())));
        for (KeyValue keyValue : context.getAllKeyValues()) {
            texts.add(keyValue.getKey());
            texts.add(keyValue.getValue());
        }
        if (context.getError() != null) {
            texts.add(String.valueOf(context.getError().getMessage()));
        }
        String value = new String(VALUE, StandardCharsets.US_ASCII);
        assertThat(texts).noneMatch(text -> text.contains(KEY) || text.contains(MISSING_KEY) || text.contains(value));
        if (error == null) {
            assertThat(context.getError()).isNull();
        }
        else {
            assertThat(context.getError()).isInstanceOf(error);
        }
        this.registry.clear();
        return context;
    }

    private static ManagedCacheTemplate template(ApplicationContext context, String name) {
        return context.getBean(name + "CacheTemplate", ManagedCacheTemplate.class);
    }
}
