package io.adaptivecache.call;

import java.util.Locale;

/** The cache commands, as a low-cardinality metrics tag. */
public enum CacheCommand {

    /** get. */
    GET,
    /** getAll. */
    GET_ALL,
    /** set. */
    SET,
    /** add. */
    ADD,
    /** replace. */
    REPLACE,
    /** delete. */
    DELETE,
    /** gets. */
    GETS,
    /** cas. */
    CAS,
    /** incr. */
    INCR,
    /** decr. */
    DECR,
    /** touch. */
    TOUCH;

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * The tag value, such as {@code get-all}.
     * @return the tag
     */
    public String tag() {
        return this.tag;
    }
}
