/**
 * A small web application showing adaptive-cache: a read-through cache in front of a slow
 * lookup, the cache templates used directly, strategy switches, and a bounded load generator.
 */
@NullMarked
package io.adaptivecache.sample;

import org.jspecify.annotations.NullMarked;
