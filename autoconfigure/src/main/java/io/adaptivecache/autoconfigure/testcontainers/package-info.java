/** Memcached connection details from a Testcontainers container, for Spring Boot's {@code @ServiceConnection}. */
@NullMarked
package io.adaptivecache.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
