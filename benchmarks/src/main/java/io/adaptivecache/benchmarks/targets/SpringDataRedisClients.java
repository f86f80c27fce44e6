package io.adaptivecache.benchmarks.targets;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisWrites;
import io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Spring Data Redis's {@code RedisTemplate} over a {@code LettuceConnectionFactory}, as Spring
 * Boot sets it up: String keys and {@code byte[]} values, and either Boot's default (one shared
 * native connection) or the commons-pool2 pool Boot builds from
 * {@code spring.data.redis.lettuce.pool.*} (max-active 8 by default), with the shared native
 * connection turned off so that commands really go through the pool; and the same RedisTemplate on
 * adaptive-cache's factory over a template's connections, to price that factory against Boot's.
 */
final class SpringDataRedisClients {

    private SpringDataRedisClients() {
    }

    /** Boot's default: one shared native connection. */
    static LoadedClient shared(String host, int port, Duration timeout) {
        return open(host, port, LettuceClientConfiguration.builder().commandTimeout(timeout).build(), true);
    }

    /** The commons-pool2 pool, borrowed for every command. */
    static LoadedClient pooled(String host, int port, int size, Duration timeout) {
        LettuceClientConfiguration configuration = LettucePoolingClientConfiguration.builder().commandTimeout(timeout)
                .poolConfig(BenchPools.fixedSize(size, timeout)).build();
        return open(host, port, configuration, false);
    }

    /**
     * The same RedisTemplate on the adaptive-cache factory over a template's connections (what
     * {@code adaptive-cache.redis.spring-data.enabled} registers), the template on the strategy given.
     */
    static LoadedClient adaptive(ManagedCacheTemplate cacheTemplate) {
        AdaptiveRedisConnectionFactory factory = new AdaptiveRedisConnectionFactory(cacheTemplate);
        // The cache template owns the connections: closing it closes them; they count their commands and writes.
        return client(factory, cacheTemplate::close, () -> RedisWrites.of(cacheTemplate));
    }

    private static LoadedClient open(String host, int port, LettuceClientConfiguration configuration, boolean shareNativeConnection) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port), configuration);
        factory.setShareNativeConnection(shareNativeConnection);
        factory.afterPropertiesSet();
        factory.start();
        return client(factory, factory::destroy, Optional::empty);
    }

    private static LoadedClient client(RedisConnectionFactory factory, Runnable close, Supplier<Optional<RedisWrites>> writes) {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(factory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.afterPropertiesSet();
        ValueOperations<String, byte[]> values = template.opsForValue();
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return values.get(key);
            }

            @Override
            public void set(String key, byte[] value) {
                values.set(key, value);
            }

            @Override
            public Optional<RedisWrites> redisWrites() {
                return writes.get();
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }
}
