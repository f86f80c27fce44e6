package io.adaptivecache.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A properties section bound through its constructor is not bound at all when none of its
 * properties is set: a JavaBean properties class then keeps the section it started with. That section
 * must be the one the binder makes from the {@code @DefaultValue} annotations when it is bound,
 * which is checked here by setting one property of each section to its own default, so that the
 * binder builds the section (every other value from the annotations), and comparing it, nested
 * sections and all, with the section a properties class starts with.
 */
class PropertySectionDefaultsTests {

    @Test
    void aTemplateSectionThatIsNotBoundShouldEqualOneBoundFromItsDefaults() {
        AdaptiveCacheRedisProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                "adaptive-cache.redis.strategy.type", "adaptive", "adaptive-cache.redis.adaptive.mode", "auto",
                "adaptive-cache.redis.resilience.on-failure", "fail-fast")))
                .bindOrCreate("adaptive-cache.redis", AdaptiveCacheRedisProperties.class);
        AdaptiveCacheRedisProperties initial = new AdaptiveCacheRedisProperties();
        assertThat(bound.getStrategy()).isNotSameAs(initial.getStrategy()).isEqualTo(initial.getStrategy());
        assertThat(bound.getAdaptive()).isNotSameAs(initial.getAdaptive()).isEqualTo(initial.getAdaptive());
        assertThat(bound.getResilience()).isNotSameAs(initial.getResilience()).isEqualTo(initial.getResilience());
    }

    @Test
    void aRedisClusterSectionThatIsNotBoundShouldEqualOneBoundFromItsDefaults() {
        // max-redirects makes the binder build the cluster section, its refresh and node-breaker sections from their annotations.
        AdaptiveCacheRedisProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                "adaptive-cache.redis.cluster.max-redirects", "5")))
                .bindOrCreate("adaptive-cache.redis", AdaptiveCacheRedisProperties.class);
        AdaptiveCacheRedisProperties initial = new AdaptiveCacheRedisProperties();
        assertThat(bound.getCluster()).isNotSameAs(initial.getCluster()).isEqualTo(initial.getCluster());
        assertThat(initial.getCluster().nodes()).isEmpty();
    }

    @Test
    void aRedisSslSectionThatIsNotBoundShouldSetNothing() {
        // The ssl section has no defaults: a value in it would count as a connection setting and hide spring.data.redis.*.
        AdaptiveCacheRedisProperties initial = new AdaptiveCacheRedisProperties();
        assertThat(initial.getSsl()).isEqualTo(new AdaptiveCacheRedisProperties.Ssl(null, null));
        assertThat(initial.hasConnectionSettings()).isFalse();
    }

    @Test
    void springCachePropertiesBoundFromNothingShouldHaveAnEmptyKeyPrefixAndNoEntries() {
        // An empty @DefaultValue must bind to an empty prefix, not to null (which a key would spell "null").
        AdaptiveCacheSpringCacheProperties defaults = PropertyDefaults.of(AdaptiveCacheSpringCacheProperties.class);
        assertThat(defaults.keyPrefix()).isEmpty();
        assertThat(defaults.ttl()).isEmpty();
        assertThat(defaults.backends()).isEmpty();
        assertThat(defaults.json().allowedPackages()).isEmpty();
        assertThat(defaults.near().caches()).isEmpty();
    }
}
