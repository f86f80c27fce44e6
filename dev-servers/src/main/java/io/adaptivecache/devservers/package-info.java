/**
 * Real {@code redis-server} and {@code memcached} processes on free loopback ports, and a
 * delaying TCP proxy, in plain Java: the sample starts them at run time, and the test-servers
 * module wraps them in JUnit 5 extensions ({@code io.adaptivecache.testservers}). Each jar has
 * its own package, so no package is split across the two.
 */
package io.adaptivecache.devservers;
