package io.adaptivecache.autoconfigure.endpoint;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code adaptivecache} endpoint, when Actuator is present and the endpoint is available. */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(AdaptiveCacheSwitchers.class)
@ConditionalOnAvailableEndpoint(AdaptiveCacheEndpoint.class)
public final class AdaptiveCacheEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AdaptiveCacheEndpoint adaptiveCacheEndpoint(AdaptiveCacheSwitchers switchers) {
        return new AdaptiveCacheEndpoint(switchers);
    }
}
