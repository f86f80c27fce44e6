package io.adaptivecache.redis;

import java.util.Collection;

import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

/**
 * Encodes commands as Lettuce's {@link CommandEncoder} does, but never logs the bytes it sent.
 * With its logger at TRACE, Lettuce's encoder logs every command's bytes, and the handshake's
 * {@code HELLO 3 AUTH user password} (or {@code AUTH}) with them: the password in the log. This
 * encoder takes its place on a channel only while that logger is at TRACE (checked as each
 * channel starts, as Lettuce's own encoder does), so the usual path stays Lettuce's own. It keeps
 * Lettuce's DEBUG line (the command's type, never its arguments) and logs at TRACE only how many
 * bytes were sent.
 *
 * <p>Public only so that the Redis invalidation source ({@code io.adaptivecache.redis.tracking}),
 * whose Lettuce client sends the same handshake, can install it too; not an API for applications.
 */
public final class CredentialSafeCommandEncoder extends MessageToByteEncoder<Object> {

    /** The logger Lettuce's encoder uses, so that the lines stay where a user looks for them. */
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(CommandEncoder.class);

    private CredentialSafeCommandEncoder() {
        super(true);
    }

    /**
     * A customizer that puts this encoder in place of Lettuce's on every channel (reconnects
     * included) whose encoder would log the bytes it sends.
     * @return the customizer
     */
    public static NettyCustomizer customizer() {
        return new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                if (logger.isTraceEnabled()) {
                    ChannelHandler lettuces = channel.pipeline().get(CommandEncoder.class);
                    if (lettuces != null) {
                        channel.pipeline().replace(lettuces, "credentialSafeCommandEncoder", new CredentialSafeCommandEncoder());
                    }
                }
            }
        };
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Object msg, boolean preferDirect) {
        // As Lettuce sizes it: a batch of commands gets room for a few bytes each up front.
        int initial = msg instanceof Collection<?> batch ? batch.size() * 16 : 256;
        return preferDirect ? ctx.alloc().ioBuffer(initial) : ctx.alloc().heapBuffer(initial);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, ByteBuf out) {
        out.touch("CredentialSafeCommandEncoder.encode(…)");
        int start = out.writerIndex();
        if (msg instanceof RedisCommand<?, ?, ?> command) {
            encode(ctx, out, command);
        }
        if (msg instanceof Collection<?> batch) {
            for (Object command : batch) {
                encode(ctx, out, (RedisCommand<?, ?, ?>) command);
            }
        }
        if (logger.isTraceEnabled()) {
            logger.trace("{} Sent: {} bytes (not shown: a command may hold a password)", ctx.channel(), out.writerIndex() - start);
        }
    }

    private static void encode(ChannelHandlerContext ctx, ByteBuf out, RedisCommand<?, ?, ?> command) {
        out.markWriterIndex();
        try {
            command.encode(out);
        }
        catch (RuntimeException ex) {
            // Lettuce's answer to a command it cannot encode: the stream may be out of step, so close.
            ctx.close();
            throw new EncoderException("Cannot encode command. Closing the connection as the connection state may be out of sync.",
                    ex);
        }
        if (logger.isDebugEnabled()) {
            logger.debug("{} writing command {}", ctx.channel(), command);
        }
    }
}
