/**
 * Protection around every call of a template: the {@link io.adaptivecache.resilience.CallGuard}
 * SPI the template calls through, and its Resilience4j implementation (circuit breaker, retry
 * of reads, bulkhead). The only package that imports Resilience4j, which is optional.
 */
@NullMarked
package io.adaptivecache.resilience;

import org.jspecify.annotations.NullMarked;
