package io.adaptivecache.benchmarks.targets;

import java.util.List;

import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The template a Spring Boot service gets from the starter: a Spring Boot context started in this
 * JVM with every auto-configuration on the class path (the starter's, Actuator's and Micrometer's,
 * with Boot's {@code SimpleMeterRegistry}), and nothing set but the server's address, so that the
 * strategy, the switcher's timings and policy, the timeouts, the resilience guards and the Redis
 * transport are the production defaults. Calls go through the context's {@code CacheTemplate}
 * bean; settling, the live strategy and the switches are read from the switcher the context
 * started for it. Closing the client closes the context, which closes the template.
 */
final class BootDefaultClient extends AdaptiveTemplateClient {

    private final ConfigurableApplicationContext context;

    private BootDefaultClient(ConfigurableApplicationContext context, ManagedCacheTemplate template, StrategySwitcher switcher) {
        super(template, switcher);
        this.context = context;
    }

    /**
     * Starts a context on one server and takes its template.
     * @param backend Redis or memcached
     * @param host the server's host
     * @param port its port
     * @return the client
     */
    static BootDefaultClient open(Backend backend, String host, int port) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Service.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false).run(arguments(backend, host, port).toArray(String[]::new));
        try {
            String bean = backend == Backend.REDIS ? AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE
                    : AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE;
            ManagedCacheTemplate template = context.getBean(bean, ManagedCacheTemplate.class);
            StrategySwitcher switcher = context.getBean(StrategySwitchers.class).get(template.name());
            if (switcher == null) {
                throw new IllegalStateException("The context started template '" + template.name() + "' without a switcher");
            }
            return new BootDefaultClient(context, template, switcher);
        }
        catch (RuntimeException ex) {
            context.close();
            throw ex;
        }
    }

    /**
     * What the service's application.yml says, as command-line properties: the server's address
     * and nothing else, but for turning the Redis template off beside a memcached one. The starter
     * brings Lettuce, so a service on memcached alone gets a Redis template on localhost:6379
     * unless it says so; that one is not ours to connect to, and it would run a switcher of its own.
     * @param backend Redis or memcached
     * @param host the server's host
     * @param port its port
     * @return the arguments
     */
    static List<String> arguments(Backend backend, String host, int port) {
        return switch (backend) {
            case REDIS -> List.of("--adaptive-cache.redis.url=redis://" + host + ":" + port);
            case MEMCACHED -> List.of("--adaptive-cache.memcached.servers=" + host + ":" + port, "--adaptive-cache.redis.enabled=false");
            default -> throw new IllegalArgumentException("No Boot-built default template on " + backend.label());
        };
    }

    /** @return the service's context, for tests that check it is the typical service it stands for */
    ConfigurableApplicationContext context() {
        return this.context;
    }

    @Override
    public void close() {
        // The context closes the template, and with it the switcher the template started.
        this.context.close();
    }

    /** The service: auto-configuration only, no component scan. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Service {
    }
}
