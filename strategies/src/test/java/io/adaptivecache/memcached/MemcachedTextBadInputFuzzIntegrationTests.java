package io.adaptivecache.memcached;

import io.adaptivecache.contract.BadInputFuzzContract;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Random input at memcached over the text protocol: keys of at most 250 bytes, no spaces or control characters. */
class MemcachedTextBadInputFuzzIntegrationTests extends BadInputFuzzContract {

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return MemcachedCacheTemplates.builder().driver(driver()).servers(memcached.addresses()).protocol(MemcachedProtocol.TEXT).strategy(strategy)
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
