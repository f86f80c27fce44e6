package io.adaptivecache.redis;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rejected input reaches no socket: the connection stays usable and stored data is intact. */
class RedisInputValidationIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final int MAX_KEY_BYTES = 64;
    private static final int MAX_VALUE_BYTES = 1024;

    static List<Consumer<CacheTemplate>> badCalls() {
        byte[] ok = {1, 2, 3};
        return List.of(
                named("null key", cache -> cache.get(null)),
                named("empty key", cache -> cache.set("", ok, Duration.ZERO)),
                named("over-long key", cache -> cache.set("k".repeat(MAX_KEY_BYTES + 1), ok, Duration.ZERO)),
                named("over-long multi-byte key", cache -> cache.getAll(List.of("é".repeat(MAX_KEY_BYTES / 2 + 1)))),
                named("null value", cache -> cache.set("k", null, Duration.ZERO)),
                named("over-size value", cache -> cache.add("k", new byte[MAX_VALUE_BYTES + 1], Duration.ZERO)),
                named("negative TTL", cache -> cache.replace("k", ok, Duration.ofSeconds(-5))),
                named("null TTL", cache -> cache.touch("k", null)),
                named("negative delta", cache -> cache.incr("k", -3)),
                named("null CAS token", cache -> cache.cas("k", null, ok, Duration.ZERO)),
                named("null key in multi-get", cache -> cache.getAll(Arrays.asList("a", null))),
                named("async null key", cache -> cache.deleteAsync(null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCalls")
    void badInputShouldBeRejectedBeforeAnyIoAndLeaveTheConnectionUsable(Consumer<CacheTemplate> badCall) {
        String sentinel = "sentinel:" + UUID.randomUUID();
        try (DefaultCacheTemplate<?> cache = RedisCacheTemplates.builder()
                .uri(redis.uri()).strategy(StrategySpec.single()).maxKeyBytes(MAX_KEY_BYTES).maxValueBytes(MAX_VALUE_BYTES)
                .start()) {
            cache.set(sentinel, "kept".getBytes(), Duration.ZERO);
            long commandsBefore = commandsProcessed();

            assertThatThrownBy(() -> badCall.accept(cache)).isInstanceOf(InvalidCacheInputException.class);

            assertThat(commandsProcessed()).as("commands the server saw").isEqualTo(commandsBefore + 1);
            assertThat(cache.get(sentinel)).isEqualTo("kept".getBytes());
            cache.set(sentinel + ":after", new byte[MAX_VALUE_BYTES], Duration.ZERO);
            assertThat(cache.get(sentinel + ":after")).hasSize(MAX_VALUE_BYTES);
        }
    }

    /** INFO itself counts as one command, hence the +1 above. */
    private static long commandsProcessed() {
        return Long.parseLong(redis.server().info("stats", "total_commands_processed"));
    }

    private static Consumer<CacheTemplate> named(String name, Consumer<CacheTemplate> call) {
        return new Consumer<>() {
            @Override
            public void accept(CacheTemplate cache) {
                call.accept(cache);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
