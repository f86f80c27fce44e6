package io.adaptivecache.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of Micrometer Observations of cache calls (spans with tracing), for an application
 * that has an ObservationRegistry ({@code adaptive-cache.observations}).
 */
@ConfigurationProperties("adaptive-cache.observations")
public class AdaptiveCacheObservationProperties {

    /**
     * Whether each cache-template call is a Micrometer Observation named adaptive.cache.call (a span with tracing), tagged
     * backend, template, command, strategy and outcome, never a key or a value. Off, calls create no observation.
     */
    private boolean enabled;

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
