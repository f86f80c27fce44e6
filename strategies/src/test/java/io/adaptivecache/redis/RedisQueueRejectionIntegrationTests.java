package io.adaptivecache.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A call refused by a full Lettuce request queue names that queue and its size, not a breaker or a bulkhead. */
class RedisQueueRejectionIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aFullRequestQueueShouldBeNamedWithItsSize() {
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(redis.uri()).strategy(StrategySpec.single())
                .requestQueueSize(1).commandTimeout(Duration.ofSeconds(2)).start()) {
            redis.server().freeze();
            try {
                // The frozen server never answers the first command, which holds the connection's one queue slot.
                CompletableFuture<?> held = template.getAsync("queue:first");
                CompletableFuture<?> refused = template.getAsync("queue:second");

                assertThatThrownBy(refused::join).hasCauseInstanceOf(CacheRejectedException.class)
                        .hasMessageContaining("command queue to " + "redis://" + redis.server().address() + " is full")
                        .hasMessageContaining("(1 commands per connection, request-queue-size)")
                        .hasMessageNotContaining("Circuit breaker").hasMessageNotContaining("Bulkhead");
                assertThat(held).isNotDone();
            }
            finally {
                redis.server().thaw();
            }
        }
    }
}
