/** Memcached connection details from a Docker Compose service, for Spring Boot's Docker Compose support. */
@NullMarked
package io.adaptivecache.autoconfigure.docker;

import org.jspecify.annotations.NullMarked;
