package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What the starter reaches by name or reflection, for a native image (registered in
 * {@code META-INF/spring/aot.factories}). The properties classes need nothing here: Spring Boot
 * registers every {@code @ConfigurationProperties} bean's binding. By name rather than by class,
 * so that a hint for an optional dependency costs nothing when the application leaves it out.
 */
class AdaptiveCacheRuntimeHints implements RuntimeHintsRegistrar {

    /** Netty's probes of its native transports, whose isAvailable and unavailabilityCause RedisTransport invokes reflectively. */
    static final List<String> NETTY_TRANSPORT_PROBES = List.of("io.netty.channel.epoll.Epoll", "io.netty.channel.uring.IoUring");

    /** Classes whose presence the starter checks by name (Class.forName or ClassUtils.isPresent) to tell optional dependencies apart. */
    static final List<String> PRESENCE_CHECKS = List.of("com.github.benmanes.caffeine.cache.Caffeine",
            "net.rubyeye.xmemcached.XMemcachedClientBuilder", "net.rubyeye.xmemcached.MemcachedClient", "net.spy.memcached.MemcachedClient",
            "org.apache.commons.pool2.impl.GenericObjectPool", "redis.clients.jedis.Jedis", "io.lettuce.core.RedisClient");

    /** The interface the weighted ketama factory implements as a JDK proxy, calling the delegate's methods reflectively. */
    static final String SPYMEMCACHED_CONNECTION_FACTORY = "net.spy.memcached.ConnectionFactory";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String probe : NETTY_TRANSPORT_PROBES) {
            hints.reflection().registerType(TypeReference.of(probe), type -> type
                    .withMethod("isAvailable", List.of(), ExecutableMode.INVOKE)
                    .withMethod("unavailabilityCause", List.of(), ExecutableMode.INVOKE));
        }
        PRESENCE_CHECKS.forEach(name -> hints.reflection().registerType(TypeReference.of(name)));
        hints.reflection().registerType(TypeReference.of(SPYMEMCACHED_CONNECTION_FACTORY), MemberCategory.INVOKE_PUBLIC_METHODS);
        hints.proxies().registerJdkProxy(TypeReference.of(SPYMEMCACHED_CONNECTION_FACTORY));
        // The JSON serializer loads a value's recorded class by name and Jackson builds it: the JDK's basic ones are
        // known here; the application's own are not (see docs/aot.md: @RegisterReflectionForBinding).
        JsonCacheValueSerializer.basicTypes().forEach(name -> hints.reflection().registerType(TypeReference.of(name),
                MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS, MemberCategory.INVOKE_PUBLIC_METHODS));
    }
}
