/** Auto-configuration of the cache templates' Micrometer meters. */
@NullMarked
package io.adaptivecache.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
