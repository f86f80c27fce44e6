/**
 * What the benchmark measures: adaptive-cache's {@code CacheTemplate} with each strategy, the
 * same strategies written by hand on lettuce-core and spymemcached, and the clients users would
 * pick instead (Spring Data Redis, Jedis, XMemcached), each adapted to one small interface.
 */
package io.adaptivecache.benchmarks.targets;
