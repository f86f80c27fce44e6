package io.adaptivecache.memcached;

import net.spy.memcached.compat.log.LoggerFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The memcached contract on one server over the binary protocol (the default). */
class MemcachedBinaryIntegrationTests extends OneServerMemcachedContract {

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.BINARY;
    }

    /**
     * spymemcached logs through SLF4J (its INFO at DEBUG), never its SunLogger (which halves its throughput); the XMemcached
     * suite checks its own client.
     */
    @Test
    void theClientLibraryShouldBeSetUpAsDocumented() {
        start(io.adaptivecache.strategy.StrategySpec.single());

        assertThat(LoggerFactory.getLogger(getClass())).isInstanceOf(QuietSpymemcachedLogger.class);
    }
}
