package io.adaptivecache.memcached;

import net.spy.memcached.compat.log.LoggerFactory;
import net.spy.memcached.compat.log.SLF4JLogger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The memcached contract on one server over the binary protocol (the default). */
class MemcachedBinaryIntegrationTests extends OneServerMemcachedContract {

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.BINARY;
    }

    /** spymemcached logs through SLF4J, never its SunLogger (which halves its throughput); the XMemcached suite checks its own client. */
    @Test
    void theClientLibraryShouldBeSetUpAsDocumented() {
        start(io.adaptivecache.strategy.StrategySpec.single());

        assertThat(LoggerFactory.getLogger(getClass())).isInstanceOf(SLF4JLogger.class);
    }
}
