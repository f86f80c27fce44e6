package io.adaptivecache.redis;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.lettuce.core.ConnectionBuilder;
import io.lettuce.core.ConnectionEvents;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A {@link RedisClient} that opens the connections of a SINGLE or MULTI strategy each on an I/O
 * thread of its own, as long as there are threads enough.
 *
 * <p>Lettuce registers each new channel on the next of its I/O threads (Netty event loops) in
 * turn, whoever opens it. A MULTI whose connections are opened while other connections are opened
 * too (a pool creating connections for its callers during the switch to MULTI, a reconnect) can
 * get two of them on one thread, which then does the I/O of both while another idles: a MULTI(2)
 * that works as a SINGLE. Switching from a pool that kept opening connections did so in 6 of 20
 * switches to MULTI(2) on 2 threads, and in 18 of 20 to MULTI(4) on 4; a MULTI opened on its own
 * never did.
 *
 * <p>{@link #openApart} opens a strategy's connections with each one's bootstrap bound to one event
 * loop, chosen when Lettuce builds the connection on the opening thread: the loop with the fewest
 * of the strategy's connections, taken in turn among equals. A reconnect connects from
 * the same bootstrap, so the connection comes back on the same thread. Other connections (a pool's,
 * a dedicated one) keep Lettuce's turn. Nothing changes on a call: the choice is made once per
 * connection, when it is opened.
 *
 * <p>It rests on Lettuce 7 calling {@link #connectionBuilder} on the thread that connects, before
 * the bootstrap connects; should a Lettuce version stop doing so, connections would fall back to
 * Lettuce's turn, which {@code RedisEventLoopPlacementIntegrationTests} would show.
 */
final class SpreadingRedisClient extends RedisClient {

    // The strategy whose connections this thread is opening; set only inside openApart.
    private final ThreadLocal<Spread> opening = new ThreadLocal<>();

    /**
     * @param resources the client resources, whose I/O threads the connections are spread over
     */
    SpreadingRedisClient(ClientResources resources) {
        super(resources, new RedisURI());
    }

    /**
     * Opens a strategy's connections, each on an event loop of its own while loops remain, and
     * then as evenly as the loops allow. If one cannot be opened, those already opened are closed.
     * @param count how many
     * @param open opens one connection of this client on the calling thread
     * @param close closes one
     * @param <C> the connection type
     * @return the connections, in the order opened
     */
    <C> List<C> openApart(int count, Supplier<C> open, Consumer<C> close) {
        Spread spread = new Spread();
        List<C> opened = new ArrayList<>(count);
        opening.set(spread);
        try {
            for (int i = 0; i < count; i++) {
                opened.add(open.get());
                spread.opened();
            }
        }
        catch (RuntimeException ex) {
            opened.forEach(close);
            throw ex;
        }
        finally {
            opening.remove();
        }
        return opened;
    }

    @Override
    protected void connectionBuilder(Mono<SocketAddress> socketAddressSupplier, ConnectionBuilder connectionBuilder,
            ConnectionEvents connectionEvents, RedisURI redisURI) {
        super.connectionBuilder(socketAddressSupplier, connectionBuilder, connectionEvents, redisURI);
        Spread spread = opening.get();
        if (spread == null) {
            return;
        }
        Bootstrap bootstrap = connectionBuilder.bootstrap();
        EventLoop loop = spread.choose(bootstrap.config().group());
        if (loop != null) {
            // Netty sets a bootstrap's group once; a clone takes another and keeps every other setting. Its group
            // being one loop, the channel and each channel a reconnect opens from it register there.
            connectionBuilder.bootstrap(bootstrap.clone(loop));
        }
    }

    /** The loops one strategy's connections took, and the one chosen for the connection being opened. */
    static final class Spread {

        // Where the next choice starts among equals, shared by every client: strategies of templates that share client
        // resources start on different loops instead of all on the first. (Netty 4.2's loops do not tell how many channels
        // they hold, which would be the better measure.)
        private static final AtomicInteger NEXT = new AtomicInteger();

        private final List<EventLoop> taken = new ArrayList<>();
        private @Nullable EventLoop chosen;

        /**
         * The loop for the next connection: the fewest of this strategy's connections, and among those
         * the first from a position that turns with every choice.
         */
        @Nullable EventLoop choose(EventLoopGroup group) {
            List<EventLoop> loops = new ArrayList<>();
            for (EventExecutor executor : group) {
                if (executor instanceof EventLoop loop) {
                    loops.add(loop);
                }
            }
            if (loops.isEmpty()) {
                return null;
            }
            int start = Math.floorMod(NEXT.getAndIncrement(), loops.size());
            EventLoop best = null;
            int fewest = Integer.MAX_VALUE;
            for (int i = 0; i < loops.size(); i++) {
                EventLoop loop = loops.get((start + i) % loops.size());
                int own = 0;
                for (EventLoop mine : taken) {
                    own += mine == loop ? 1 : 0;
                }
                if (own < fewest) {
                    best = loop;
                    fewest = own;
                }
            }
            chosen = best;
            return best;
        }

        /** The connection just chosen for is open: its loop is taken (a failed attempt's is not). */
        void opened() {
            if (chosen != null) {
                taken.add(chosen);
                chosen = null;
            }
        }
    }
}
