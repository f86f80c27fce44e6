package io.adaptivecache.memcached;

/** Random input at memcached over the binary protocol: keys of at most 250 bytes, no spaces or control characters. */
class MemcachedBinaryBadInputFuzzIntegrationTests extends MemcachedBadInputFuzzContract {

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.BINARY;
    }
}
