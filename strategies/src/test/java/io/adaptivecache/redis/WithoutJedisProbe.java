package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

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
        try {
            probe(args[0]);
            System.exit(0);
        }
        catch (Throwable failure) {
            System.out.println("failed=" + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void probe(String uri) throws Exception {
        try {
            Class.forName("redis.clients.jedis.Jedis");
            System.out.println("jedis=present");
            return;
        }
        catch (ClassNotFoundException expected) {
            System.out.println("jedis=absent");
        }
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(uri).strategy(StrategySpec.single()).start()) {
            for (StrategySpec strategy : List.of(StrategySpec.single(), StrategySpec.multi(2, SelectorType.ROUND_ROBIN),
                    StrategySpec.pooled(PoolSettings.ofSize(2)))) {
                if (!strategy.equals(template.activeStrategy())) {
                    template.switchStrategy(strategy);
                }
                String key = "no-jedis:" + strategy.type();
                template.set(key, bytes("1"), Duration.ofMinutes(1));
                check(new String(template.get(key), StandardCharsets.US_ASCII).equals("1"), "get after set");
                Map<String, byte[]> both = template.getAll(List.of(key, key + ":absent"));
                check(both.keySet().equals(Set.of(key)), "getAll");
                check(!template.add(key, bytes("x"), Duration.ZERO), "add on a present key");
                check(template.replace(key, bytes("2"), Duration.ZERO), "replace on a present key");
                CasValue<byte[]> versioned = template.gets(key);
                check(template.cas(key, versioned.token(), bytes("3"), Duration.ZERO) == CasResult.STORED, "cas");
                check(template.incr(key + ":n", 7) == 7 && template.decr(key + ":n", 2) == 5, "incr and decr");
                check(template.touch(key, Duration.ofSeconds(30)), "touch");
                check(template.delete(key) && template.get(key) == null, "delete");
                check(!template.pooledConnectionsBlock(), "POOLED on Lettuce");
                System.out.println("served=" + strategy.type());
            }
        }
    }

    private static void check(boolean held, String what) {
        if (!held) {
            throw new AssertionError(what + " did not hold");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
