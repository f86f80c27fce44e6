package io.adaptivecache.memcached;

/** The memcached contract on three servers weighted 3,1,1, on the XMemcached driver. */
class XMemcachedRingIntegrationTests extends MemcachedRingIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
