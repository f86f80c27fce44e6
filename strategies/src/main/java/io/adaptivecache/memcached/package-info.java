/**
 * The memcached backend on spymemcached: one "connection" is one {@code MemcachedClient} (one
 * NIO I/O thread and one socket per server), so SHARED(N) is an array of N clients (the
 * Venus-cache fix) and POOLED a pool of clients. XMemcached, the other driver, is optional:
 * only {@code XMemcachedBackend}, loaded when that driver is chosen, leads to its classes. Start
 * with {@link io.adaptivecache.memcached.MemcachedCacheTemplates#builder()}.
 */
@NullMarked
package io.adaptivecache.memcached;

import org.jspecify.annotations.NullMarked;
