package io.adaptivecache.benchmarks.http.app;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.adaptivecache.redis.RedisTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AppVariantTests {

    private static final ClassLoader LOADER = AppVariantTests.class.getClassLoader();

    @Test
    void bootsVariantsHaveNoneOfAdaptiveCachesAutoConfigurationsAndBootsPoolOnlyWhenAskedFor() {
        Map<String, Object> defaults = AppVariant.SPRING_DEFAULTS.properties(LOADER);
        Map<String, Object> pool = AppVariant.SPRING_POOL.properties(LOADER);

        for (Map<String, Object> properties : List.of(defaults, pool)) {
            List<String> excluded = excluded(properties);
            assertThat(excluded).contains("io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration",
                    "io.adaptivecache.autoconfigure.cache.AdaptiveCacheSpringCacheAutoConfiguration")
                    .allMatch(name -> name.startsWith("io.adaptivecache."));
            assertThat(properties).containsEntry("spring.data.redis.host", "${items.redis.host}")
                    .containsEntry("spring.data.redis.port", "${items.redis.port}").containsEntry("spring.cache.type", "redis")
                    .doesNotContainKey("adaptive-cache.redis.url");
        }
        assertThat(defaults).containsEntry("spring.data.redis.lettuce.pool.enabled", "false");
        assertThat(pool).containsEntry("spring.data.redis.lettuce.pool.enabled", "true");
    }

    @Test
    void adaptiveCachesVariantsHaveOnlyTheServersAddressAndNoneOfBootsRedisAutoConfigurations() {
        Map<String, Object> adaptive = AppVariant.ADAPTIVE.properties(LOADER);
        Map<String, Object> near = AppVariant.ADAPTIVE_NEAR.properties(LOADER);

        for (Map<String, Object> properties : List.of(adaptive, near)) {
            assertThat(excluded(properties)).contains("org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
                    .allMatch(name -> name.startsWith("org.springframework.boot.data.redis."));
            assertThat(properties).containsEntry("adaptive-cache.redis.url", "redis://${items.redis.host}:${items.redis.port}")
                    .containsEntry("adaptive-cache.memcached.enabled", "false")
                    .doesNotContainKeys("spring.data.redis.host", "spring.cache.type");
            assertThat(properties.keySet()).filteredOn(name -> name.startsWith("adaptive-cache.redis."))
                    .containsExactly("adaptive-cache.redis.url");
        }
        assertThat(adaptive).doesNotContainKey("adaptive-cache.cache.near.enabled");
        assertThat(near).containsEntry("adaptive-cache.cache.near.enabled", "true");
    }

    @Test
    void bootsVariantsRunLettuceOnNioAsTheirStarterAloneWould() {
        assertThat(AppVariant.SPRING_DEFAULTS.fixedTransport()).isEqualTo(RedisTransport.NIO);
        assertThat(AppVariant.SPRING_POOL.fixedTransport()).isEqualTo(RedisTransport.NIO);
        assertThat(AppVariant.ADAPTIVE.fixedTransport()).isNull();
        assertThat(AppVariant.ADAPTIVE_NEAR.fixedTransport()).isNull();
    }

    @Test
    void theVariantIsChosenByAnArgument() {
        assertThat(AppVariant.fromArguments(new String[] { "--server.port=0", "--items.variant=adaptive-near" }))
                .isEqualTo(AppVariant.ADAPTIVE_NEAR);
        assertThatIllegalArgumentException().isThrownBy(() -> AppVariant.fromArguments(new String[] { "--server.port=0" }))
                .withMessageContaining("--items.variant=");
        assertThatIllegalArgumentException().isThrownBy(() -> AppVariant.of("lettuce")).withMessageContaining("spring-defaults");
    }

    private static List<String> excluded(Map<String, Object> properties) {
        return Arrays.asList(((String) properties.get("spring.autoconfigure.exclude")).split(","));
    }
}
