package io.adaptivecache.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observations of cache calls; implement it (as a bean, with the Spring Boot
 * starter) to change them. {@link DefaultCacheCallObservationConvention} is the default.
 */
public interface CacheCallObservationConvention extends ObservationConvention<CacheCallContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof CacheCallContext;
    }
}
