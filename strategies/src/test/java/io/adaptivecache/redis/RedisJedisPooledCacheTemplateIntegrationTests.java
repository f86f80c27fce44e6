package io.adaptivecache.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Redis template test with Jedis as the POOLED driver: the POOLED cases run on blocking
 * Jedis connections, the others on Lettuce; plus values, CAS tokens and TTLs carried across a
 * switch between the two drivers.
 */
class RedisJedisPooledCacheTemplateIntegrationTests extends RedisCacheTemplateIntegrationTests {

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).pooledDriver(RedisDriver.JEDIS).strategy(strategy).start();
    }

    @Test
    void asyncFormsShouldNeverBlockTheirCallerWhileTheBlockingPoolServesTheSynchronousOnes() {
        start(StrategySpec.pooled(new PoolSettings(2, 2, 1, Duration.ofMillis(500))));
        assertThat(template.stats().openConnections()).as("the pool's idle connection and the async lane, opened with it").isEqualTo(2);
        template.set(key("k"), new byte[] {1}, Duration.ZERO);
        assertThat(template.get(key("k"))).containsExactly(1);
        int open = template.stats().openConnections();

        CompletableFuture<byte[]> pending;
        redis.server().freeze();
        try {
            // On a blocking Jedis connection this call would return only once the reply (or the timeout) came.
            pending = template.getAsync(key("k"));
            assertThat(pending).as("an ...Async call returns before the frozen server answers").isNotDone();
        }
        finally {
            redis.server().thaw();
        }

        assertThat(pending.join()).containsExactly(1);
        assertThat(template.stats().openConnections()).as("no connection opened for the async call").isEqualTo(open);
        template.switchStrategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        assertThat(template.stats().openConnections()).as("the lane closes with the blocking pool").isEqualTo(2);
        assertThat(template.getAsync(key("k")).join()).containsExactly(1);
    }

    @Test
    void valuesTokensAndTtlsShouldCarryAcrossASwitchBetweenDrivers() {
        start(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        template.set(key("carried"), new byte[] {1}, Duration.ofMinutes(5));
        CasValue<byte[]> readOnLettuce = template.gets(key("carried"));

        template.switchStrategy(StrategySpec.pooled(PoolSettings.ofSize(2)));

        assertThat(template.get(key("carried"))).containsExactly(1);
        assertThat(template.cas(key("carried"), readOnLettuce.token(), new byte[] {2}, Duration.ofMinutes(5)))
                .as("a token read on Lettuce, spent on Jedis").isEqualTo(CasResult.STORED);
        assertThat(Long.parseLong(redis.server().command("PTTL", key("carried")))).isBetween(1L, 300_000L);
        CasValue<byte[]> readOnJedis = template.gets(key("carried"));

        template.switchStrategy(StrategySpec.single());

        assertThat(template.cas(key("carried"), readOnJedis.token(), new byte[] {3}, Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(template.get(key("carried"))).containsExactly(3);
    }
}
