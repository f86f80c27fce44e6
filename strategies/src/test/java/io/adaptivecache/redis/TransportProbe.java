package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

/**
 * Run in a JVM of its own by {@link RedisTransportIntegrationTests}: starts templates on the
 * transports named, writes and reads a key, and prints the transport Lettuce used.
 * Exit 0 when served, 3 when a transport was refused.
 */
public final class TransportProbe {

    private TransportProbe() {
    }

    /**
     * @param args the Redis URI, then one or more transports to ask for in turn
     */
    public static void main(String[] args) {
        for (int i = 1; i < args.length; i++) {
            try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(args[0]).transport(RedisTransport.of(args[i]))
                    .strategy(StrategySpec.single()).start()) {
                template.set("transport:" + args[i], new byte[] {7}, Duration.ofMinutes(1));
                byte[] read = template.get("transport:" + args[i]);
                System.out.println("in-use=" + RedisTransport.inUse().label() + " read=" + read[0]);
            }
            catch (IllegalStateException refused) {
                System.out.println("refused=" + refused.getMessage());
                System.exit(3);
            }
        }
        System.exit(0);
    }
}
