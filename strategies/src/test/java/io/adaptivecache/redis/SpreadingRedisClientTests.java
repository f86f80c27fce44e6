package io.adaptivecache.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link SpreadingRedisClient} chooses the event loop of each of a strategy's connections, on
 * real Netty loops (no server: the choice is made before a connection connects).
 */
class SpreadingRedisClientTests {

    private final List<MultiThreadIoEventLoopGroup> groups = new ArrayList<>();

    @AfterEach
    void shutDown() {
        groups.forEach(group -> group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly());
    }

    private MultiThreadIoEventLoopGroup loops(int threads) {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        groups.add(group);
        return group;
    }

    private static EventLoop open(SpreadingRedisClient.Spread spread, MultiThreadIoEventLoopGroup group) {
        EventLoop loop = spread.choose(group);
        spread.opened();
        return loop;
    }

    @Test
    void twoStrategiesOpeningAtOnceShouldEachGetEveryLoop() {
        MultiThreadIoEventLoopGroup group = loops(2);
        SpreadingRedisClient.Spread first = new SpreadingRedisClient.Spread();
        SpreadingRedisClient.Spread second = new SpreadingRedisClient.Spread();
        List<EventLoop> firsts = new ArrayList<>();
        List<EventLoop> seconds = new ArrayList<>();
        // Interleaved, as two templates sharing client resources might open theirs: turn by turn alone would hand
        // each strategy the same loop twice.
        for (int i = 0; i < 2; i++) {
            firsts.add(open(first, group));
            seconds.add(open(second, group));
        }
        assertThat(firsts).doesNotHaveDuplicates();
        assertThat(seconds).doesNotHaveDuplicates();
    }

    @Test
    void moreConnectionsThanLoopsShouldShareTheLoopsEvenly() {
        MultiThreadIoEventLoopGroup group = loops(2);
        SpreadingRedisClient.Spread spread = new SpreadingRedisClient.Spread();
        List<EventLoop> chosen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            chosen.add(open(spread, group));
        }
        long onFirst = chosen.stream().filter(loop -> loop == chosen.get(0)).count();
        assertThat(onFirst).isBetween(2L, 3L);
    }
}
