package io.adaptivecache.management;

import io.adaptivecache.strategy.StrategySpec;

/**
 * Where a call is made, as a {@link CallInterceptor} is told: low-cardinality facts only, never a
 * key or a value.
 *
 * @param template the template's name
 * @param backendKind {@code redis} or {@code memcached}
 * @param strategy the template's live strategy when the call was made
 */
public record CallSite(String template, String backendKind, StrategySpec strategy) {
}
