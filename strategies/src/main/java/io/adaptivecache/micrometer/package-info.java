/**
 * Micrometer meters of a template under {@code adaptive.cache.*}, and an Observation per cache call
 * ({@link io.adaptivecache.micrometer.CacheCallObservations}); used only when micrometer-core
 * is on the classpath.
 */
@NullMarked
package io.adaptivecache.micrometer;

import org.jspecify.annotations.NullMarked;
