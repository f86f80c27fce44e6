/**
 * Auto-configuration of the Spring Data Redis connection factory over the Redis template's connections.
 */
@NullMarked
package io.adaptivecache.autoconfigure.data.redis;

import org.jspecify.annotations.NullMarked;
