package io.adaptivecache.strategy;

import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;

/**
 * The null object that stands in for a template's strategy while its server has not been reached
 * yet ({@code on-failure: degrade} at startup): it holds no connection and refuses every lease at
 * once with a {@link CacheConnectionException} saying why, so calls fail (and degrade) without
 * waiting for a timeout, and the hot path stays the one of a connected template. It is replaced
 * by the strategy it was made for once that can be opened
 * ({@link SwappableConnectionStrategy#connect()}).
 *
 * @param <C> the native connection type
 */
final class NotConnectedStrategy<C> implements ConnectionStrategy<C> {

    private final StrategySpec spec;
    private final String server;
    private final StrategyStats stats;
    private volatile String message;
    private volatile CacheException reason;

    NotConnectedStrategy(StrategySpec spec, String server, CacheException reason) {
        this.spec = spec;
        this.server = server;
        this.stats = new StrategyStats(spec, 0, 0, 0, 0, 0);
        failed(reason);
    }

    /** Records the latest attempt's failure, which every refused call then names. */
    void failed(CacheException reason) {
        this.reason = reason;
        this.message = "Not connected to " + server + " yet: " + reason.getMessage();
    }

    @Override
    public StrategySpec spec() {
        return spec;
    }

    @Override
    public ConnectionLease<C> tryAcquire() {
        throw new NotConnectedException(message, reason);
    }

    @Override
    public CompletableFuture<Void> retire() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public int inFlight() {
        return 0;
    }

    @Override
    public StrategyStats stats() {
        return stats;
    }

    @Override
    public void close() {
        // Nothing was opened.
    }

    /**
     * A call refused because the template has not connected yet. Without a stack trace: every
     * call made during an outage gets one, so it must cost an allocation and nothing more; its
     * cause carries the stack of the failed connection attempt.
     */
    static final class NotConnectedException extends CacheConnectionException {

        private static final long serialVersionUID = 1L;

        NotConnectedException(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
