package io.adaptivecache.autoconfigure.endpoint;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpointWebExtension;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code adaptivecache} endpoint, when Actuator is present and the endpoint is available, and
 * its web extension (the write operation's statuses and reasons over HTTP) when it is exposed over HTTP.
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(AdaptiveCacheSwitchers.class)
@ConditionalOnAvailableEndpoint(AdaptiveCacheEndpoint.class)
public final class AdaptiveCacheEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AdaptiveCacheEndpoint adaptiveCacheEndpoint(AdaptiveCacheSwitchers switchers, ObjectProvider<AdaptiveCacheManager> cacheManagers) {
        // Looked up on each read: the cache manager may be made after the endpoint, and its near caches on first use.
        return new AdaptiveCacheEndpoint(switchers, () -> cacheManagers.stream()
                .flatMap(manager -> manager.getNearCaches().values().stream()).map(AdaptiveCacheManager.NearCache::template).toList());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(endpoint = AdaptiveCacheEndpoint.class, exposure = EndpointExposure.WEB)
    AdaptiveCacheEndpointWebExtension adaptiveCacheEndpointWebExtension(AdaptiveCacheEndpoint endpoint) {
        return new AdaptiveCacheEndpointWebExtension(endpoint);
    }
}
