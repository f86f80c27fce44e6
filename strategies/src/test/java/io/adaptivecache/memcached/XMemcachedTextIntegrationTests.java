package io.adaptivecache.memcached;

/** The memcached contract on one server over the text protocol, on the XMemcached driver. */
class XMemcachedTextIntegrationTests extends MemcachedTextIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
