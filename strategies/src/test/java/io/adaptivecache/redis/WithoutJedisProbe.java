package io.adaptivecache.redis;

import io.adaptivecache.contract.EveryStrategyProbe;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

import static io.adaptivecache.contract.EveryStrategyProbe.check;

/**
 * Run by {@link RedisWithoutJedisIntegrationTests} in a JVM whose class path lacks Jedis: serves
 * every command on a Lettuce template through each strategy. Prints one line per finding; exit 0
 * when every step went as expected, 1 otherwise (with the failure printed).
 */
public final class WithoutJedisProbe {

    private WithoutJedisProbe() {
    }

    /**
     * @param args the Redis URI
     */
    public static void main(String[] args) {
        EveryStrategyProbe.mainWithout(args, "jedis", "redis.clients.jedis.Jedis", WithoutJedisProbe::probe);
    }

    private static void probe(String uri) throws Exception {
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(uri).strategy(StrategySpec.single()).start()) {
            EveryStrategyProbe.serveEveryCommand(template, "no-jedis:",
                    served -> check(!served.stats().pooledConnectionsBlock(), "POOLED on Lettuce"));
        }
    }
}
