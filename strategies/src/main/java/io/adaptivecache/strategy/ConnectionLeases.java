package io.adaptivecache.strategy;

/**
 * Leases of a template's live connections, for code that runs its own commands on the native
 * connection the live strategy chooses (such as a Spring Data Redis connection factory) while the
 * template keeps switching strategies. Each lease is drained by a switch as a template call is:
 * release it when the command's reply has arrived, not later, or switches wait for it up to
 * their drain timeout and then close the connection under it.
 *
 * <p>What the templates built by this library's builders offer besides their management; the
 * backend-specific accessors (such as {@code RedisCacheTemplates.connectionLeases}) check that the
 * connections are of the type their caller needs.
 *
 * @param <C> the native connection type
 */
public interface ConnectionLeases<C> {

    /**
     * Leases the connection the live strategy chooses for one command: SINGLE its one, MULTI the
     * next by its selector, POOLED one borrowed (waiting up to the pool's max-wait).
     * @return the lease, to release exactly once
     * @throws io.adaptivecache.CacheException if the template is not started, closed, not
     *     connected, or no pooled connection became free in time
     */
    ConnectionLease<C> lease();

    /**
     * The factory the template's strategies open their connections with: where they go, and
     * what type they are.
     * @return the factory
     */
    ConnectionFactory<C> connectionFactory();
}
