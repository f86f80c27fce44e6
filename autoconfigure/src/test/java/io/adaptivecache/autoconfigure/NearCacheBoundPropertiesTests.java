package io.adaptivecache.autoconfigure;

import io.adaptivecache.near.NearCacheSettings;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * A Spring cache's near cache is bounded by entries and by bytes at once, by default too, so that
 * a few large values written by other clients cannot fill the heap.
 */
class NearCacheBoundPropertiesTests {

    private final AdaptiveCacheSpringCacheProperties.Near near = new AdaptiveCacheSpringCacheProperties.Near();

    @Test
    void theDefaultsShouldBoundBothEntriesAndBytes() {
        NearCacheSettings settings = near.settingsFor("users", "app:users:");
        assertThat(settings.maximumEntries()).isEqualTo(10_000);
        assertThat(settings.maximumWeightBytes()).isEqualTo(64L * 1024 * 1024);
    }

    @Test
    void thePropertyDefaultsShouldBeTheCoresDefaults() {
        AdaptiveCacheSpringCacheProperties.Near defaults = new AdaptiveCacheSpringCacheProperties.Near();
        assertThat(defaults.getMaximumEntries()).isEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_ENTRIES);
        assertThat(defaults.getMaximumWeight().toBytes()).isEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_WEIGHT_BYTES);
    }

    @Test
    void aCachesOwnBoundShouldReplaceThatBoundOnlyAndBothMayBeSet() {
        AdaptiveCacheSpringCacheProperties.NearCache products = new AdaptiveCacheSpringCacheProperties.NearCache();
        products.setMaximumEntries(50L);
        AdaptiveCacheSpringCacheProperties.NearCache images = new AdaptiveCacheSpringCacheProperties.NearCache();
        images.setMaximumWeight(DataSize.ofMegabytes(1));
        AdaptiveCacheSpringCacheProperties.NearCache both = new AdaptiveCacheSpringCacheProperties.NearCache();
        both.setMaximumEntries(7L);
        both.setMaximumWeight(DataSize.ofKilobytes(7));
        near.getCaches().put("products", products);
        near.getCaches().put("images", images);
        near.getCaches().put("both", both);
        assertThatCode(() -> near.validate("adaptive-cache.cache.near")).doesNotThrowAnyException();

        assertThat(near.settingsFor("products", "p:").maximumEntries()).isEqualTo(50);
        assertThat(near.settingsFor("products", "p:").maximumWeightBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(near.settingsFor("images", "i:").maximumEntries()).isEqualTo(10_000);
        assertThat(near.settingsFor("images", "i:").maximumWeightBytes()).isEqualTo(1024L * 1024);
        assertThat(near.settingsFor("both", "b:").maximumEntries()).isEqualTo(7);
        assertThat(near.settingsFor("both", "b:").maximumWeightBytes()).isEqualTo(7L * 1024);
    }
}
