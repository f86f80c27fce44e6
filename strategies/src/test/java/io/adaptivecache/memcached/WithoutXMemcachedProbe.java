package io.adaptivecache.memcached;

import io.adaptivecache.contract.EveryStrategyProbe;
import io.adaptivecache.management.ManagedCacheTemplate;
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
        EveryStrategyProbe.mainWithout(args, "xmemcached", "net.rubyeye.xmemcached.MemcachedClient", WithoutXMemcachedProbe::probe);
    }

    private static void probe(String servers) throws Exception {
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(servers).strategy(StrategySpec.single())
                .start()) {
            EveryStrategyProbe.serveEveryCommand(template, "no-xmemcached:", served -> { });
        }
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(servers).driver(MemcachedDriver.XMEMCACHED)
                .build()) {
            System.out.println("xmemcached-driver=built");
        }
        catch (IllegalStateException refused) {
            System.out.println("refused=" + refused.getMessage());
        }
    }
}
