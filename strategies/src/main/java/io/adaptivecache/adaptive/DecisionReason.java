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
    /** POOLED: callers wait for a connection about as long as they use it, or pile up waiting. */
    POOL_CONTENTION,
    /** POOLED: every pooled connection is busy; the pool size caps the rate the round trip allows. */
    POOL_SATURATED,
    /** SINGLE/MULTI: each shared connection carries many calls at once; its I/O thread is the bottleneck. */
    CONNECTION_SATURATED,
    /** MULTI: connections sit mostly idle. */
    CONNECTIONS_IDLE,
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
     * {@link #CONNECTION_SATURATED}) lost its trial at a load like this one: not tried again until the load changes or
     * the longest dwell has passed.
     */
    REJECTED_AT_THIS_LOAD,

    /** Pinned by configuration or by an operator. */
    PINNED,
    /** Switched by an operator. */
    OPERATOR
}
