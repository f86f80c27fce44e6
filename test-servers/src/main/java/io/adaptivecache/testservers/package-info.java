/**
 * JUnit 5 extensions that start real {@code redis-server} and {@code memcached} processes on
 * free loopback ports, so that tests talk to a real server and never to a developer's data on
 * the default ports.
 */
package io.adaptivecache.testservers;
