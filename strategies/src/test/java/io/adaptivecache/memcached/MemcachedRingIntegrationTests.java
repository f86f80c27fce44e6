package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The memcached contract on three servers weighted 3,1,1 (the source article's ring). */
class MemcachedRingIntegrationTests extends MemcachedTemplateContract {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension(3, 1024 * 1024);

    @Override
    protected MemcachedServerExtension memcached() {
        return memcached;
    }

    @Override
    protected String servers() {
        return memcached.addresses(3, 1, 1);
    }

    @Override
    protected MemcachedProtocol protocol() {
        return MemcachedProtocol.BINARY;
    }

    @Test
    void keysShouldSpreadOverTheServersRoughlyByWeight() {
        List<Long> before = itemsPerServer();
        start(StrategySpec.single());
        int keys = 6000;
        for (int i = 0; i < keys; i++) {
            template.set(key("spread:" + i), new byte[] {1}, Duration.ofMinutes(5));
        }
        List<Long> after = itemsPerServer();
        List<Double> shares = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            shares.add((after.get(i) - before.get(i)) / (double) keys);
        }

        assertThat(shares.stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(shares.get(0)).as("weight 3 of 5").isBetween(0.45, 0.75);
        assertThat(shares.get(1)).as("weight 1 of 5").isBetween(0.08, 0.32);
        assertThat(shares.get(2)).as("weight 1 of 5").isBetween(0.08, 0.32);
    }

    @Test
    void everyServerShouldServeEveryKeyItOwnsAcrossStrategies() {
        start(StrategySpec.multi(3, io.adaptivecache.strategy.SelectorType.ROUND_ROBIN));
        for (int i = 0; i < 300; i++) {
            template.set(key("owned:" + i), new byte[] {(byte) i}, Duration.ZERO);
        }
        template.switchStrategy(StrategySpec.pooled(io.adaptivecache.strategy.PoolSettings.ofSize(2)));

        for (int i = 0; i < 300; i++) {
            assertThat(template.get(key("owned:" + i))).as("key %d", i).containsExactly((byte) i);
        }
    }

    private List<Long> itemsPerServer() {
        return memcached.servers().stream().map(server -> Long.parseLong(server.stat("curr_items"))).map(Long::valueOf)
                .toList();
    }
}
