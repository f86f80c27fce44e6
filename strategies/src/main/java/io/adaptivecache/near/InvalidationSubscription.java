package io.adaptivecache.near;

/**
 * One local tier's registration with an {@link InvalidationSource}. The tier asks
 * {@link #isServing()} on every read, so it must be cheap: a few volatile reads and a clock read.
 */
public interface InvalidationSubscription extends AutoCloseable {

    /**
     * Whether the local tier may answer reads and keep what it reads now. {@code true} only
     * while the server tracks the subscription's prefixes for the source and the source has
     * proven recently (within its {@linkplain InvalidationSource#stalenessBound() staleness
     * bound}) that every invalidation the server sent has been delivered.
     *
     * <p>Contract with {@link InvalidationListener#invalidateAll()}: whenever invalidations may
     * have been lost, the source calls it before this method can return {@code true} again, and
     * calls it once more when tracking has been re-established and before it returns {@code true}.
     * @return whether local reads may be served
     */
    boolean isServing();

    /** Stops delivering invalidations to this subscription's listener. Idempotent. */
    @Override
    void close();
}
