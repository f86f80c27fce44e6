package io.adaptivecache.memcached;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.contract.StrategySwitchContract;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching under load and connection bounds on a three-server ring (each client holds one
 * socket per server, so the bound applies per server), and direct memory that stays bounded:
 * the source article's client ignored its bound of 5, opened 108 connections and died of
 * {@code OutOfMemoryError: Direct buffer memory}.
 */
class MemcachedStrategySwitchIntegrationTests extends StrategySwitchContract {

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension(3, 1024 * 1024);

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return MemcachedCacheTemplates.builder().driver(driver()).servers(memcached.addresses(3, 1, 1)).strategy(strategy)
                .operationTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
    }

    @Override
    protected List<Integer> serverConnections() {
        return memcached.servers().stream().map(MemcachedServer::connectedClients).toList();
    }

    @Override
    protected List<Long> connectionsAccepted() {
        return memcached.servers().stream().map(server -> Long.parseLong(server.stat("total_connections"))).toList();
    }

    @Test
    void directBufferMemoryShouldStayBoundedOverALongRun() throws Exception {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        List<Long> afterEachRound = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            StrategySpec strategy = round % 2 == 0 ? StrategySpec.pooled(new PoolSettings(5, 5, 0, Duration.ofSeconds(10)))
                    : StrategySpec.multi(4, SelectorType.ROUND_ROBIN);
            assertBoundHolds(strategy, strategy.connections(), 150);
            afterEachRound.add(direct.getMemoryUsed());
        }

        long first = afterEachRound.get(0);
        assertThat(afterEachRound).as("direct memory after each round, bytes")
                .allSatisfy(used -> assertThat(used).isLessThanOrEqualTo(first + 16L * 1024 * 1024))
                .allSatisfy(used -> assertThat(used).isLessThan(128L * 1024 * 1024));
    }
}
