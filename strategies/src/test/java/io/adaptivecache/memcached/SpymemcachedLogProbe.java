package io.adaptivecache.memcached;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.ProbeJvm;
import net.spy.memcached.compat.log.LoggerFactory;

/**
 * Run by {@link SpymemcachedLogIntegrationTests} in a JVM whose SLF4J (slf4j-simple, on System.err)
 * writes DEBUG and above: starts a spymemcached template on MULTI(2), serves a call, switches it to
 * SINGLE and closes it, so that every client it opened starts and stops; then logs one WARN line
 * through spymemcached's own logger factory, as spymemcached does when a connection is lost.
 */
public final class SpymemcachedLogProbe {

    /** The WARN line the probe logs through spymemcached's logger factory. */
    static final String WARNING = "probe: a warning through spymemcached's logger";

    private SpymemcachedLogProbe() {
    }

    /**
     * @param args the memcached server's {@code host:port}
     */
    public static void main(String[] args) {
        ProbeJvm.exit(() -> {
            try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(args[0])
                    .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).start()) {
                template.get("probe:log");
                template.switchStrategy(StrategySpec.single());
                template.get("probe:log");
            }
            LoggerFactory.getLogger("net.spy.memcached.MemcachedConnection").warn(WARNING);
            System.out.println("logger=" + LoggerFactory.getLogger("net.spy.memcached.MemcachedConnection").getClass().getName());
        });
    }
}
