package io.adaptivecache.memcached;

import io.adaptivecache.contract.BadInputFuzzContract;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random input at one memcached server: keys of at most 250 bytes, no spaces or control
 * characters. A subclass picks the protocol (and the XMemcached ones the driver); each test class
 * starts the server before its tests and stops it after them.
 */
abstract class MemcachedBadInputFuzzContract extends BadInputFuzzContract {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    /** The protocol under test. */
    protected abstract MemcachedProtocol protocol();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return MemcachedCacheTemplates.builder().driver(driver()).servers(memcached.addresses()).protocol(protocol()).strategy(strategy)
                .start();
    }

    @Override
    protected boolean printableKeysOnly() {
        return true;
    }

    @Override
    protected long serverBytesRead() {
        return Long.parseLong(memcached.server().stat("bytes_read"));
    }
}
