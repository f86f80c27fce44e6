package io.adaptivecache.memcached;

import java.time.Duration;

import io.adaptivecache.contract.ServerFaultContract;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dead, frozen and overloaded memcached (binary protocol), on a server of this class's own. */
class MemcachedServerFaultIntegrationTests extends ServerFaultContract {

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Override
    protected ServerProcess server() {
        return memcached.server();
    }

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy, CallGuard guard, int queueSize) {
        return MemcachedCacheTemplates.builder().driver(driver()).servers(memcached.addresses()).strategy(strategy).guard(guard)
                .operationTimeout(TIMEOUT).connectTimeout(CONNECT_TIMEOUT).maxReconnectDelay(Duration.ofSeconds(1))
                .operationQueueSize(queueSize).drainTimeout(Duration.ofSeconds(2)).start();
    }
}
