package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.HashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.auth.AuthDescriptor;
import net.spy.memcached.metrics.MetricCollector;
import net.spy.memcached.metrics.MetricType;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.transcoders.Transcoder;

/**
 * A spymemcached {@link ConnectionFactory} built by {@code ConnectionFactoryBuilder} (so user
 * customizers apply), with the one thing the builder cannot do: a ketama ring with per-server
 * weights ({@code KETAMA_HASH}, 160 points per server scaled by weight, the libketama formula).
 */
final class WeightedKetamaConnectionFactory implements ConnectionFactory {

    static {
        // KetamaNodeLocator asserts points == 160 x servers, which the libketama rounding breaks for
        // unequal weights: with -ea (every test run) the constructor would throw AssertionError.
        // Must run before the class is initialized; harmless when assertions are off.
        ClassLoader loader = KetamaNodeLocator.class.getClassLoader();
        if (loader != null) {
            loader.setClassAssertionStatus(KetamaNodeLocator.class.getName(), false);
        }
    }

    private final ConnectionFactory delegate;
    private final Map<InetSocketAddress, Integer> weights;

    WeightedKetamaConnectionFactory(ConnectionFactory delegate, Map<InetSocketAddress, Integer> weights) {
        this.delegate = delegate;
        this.weights = Map.copyOf(weights);
    }

    @Override
    public NodeLocator createLocator(List<MemcachedNode> nodes) {
        boolean weighted = weights.values().stream().distinct().count() > 1;
        return weighted
                ? new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH, KetamaNodeKeyFormatter.Format.SPYMEMCACHED,
                        weights)
                : new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH);
    }

    /**
     * Passes {@code this}, not the delegate, so that the connection asks us for its locator; the
     * connection drains its bounded queues after a stall ({@link QueueNudgingMemcachedConnection}).
     */
    @Override
    public MemcachedConnection createConnection(List<InetSocketAddress> addresses) throws IOException {
        return new QueueNudgingMemcachedConnection(getReadBufSize(), this, addresses, getInitialObservers(), getFailureMode(),
                getOperationFactory());
    }

    @Override
    public HashAlgorithm getHashAlg() {
        return DefaultHashAlgorithm.KETAMA_HASH;
    }

    @Override
    public MemcachedNode createMemcachedNode(SocketAddress address, SocketChannel channel, int bufferSize) {
        return delegate.createMemcachedNode(address, channel, bufferSize);
    }

    @Override
    public BlockingQueue<Operation> createOperationQueue() {
        return delegate.createOperationQueue();
    }

    @Override
    public BlockingQueue<Operation> createReadOperationQueue() {
        return delegate.createReadOperationQueue();
    }

    @Override
    public BlockingQueue<Operation> createWriteOperationQueue() {
        return delegate.createWriteOperationQueue();
    }

    @Override
    public long getOpQueueMaxBlockTime() {
        return delegate.getOpQueueMaxBlockTime();
    }

    @Override
    public ExecutorService getListenerExecutorService() {
        return delegate.getListenerExecutorService();
    }

    @Override
    public boolean isDefaultExecutorService() {
        return delegate.isDefaultExecutorService();
    }

    @Override
    public OperationFactory getOperationFactory() {
        return delegate.getOperationFactory();
    }

    @Override
    public long getOperationTimeout() {
        return delegate.getOperationTimeout();
    }

    @Override
    public boolean isDaemon() {
        return delegate.isDaemon();
    }

    @Override
    public boolean useNagleAlgorithm() {
        return delegate.useNagleAlgorithm();
    }

    @Override
    public Collection<ConnectionObserver> getInitialObservers() {
        return delegate.getInitialObservers();
    }

    @Override
    public FailureMode getFailureMode() {
        return delegate.getFailureMode();
    }

    @Override
    public Transcoder<Object> getDefaultTranscoder() {
        return delegate.getDefaultTranscoder();
    }

    @Override
    public boolean shouldOptimize() {
        return delegate.shouldOptimize();
    }

    @Override
    public int getReadBufSize() {
        return delegate.getReadBufSize();
    }

    @Override
    public long getMaxReconnectDelay() {
        return delegate.getMaxReconnectDelay();
    }

    @Override
    public AuthDescriptor getAuthDescriptor() {
        return delegate.getAuthDescriptor();
    }

    @Override
    public int getTimeoutExceptionThreshold() {
        return delegate.getTimeoutExceptionThreshold();
    }

    @Override
    public MetricType enableMetrics() {
        return delegate.enableMetrics();
    }

    @Override
    public MetricCollector getMetricCollector() {
        return delegate.getMetricCollector();
    }

    @Override
    public long getAuthWaitTime() {
        return delegate.getAuthWaitTime();
    }
}
