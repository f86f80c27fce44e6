/**
 * The user API of adaptive-cache: {@link io.adaptivecache.CacheTemplate}, its typed view
 * {@link io.adaptivecache.CacheOperations}, value codecs and the exceptions a caller can act on.
 * Nothing here depends on Spring or on a particular cache client.
 */
@NullMarked
package io.adaptivecache;

import org.jspecify.annotations.NullMarked;
