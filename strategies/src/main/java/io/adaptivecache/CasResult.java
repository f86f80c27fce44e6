package io.adaptivecache;

/** The outcome of a compare-and-set. */
public enum CasResult {

    /** The value was replaced: nobody changed it since the token was read. */
    STORED,

    /** The value was not replaced: it changed since the token was read. */
    EXISTS,

    /** The value was not replaced: the key does not exist (any more). */
    NOT_FOUND
}
