package io.adaptivecache.spring.data.redis;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.Subscription;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;
import org.springframework.data.redis.connection.lettuce.LettuceSubscription;

/**
 * A {@link LettuceConnection} whose {@code subscribe} and {@code pSubscribe} block until the
 * subscription ends, as {@code RedisPubSubCommands} documents them. Lettuce's own return at once;
 * Spring Data's listener container relies on that only for {@code LettuceConnectionFactory}
 * itself, and with any other factory runs each subscription on a thread of its own and closes the
 * connection as soon as {@code subscribe} returns, which would end the subscription at once.
 *
 * <p>Further channels and patterns on a running subscription are sent without waiting for their
 * confirmation, as Jedis sends them, for which that container is written: it adds the channels
 * of a container listening to both channels and patterns from its pattern confirmation's
 * callback, which Lettuce runs on the connection's event loop, where waiting for a reply would
 * block the very thread that reads it.
 */
final class SubscribingConnection extends LettuceConnection {

    private final long timeoutMillis;
    private volatile @Nullable BlockingSubscription current;

    SubscribingConnection(StatefulRedisConnection<byte[], byte[]> shared, LettuceConnectionProvider provider, long timeoutMillis,
            int database) {
        super(shared, provider, timeoutMillis, database);
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    protected LettuceSubscription doCreateSubscription(MessageListener listener, StatefulRedisPubSubConnection<byte[], byte[]> connection,
            LettuceConnectionProvider connectionProvider) {
        BlockingSubscription subscription = new BlockingSubscription(listener, connection, connectionProvider);
        this.current = subscription;
        return subscription;
    }

    @Override
    public void subscribe(MessageListener listener, byte[]... channels) {
        super.subscribe(listener, channels);
        awaitEnd();
    }

    @Override
    public void pSubscribe(MessageListener listener, byte[]... patterns) {
        super.pSubscribe(listener, patterns);
        awaitEnd();
    }

    /**
     * Until the subscription is closed: by unsubscribing from everything, or by closing this
     * connection, from another thread. Its first command's confirmation is waited for first, on
     * this (the subscribing) thread: a refused subscription (an ACL without pub/sub) fails here.
     */
    private void awaitEnd() {
        BlockingSubscription subscription = this.current;
        if (subscription == null) {
            return;
        }
        try {
            subscription.awaitFirstCommand(this.timeoutMillis);
        }
        catch (RuntimeException ex) {
            subscription.close();
            throw convertLettuceAccessException(ex);
        }
        try {
            subscription.ended.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            Subscription open = getSubscription();
            if (open != null) {
                open.close();
            }
        }
    }

    /** A Lettuce subscription whose commands do not wait for their replies, and which tells when it is closed. */
    private static final class BlockingSubscription extends LettuceSubscription {

        /** No names: what an unsubscribe from everything sends. */
        private static final byte[][] EVERY = new byte[0][];

        final CountDownLatch ended = new CountDownLatch(1);
        private volatile @Nullable RedisFuture<Void> firstCommand;

        BlockingSubscription(MessageListener listener, StatefulRedisPubSubConnection<byte[], byte[]> connection,
                LettuceConnectionProvider connectionProvider) {
            super(listener, connection, connectionProvider);
        }

        @Override
        protected void doSubscribe(byte[]... channels) {
            sent(getNativeConnection().async().subscribe(channels));
        }

        @Override
        protected void doPsubscribe(byte[]... patterns) {
            sent(getNativeConnection().async().psubscribe(patterns));
        }

        // UNSUBSCRIBE and PUNSUBSCRIBE without names end every channel's or pattern's subscription.

        @Override
        protected void doUnsubscribe(boolean all, byte[]... channels) {
            getNativeConnection().async().unsubscribe(all ? EVERY : channels);
        }

        @Override
        protected void doPUnsubscribe(boolean all, byte[]... patterns) {
            getNativeConnection().async().punsubscribe(all ? EVERY : patterns);
        }

        private void sent(RedisFuture<Void> command) {
            if (this.firstCommand == null) {
                this.firstCommand = command;
            }
        }

        void awaitFirstCommand(long timeoutMillis) {
            RedisFuture<Void> command = this.firstCommand;
            if (command != null) {
                LettuceFutures.awaitOrCancel(command, timeoutMillis, TimeUnit.MILLISECONDS);
            }
        }

        @Override
        protected void doClose() {
            try {
                super.doClose();
            }
            finally {
                this.ended.countDown();
            }
        }
    }
}
