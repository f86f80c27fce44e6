package io.adaptivecache.memcached;

import io.adaptivecache.testservers.MemcachedServerExtension;
import net.spy.memcached.compat.log.LoggerFactory;
import net.spy.memcached.compat.log.SLF4JLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The memcached contract on one server over the binary protocol (the default). */
class MemcachedBinaryIntegrationTests extends MemcachedTemplateContract {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Override
    protected MemcachedServerExtension memcached() {
        return memcached;
    }

    @Override
    protected String servers() {
        return memcached.addresses();
    }

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
