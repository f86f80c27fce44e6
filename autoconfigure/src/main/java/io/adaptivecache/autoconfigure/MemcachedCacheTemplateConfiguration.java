package io.adaptivecache.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
import io.adaptivecache.memcached.MemcachedServerAddress;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * The memcached template, when spymemcached or XMemcached is present and the application names its
 * servers: {@code adaptive-cache.memcached.servers}, or a {@link MemcachedConnectionDetails} bean
 * (a {@code @ServiceConnection} container, Docker Compose, or the application's own). memcached has
 * no default server: an application that uses only Redis starts without one.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(MemcachedCacheTemplateConfiguration.OnMemcachedClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.memcached.enabled", matchIfMissing = true)
class MemcachedCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.memcached";

    private static final Log logger = LogFactory.getLog(MemcachedCacheTemplateConfiguration.class);

    /**
     * The connection details from the properties. A member class, so that it is registered before
     * the template's bean method asks whether a details bean exists.
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnServersProperty.class)
    static class PropertiesConnectionDetailsConfiguration {

        @Bean
        @ConditionalOnMissingBean(MemcachedConnectionDetails.class)
        PropertiesMemcachedConnectionDetails adaptiveCacheMemcachedConnectionDetails(AdaptiveCacheMemcachedProperties memcached) {
            return new PropertiesMemcachedConnectionDetails(memcached);
        }
    }

    @Bean(AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE)
    @ConditionalOnBean(MemcachedConnectionDetails.class)
    ManagedCacheTemplate memcachedCacheTemplate(AdaptiveCacheMemcachedProperties memcached, MemcachedConnectionDetails details,
            ObjectProvider<MemcachedConnectionFactoryCustomizer> factoryCustomizers,
            ObjectProvider<XMemcachedClientBuilderCustomizer> xmemcachedCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            AdaptiveCacheSwitchers switchers,
            ObjectProvider<CallInterceptor> interceptors, ResourceLoader resourceLoader, TemplateServerSources sources) {
        // The properties were checked when bound; the driver's presence depends on the classpath.
        MemcachedDriver driver = driver(memcached.getDriver(), resourceLoader.getClassLoader());
        List<MemcachedServerAddress> servers = servers(details);
        MemcachedCacheTemplates.Builder builder = MemcachedCacheTemplates.builder().driver(driver)
                .servers(servers).protocol(memcached.getProtocol());
        TemplateBuilders.applyCommon(builder, memcached, switchers, guards, poolCustomizers, interceptors);
        // Each driver's customizers name its own classes; only the chosen driver's are touched.
        if (driver == MemcachedDriver.XMEMCACHED) {
            XMemcachedCustomizers.apply(builder, xmemcachedCustomizers);
        }
        else {
            SpymemcachedCustomizers.apply(builder, factoryCustomizers);
        }
        builder.operationTimeout(memcached.getOperationTimeout());
        builder.maxReconnectDelay(memcached.getMaxReconnectDelay());
        builder.operationQueueSize(memcached.getOperationQueueSize());
        builder.itemSizeMax((int) memcached.getItemSizeMax().toBytes());
        String username = details.getUsername();
        if (username != null) {
            saslPossible(memcached, driver);
            builder.credentials(username, details.getPassword() != null ? details.getPassword() : "");
        }
        if (logger.isInfoEnabled()) {
            // Once per template at startup; names the servers and where they came from, never the credentials.
            logger.info("adaptive-cache template '" + memcached.templateName() + "' connects to "
                    + servers.stream().map(server -> server.host() + ":" + server.port()).collect(Collectors.joining(", "))
                    + " (" + memcached.getProtocol().name().toLowerCase(Locale.ROOT) + " protocol, SASL "
                    + (username != null ? "on" : "off") + "), from " + source(details));
        }
        ManagedCacheTemplate template = builder.build();
        sources.record(template, source(details), !(details instanceof PropertiesMemcachedConnectionDetails));
        return template;
    }

    private static List<MemcachedServerAddress> servers(MemcachedConnectionDetails details) {
        List<MemcachedServerAddress> servers = details.getServers();
        if (servers == null || servers.isEmpty()) {
            throw new IllegalStateException("The memcached template's connection details (" + source(details)
                    + ") name no server; each needs at least one host and port");
        }
        return List.copyOf(servers);
    }

    /** Where the servers came from, for the startup line: the property, or the details bean's class. */
    static String source(MemcachedConnectionDetails details) {
        return details instanceof PropertiesMemcachedConnectionDetails ? PREFIX + ".servers"
                : "a " + MemcachedConnectionDetails.class.getSimpleName() + " bean (" + details.getClass().getName() + ")";
    }

    /** SASL needs the binary protocol and spymemcached; checked when bound for the properties' user, here for any details'. */
    private static void saslPossible(AdaptiveCacheMemcachedProperties memcached, MemcachedDriver driver) {
        if (!memcached.getProtocol().supportsSasl()) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".protocol", memcached.getProtocol(),
                    "the memcached connection has a SASL user, which needs the binary protocol");
        }
        if (!driver.supportsSasl()) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".driver", driver.name().toLowerCase(Locale.ROOT),
                    "the memcached connection has a SASL user, which needs the spymemcached driver");
        }
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

    /**
     * {@code adaptive-cache.memcached.servers} is set, in any form (a comma-separated value or
     * indexed entries); set but empty, it still matches, so that the template's check names it.
     */
    static final class OnServersProperty extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean set = Binder.get(context.getEnvironment()).bind(PREFIX + ".servers", Bindable.listOf(String.class)).isBound();
            return set ? ConditionOutcome.match(PREFIX + ".servers is set")
                    : ConditionOutcome.noMatch(PREFIX + ".servers is not set (memcached has no default server)");
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
