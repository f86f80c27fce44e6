package io.adaptivecache.memcached;

/**
 * The memcached client library a template's connections run on, for every strategy: both
 * clients are thread-safe, so SINGLE, MULTI and POOLED each hold clients of the one driver.
 */
public enum MemcachedDriver {

    /**
     * spymemcached: each operation is queued to the client's I/O thread and completes a future,
     * so the template's async calls return at once and wait for nothing.
     */
    SPYMEMCACHED,

    /**
     * XMemcached: each call writes through the client's NIO reactor and the caller waits for the
     * reply. Measured on this project's 2-core machine it reached about 1.2–1.3x spymemcached's
     * throughput at 8 to 200 caller threads on loopback; behind a 1 ms link the two are level.
     * The template's async calls complete before they return.
     */
    XMEMCACHED;

    /**
     * Whether this driver authenticates with SASL: XMemcached's SASL did not authenticate
     * against memcached's own (sasldb) in this project's tests.
     * @return {@code true} for {@link #SPYMEMCACHED}
     */
    public boolean supportsSasl() {
        return this == SPYMEMCACHED;
    }
}
