package io.adaptivecache.autoconfigure;

import java.util.Map;

import io.adaptivecache.near.NearCacheSettings;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * A Spring cache's near cache is bounded by entries and by bytes at once, by default too, so that
 * a few large values written by other clients cannot fill the heap.
 */
class NearCacheBoundPropertiesTests {

    private final AdaptiveCacheSpringCacheProperties.Near near = PropertyDefaults.of(AdaptiveCacheSpringCacheProperties.Near.class);

    @Test
    void theDefaultsShouldBoundBothEntriesAndBytes() {
        NearCacheSettings settings = near.settingsFor("users", "app:users:");
        assertThat(settings.maximumEntries()).isEqualTo(10_000);
        assertThat(settings.maximumWeightBytes()).isEqualTo(64L * 1024 * 1024);
    }

    @Test
    void thePropertyDefaultsShouldBeTheCoresDefaults() {
        AdaptiveCacheSpringCacheProperties.Near defaults = PropertyDefaults.of(AdaptiveCacheSpringCacheProperties.Near.class);
        assertThat(defaults.maximumEntries()).isEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_ENTRIES);
        assertThat(defaults.maximumWeight().toBytes()).isEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_WEIGHT_BYTES);
    }

    @Test
    void aCachesOwnBoundShouldReplaceThatBoundOnlyAndBothMayBeSet() {
        AdaptiveCacheSpringCacheProperties.Near near = new Binder(new MapConfigurationPropertySource(Map.of(
                "near.caches.products.maximum-entries", "50", "near.caches.images.maximum-weight", "1MB",
                "near.caches.both.maximum-entries", "7", "near.caches.both.maximum-weight", "7KB")))
                .bindOrCreate("near", AdaptiveCacheSpringCacheProperties.Near.class);
        assertThatCode(() -> near.validate("adaptive-cache.cache.near")).doesNotThrowAnyException();

        assertThat(near.settingsFor("products", "p:").maximumEntries()).isEqualTo(50);
        assertThat(near.settingsFor("products", "p:").maximumWeightBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(near.settingsFor("images", "i:").maximumEntries()).isEqualTo(10_000);
        assertThat(near.settingsFor("images", "i:").maximumWeightBytes()).isEqualTo(1024L * 1024);
        assertThat(near.settingsFor("both", "b:").maximumEntries()).isEqualTo(7);
        assertThat(near.settingsFor("both", "b:").maximumWeightBytes()).isEqualTo(7L * 1024);
    }
}
