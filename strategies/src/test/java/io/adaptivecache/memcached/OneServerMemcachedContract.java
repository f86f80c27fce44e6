package io.adaptivecache.memcached;

import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The memcached contract on one server; a subclass picks the protocol (and the XMemcached ones the
 * driver). Each test class starts the server before its tests and stops it after them, so the
 * classes sharing this field never share a running server.
 */
abstract class OneServerMemcachedContract extends MemcachedTemplateContract {

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
}
