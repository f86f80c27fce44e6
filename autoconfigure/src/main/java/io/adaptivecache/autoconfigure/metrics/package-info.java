/** Auto-configuration of the cache templates' Micrometer meters. */
package io.adaptivecache.autoconfigure.metrics;
