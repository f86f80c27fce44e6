package io.adaptivecache.strategy;

/** How a template shares its native connections among callers. */
public enum StrategyType {

    /** One thread-safe connection shared by every caller; commands are pipelined on it. */
    SINGLE,

    /**
     * N thread-safe connections shared by every caller, one picked per call by a
     * {@link ConnectionSelector}; N defaults to the number of available processors.
     */
    MULTI,

    /** A pool of connections, each used by one caller at a time (the commons-pool2 model). */
    POOLED
}
