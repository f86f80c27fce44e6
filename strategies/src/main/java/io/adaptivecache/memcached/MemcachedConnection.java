package io.adaptivecache.memcached;

import org.jspecify.annotations.Nullable;

/**
 * One connection of a memcached template: a spymemcached or an XMemcached client (both
 * thread-safe, each with one socket per server), as the template's {@link MemcachedDriver}
 * says. Exactly one of the two is set.
 */
public final class MemcachedConnection {

    private final net.spy.memcached.@Nullable MemcachedClient spymemcached;
    private final net.rubyeye.xmemcached.@Nullable MemcachedClient xmemcached;

    private MemcachedConnection(net.spy.memcached.@Nullable MemcachedClient spymemcached,
            net.rubyeye.xmemcached.@Nullable MemcachedClient xmemcached) {
        this.spymemcached = spymemcached;
        this.xmemcached = xmemcached;
    }

    static MemcachedConnection of(net.spy.memcached.MemcachedClient client) {
        return new MemcachedConnection(client, null);
    }

    static MemcachedConnection of(net.rubyeye.xmemcached.MemcachedClient client) {
        return new MemcachedConnection(null, client);
    }

    /**
     * The spymemcached client of a template on {@link MemcachedDriver#SPYMEMCACHED}.
     * @return the client, or {@code null} on XMemcached
     */
    public net.spy.memcached.@Nullable MemcachedClient spymemcached() {
        return this.spymemcached;
    }

    /**
     * The XMemcached client of a template on {@link MemcachedDriver#XMEMCACHED}.
     * @return the client, or {@code null} on spymemcached
     */
    public net.rubyeye.xmemcached.@Nullable MemcachedClient xmemcached() {
        return this.xmemcached;
    }

    /**
     * The driver behind this connection.
     * @return SPYMEMCACHED or XMEMCACHED
     */
    public MemcachedDriver driver() {
        return this.xmemcached != null ? MemcachedDriver.XMEMCACHED : MemcachedDriver.SPYMEMCACHED;
    }

    @Override
    public String toString() {
        return driver() + "[" + (this.xmemcached != null ? this.xmemcached : this.spymemcached) + "]";
    }
}
