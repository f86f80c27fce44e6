package io.adaptivecache.memcached;

import java.time.Duration;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The memcached contract on one server over the text protocol. */
class MemcachedTextIntegrationTests extends OneServerMemcachedContract {

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.TEXT;
    }

    /**
     * Over the text protocol spymemcached answers any error reply (here CLIENT_ERROR for a
     * non-numeric incr) by dropping and reconnecting the connection, which cancels the call:
     * the caller gets a {@link CacheException} and the template recovers by itself once the
     * client has reconnected. This is why BINARY is the default.
     */
    @Override
    @ParameterizedTest
    @MethodSource("io.adaptivecache.contract.Strategies#all")
    protected void incrOfTextShouldFailAsAServerErrorAndLeaveEverythingUsable(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("text"), "not a number", Duration.ZERO);

        assertThatThrownBy(() -> cache.incr(key("text"), 1)).isInstanceOf(CacheException.class);

        // Each attempt counts a fresh key, so a retried attempt cannot disturb the next one.
        java.util.concurrent.atomic.AtomicInteger attempt = new java.util.concurrent.atomic.AtomicInteger();
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                .until(() -> cache.incr(key("n" + attempt.incrementAndGet()), 1) == 1
                        && "not a number".equals(cache.get(key("text"))));
        assertThat(template.stats().openConnections()).isEqualTo(strategy.type() == io.adaptivecache.strategy.StrategyType.POOLED
                ? template.stats().strategyStats().openConnections() : strategy.connections());
    }
}
