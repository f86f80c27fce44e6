package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.contract.CacheTemplateContract;
import io.adaptivecache.contract.Strategies;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cache contract on Redis, plus what only Redis does. */
class RedisCacheTemplateIntegrationTests extends CacheTemplateContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).start();
    }

    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.server().connectedClients());
    }

    @Strategies.All
    void keysMayHoldSpacesAndControlCharactersOnRedis(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        cache.set(key("with space\r\n"), "v", Duration.ZERO);

        assertThat(cache.get(key("with space\r\n"))).isEqualTo("v");
        assertThat(cache.get(key("with space"))).isNull();
    }

    @Strategies.All
    void countersShouldGoBelowZeroOnRedis(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.decr(key("m"), 1)).isEqualTo(-1);
        cache.set(key("text"), "x", Duration.ZERO);
        assertThatThrownBy(() -> cache.incr(key("text"), 1)).isInstanceOf(CacheServerException.class)
                .hasMessageContaining("not an integer");
    }

    @Strategies.All
    void subSecondTtlsShouldBeKeptToTheMillisecond(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        cache.set(key("brief"), "v", Duration.ofMillis(150));

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> cache.get(key("brief")) == null);
    }
}
