package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
import io.adaptivecache.memcached.MemcachedProtocol;
import io.adaptivecache.memcached.MemcachedServerAddress;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/** The memcached template, when spymemcached or XMemcached is present. */
@Configuration(proxyBeanMethods = false)
@Conditional(MemcachedCacheTemplateConfiguration.OnMemcachedClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.memcached.enabled", matchIfMissing = true)
class MemcachedCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.memcached";

    @Bean(AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE)
    DefaultCacheTemplate<?> memcachedCacheTemplate(AdaptiveCacheProperties properties,
            ObjectProvider<MemcachedConnectionFactoryCustomizer> factoryCustomizers,
            ObjectProvider<XMemcachedClientBuilderCustomizer> xmemcachedCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards, ResourceLoader resourceLoader) {
        AdaptiveCacheProperties.Memcached memcached = properties.getMemcached();
        MemcachedDriver driver = driver(memcached.getDriver(), resourceLoader.getClassLoader());
        MemcachedCacheTemplates.Builder builder = MemcachedCacheTemplates.builder().name("memcached").driver(driver)
                .servers(servers(memcached.getServers())).protocol(memcached.getProtocol())
                .strategy(StrategySpecs.initial(PREFIX, memcached))
                .poolConfig(PoolCustomizers.forTemplate("memcached", poolCustomizers));
        // Each driver's customizers name its own classes; only the chosen driver's are touched.
        if (driver == MemcachedDriver.XMEMCACHED) {
            XMemcachedCustomizers.apply(builder, xmemcachedCustomizers);
        }
        else {
            SpymemcachedCustomizers.apply(builder, factoryCustomizers);
        }
        RedisCacheTemplateConfiguration.resilience(builder, "memcached", PREFIX, memcached, guards);
        RedisCacheTemplateConfiguration.positive(PREFIX + ".operation-timeout", memcached.getOperationTimeout(),
                builder::operationTimeout);
        RedisCacheTemplateConfiguration.positive(PREFIX + ".connect-timeout", memcached.getConnectTimeout(), builder::connectTimeout);
        RedisCacheTemplateConfiguration.positive(PREFIX + ".drain-timeout", memcached.getDrainTimeout(), builder::drainTimeout);
        StrategySpecs.property(PREFIX + ".max-reconnect-delay", memcached.getMaxReconnectDelay(), "it must be at least 1s",
                () -> builder.maxReconnectDelay(memcached.getMaxReconnectDelay()));
        StrategySpecs.property(PREFIX + ".operation-queue-size", memcached.getOperationQueueSize(), "it must be at least 1",
                () -> builder.operationQueueSize(memcached.getOperationQueueSize()));
        int itemSizeMax = RedisCacheTemplateConfiguration.bytes(PREFIX + ".item-size-max", memcached.getItemSizeMax());
        StrategySpecs.property(PREFIX + ".item-size-max", memcached.getItemSizeMax(), "it must be at least 1KB",
                () -> builder.itemSizeMax(itemSizeMax));
        if (memcached.getUsername() != null) {
            if (memcached.getProtocol() != MemcachedProtocol.BINARY) {
                throw new InvalidAdaptiveCachePropertyException(PREFIX + ".protocol", memcached.getProtocol(),
                        "SASL authentication (" + PREFIX + ".username) needs the binary protocol");
            }
            if (driver == MemcachedDriver.XMEMCACHED) {
                throw new InvalidAdaptiveCachePropertyException(PREFIX + ".driver", "xmemcached",
                        "SASL authentication (" + PREFIX + ".username) needs the spymemcached driver");
            }
            builder.credentials(memcached.getUsername(), memcached.getPassword() != null ? memcached.getPassword() : "");
        }
        return builder.build();
    }

    private static MemcachedDriver driver(MemcachedDriver driver, ClassLoader classLoader) {
        MemcachedDriver chosen = driver != null ? driver : MemcachedDriver.SPYMEMCACHED;
        String clientClass = chosen == MemcachedDriver.XMEMCACHED ? "net.rubyeye.xmemcached.MemcachedClient"
                : "net.spy.memcached.MemcachedClient";
        if (!ClassUtils.isPresent(clientClass, classLoader)) {
            // No default uses XMemcached, so an application may have left it out: say what to add.
            String needs = chosen == MemcachedDriver.XMEMCACHED
                    ? "it needs com.googlecode.xmemcached:xmemcached on the classpath: add that dependency to the application "
                            + "to use XMemcached"
                    : "it needs net.spy:spymemcached on the classpath (the starter brings it)";
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".driver", chosen.name().toLowerCase(java.util.Locale.ROOT), needs);
        }
        return chosen;
    }

    private static List<MemcachedServerAddress> servers(List<String> servers) {
        if (servers == null || servers.isEmpty()) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".servers", servers,
                    "it must list at least one server as host:port or host:port:weight");
        }
        List<MemcachedServerAddress> addresses = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            String entry = servers.get(i).trim();
            try {
                addresses.add(MemcachedServerAddress.parse(entry));
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidAdaptiveCachePropertyException(PREFIX + ".servers[" + i + "]", entry,
                        "it must be host:port or host:port:weight with a port from 1 to 65535 and a weight of at least 1");
            }
        }
        return addresses;
    }

    /**
     * Hands the XMemcached customizers to the builder. A class of its own because the lambda's
     * synthetic method names XMemcached's builder: in the configuration class itself, Spring's
     * introspection of its methods would fail without XMemcached on the class path.
     */
    private static final class XMemcachedCustomizers {

        static void apply(MemcachedCacheTemplates.Builder builder, ObjectProvider<XMemcachedClientBuilderCustomizer> customizers) {
            builder.xmemcachedClient(client -> customizers.orderedStream().forEach(customizer -> customizer.customize(client)));
        }
    }

    /** Hands the spymemcached customizers to the builder; a class of its own for the same reason, without spymemcached. */
    private static final class SpymemcachedCustomizers {

        static void apply(MemcachedCacheTemplates.Builder builder, ObjectProvider<MemcachedConnectionFactoryCustomizer> customizers) {
            builder.connectionFactory(factory -> customizers.orderedStream().forEach(customizer -> customizer.customize(factory)));
        }
    }

    /** Either memcached client library on the classpath. */
    static final class OnMemcachedClient extends AnyNestedCondition {

        OnMemcachedClient() {
            super(ConfigurationPhase.PARSE_CONFIGURATION);
        }

        @ConditionalOnClass(name = "net.spy.memcached.MemcachedClient")
        static final class Spymemcached {
        }

        @ConditionalOnClass(name = "net.rubyeye.xmemcached.MemcachedClient")
        static final class XMemcached {
        }
    }
}
