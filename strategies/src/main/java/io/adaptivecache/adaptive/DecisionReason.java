package io.adaptivecache.adaptive;

/** Why a policy decided what it did; travels with every decision and switch. */
public enum DecisionReason {

    /** Nothing calls for a change. */
    STEADY,
    /** Too few calls in the window to judge. */
    INSUFFICIENT_DATA,
    /** The window overlapped a switch, connection failures or a long pause; it counts neither way. */
    DISTURBED,
    /** Too soon after the last change. */
    DWELL,
    /** A condition for a change holds, but not yet for enough consecutive windows. */
    CONFIRMING,
    /** A new strategy is on trial against the one it replaced. */
    TRIAL,
    /** The strategy on trial did at least as well as the one it replaced, and stays. */
    TRIAL_ACCEPTED,
    /** The strategy on trial did worse than the one it replaced, which comes back. */
    ROLLBACK,
    /** Changes are suspended after repeated rollbacks (the load is flapping between regimes). */
    SUPPRESSED,
    /** The hourly switch budget is spent. */
    BUDGET_EXHAUSTED,
    /**
     * POOLED: callers wait for a connection about as long as they use it, or pile up waiting. A move
     * out of trouble: made after a few windows agree, however recent the last change (see
     * {@link #leavesTrouble()}).
     */
    POOL_CONTENTION,
    /**
     * POOLED: every pooled connection is busy; the pool size caps the rate the round trip allows, and
     * callers beyond it wait. A move out of trouble, as {@link #POOL_CONTENTION}.
     */
    POOL_SATURATED,
    /** SINGLE/MULTI: each shared connection carries many calls at once; its I/O thread is the bottleneck. */
    CONNECTION_SATURATED,
    /** MULTI: connections sit mostly idle. */
    CONNECTIONS_IDLE,
    /**
     * MULTI at the connection cap, every connection carrying many calls at once: fewer connections
     * may serve more (more calls in each write, each read and each wake-up of an I/O thread, and
     * fewer I/O threads competing with the callers for the cores, as on a host whose cores are
     * busy). Tried rather than assumed: kept only if its calls are no slower, and the connections
     * it gave up are then not proposed again while the load stays the same.
     */
    CONSOLIDATION,
    /**
     * SINGLE/MULTI: few calls in flight and a short round trip, and the backend has blocking
     * connections for POOLED: they serve these callers on their own threads, without handing each
     * command to an event loop and back.
     */
    BLOCKING_FITS,
    /**
     * SINGLE/MULTI: large values (mean bytes per call) on a short round trip (the window's shortest
     * call), and the backend has blocking connections for POOLED: a blocking pool moves them faster
     * at any number of callers, each caller's thread reading its own value off its own socket
     * rather than every value passing through a shared connection's one I/O thread.
     */
    LARGE_VALUES,

    /**
     * A move made for a gain ({@link #BLOCKING_FITS}, {@link #LARGE_VALUES}, {@link #CONNECTIONS_IDLE},
     * {@link #CONNECTION_SATURATED}, {@link #CONSOLIDATION}) lost its trial at a load like this one, or gave up
     * connections that then proved slower ({@link #CONSOLIDATION}): not tried again until the load changes or
     * the longest dwell has passed.
     */
    REJECTED_AT_THIS_LOAD,

    /** Pinned by configuration or by an operator. */
    PINNED,
    /** Switched by an operator. */
    OPERATOR;

    /**
     * Whether a switch for this reason leaves a strategy that makes callers wait: a contended or
     * saturated pool ({@link #POOL_CONTENTION}, {@link #POOL_SATURATED}). Such a switch is made
     * once a few consecutive windows agree, without waiting for the dwell, and is not on trial (its
     * trial could only send the callers back to the pool that made them wait). Every other switch
     * is made for a gain (a faster strategy for callers who are being served) and keeps the dwell
     * and the trial; {@link #CONNECTION_SATURATED} among them: calls queued on a shared connection
     * are pipelined rather than waiting for it, and more connections measured at most a fifth
     * faster on this project's machine.
     * @return {@code true} for a move out of trouble
     */
    boolean leavesTrouble() {
        return this == POOL_CONTENTION || this == POOL_SATURATED;
    }
}
