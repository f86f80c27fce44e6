/**
 * Real {@code redis-server} and {@code memcached} processes on free loopback ports, and a
 * delaying TCP proxy, in plain Java: the sample starts them at run time, and the test-servers
 * module wraps them in JUnit 5 extensions (same package, so tests import them unchanged).
 */
package io.adaptivecache.testservers;
