package io.adaptivecache.memcached;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

/**
 * Run by {@link MemcachedWithoutXMemcachedIntegrationTests} in a JVM whose class path lacks
 * XMemcached: serves every command on a spymemcached template through each strategy, then asks
 * for the XMemcached driver. Prints one line per finding; exit 0 when every step went as
 * expected, 1 otherwise (with the failure printed).
 */
public final class WithoutXMemcachedProbe {

    private WithoutXMemcachedProbe() {
    }

    /**
     * @param args the memcached server's {@code host:port}
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

    private static void probe(String servers) throws Exception {
        try {
            Class.forName("net.rubyeye.xmemcached.MemcachedClient");
            System.out.println("xmemcached=present");
            return;
        }
        catch (ClassNotFoundException expected) {
            System.out.println("xmemcached=absent");
        }
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(servers).strategy(StrategySpec.single())
                .start()) {
            for (StrategySpec strategy : List.of(StrategySpec.single(), StrategySpec.multi(2, SelectorType.ROUND_ROBIN),
                    StrategySpec.pooled(PoolSettings.ofSize(2)))) {
                if (!strategy.equals(template.activeStrategy())) {
                    template.switchStrategy(strategy);
                }
                String key = "no-xmemcached:" + strategy.type();
                template.set(key, bytes("1"), Duration.ofMinutes(1));
                check(new String(template.get(key), StandardCharsets.US_ASCII).equals("1"), "get after set");
                Map<String, byte[]> both = template.getAll(List.of(key, key + ":absent"));
                check(both.keySet().equals(java.util.Set.of(key)), "getAll");
                check(!template.add(key, bytes("x"), Duration.ZERO), "add on a present key");
                check(template.replace(key, bytes("2"), Duration.ZERO), "replace on a present key");
                CasValue<byte[]> versioned = template.gets(key);
                check(template.cas(key, versioned.token(), bytes("3"), Duration.ZERO) == CasResult.STORED, "cas");
                check(template.incr(key + ":n", 7) == 7 && template.decr(key + ":n", 2) == 5, "incr and decr");
                check(template.touch(key, Duration.ofSeconds(30)), "touch");
                check(template.delete(key) && template.get(key) == null, "delete");
                System.out.println("served=" + strategy.type());
            }
        }
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(servers).driver(MemcachedDriver.XMEMCACHED)
                .build()) {
            System.out.println("xmemcached-driver=built");
        }
        catch (IllegalStateException refused) {
            System.out.println("refused=" + refused.getMessage());
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
