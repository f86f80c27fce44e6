/**
 * Micrometer meters of a template under {@code adaptive.cache.*}; used only when micrometer-core
 * is on the classpath.
 */
package io.adaptivecache.metrics.micrometer;
