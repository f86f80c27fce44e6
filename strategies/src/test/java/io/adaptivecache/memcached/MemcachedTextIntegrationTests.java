package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;

import static org.assertj.core.api.Assertions.assertThat;
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
     * the caller gets a {@link CacheException}, not a server error, and the template recovers by
     * itself once the client has reconnected. This is why BINARY is the default.
     */
    @Override
    protected Class<? extends CacheException> incrOfTextFailure() {
        return CacheException.class;
    }

    @Override
    protected void assertUsableAfterIncrOfText(CacheOperations<String> cache, StrategySpec strategy) {
        // Each attempt counts a fresh key, so a retried attempt cannot disturb the next one.
        AtomicInteger attempt = new AtomicInteger();
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                .until(() -> cache.incr(key("n" + attempt.incrementAndGet()), 1) == 1
                        && "not a number".equals(cache.get(key("text"))));
        assertThat(template.stats().openConnections()).isEqualTo(strategy.type() == StrategyType.POOLED
                ? template.stats().strategyStats().openConnections() : strategy.connections());
    }
}
