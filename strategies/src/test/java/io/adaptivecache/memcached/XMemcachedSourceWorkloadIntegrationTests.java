package io.adaptivecache.memcached;

/** The source article's workload, on the XMemcached driver. */
class XMemcachedSourceWorkloadIntegrationTests extends MemcachedSourceWorkloadIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
