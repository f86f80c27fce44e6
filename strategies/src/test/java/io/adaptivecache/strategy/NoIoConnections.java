package io.adaptivecache.strategy;

/**
 * A connection factory for tests whose connections are plain objects with no I/O behind them:
 * always usable, nothing to close. A test gives what {@link #open()} returns, and overrides more
 * where it watches how connections are opened.
 * @param <C> the connection type
 */
public abstract class NoIoConnections<C> implements ConnectionFactory<C> {

    private final String description;

    /**
     * @param description what {@link #describe()} returns
     */
    protected NoIoConnections(String description) {
        this.description = description;
    }

    /** Always: nothing can break a connection without I/O. */
    @Override
    public boolean isUsable(C connection) {
        return true;
    }

    /** Nothing: there is nothing to release. */
    @Override
    public void close(C connection) {
    }

    @Override
    public String describe() {
        return this.description;
    }
}
