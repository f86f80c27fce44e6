/**
 * JUnit 5 extensions that start real {@code redis-server} and {@code memcached} processes on
 * free loopback ports, so that tests talk to a real server and never to a developer's data on
 * the default ports. The servers themselves live in {@code io.adaptivecache.devservers} (module
 * dev-servers), which has no test libraries so that the sample can start them at run time.
 */
package io.adaptivecache.testservers;
