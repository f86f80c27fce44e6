package io.adaptivecache.redis;

import java.util.Collection;
import java.util.concurrent.atomic.LongAdder;

import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.flush.FlushConsolidationHandler;
import org.jspecify.annotations.Nullable;

/**
 * How a template's Lettuce connections write: whether the commands that callers send at about the
 * same moment go to the server in one socket write, and how many commands and socket writes there
 * were ({@link RedisWrites}).
 *
 * <p>Lettuce writes and flushes every command on its own: a caller's thread hands the connection's
 * event loop one write-and-flush task per command, so at 50 to 200 callers on one connection the
 * event loop makes a system call per command and the server a read per command. With coalescing
 * on, each channel gets Netty's {@link FlushConsolidationHandler} in the mode that defers a flush
 * made outside a read to a task at the end of the event loop's queue: the write-and-flush tasks
 * that callers queued while the loop was busy run first, and the one deferred flush sends them all.
 * A lone caller's command is flushed in the same turn of the loop, by a task queued behind the ones
 * already waiting: no timer, no wait for company (the cost is that one extra task per flush). A flush made during a read (a command sent from a reply's callback) goes out
 * when the read completes, and at most {@value #MOST_FLUSHES_HELD} flushes are ever held back.
 *
 * <p>Counting is always on (where this template created the client resources): a {@link LongAdder}
 * increment per command and per socket write on the event loop, never a lock.
 */
final class ChannelWrites {

    /** Held-back flushes after which one goes out at once: bounds what waits for a busy loop's deferred flush. */
    static final int MOST_FLUSHES_HELD = 256;

    private static final String COMMAND_COUNTER = "adaptiveCacheCommandCounter";
    private static final String FLUSH_CONSOLIDATION = "adaptiveCacheFlushConsolidation";
    private static final String SOCKET_WRITE_COUNTER = "adaptiveCacheSocketWriteCounter";

    private final LongAdder commands = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final CommandCounter commandCounter = new CommandCounter(this.commands);
    private volatile boolean coalesce = true;
    private volatile boolean installed;

    /**
     * Whether the channels opened from now on coalesce their flushes.
     * @param coalesce {@code true} to coalesce
     */
    void coalesce(boolean coalesce) {
        this.coalesce = coalesce;
    }

    /**
     * The customizer that installs the counters, and the coalescing when on, on every command
     * channel of the client resources it is given to (reconnects included); from then on
     * {@link #counts()} has figures to give.
     * @return the customizer
     */
    NettyCustomizer customizer() {
        this.installed = true;
        return new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                install(channel.pipeline());
            }
        };
    }

    /**
     * The commands and socket writes so far, when this template's channels are counted: not when the
     * application gave client resources of its own, whose channels the template does not change.
     * @return the counts, or {@code null} when not counted
     */
    @Nullable RedisWrites counts() {
        if (!this.installed) {
            return null;
        }
        // Writes first: a command is counted before the write that carries it, so no write is read without its commands.
        long socketWrites = this.writes.sum();
        return new RedisWrites(this.commands.sum(), socketWrites);
    }

    private void install(ChannelPipeline pipeline) {
        ChannelHandlerContext commandHandler = pipeline.context(CommandHandler.class);
        if (commandHandler == null) {
            // Not a command channel of Lettuce's; nothing of ours to count.
            return;
        }
        // Outbound events run from the pipeline's tail to its head. Lettuce's CommandHandler writes each command
        // toward the head (RedisHandshakeHandler, the encoder, and any TLS handler, first in line). The command
        // counter sits just on the head side of the CommandHandler, so it sees what is really written (cancelled
        // commands are not); the consolidation next to it, so that the encoder and TLS see one flush per batch
        // (TLS then seals a batch into as few records as it can); the socket write counter at the very head,
        // where a flush goes to the transport.
        pipeline.addBefore(commandHandler.name(), COMMAND_COUNTER, this.commandCounter);
        if (this.coalesce) {
            // consolidateWhenNoReadInProgress: a flush from a caller's write task is deferred to a task of its own
            // at the end of the loop's queue, rather than only while a read is in progress.
            pipeline.addBefore(COMMAND_COUNTER, FLUSH_CONSOLIDATION, new FlushConsolidationHandler(MOST_FLUSHES_HELD, true));
        }
        pipeline.addFirst(SOCKET_WRITE_COUNTER, new SocketWriteCounter(this.writes));
    }

    /** Counts the commands a channel's CommandHandler writes: one per command, a batch by its size. */
    @ChannelHandler.Sharable
    private static final class CommandCounter extends ChannelOutboundHandlerAdapter {

        private final LongAdder commands;

        CommandCounter(LongAdder commands) {
            this.commands = commands;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            this.commands.add(msg instanceof Collection<?> batch ? batch.size() : 1);
            ctx.write(msg, promise);
        }
    }

    /**
     * Counts the flushes that reach the transport with bytes written since the last one: each is a
     * socket write (a large one may take more than one system call, and one under back-pressure
     * waits for the socket to drain). One per channel: it remembers whether bytes are waiting.
     */
    private static final class SocketWriteCounter extends ChannelOutboundHandlerAdapter {

        private final LongAdder writes;
        // Only the channel's event loop runs a handler, so a plain field.
        private boolean bytesWaiting;

        SocketWriteCounter(LongAdder writes) {
            this.writes = writes;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (!(msg instanceof ByteBuf bytes) || bytes.isReadable()) {
                this.bytesWaiting = true;
            }
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (this.bytesWaiting) {
                this.bytesWaiting = false;
                this.writes.increment();
            }
            ctx.flush();
        }
    }
}
