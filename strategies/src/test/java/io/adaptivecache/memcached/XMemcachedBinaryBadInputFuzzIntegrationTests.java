package io.adaptivecache.memcached;

/** The bad-input fuzz over the binary protocol, on the XMemcached driver. */
class XMemcachedBinaryBadInputFuzzIntegrationTests extends MemcachedBinaryBadInputFuzzIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
