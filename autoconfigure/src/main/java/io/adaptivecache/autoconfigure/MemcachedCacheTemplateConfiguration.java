package io.adaptivecache.autoconfigure;


import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
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
    ManagedCacheTemplate memcachedCacheTemplate(AdaptiveCacheMemcachedProperties memcached,
            ObjectProvider<MemcachedConnectionFactoryCustomizer> factoryCustomizers,
            ObjectProvider<XMemcachedClientBuilderCustomizer> xmemcachedCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            ObjectProvider<CallInterceptor> interceptors, ResourceLoader resourceLoader) {
        // The properties were checked when bound; the driver's presence depends on the classpath.
        MemcachedDriver driver = driver(memcached.getDriver(), resourceLoader.getClassLoader());
        MemcachedCacheTemplates.Builder builder = MemcachedCacheTemplates.builder().driver(driver)
                .servers(memcached.serverAddresses(PREFIX)).protocol(memcached.getProtocol());
        TemplateBuilders.applyCommon(builder, memcached, guards, poolCustomizers, interceptors);
        // Each driver's customizers name its own classes; only the chosen driver's are touched.
        if (driver == MemcachedDriver.XMEMCACHED) {
            XMemcachedCustomizers.apply(builder, xmemcachedCustomizers);
        }
        else {
            SpymemcachedCustomizers.apply(builder, factoryCustomizers);
        }
        builder.operationTimeout(memcached.getOperationTimeout());
        builder.connectTimeout(memcached.getConnectTimeout());
        builder.maxReconnectDelay(memcached.getMaxReconnectDelay());
        builder.operationQueueSize(memcached.getOperationQueueSize());
        builder.itemSizeMax((int) memcached.getItemSizeMax().toBytes());
        if (memcached.getUsername() != null) {
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
