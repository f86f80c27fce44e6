package io.adaptivecache.call;

import java.util.Locale;

/** The cache commands, as a low-cardinality metrics tag. */
public enum CacheCommand {

    /** get. */
    GET(Effect.READ),
    /** getAll. */
    GET_ALL(Effect.READ),
    /** set. */
    SET(Effect.WRITE),
    /** add. */
    ADD(Effect.WRITE),
    /** replace. */
    REPLACE(Effect.WRITE),
    /** delete. */
    DELETE(Effect.WRITE),
    /** exists. */
    EXISTS(Effect.READ),
    /** gets. */
    GETS(Effect.READ),
    /** cas. */
    CAS(Effect.STRICT),
    /** incr. */
    INCR(Effect.STRICT),
    /** decr. */
    DECR(Effect.STRICT),
    /** touch. */
    TOUCH(Effect.WRITE),
    /**
     * A command outside this API that still ran on the template's connections: one a Spring Data
     * Redis connection sent through them (a hash, list or key command, for instance). Never
     * degraded: the template does not know what its answer means.
     */
    OTHER(Effect.STRICT);

    /** What a failure of the command may be answered with in DEGRADE mode. */
    private enum Effect {
        /** A miss. */
        READ,
        /** A write that was skipped. */
        WRITE,
        /** Nothing: its answer (a counter, a CAS outcome) cannot be made up, so its failure always reaches the caller. */
        STRICT
    }

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');
    private final Effect effect;

    CacheCommand(Effect effect) {
        this.effect = effect;
    }

    /**
     * Whether a template in {@link io.adaptivecache.CacheFailureMode#DEGRADE} mode answers a
     * failure of this command as a miss or a skipped write: reads and plain writes do; cas, incr
     * and decr never do.
     * @return whether degradable
     */
    public boolean degradable() {
        return this.effect != Effect.STRICT;
    }

    /**
     * Whether the command reads (a degraded failure counts as a degraded read, else as a skipped write).
     * @return whether a read
     */
    public boolean isRead() {
        return this.effect == Effect.READ;
    }

    /**
     * The tag value, such as {@code get-all}.
     * @return the tag
     */
    public String tag() {
        return this.tag;
    }
}
