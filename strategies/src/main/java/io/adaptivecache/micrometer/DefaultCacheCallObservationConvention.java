package io.adaptivecache.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of cache-call observations: the name {@value #NAME}, the contextual
 * (span) name {@code "<command> <template>"} such as {@code "get redis"}, and the low-cardinality
 * key values {@code backend}, {@code template}, {@code command}, {@code strategy} (SINGLE, MULTI or
 * POOLED) and {@code outcome} (success, miss, error, degraded or rejected). No high-cardinality
 * key value: a key or a value never becomes a tag.
 */
public class DefaultCacheCallObservationConvention implements CacheCallObservationConvention {

    /** The observation's name. */
    public static final String NAME = "adaptive.cache.call";

    /** The default convention. */
    public static final DefaultCacheCallObservationConvention INSTANCE = new DefaultCacheCallObservationConvention();

    // Until the call completes there is no outcome; the tag is replaced when the observation stops.
    private static final String RUNNING = "running";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(CacheCallContext context) {
        return context.getCommand().tag() + " " + context.getTemplate();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(CacheCallContext context) {
        CacheCallContext.Outcome outcome = context.getOutcome();
        return KeyValues.of(
                KeyValue.of(CacheCallObservationDocumentation.LowCardinalityKeys.BACKEND.asString(), context.getBackend()),
                KeyValue.of(CacheCallObservationDocumentation.LowCardinalityKeys.TEMPLATE.asString(), context.getTemplate()),
                KeyValue.of(CacheCallObservationDocumentation.LowCardinalityKeys.COMMAND.asString(), context.getCommand().tag()),
                KeyValue.of(CacheCallObservationDocumentation.LowCardinalityKeys.STRATEGY.asString(), context.getStrategy().name()),
                KeyValue.of(CacheCallObservationDocumentation.LowCardinalityKeys.OUTCOME.asString(),
                        outcome == null ? RUNNING : outcome.tag()));
    }
}
