package io.adaptivecache.memcached;

/** The bad-input fuzz over the text protocol, on the XMemcached driver. */
class XMemcachedTextBadInputFuzzIntegrationTests extends MemcachedTextBadInputFuzzIntegrationTests {

    @Override
    protected MemcachedDriver driver() {
        return MemcachedDriver.XMEMCACHED;
    }
}
