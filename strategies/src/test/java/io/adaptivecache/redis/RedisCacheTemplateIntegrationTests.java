package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Every operation on every strategy, against a real redis-server. */
class RedisCacheTemplateIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> template;
    private final String prefix = UUID.randomUUID() + ":";

    private CacheOperations<String> start(StrategySpec strategy) {
        template = RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).start();
        return template.withCodec(ValueCodec.utf8());
    }

    @AfterEach
    void close() {
        if (template != null) {
            template.close();
        }
    }

    private String key(String name) {
        return prefix + name;
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void getSetAndDeleteShouldRoundTrip(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.get(key("absent"))).isNull();
        cache.set(key("k"), "värde", Duration.ZERO);
        assertThat(cache.get(key("k"))).isEqualTo("värde");
        assertThat(template.get(key("k"))).isEqualTo("värde".getBytes(StandardCharsets.UTF_8));
        assertThat(cache.delete(key("k"))).isTrue();
        assertThat(cache.delete(key("k"))).isFalse();
        assertThat(cache.get(key("k"))).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void getAllShouldReturnOnlyPresentKeysInRequestOrder(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("a"), "1", Duration.ZERO);
        cache.set(key("c"), "3", Duration.ZERO);

        Map<String, String> values = cache.getAll(List.of(key("c"), key("b"), key("a"), key("c")));

        assertThat(values).containsExactly(Map.entry(key("c"), "3"), Map.entry(key("a"), "1"));
        assertThat(cache.getAll(List.of(key("x"), key("y")))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void addAndReplaceShouldRespectPresence(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.replace(key("k"), "r", Duration.ZERO)).isFalse();
        assertThat(cache.get(key("k"))).isNull();
        assertThat(cache.add(key("k"), "a", Duration.ZERO)).isTrue();
        assertThat(cache.add(key("k"), "b", Duration.ZERO)).isFalse();
        assertThat(cache.get(key("k"))).isEqualTo("a");
        assertThat(cache.replace(key("k"), "c", Duration.ofMinutes(1))).isTrue();
        assertThat(cache.get(key("k"))).isEqualTo("c");
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void valuesShouldExpireAfterTheirTtl(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("short"), "v", Duration.ofMillis(300));
        cache.set(key("long"), "v", Duration.ofMinutes(5));
        assertThat(cache.add(key("added"), "v", Duration.ofMillis(300))).isTrue();

        assertThat(cache.get(key("short"))).isEqualTo("v");
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.get(key("short")) == null && cache.get(key("added")) == null);
        assertThat(cache.get(key("long"))).isEqualTo("v");
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void touchShouldSetAndClearTheTtlOfExistingKeysOnly(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("kept"), "v", Duration.ofMillis(400));
        cache.set(key("expiring"), "v", Duration.ZERO);

        assertThat(cache.touch(key("kept"), Duration.ZERO)).isTrue();
        assertThat(cache.touch(key("expiring"), Duration.ofMillis(300))).isTrue();
        assertThat(cache.touch(key("absent"), Duration.ofMinutes(1))).isFalse();
        assertThat(cache.touch(key("absent"), Duration.ZERO)).isFalse();

        await().atMost(Duration.ofSeconds(5)).until(() -> cache.get(key("expiring")) == null);
        assertThat(cache.get(key("kept"))).isEqualTo("v");
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void casShouldStoreOnlyWhenTheValueIsUnchanged(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("k"), "v1", Duration.ZERO);

        CasValue<String> read = cache.gets(key("k"));
        CasValue<String> concurrentRead = cache.gets(key("k"));
        assertThat(read.value()).isEqualTo("v1");
        assertThat(read.token()).isEqualTo(concurrentRead.token());

        assertThat(cache.cas(key("k"), read.token(), "v2", Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(cache.cas(key("k"), concurrentRead.token(), "v3", Duration.ZERO)).isEqualTo(CasResult.EXISTS);
        assertThat(cache.get(key("k"))).isEqualTo("v2");

        cache.delete(key("k"));
        assertThat(cache.cas(key("k"), read.token(), "v4", Duration.ZERO)).isEqualTo(CasResult.NOT_FOUND);
        assertThat(cache.gets(key("k"))).isNull();
        assertThat(cache.get(key("k"))).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void casWithATtlShouldExpire(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("k"), "v1", Duration.ZERO);

        assertThat(cache.cas(key("k"), cache.gets(key("k")).token(), "v2", Duration.ofMillis(300))).isEqualTo(CasResult.STORED);

        assertThat(cache.get(key("k"))).isEqualTo("v2");
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.get(key("k")) == null);
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void incrAndDecrShouldCountFromZero(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.incr(key("n"), 5)).isEqualTo(5);
        assertThat(cache.incr(key("n"), 0)).isEqualTo(5);
        assertThat(cache.decr(key("n"), 2)).isEqualTo(3);
        assertThat(cache.get(key("n"))).isEqualTo("3");
        assertThat(cache.decr(key("m"), 1)).isEqualTo(-1);

        cache.set(key("text"), "not a number", Duration.ZERO);
        assertThatThrownBy(() -> cache.incr(key("text"), 1)).isInstanceOf(CacheServerException.class)
                .hasMessageContaining("not an integer");
        assertThat(cache.get(key("text"))).isEqualTo("not a number");
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void asynchronousFormsShouldCompleteWithTheSameResults(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        CompletableFuture.allOf(cache.setAsync(key("a"), "1", Duration.ZERO), cache.setAsync(key("b"), "2", Duration.ZERO)).join();

        assertThat(cache.getAsync(key("a")).join()).isEqualTo("1");
        assertThat(cache.getAllAsync(List.of(key("a"), key("b"))).join()).containsOnlyKeys(key("a"), key("b"));
        assertThat(cache.addAsync(key("a"), "x", Duration.ZERO).join()).isFalse();
        assertThat(cache.replaceAsync(key("a"), "x", Duration.ZERO).join()).isTrue();
        CasValue<String> read = cache.getsAsync(key("a")).join();
        assertThat(cache.casAsync(key("a"), read.token(), "y", Duration.ZERO).join()).isEqualTo(CasResult.STORED);
        assertThat(cache.incrAsync(key("n"), 2).join()).isEqualTo(2);
        assertThat(cache.decrAsync(key("n"), 1).join()).isEqualTo(1);
        assertThat(cache.touchAsync(key("a"), Duration.ofMinutes(1)).join()).isTrue();
        assertThat(cache.deleteAsync(key("a")).join()).isTrue();
        assertThat(cache.getAsync(key("a")).join()).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void shouldStoreBinaryValuesAndKeysWithSpacesUnchanged(StrategySpec strategy) {
        start(strategy);
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }

        template.set(key("with space\r\n"), binary, Duration.ZERO);

        assertThat(template.get(key("with space\r\n"))).isEqualTo(binary);
        assertThat(template.get(key("with space"))).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.adaptivecache.redis.RedisStrategies#all")
    void shouldOpenExactlyTheConnectionsTheStrategyAsksForAndCloseThemAll(StrategySpec strategy) {
        int baseline = redis.server().connectedClients();
        start(strategy);
        int expected = strategy.type() == io.adaptivecache.strategy.StrategyType.POOLED ? Math.max(1, strategy.pool().minIdle())
                : strategy.connections();

        assertThat(template.openConnections()).isEqualTo(expected);
        assertThat(redis.server().connectedClients()).isEqualTo(baseline + expected);

        template.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.server().connectedClients() == baseline);
        template = null;
    }
}
