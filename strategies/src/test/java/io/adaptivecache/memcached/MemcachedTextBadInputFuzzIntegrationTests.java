package io.adaptivecache.memcached;

/** Random input at memcached over the text protocol: keys of at most 250 bytes, no spaces or control characters. */
class MemcachedTextBadInputFuzzIntegrationTests extends MemcachedBadInputFuzzContract {

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.TEXT;
    }
}
