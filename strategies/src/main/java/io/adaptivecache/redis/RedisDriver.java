package io.adaptivecache.redis;

/**
 * The driver of a Redis template's POOLED connections. SINGLE and MULTI always run on Lettuce,
 * whose connections are thread-safe.
 */
public enum RedisDriver {

    /** Lettuce: each command is handed to an event-loop thread and the caller waits for its reply. */
    LETTUCE,

    /**
     * Jedis: a blocking connection that does the socket I/O on the caller's thread, one caller at
     * a time. On this project's measurements JedisPool reached about 2x any Lettuce setup at one
     * caller thread (no hand-off to an event loop), while Lettuce pulls ahead from about 50
     * threads up. The calls' async forms complete before they return.
     */
    JEDIS
}
