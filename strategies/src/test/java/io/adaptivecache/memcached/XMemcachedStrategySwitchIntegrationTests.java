package io.adaptivecache.memcached;

/** Switching under load, connection bounds and bounded direct memory, on the XMemcached driver. */
class XMemcachedStrategySwitchIntegrationTests extends MemcachedStrategySwitchIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
